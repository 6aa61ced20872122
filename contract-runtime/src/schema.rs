//! The canonical tool definition: what `toolbox schemas` prints and what every
//! dialect export starts from.

use serde_json::{json, Value};

use crate::contract::{ApprovalRule, Idempotency, Tool};

/// The JSON Schema dialect of every canonical schema.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The canonical definition of a tool: `name`, `description`, `input_schema`,
/// `output_schema`, `effect`, `idempotency`, `authority`, `approval`.
///
/// `idempotency` and `approval` are written as in the attribute:
/// `"natural"`, `"none"`, `"key(request_key)"`; `"always"`, `"never"`,
/// `"when(outside_task_scope)"`.
pub fn canonical(tool: &Tool) -> Value {
    let spec = tool.spec();
    let idempotency = match spec.idempotency {
        Idempotency::Natural => json!("natural"),
        Idempotency::None => json!("none"),
        Idempotency::Key(field) => json!(format!("key({field})")),
    };
    let approval = match spec.approval {
        ApprovalRule::Always => json!("always"),
        ApprovalRule::Never => json!("never"),
        ApprovalRule::When(rule) => json!(format!("when({rule})")),
    };
    json!({
        "name": spec.name,
        "description": spec.description,
        "input_schema": tool.input_schema(),
        "output_schema": tool.output_schema(),
        "effect": spec.effect.as_str(),
        "idempotency": idempotency,
        "authority": spec.authority,
        "approval": approval,
    })
}

/// Rule C9: `^[a-zA-Z0-9_-]{1,64}$` (OpenAI) with Gemini's first character
/// (a letter or `_`): the one name every provider accepts.
pub fn is_portable_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 64
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
}
