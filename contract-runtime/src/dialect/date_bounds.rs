//! Date and time bounds (`range(min = "2001-01-01")` on a date argument),
//! which the canonical schema carries as `formatMinimum`/`formatMaximum`:
//! the vocabulary JSON Schema proposed for bounds on formatted strings.
//! No provider reads them, so every dialect whose table moves them states
//! them in the node's description ("Must be no earlier than 2001-01-01.")
//! and reports each as a loss; the runtime enforces them either way.

use serde_json::{Map, Value};

use super::rules::{self, Treatment};
use super::walk::{join, At};
use super::{Loss, LossAction, ToolDef};

/// Keywords whose values are data, not schemas: nothing below them is a bound.
const DATA: &[&str] = &[
    "enum",
    "const",
    "default",
    "examples",
    "discriminator",
    "required",
];

/// Moves every date bound in `node` and below into words, where the
/// dialect's table says so.
pub(super) fn move_to_descriptions(
    tool: &ToolDef<'_>,
    node: &mut Map<String, Value>,
    ptr: &str,
    losses: &mut Vec<Loss>,
) {
    walk(tool, node, At::Root(ptr), losses);
}

fn walk(tool: &ToolDef<'_>, node: &mut Map<String, Value>, at: At<'_>, losses: &mut Vec<Loss>) {
    // Most nodes have no bound: one pass over the keys says so, without
    // hashing either name (see `walk::get`).
    if node
        .keys()
        .any(|k| k == rules::FORMAT_MINIMUM || k == rules::FORMAT_MAXIMUM)
    {
        move_bounds(tool, node, &at.pointer(), losses);
    }
    for (k, v) in node.iter_mut() {
        if DATA.contains(&k.as_str()) {
            continue;
        }
        let here = At::Key(&at, k);
        match v {
            Value::Object(m) => {
                if matches!(
                    k.as_str(),
                    "properties"
                        | "$defs"
                        | "definitions"
                        | "patternProperties"
                        | "dependentSchemas"
                ) {
                    for (name, sub) in m.iter_mut() {
                        if let Value::Object(sub) = sub {
                            walk(tool, sub, At::Key(&here, name), losses);
                        }
                    }
                } else {
                    walk(tool, m, here, losses);
                }
            }
            Value::Array(list) => {
                for (i, sub) in list.iter_mut().enumerate() {
                    if let Value::Object(sub) = sub {
                        walk(tool, sub, At::Index(&here, i), losses);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Moves the date bounds of one node into its description.
fn move_bounds(
    tool: &ToolDef<'_>,
    node: &mut Map<String, Value>,
    ptr: &str,
    losses: &mut Vec<Loss>,
) {
    let mut said = Vec::new();
    // A bound of service (`x-served`) is said as one, and leaves the mark.
    let mut serves = Vec::new();
    let served = |key: &str, node: &Map<String, Value>| {
        node.get(crate::schema::SERVED)
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(|k| k == key))
    };
    for (key, words) in [
        (rules::FORMAT_MINIMUM, "no earlier than"),
        (rules::FORMAT_MAXIMUM, "no later than"),
    ] {
        if !node.get(key).is_some_and(Value::is_string)
            || rules::lookup(tool.dialect, &[key]).treatment != Treatment::MoveToDescription
        {
            continue;
        }
        let Some(Value::String(bound)) = node.remove(key) else {
            continue;
        };
        let phrase = format!("{words} {bound}");
        let is_served = served(key, node);
        if is_served {
            if let Some(Value::Array(l)) = node.get_mut(crate::schema::SERVED) {
                l.retain(|k| k != key);
                if l.is_empty() {
                    node.remove(crate::schema::SERVED);
                }
            }
            serves.push(format!("{} {bound}", words.trim_start_matches("no ")));
        }
        losses.push(Loss {
            tool: tool.name.to_owned(),
            pointer: join(ptr, key),
            keyword: key.to_owned(),
            action: LossAction::MovedToDescription,
            note: format!("moved to description: {phrase}; still enforced at run time"),
        });
        if !is_served {
            said.push(phrase);
        }
    }
    for sentence in [
        (!said.is_empty()).then(|| format!("Must be {}.", said.join(" and "))),
        (!serves.is_empty()).then(|| format!("The tool serves nothing {}.", serves.join(" or "))),
    ]
    .into_iter()
    .flatten()
    {
        let text = match node.get("description").and_then(Value::as_str) {
            Some(d) if d.ends_with(['.', '!', '?']) => format!("{d} {sentence}"),
            Some(d) if !d.is_empty() => format!("{d}. {sentence}"),
            _ => sentence,
        };
        node.insert("description".to_owned(), Value::String(text));
    }
}
