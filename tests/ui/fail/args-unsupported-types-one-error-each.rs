use std::collections::HashMap;

use contract_runtime::prelude::*;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub ok: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Tag an event.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn tag_event(
    /// The event.
    event: &str,
) -> Result<Done, Oops> {
    let _ = event;
    Ok(Done { ok: true })
}

/// Label an event.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn label_event(
    /// Labels by number (JSON object keys are strings: not an argument type).
    labels: HashMap<u32, String>,
) -> Result<Done, Oops> {
    let _ = labels;
    Ok(Done { ok: true })
}

fn main() {}

/// The arguments of `rename`.
#[derive(ToolArgs)]
pub struct Rename {
    /// The new name.
    pub name: std::borrow::Cow<'static, str>,
}
