//! Rule C11: every attribute key is one the macro knows, written once. The
//! parser (`attr.rs`) notes each unknown or repeated key in the `Ctxt` as it
//! meets it and reads on; this rule reports them, first among the rules and
//! in the order they stand, so a misspelled key is reported where it stands
//! and, because the parser marks the key it was meant to be as reported, is
//! not also reported missing by the rules that require it.

use crate::ctxt::{suggest, Ctxt, KeyMet};

/// C11: every attribute key is one the macro knows, written once. A key
/// written twice is an error at the second; an unknown key gets a
/// did-you-mean, or the list of accepted keys.
pub fn c11_keys_known_and_once(cx: &Ctxt) {
    for met in cx.take_keys() {
        match met {
            KeyMet::Twice { key, span } => cx.error_at(
                span,
                format!("duplicate key `{key}`\nhelp: write `{key}` once"),
            ),
            KeyMet::Unknown {
                tokens,
                what,
                key,
                known,
            } => cx.error_spanned_by(tokens, unknown_key_message(what, &key, known)),
        }
    }
}

/// "unknown key `efect`; did you mean `effect`?" plus what is accepted.
fn unknown_key_message(what: &str, key: &str, known: &[&str]) -> String {
    // A JSON Schema keyword (`maxLength`, `min_items`, `maximum`) is how the
    // published schema says it; the attribute says it its own way.
    if known.contains(&"length") {
        if let Some(meant) = schema_keyword(key) {
            return format!("unknown {what} key `{key}`\nhelp: write `{meant}`");
        }
    }
    match suggest(key, known) {
        Some(s) => format!("unknown {what} key `{key}`\nhelp: did you mean `{s}`?"),
        None => format!(
            "unknown {what} key `{key}`\nhelp: the accepted keys are {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The attribute for a JSON Schema keyword written as a key (`maxLength`,
/// `max_length`, `maxItems`, `minimum`), in any case or spelling.
fn schema_keyword(key: &str) -> Option<&'static str> {
    let k: String = key
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    Some(match k.as_str() {
        "maxlength" | "maxitems" | "maxlen" => "length(max = ..)",
        "minlength" | "minitems" | "minlen" => "length(min = ..)",
        "max" | "maximum" => "range(max = ..)",
        "min" | "minimum" => "range(min = ..)",
        "exclusivemaximum" => "range(exclusive_max = ..)",
        "exclusiveminimum" => "range(exclusive_min = ..)",
        "uniqueitems" => "unique",
        _ => return None,
    })
}

#[cfg(test)]
mod schema_keyword_tests {
    use super::*;

    #[test]
    fn json_schema_keywords_point_at_the_attribute() {
        let known = &["length", "range", "pattern"];
        for (key, meant) in [
            ("maxLength", "length(max = ..)"),
            ("min_length", "length(min = ..)"),
            ("max", "range(max = ..)"),
            ("exclusiveMinimum", "range(exclusive_min = ..)"),
            ("uniqueItems", "unique"),
        ] {
            assert_eq!(
                unknown_key_message("#[arg]", key, known),
                format!("unknown #[arg] key `{key}`\nhelp: write `{meant}`")
            );
        }
        // elsewhere (inside `length(..)`, where `max` is a key) nothing changes
        assert!(unknown_key_message("length", "mx", &["min", "max"]).contains("did you mean `max`"));
    }
}
