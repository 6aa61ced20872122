//! What a family detector finds, before the argument's type turns it into a
//! [`Claim`](super::Claim), and the sentence-level filter every family shares.

use super::tokens::*;

/// A sentence that describes the output ("Returns up to 10 results") states no input constraint.
pub(super) const OUTPUT_VERBS: &[&str] = &[
    "returns", "return", "yields", "responds", "produces", "displays", "prints", "outputs",
];

pub(super) fn in_output_sentence(t: &[Tok], i: usize) -> bool {
    (0..i)
        .rev()
        .take_while(|&j| t[j].sent == t[i].sent)
        .any(|j| {
            let w = word(t, j);
            (OUTPUT_VERBS.contains(&w)
                && !(w == "return" && matches!(prev_word(t, j, 1), "to" | "not")))
                // "each comment will include its replies (up to 100 ...)": what the tool does
                || (w == "will"
                    && matches!(
                        word(t, j + 1),
                        "include" | "return" | "contain" | "show" | "list"
                    ))
        })
}

/// A sentence (or the part of it after "e.g.", "for example", "such as") that
/// gives examples: its values and numbers illustrate, they do not constrain.
pub(super) fn in_example(t: &[Tok], i: usize) -> bool {
    (0..i)
        .rev()
        .take_while(|&j| t[j].sent == t[i].sent)
        .any(|j| {
            matches!(word(t, j), "e.g." | "e.g" | "example" | "examples" | "eg")
                || (word(t, j) == "such" && word(t, j + 1) == "as")
                || (word(t, j) == "for" && word(t, j + 1) == "instance")
        })
}

/// What a number measures, read from the word after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Unit {
    /// No unit: the type decides (range on a number, length on a string, items on a list).
    None,
    /// Characters, bytes, words, lines: a length.
    Chars,
    /// A character class ("uppercase letters", "digits"): a pattern with a repeat count.
    Class(&'static str),
    /// "items", "entries", "elements": a list size.
    Items,
    /// Any other plural noun ("tags", "notes"): a list size, or a range on a number.
    Count,
    /// Seconds, days, times: always a range.
    Time,
    /// A year or a date, or a sign ("positive"): always a range.
    Year,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Bound {
    pub(super) v: f64,
    pub(super) exclusive: bool,
}

#[derive(Clone, Debug)]
pub(super) enum What {
    Bound {
        min: Option<Bound>,
        max: Option<Bound>,
        unit: Unit,
        integer: bool,
    },
    NonEmpty {
        list: bool,
    },
    Set(Vec<String>),
    Format(&'static str),
    Pattern(Option<String>),
}

#[derive(Clone, Debug)]
pub(super) struct Found {
    pub(super) what: What,
    pub(super) t0: usize,
    pub(super) t1: usize,
    /// Reported even in a sentence about the output (servable ranges).
    pub(super) always: bool,
}

pub(super) fn found(what: What, t0: usize, t1: usize) -> Found {
    Found {
        what,
        t0,
        t1,
        always: false,
    }
}

pub(super) fn bound(min: Option<Bound>, max: Option<Bound>, unit: Unit) -> What {
    What::Bound {
        min,
        max,
        unit,
        integer: false,
    }
}

pub(super) fn incl(v: f64) -> Option<Bound> {
    Some(Bound {
        v,
        exclusive: false,
    })
}

pub(super) fn excl(v: f64) -> Option<Bound> {
    Some(Bound { v, exclusive: true })
}

/// Runs one family detector over `doc` and lists each finding as its phrase
/// and what it found, so each family's tests read as prose in, claims out.
#[cfg(test)]
pub(super) fn run(
    doc: &str,
    detect: impl Fn(&[Tok], &str, &mut Vec<Found>),
) -> Vec<(String, What)> {
    let t = tokenize(doc);
    let mut out = Vec::new();
    detect(&t, doc, &mut out);
    out.into_iter()
        .map(|f| (doc[t[f.t0].start..t[f.t1].end].to_string(), f.what))
        .collect()
}

/// A finding in a few words, for the families' tests: "max 200 Chars",
/// "min >0 Year", "set asc|desc", "format date", "pattern ^[a-z]+$", "non-empty list".
#[cfg(test)]
pub(super) fn summary(what: &What) -> String {
    let b = |tag: &str, b: &Option<Bound>| match b {
        Some(Bound { v, exclusive }) => {
            format!("{tag} {v}{} ", if *exclusive { " excl" } else { "" })
        }
        None => String::new(),
    };
    match what {
        What::Bound { min, max, unit, .. } => format!("{}{}{unit:?}", b("min", min), b("max", max)),
        What::NonEmpty { list: true } => "non-empty list".into(),
        What::NonEmpty { list: false } => "non-empty".into(),
        What::Set(items) => format!("set {}", items.join("|")),
        What::Format(f) => format!("format {f}"),
        What::Pattern(Some(re)) => format!("pattern {re}"),
        What::Pattern(None) => "pattern ?".into(),
    }
}

/// `run` with each finding summarized: `[("at most 200 characters", "max 200 Chars")]`.
#[cfg(test)]
pub(super) fn found_in(
    doc: &str,
    detect: impl Fn(&[Tok], &str, &mut Vec<Found>),
) -> Vec<(String, String)> {
    run(doc, detect)
        .into_iter()
        .map(|(p, w)| (p, summary(&w)))
        .collect()
}
