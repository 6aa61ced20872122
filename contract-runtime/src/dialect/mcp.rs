//! MCP `tools/list` entries.

use serde_json::{json, Map, Value};

use super::exported::{ExportedTool, McpTool};
use super::walk::Res;
use super::{Loss, ToolDef};
use crate::envelope::EnvelopeSchema;

/// `{"name","title"?,"description","inputSchema","outputSchema","annotations"}`.
/// `given` is the definition's output schema when the definition was given
/// (then it was taken out of it): moved into the tool instead of copied.
pub(super) fn export(
    tool: &ToolDef<'_>,
    given: Option<Value>,
    losses: &mut Vec<Loss>,
) -> Res<ExportedTool> {
    let root = tool.checked_root(losses)?;
    let input = if tool.has_no_arguments() {
        json!({"type": "object", "additionalProperties": false})
    } else {
        Value::Object(root)
    };
    let mut t = Map::new();
    t.insert("name".to_owned(), json!(tool.name));
    if let Some(title) = tool.def.get("title").filter(|t| t.is_string()) {
        t.insert("title".to_owned(), title.clone());
    }
    t.insert("description".to_owned(), json!(tool.description));
    t.insert("inputSchema".to_owned(), input);
    // A result's `structuredContent` is the envelope, so the envelope is what
    // the output schema must describe; the tool's own output is its `result`.
    // Held in parts: the envelope's schema is shared by every tool.
    let output = match given {
        Some(output) => EnvelopeSchema::given(output),
        None => EnvelopeSchema::new(tool.output),
    };
    Ok(ExportedTool::mcp(McpTool::new(
        t,
        output,
        annotations(tool)?,
    )))
}

/// MCP hints from the effects and idempotency, and the title.
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
    // Every effect (`effects` when several were declared), each adding its
    // hints. An external effect is additive (posting, sending): MCP's
    // destructiveHint is for non-additive updates, so an effect that is both
    // sets both hints.
    let effects: Vec<&str> = match tool.def.get("effects").and_then(Value::as_array) {
        Some(list) => list.iter().filter_map(Value::as_str).collect(),
        None => vec![effect],
    };
    let (mut read_only, mut destructive, mut open_world) = (true, false, false);
    for e in effects {
        match e {
            "read_only" => {}
            "reversible" => read_only = false,
            "external" => (read_only, open_world) = (false, true),
            "destructive" => (read_only, destructive) = (false, true),
            // every effect given was checked as the definition was read
            // (`ToolDef::read`): only a missing one is left
            _ => {
                return Err(tool.error(
                    "",
                    "the definition has no `effect`, which MCP's hints are made from (read_only, reversible, external or destructive)".to_string(),
                ))
            }
        }
    }
    let mut hints = json!({
        "readOnlyHint": read_only,
        "destructiveHint": destructive,
        "idempotentHint": idempotent || read_only,
        "openWorldHint": open_world,
    });
    if let Some(title) = tool.def.get("title").filter(|t| t.is_string()) {
        hints["title"] = title.clone();
    }
    Ok(hints)
}
