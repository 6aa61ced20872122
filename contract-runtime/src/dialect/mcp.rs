//! MCP `tools/list` entries.

use serde_json::{json, Map, Value};

use super::walk::Res;
use super::{Loss, ToolDef};

/// `{"name","description","inputSchema","outputSchema"?,"annotations"}`.
pub(super) fn export(tool: &ToolDef<'_>, losses: &mut Vec<Loss>) -> Res<Value> {
    let root = tool.checked_root(losses)?;
    let input = if tool.has_no_arguments() {
        json!({"type": "object", "additionalProperties": false})
    } else {
        Value::Object(root)
    };
    let mut t = Map::new();
    t.insert("name".to_owned(), json!(tool.name));
    t.insert("description".to_owned(), json!(tool.description));
    t.insert("inputSchema".to_owned(), input);
    // A result's `structuredContent` is the envelope, so the envelope is what
    // the output schema must describe; the tool's own output is its `result`.
    t.insert(
        "outputSchema".to_owned(),
        crate::envelope::envelope_schema(tool.output),
    );
    t.insert("annotations".to_owned(), annotations(tool)?);
    Ok(Value::Object(t))
}

/// MCP hints from the effect and idempotency.
fn annotations(tool: &ToolDef<'_>) -> Res<Value> {
    let effect = tool.def.get("effect").and_then(Value::as_str).unwrap_or("");
    let idempotent = match tool.def.get("idempotency") {
        Some(Value::String(s)) if s == "natural" => true,
        Some(Value::String(s)) if s == "none" => false,
        Some(Value::String(s)) if s.starts_with("key(") && s.ends_with(')') => true,
        None if effect == "read_only" => true,
        other => {
            return Err(tool.error(
                "",
                format!(
                    "idempotency must be \"natural\", \"none\" or \"key(field)\", not {}",
                    other.map_or_else(|| "missing".to_owned(), Value::to_string)
                ),
            ))
        }
    };
    // (readOnly, destructive, openWorld). An external effect is additive
    // (posting, sending): MCP's destructiveHint is for non-additive updates.
    let (read_only, destructive, open_world) = match effect {
        "read_only" => (true, false, false),
        "reversible" => (false, false, false),
        "external" => (false, false, true),
        "destructive" => (false, true, false),
        other => {
            return Err(tool.error(
                "",
                format!(
                    "effect must be read_only, reversible, external or destructive, not `{other}`"
                ),
            ))
        }
    };
    Ok(json!({
        "readOnlyHint": read_only,
        "destructiveHint": destructive,
        "idempotentHint": idempotent || read_only,
        "openWorldHint": open_world,
    }))
}
