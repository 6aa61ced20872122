//! The output check, between the run and the envelope: a result must not
//! break the output schema the tool publishes. serde_json writes a NaN or
//! an infinite `f64` as `null`, silently, so a tool that divides by zero
//! would answer `ok` with a `null` where its schema promises a number (and
//! an MCP client that checks `structuredContent` against `outputSchema`
//! would then reject the whole result). The check is about `null` only:
//! every other shape is the derived `Serialize` of the same type the schema
//! was derived from, so they cannot disagree.

use serde_json::Value;

/// The pointer of the first `null` in `result` where `schema` (the tool's
/// output schema, with its `$defs`) allows none. Cheap when `result` holds
/// no `null`; conservative everywhere: a node it cannot place (a branch of
/// `anyOf`, a schema it does not read) is taken to allow `null`.
pub(crate) fn null_breaking(result: &Value, schema: &Value) -> Option<String> {
    if !holds_null(result) {
        return None;
    }
    let mut at = String::new();
    walk(result, schema, schema, &mut at).then_some(at)
}

fn holds_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.iter().any(holds_null),
        Value::Object(m) => m.values().any(holds_null),
        _ => false,
    }
}

/// `true` (with `at` pointing at it) when a `null` below here breaks `node`.
fn walk(v: &Value, node: &Value, root: &Value, at: &mut String) -> bool {
    let node = resolve(node, root);
    match v {
        Value::Null => !allows_null(node, root, 0),
        Value::Object(m) => {
            let Some(props) = node.get("properties").and_then(Value::as_object) else {
                return branches_of(node, "allOf").any(|b| walk(v, b, root, at));
            };
            for (k, x) in m {
                if let Some(s) = props.get(k) {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    if walk(x, s, root, at) {
                        return true;
                    }
                    at.truncate(len);
                }
            }
            false
        }
        Value::Array(a) => {
            let Some(items) = node.get("items").filter(|i| i.is_object()) else {
                return false;
            };
            for (i, x) in a.iter().enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                if walk(x, items, root, at) {
                    return true;
                }
                at.truncate(len);
            }
            false
        }
        _ => false,
    }
}

/// Whether `node` admits `null`. Unknown shapes do.
fn allows_null(node: &Value, root: &Value, depth: usize) -> bool {
    let node = resolve(node, root);
    if depth > 32 {
        return true;
    }
    let Some(obj) = node.as_object() else {
        return node != &Value::Bool(false);
    };
    if let Some(c) = obj.get("const") {
        return c.is_null();
    }
    if let Some(e) = obj.get("enum").and_then(Value::as_array) {
        return e.iter().any(Value::is_null);
    }
    if let Some(t) = obj.get("type") {
        let typed = match t {
            Value::String(s) => s == "null",
            Value::Array(a) => a.iter().any(|x| x == "null"),
            _ => true,
        };
        if !typed {
            return false;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if obj.contains_key(key) {
            return branches_of(node, key).any(|b| allows_null(b, root, depth + 1));
        }
    }
    branches_of(node, "allOf").all(|b| allows_null(b, root, depth + 1))
}

fn branches_of<'a>(node: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    node.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// `node`, or what its local `$ref` names (a few hops at most: a cycle of
/// references is left as it is, which allows anything).
fn resolve<'a>(node: &'a Value, root: &'a Value) -> &'a Value {
    let mut node = node;
    for _ in 0..8 {
        let Some(r) = node.get("$ref").and_then(Value::as_str) else {
            return node;
        };
        let Some(found) = r.strip_prefix('#').and_then(|p| root.pointer(p)) else {
            return &Value::Bool(true);
        };
        node = found;
    }
    &Value::Bool(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_null_where_the_schema_allows_none_is_found() {
        let schema = json!({
            "type": "object",
            "properties": {
                "mean": {"type": "number"},
                "note": {"type": ["string", "null"]},
                "rows": {"type": "array", "items": {"$ref": "#/$defs/Row"}},
                "maybe": {"anyOf": [{"$ref": "#/$defs/Row"}, {"type": "null"}]}
            },
            "$defs": {"Row": {"type": "object", "properties": {"x": {"type": "integer"}}}}
        });
        let ok = json!({"mean": 1.5, "note": null, "rows": [{"x": 1}], "maybe": null});
        assert_eq!(null_breaking(&ok, &schema), None);
        let nan = json!({"mean": null, "note": "n"});
        assert_eq!(null_breaking(&nan, &schema).as_deref(), Some("/mean"));
        let deep = json!({"mean": 1, "rows": [{"x": 1}, {"x": null}]});
        assert_eq!(null_breaking(&deep, &schema).as_deref(), Some("/rows/1/x"));
        // What the check cannot place, it lets pass.
        assert_eq!(null_breaking(&json!({"maybe": {"x": null}}), &schema), None);
        assert_eq!(null_breaking(&json!(null), &json!({})), None);
        assert_eq!(
            null_breaking(&json!(null), &json!({"$ref": "#/nowhere"})),
            None
        );
    }
}
