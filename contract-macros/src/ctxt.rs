//! One error accumulator per macro invocation, so a user sees every mistake of
//! an item in one compile (after serde_derive's `Ctxt`).

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Ctxt {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error pointing at `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, msg: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), msg));
    }

    /// Records an error at a span.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, msg: M) {
        self.syn_error(syn::Error::new(span, msg));
    }

    pub fn syn_error(&self, err: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(err);
        }
    }

    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// Consumes the context; every recorded error as one combined error.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.take().unwrap_or_default().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // A forgotten check would silently drop the user's errors.
        if !std::thread::panicking() && self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
        {
            panic!("contract-macros: errors recorded but never reported");
        }
    }
}

/// Did-you-mean: the closest known key within edit distance 2.
pub fn suggest<'a>(unknown: &str, known: &[&'a str]) -> Option<&'a str> {
    // The same word spelled with other separators or case is the closest:
    // `datetime` and `DateTime` mean `date-time`, not `date`.
    let bare = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let unknown_bare = bare(unknown);
    // A prefix counts as close too: `timeout` means `timeout_ms`.
    known
        .iter()
        .map(|k| {
            if bare(k) == unknown_bare {
                return (0, *k);
            }
            let prefix = unknown.len() >= 4 && (k.starts_with(unknown) || unknown.starts_with(k));
            (if prefix { 1 } else { distance(unknown, k) }, *k)
        })
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// "unknown key `efect`; did you mean `effect`?" plus what is accepted.
pub fn unknown_key_message(what: &str, key: &str, known: &[&str]) -> String {
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
