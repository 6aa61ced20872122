//! OpenAI function tools, strict mode (Responses and Chat Completions).

use serde_json::{json, Map, Value};

use super::rules::{self, Treatment};
use super::walk::{get, has, join, types_of, Hooks, Node, Res, Walker};
use super::{Dialect, Loss, LossAction, ToolDef};

/// `{"type":"function","name","description","parameters","strict":true}`
/// (Responses, with `output_schema` when `output_schema` is true) or the same
/// inside `"function"` (Chat Completions).
pub(super) fn export(
    tool: &ToolDef<'_>,
    dialect: Dialect,
    output_schema: bool,
    losses: &mut Vec<Loss>,
) -> Res<Value> {
    let root = tool.checked_root(losses)?;
    let mut w = Walker::new(tool, &root, &Strict);
    let parameters = w.schema(Value::Object(root), "", 1, true)?;
    losses.append(&mut w.losses);
    // Built key by key: `json!` copies a `Value` it is given (it serializes
    // it), and moving one finished map into another re-hashed its keys.
    let mut function = Map::with_capacity(5);
    if dialect != Dialect::OpenAiChat {
        function.insert("type".to_owned(), Value::String("function".to_owned()));
    }
    function.insert("name".to_owned(), Value::String(tool.name.to_owned()));
    function.insert(
        "description".to_owned(),
        Value::String(tool.description.to_string()),
    );
    function.insert("parameters".to_owned(), parameters);
    function.insert("strict".to_owned(), Value::Bool(true));
    if dialect != Dialect::OpenAiChat {
        if !output_schema {
            return Ok(Value::Object(function));
        }
        // What a `function_call_output` carries: the envelope as a JSON
        // string (render_results' default), the tool's output its `result`.
        // Chat Completions functions have no such field.
        let output = crate::envelope::EnvelopeSchema::new(tool.output).into_value();
        function.insert("output_schema".to_owned(), output);
        return Ok(Value::Object(function));
    }
    let mut t = Map::with_capacity(2);
    t.insert("type".to_owned(), Value::String("function".to_owned()));
    t.insert("function".to_owned(), Value::Object(function));
    Ok(Value::Object(t))
}

/// The strict function-tool rules beyond the keyword table.
struct Strict;

impl Hooks for Strict {
    fn finish_object(&self, w: &mut Walker<'_>, n: &mut Node<'_>) -> Res<()> {
        fix_object(w, &mut n.out, n.ptr)
    }
}

/// Strict objects list every property in `required`: an optional property
/// is listed too, and made nullable when its schema rejects null.
fn fix_object(w: &mut Walker<'_>, out: &mut Map<String, Value>, ptr: &str) -> Res<()> {
    if !matches!(get(out, "properties"), Some(Value::Object(_))) {
        return Ok(());
    }
    // `required` as the node had it (the keyword pass keeps it as it is),
    // taken: its slot gets the full list below, in the same place.
    let before = out.get_mut("required").map(std::mem::take);
    let required_before = before.as_ref();
    let Some(Value::Object(props)) = out.get_mut("properties") else {
        return Ok(());
    };
    let was_required = |name: &str| {
        required_before
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(name)))
    };
    let all_listed = required_before
        .and_then(Value::as_array)
        .is_some_and(|r| r.len() == props.len());
    if !all_listed {
        w.rewrite(&join(ptr, "required"), rules::REQUIRED_OPTIONAL)?;
    }
    let mut required = Vec::with_capacity(props.len());
    let mut loosened = Vec::new();
    for (name, schema) in props.iter_mut() {
        required.push(Value::String(name.clone()));
        if was_required(name) || nullable(schema) {
            continue;
        }
        if w.treat(&[rules::REQUIRED_NOT_NULLABLE]) != Treatment::Loosen {
            return Err(w.forbid(&join(ptr, "properties"), rules::REQUIRED_NOT_NULLABLE));
        }
        make_nullable(schema);
        loosened.push(name.clone());
    }
    out.insert("required".to_owned(), Value::Array(required));
    for name in loosened {
        let at = join(&join(ptr, "properties"), &name);
        w.loss(
            &at,
            "required",
            LossAction::Rewritten,
            format!(
                "optional property `{name}` is listed in required and made nullable; the contract rejects null for it"
            ),
        );
    }
    Ok(())
}

/// Whether a (walked) schema accepts null.
fn nullable(v: &Value) -> bool {
    let Some(m) = v.as_object() else {
        return false;
    };
    if let Some(ts) = types_of(m) {
        if !ts.contains(&"null") {
            return false;
        }
    }
    if let Some(e) = get(m, "enum").and_then(Value::as_array) {
        if !e.contains(&Value::Null) {
            return false;
        }
    }
    if let Some(c) = get(m, "const") {
        if !c.is_null() {
            return false;
        }
    }
    if let Some(any) = get(m, "anyOf").and_then(Value::as_array) {
        if !any.iter().any(nullable) {
            return false;
        }
    }
    !has(m, "$ref")
}

/// Adds null to a schema's accepted values.
fn make_nullable(v: &mut Value) {
    let Value::Object(m) = v else {
        return;
    };
    let simple = !m.contains_key("anyOf") && !m.contains_key("const") && !m.contains_key("$ref");
    match m.get_mut("type") {
        Some(Value::String(t)) if simple => {
            let t = std::mem::take(t);
            m.insert("type".to_owned(), json!([t, "null"]));
        }
        Some(Value::Array(ts)) if simple => ts.push(json!("null")),
        _ => {
            let has_type = m.contains_key("type");
            if let Some(Value::Array(any)) = m.get_mut("anyOf") {
                if !has_type {
                    any.push(json!({"type": "null"}));
                    return;
                }
            }
            let description = m.remove("description");
            let inner = Value::Object(std::mem::take(m));
            m.insert(
                "anyOf".to_owned(),
                Value::Array(vec![inner, json!({"type": "null"})]),
            );
            if let Some(d) = description {
                m.insert("description".to_owned(), d);
            }
            return;
        }
    }
    if let Some(Value::Array(e)) = m.get_mut("enum") {
        e.push(Value::Null);
    }
}
