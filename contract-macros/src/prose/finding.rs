//! What a family detector finds, before the argument's type turns it into a
//! [`Claim`](super::Claim), and the sentence-level filter every family shares.

use super::tokens::*;

/// A sentence that describes the output ("Returns up to 10 results") states no input constraint.
pub(super) const OUTPUT_VERBS: &[&str] = &[
    "returns", "return", "yields", "responds", "produces", "displays", "prints", "outputs",
];

pub(super) fn in_output_sentence(t: &[Tok], i: usize) -> bool {
    t[i].output
}

/// A sentence (or the part of it after "e.g.", "for example", "such as") that
/// gives examples: its values and numbers illustrate, they do not constrain.
pub(super) fn in_example(t: &[Tok], i: usize) -> bool {
    t[i].example
}

/// Marks, once per doc comment, the tokens that follow an output verb or an
/// example cue in their sentence, so each family asks in constant time.
pub(super) fn mark_context(t: &mut [Tok]) {
    let (mut output, mut example, mut sent) = (false, false, usize::MAX);
    for j in 0..t.len() {
        if t[j].sent != sent {
            (output, example, sent) = (false, false, t[j].sent);
        }
        let w = word(t, j);
        let is_output = (OUTPUT_VERBS.contains(&w)
            && !(w == "return" && matches!(prev_word(t, j, 1), "to" | "not")))
            // "each comment will include its replies (up to 100 ...)": what the tool does
            || (w == "will"
                && matches!(word(t, j + 1), "include" | "return" | "contain" | "show" | "list"));
        let is_example = matches!(w, "e.g." | "example" | "examples" | "eg")
            || (w == "such" && word(t, j + 1) == "as")
            || (w == "for" && word(t, j + 1) == "instance");
        t[j].output = output;
        t[j].example = example;
        t[j].lead = lead(&t[j]);
        output |= is_output;
        example |= is_example;
    }
}

// One bit per family: the family can start a finding at a token with its bit
// set. Each family's loop skips the other tokens, so a doc comment costs one
// match per token plus the work at the few tokens that matter. Each bit is a
// superset of the tokens its family's detector looks for at its position.
pub(super) const BOUNDS: u8 = 1;
pub(super) const SPANS: u8 = 2;
pub(super) const SERVABLE: u8 = 4;
pub(super) const EMPTINESS: u8 = 8;
pub(super) const SIGNS: u8 = 16;
pub(super) const SETS: u8 = 32;
pub(super) const FORMATS: u8 = 64;
pub(super) const PATTERNS: u8 = 128;

/// The families that can start at `tok`.
fn lead(tok: &Tok) -> u8 {
    const VALUE: u8 = BOUNDS | SPANS | SERVABLE | FORMATS | PATTERNS;
    match tok.k {
        Tk::Num => VALUE,
        Tk::Code => VALUE | SETS,
        Tk::Quoted => SETS | FORMATS | PATTERNS,
        Tk::Punct => match tok.s.as_str() {
            "-" => BOUNDS | SPANS,
            "(" => SPANS | SETS,
            "[" => SPANS,
            ":" => SETS,
            "<=" | ">=" | "<" | ">" => BOUNDS,
            _ => 0,
        },
        Tk::Word => {
            let w = tok.s.as_str();
            let mut bits = match w {
                "zero" | "one" | "two" | "three" | "four" | "five" | "six" | "seven" | "eight"
                | "nine" | "ten" | "eleven" | "twelve" | "thirteen" | "fourteen" | "fifteen"
                | "sixteen" | "seventeen" | "eighteen" | "nineteen" | "twenty" => {
                    BOUNDS | SPANS | if w == "one" { SETS } else { 0 }
                }
                "january" | "february" | "march" | "april" | "may" | "june" | "july" | "august"
                | "september" | "october" | "november" | "december" | "jan" | "feb" | "mar"
                | "apr" | "jun" | "jul" | "aug" | "sep" | "sept" | "oct" | "nov" | "dec" => {
                    BOUNDS | SPANS | SERVABLE | if w == "may" { EMPTINESS } else { 0 }
                }
                "less" | "greater" | "up" | "at" | "maximum" | "max" | "minimum" | "min"
                | "limited" | "limit" | "capped" | "cap" | "fewer" | "shorter" | "smaller"
                | "lower" | "more" | "larger" | "longer" | "higher" | "exactly" => BOUNDS,
                "must" | "should" | "cannot" => BOUNDS | EMPTINESS | PATTERNS,
                "can't" => BOUNDS | EMPTINESS,
                "not" | "no" => BOUNDS | SERVABLE | PATTERNS,
                "between" => SPANS,
                "from" => SPANS,
                "back" | "on" | "starting" | "since" | "through" | "until" | "before" | "after"
                | "earliest" | "oldest" => SERVABLE,
                "non-empty" | "nonempty" | "non-blank" | "nonblank" => EMPTINESS,
                "positive" | "non-negative" | "nonnegative" => SIGNS,
                "any" | "combination" | "either" | "only" | "can" | "values" | "options"
                | "choices" | "modes" | "formats" | "levels" => SETS,
                "iso" => FORMATS | PATTERNS,
                "iso8601" | "rfc" | "rfc3339" | "uuid" | "uuids" | "guid" | "uuidv4" | "email"
                | "e-mail" | "url" | "uri" | "urls" | "uris" | "ipv4" | "ipv6" | "ip"
                | "hostname" | "hostnames" | "fqdn" | "host" | "domain" | "hh" => FORMATS,
                "match" | "matches" | "matching" | "hex" | "hexadecimal" | "letters" | "letter"
                | "digits" | "numbers" | "numerals" | "hyphens" | "hyphen" | "dashes"
                | "underscores" | "underscore" | "periods" | "dots" | "alphanumeric"
                | "alphanumerics" | "uppercase" | "lowercase" | "upper-case" | "lower-case"
                | "capital" | "numeric" | "decimal" | "without" | "start" | "begin" | "end"
                | "starts" | "begins" | "ends" | "prefixed" | "suffixed" | "kebab-case"
                | "snake_case" | "snake-case" | "camelcase" | "camel-case" | "pascalcase"
                | "semver" | "slugified" | "semantic" | "form" | "format" | "formatted" | "e"
                | "two-letter" | "three-letter" | "alpha-2" => PATTERNS,
                _ => 0,
            };
            // words that a date or a format shape can start: "2024-01-31t10", "yyyy-mm-dd"
            if w.starts_with(|c: char| c.is_ascii_digit())
                || w.starts_with("yyyy")
                || w.starts_with("dd")
            {
                bits |= FORMATS | PATTERNS;
            }
            bits
        }
    }
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
    let mut t = tokenize(doc);
    mark_context(&mut t);
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
