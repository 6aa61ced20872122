//! Gemini function declarations: `parameters` (OpenAPI 3.0 subset) or
//! `parametersJsonSchema`.

use serde_json::{json, Map, Value};

use super::rules::{self, Treatment};
use super::walk::{get, has, is_null_branch, types_of, Done, Hooks, Node, Res, Walker};
use super::{Dialect, Loss, ToolDef};

/// `{"name","description","parameters"}` (no `parameters` for a tool without
/// arguments), or `{"name","description","parametersJsonSchema"}`.
pub(super) fn export(tool: &ToolDef<'_>, dialect: Dialect, losses: &mut Vec<Loss>) -> Res<Value> {
    let root = tool.checked_root(losses)?;
    let mut decl = Map::new();
    decl.insert("name".to_owned(), json!(tool.name));
    decl.insert("description".to_owned(), json!(tool.description));
    if dialect == Dialect::GeminiJsonSchema {
        decl.insert("parametersJsonSchema".to_owned(), Value::Object(root));
        return Ok(Value::Object(decl));
    }
    if tool.has_no_arguments() {
        return Ok(Value::Object(decl));
    }
    let mut w = Walker::new(tool, &root, &Parameters);
    let parameters = w.schema(Value::Object(root), "", 1, true)?;
    losses.append(&mut w.losses);
    decl.insert("parameters".to_owned(), parameters);
    Ok(Value::Object(decl))
}

/// The OpenAPI 3.0 subset of `parameters`.
struct Parameters;

impl Hooks for Parameters {
    fn before_keywords(&self, w: &mut Walker<'_>, n: &mut Node<'_>) -> Res<Option<Done>> {
        one_type(w, n)
    }

    fn finish_object(&self, w: &mut Walker<'_>, n: &mut Node<'_>) -> Res<()> {
        fix_object(w, &mut n.out, n.ptr)
    }
}

/// One type per node: null becomes `nullable: true` (from a type list, an
/// anyOf branch or an enum value), several types become anyOf, const becomes
/// a one-value enum. Returns the finished node when it was rebuilt whole.
fn one_type(w: &mut Walker<'_>, n: &mut Node<'_>) -> Res<Option<Done>> {
    let (ptr, depth, root) = (n.ptr, n.depth, n.root);
    let m = &mut n.rest;
    let out = &mut n.out;
    // anyOf with a null branch.
    if let Some(Value::Array(any)) = get(m, "anyOf") {
        if !root && any.iter().any(is_null_branch) {
            w.rewrite(ptr, rules::ANY_OF_NULL)?;
            let rest: Vec<Value> = any.iter().filter(|b| !is_null_branch(b)).cloned().collect();
            m.remove("anyOf");
            if let [only] = rest.as_slice() {
                let Value::Object(branch) = only else {
                    return Err(w.forbid(ptr, rules::BOOLEAN_SCHEMA));
                };
                // The node's own keywords (its description) win over the branch's.
                let mut merged = branch.clone();
                merged.extend(std::mem::take(m));
                let (mut done, n) = w.node(Value::Object(merged), ptr, depth, false)?;
                done.insert("nullable".to_owned(), Value::Bool(true));
                return Ok(Some((done, n)));
            }
            out.insert("nullable".to_owned(), Value::Bool(true));
            if rest.is_empty() {
                m.insert("type".to_owned(), json!("null"));
            } else {
                m.insert("anyOf".to_owned(), Value::Array(rest));
            }
        }
    }
    // Type lists.
    if let Some(Value::Array(_)) = get(m, "type") {
        let types: Vec<String> = types_of(m)
            .unwrap_or_default()
            .into_iter()
            .map(str::to_owned)
            .collect();
        w.rewrite(ptr, rules::TYPE_LIST)?;
        let rest: Vec<String> = types.iter().filter(|t| *t != "null").cloned().collect();
        if rest.len() < types.len() {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
        match rest.as_slice() {
            [] => {
                m.insert("type".to_owned(), json!("null"));
            }
            [t] => {
                m.insert("type".to_owned(), json!(t));
            }
            _ => w.split_types(n, &rest)?,
        }
    }
    let m = &mut n.rest;
    let out = &mut n.out;
    // const -> enum.
    if let Some(c) = has(m, "const").then(|| m.remove("const")).flatten() {
        if !c.is_string() {
            return Err(w.forbid(ptr, rules::CONST_NOT_STRING));
        }
        w.rewrite(ptr, "const")?;
        if has(m, "enum") {
            return Err(w.error(ptr, "const next to enum: keep one of them".to_owned()));
        }
        m.insert("enum".to_owned(), Value::Array(vec![c]));
    }
    // enum: strings only; null becomes nullable.
    if let Some(e) = has(m, "enum").then(|| m.get_mut("enum")).flatten() {
        let Some(values) = e.as_array_mut() else {
            return Err(w.forbid(ptr, rules::ENUM_NOT_STRINGS));
        };
        if values.contains(&Value::Null) {
            w.rewrite(ptr, rules::ENUM_NULL)?;
            values.retain(|v| !v.is_null());
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
        if !values.iter().all(Value::is_string) {
            return Err(w.forbid(ptr, rules::ENUM_NOT_STRINGS));
        }
        if !has(m, "type") {
            m.insert("type".to_owned(), json!("string"));
        }
    }
    Ok(None)
}

/// Objects carry `propertyOrdering` in property order; a nested object
/// needs at least one property.
fn fix_object(w: &mut Walker<'_>, out: &mut Map<String, Value>, ptr: &str) -> Res<()> {
    let names: Vec<Value> = get(out, "properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().map(Value::String).collect())
        .unwrap_or_default();
    // A root without properties reaches here only when it is not a plain
    // tool without arguments (which has no parameters at all).
    if names.is_empty() {
        return Err(w.forbid(ptr, rules::PROPERTIES_EMPTY));
    }
    if w.treat(&[rules::PROPERTY_ORDERING]) == Treatment::Rewrite {
        out.insert("propertyOrdering".to_owned(), Value::Array(names));
    }
    Ok(())
}
