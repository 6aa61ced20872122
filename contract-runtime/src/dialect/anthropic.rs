//! Anthropic Messages tools, plain and strict.

use serde_json::{json, Map, Value};

use super::rules;
use super::walk::{get, has, join, phrases, Done, Hooks, Node, Res, Walker};
use super::{Dialect, Loss, LossAction, ToolDef};

/// `{"name","description","input_schema"}`, plus `"strict": true` for
/// [`Dialect::AnthropicStrict`].
pub(super) fn export(tool: &ToolDef<'_>, dialect: Dialect, losses: &mut Vec<Loss>) -> Res<Value> {
    let root = tool.checked_root(losses)?;
    // `json!` copies a `Value` it is given (it serializes it), so schemas
    // are put in place afterwards, where the `null` holds their slot.
    if dialect == Dialect::Anthropic {
        let mut out = json!({
            "name": tool.name,
            "description": tool.description,
            "input_schema": null,
        });
        out["input_schema"] = Value::Object(root);
        return Ok(out);
    }
    let mut w = Walker::new(tool, &root, &Strict);
    let input_schema = w.schema(Value::Object(root), "", 1, true)?;
    losses.append(&mut w.losses);
    let mut out = json!({
        "name": tool.name,
        "description": tool.description,
        "input_schema": null,
        "strict": true,
    });
    out["input_schema"] = input_schema;
    Ok(out)
}

/// The type a keyword needs for the SDK's `transform_schema` to keep it.
fn needs_type(k: &str) -> Option<&'static str> {
    match k {
        "properties" | "required" | "additionalProperties" => Some("object"),
        "items" | "minItems" => Some("array"),
        "format" => Some("string"),
        _ => None,
    }
}

fn is_primitive(v: &Value) -> bool {
    !(v.is_array() || v.is_object())
}

/// Strict tool use: nodes shaped the way the SDK's `transform_schema` leaves
/// them unchanged.
struct Strict;

impl Hooks for Strict {
    fn before_keywords(&self, w: &mut Walker<'_>, n: &mut Node<'_>) -> Res<Option<Done>> {
        shape(w, n)?;
        Ok(None)
    }

    fn finish_object(&self, _w: &mut Walker<'_>, n: &mut Node<'_>) -> Res<()> {
        fix_object(&mut n.out);
        Ok(())
    }
}

/// Shapes a node the way the SDK's `transform_schema` leaves it unchanged:
/// no type next to enum or const, no type list, no type next to anyOf or
/// allOf, and type-specific keywords only under their type.
fn shape(w: &mut Walker<'_>, n: &mut Node<'_>) -> Res<()> {
    let ptr = n.ptr;
    let m = &mut n.rest;
    if let Some(e) = get(m, "enum") {
        if !e
            .as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(is_primitive))
        {
            return Err(w.error(ptr, "enum must be a non-empty list of scalars".to_owned()));
        }
    }
    if get(m, "const").is_some_and(|c| !is_primitive(c)) {
        return Err(w.error(ptr, "const must be a scalar".to_owned()));
    }
    let literals = has(m, "enum") || has(m, "const");
    if literals && has(m, "type") {
        // The values carry the type; the SDK drops it.
        w.rewrite(ptr, rules::TYPE_WITH_LITERALS)?;
        m.remove("type");
    }
    // A type list: several types become branches, a list of one a name.
    if let Some(Value::Array(list)) = get(m, "type") {
        let types: Vec<String> = list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        if types.len() > 1 {
            w.rewrite(ptr, rules::TYPE_LIST)?;
            w.split_types(n, &types)?;
        } else if let [t] = types.as_slice() {
            m.insert("type".to_owned(), Value::String(t.clone()));
        }
    }
    let m = &mut n.rest;
    if has(m, "type") && (has(m, "anyOf") || has(m, "allOf")) {
        return Err(w.error(
            ptr,
            "a type next to anyOf or allOf would be dropped by strict tool use: state the type in each branch".to_owned(),
        ));
    }
    // Keywords the SDK keeps only under their own type are stated in words elsewhere.
    let own = get(m, "type").and_then(Value::as_str);
    let misplaced: Vec<(String, Value)> = m
        .iter()
        .filter(|(k, _)| needs_type(k).is_some_and(|t| own != Some(t)))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (k, _) in &misplaced {
        m.remove(k);
    }
    for (keys, phrase) in phrases(&misplaced) {
        for k in keys {
            w.loss(
                &join(ptr, &k),
                &k,
                LossAction::MovedToDescription,
                format!("moved to description: {phrase}"),
            );
        }
        n.notes.push(phrase);
    }
    Ok(())
}

/// Strict objects always carry `properties` and `additionalProperties: false`.
fn fix_object(out: &mut Map<String, Value>) {
    if get(out, "type").and_then(Value::as_str) == Some("object") {
        out.entry("properties").or_insert_with(|| json!({}));
        out.entry("additionalProperties")
            .or_insert(Value::Bool(false));
    }
}
