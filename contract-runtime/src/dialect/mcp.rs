//! MCP `tools/list` entries.

use serde_json::{json, Map, Value};

use super::rules::{self, Treatment};
use super::walk::Res;
use super::{Loss, LossAction, ToolDef};

/// `{"name","description","inputSchema","outputSchema"?,"annotations"}`.
pub(super) fn export(tool: &ToolDef<'_>, losses: &mut Vec<Loss>) -> Res<Value> {
    let root = tool.checked_root()?;
    let input = if tool.has_no_arguments() {
        json!({"type": "object", "additionalProperties": false})
    } else {
        Value::Object(root)
    };
    let mut t = Map::new();
    t.insert("name".to_owned(), json!(tool.name));
    t.insert("description".to_owned(), json!(tool.description));
    t.insert("inputSchema".to_owned(), input);
    if let Some(output) = tool.output {
        let root_type = output.get("type").and_then(Value::as_str);
        if root_type == Some("object") {
            t.insert("outputSchema".to_owned(), output.clone());
        } else {
            let rule = rules::lookup(tool.dialect, &[rules::OUTPUT_NOT_OBJECT]);
            if rule.treatment == Treatment::Forbid {
                return Err(tool.forbid("", rules::OUTPUT_NOT_OBJECT));
            }
            let shown =
                root_type.map_or_else(|| "not a single type".to_owned(), |t| format!("`{t}`"));
            losses.push(Loss {
                tool: tool.name.to_owned(),
                pointer: String::new(),
                keyword: "outputSchema".to_owned(),
                action: LossAction::Dropped,
                note: format!(
                    "dropped: the output schema's root type is {shown}; {}; results still carry structured content",
                    rule.why
                ),
            });
        }
    }
    t.insert("annotations".to_owned(), annotations(tool)?);
    Ok(Value::Object(t))
}

/// MCP hints from the effect and idempotency.
fn annotations(tool: &ToolDef<'_>) -> Res<Value> {
    let effect = tool.def.get("effect").and_then(Value::as_str).unwrap_or("");
    let idempotent = match tool.def.get("idempotency") {
        Some(Value::String(s)) if s == "natural" => true,
        Some(Value::String(s)) if s == "none" => false,
        Some(Value::Object(o)) if o.get("key").is_some_and(Value::is_string) => true,
        None if effect == "read_only" => true,
        other => {
            return Err(tool.error(
                "",
                format!(
                    "idempotency must be \"natural\", \"none\" or {{\"key\": \"field\"}}, not {}",
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
