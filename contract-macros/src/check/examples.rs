//! Rule C15: the examples of `examples(...)` name the tool's arguments. What
//! rustc can judge, it judges: the expansion (`expand/examples.rs`) writes
//! code that types every value of every example against the argument it
//! names, so a field the argument struct does not have, or a value of the
//! wrong shape or out of its type's range, is a compile error at the value.
//! What the types cannot say (a constraint, a rule across arguments, the
//! fields inside a nested object) the registry checks when it is built, by
//! decoding each example as a call's arguments. This rule says what the
//! model of the tool says and rustc cannot say as well.

use super::tidy;
use crate::ctxt::{suggest, Ctxt};
use crate::model::{Args, Tool};
use crate::ty::Kind;
use crate::vocab::{ExObject, ExValue};

/// C15: `examples(...)` holds at least one example; an example gives each
/// key once, at every level; for inline arguments (whose names and types
/// the macro sees) each key names an argument, and every argument that is
/// always sent (not an `Option`) is given.
pub fn c15_examples_name_arguments(cx: &Ctxt, tool: &Tool) {
    let Some(examples) = &tool.examples else {
        return;
    };
    if examples.value.is_empty() {
        cx.error_at(
            examples.span,
            "`examples()` holds no example\nhelp: write `examples({query: \"kv cache\"})`, or leave the key out",
        );
    }
    for (i, example) in examples.value.iter().enumerate() {
        keys_once(cx, i, example);
        let Args::Inline { fields, .. } = &tool.args else {
            // rustc names a field the struct does not have; the registry,
            // one it leaves out.
            continue;
        };
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        for (key, _) in &example.entries {
            let name = key.name();
            if names.contains(&name.as_str()) {
                continue;
            }
            let help = match suggest(&name, &names) {
                Some(meant) => format!("did you mean `{meant}`?"),
                None if names.is_empty() => "the tool takes no arguments".to_owned(),
                None => format!("the arguments are `{}`", names.join("`, `")),
            };
            cx.error_at(
                key.span(),
                format!(
                    "example {i} gives `{name}`, which is not an argument of `{}`\nhelp: {help}",
                    tool.name.value
                ),
            );
        }
        for f in fields {
            if matches!(f.kind, Kind::Option(_)) {
                continue;
            }
            if !example.entries.iter().any(|(k, _)| k.name() == f.name) {
                cx.error_at(
                    example.span,
                    format!(
                        "example {i} leaves out `{}`, which is always sent\nhelp: give `{}` a value, or make it `Option<{}>`",
                        f.name,
                        f.name,
                        tidy(&f.ty)
                    ),
                );
            }
        }
    }
}

/// Each key of an object once, and so in every object inside it.
fn keys_once(cx: &Ctxt, i: usize, object: &ExObject) {
    for (n, (key, value)) in object.entries.iter().enumerate() {
        let name = key.name();
        if object.entries[..n].iter().any(|(k, _)| k.name() == name) {
            cx.error_at(
                key.span(),
                format!("example {i} gives `{name}` twice\nhelp: give each argument once"),
            );
        }
        nested(cx, i, value);
    }
}

fn nested(cx: &Ctxt, i: usize, value: &ExValue) {
    match value {
        ExValue::Object(o) => keys_once(cx, i, o),
        ExValue::List { items, .. } => items.iter().for_each(|v| nested(cx, i, v)),
        _ => {}
    }
}
