//! What a family detector finds, before the argument's type turns it into a
//! [`Claim`](super::Claim), and the sentence-level filter every family shares.

use super::tokens::*;
use super::values::{Day, Val};

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

/// A format or shape named as one of several accepted forms ("Accepts: ISO 8601
/// (...), relative dates (...), or Unix time", "UUID format: ... or external ID
/// format: ...", "E.164 format or channel address") is not the value's format.
/// Asked only at a finding, so it may scan its sentence.
pub(super) fn among_alternative_forms(t: &[Tok], i: usize) -> bool {
    let sent = t[i].sent;
    let from = sentence_start(t, i);
    let to = (i..t.len())
        .take_while(|&k| t[k].sent == sent)
        .last()
        .unwrap_or(i);
    let has_or = (from..=to).any(|k| word(t, k) == "or");
    has_or
        && (from..=to).any(|k| match word(t, k) {
            "relative" | "ago" | "unix" | "epoch" => true,
            // "Either a date with the format YYYY-MM-DD or a millisecond
            // timestamp" (langchain-ai/langchain-community): Unix time in ms
            "millisecond" | "milliseconds" => word(t, k + 1) == "timestamp",
            // "Format: YYYY-MM-DD or 'today'" (Doist/todoist-ai), "in format
            // 'YYYY-MM-DD' or `now`": a relative date given as a keyword
            "or" => {
                is_lit(t, k + 1)
                    && matches!(
                        t[k + 1].s.as_str(),
                        "today" | "now" | "yesterday" | "tomorrow"
                    )
            }
            "external" => matches!(word(t, k + 1), "id" | "ids"),
            "channel" => matches!(word(t, k + 1), "address" | "addresses"),
            _ => false,
        })
}

/// The description is about a list ("List of connection names ...", "A
/// comma-separated list of user ids ...", "Array of tags"): a bare count in it
/// counts items.
pub(super) fn list_subject(t: &[Tok]) -> bool {
    (0..4.min(t.len())).any(|k| {
        matches!(word(t, k), "list" | "array") && word(t, k + 1) == "of"
            || matches!(word(t, k), "comma-separated" | "comma-delimited")
    })
}

/// Marks, once per doc comment, the tokens that follow an output verb or an
/// example cue in their sentence, so each family asks in constant time.
pub(super) fn mark_context(t: &mut [Tok]) {
    let (mut output, mut example, mut sent) = (false, false, usize::MAX);
    let index = index();
    for j in 0..t.len() {
        if t[j].sent != sent {
            (output, example, sent) = (false, false, t[j].sent);
        }
        let (bits, context) = lead(&t[j], index);
        let w = word(t, j);
        let is_output = context & OUTPUT != 0
            && ((OUTPUT_VERBS.contains(&w)
                && !(w == "return" && matches!(prev_word(t, j, 1), "to" | "not")))
                // "each comment will include its replies (up to 100 ...)": what the tool does
                || (w == "will"
                    && matches!(word(t, j + 1), "include" | "return" | "contain" | "show" | "list"))
                // "The response lists at most 10 suggestions" (the first corpus), "The
                // response will compute counts of up to 10,000 elements" (box's OpenAPI
                // spec): a sentence about the response describes the output
                || (matches!(w, "response" | "output")
                    && j > 0
                    && word(t, j - 1) == "the"
                    && (j < 2 || t[j - 2].sent != t[j].sent)
                    && (matches!(word(t, j + 1), "will" | "lists" | "contains" | "includes") || matches!(word(t, j + 1), "has" | "is" | "shows"))));
        let is_example = context & EXAMPLE != 0
            && ((matches!(w, "e.g." | "example" | "examples" | "eg") && !names_an_example(t, j))
                || (w == "such" && word(t, j + 1) == "as")
                || (w == "for" && word(t, j + 1) == "instance")
                // "a short code like 'DEV', 'TEAM'": a value after "like" is an example
                || (w == "like" && is_lit(t, j + 1))
                // "Common types: 'person', 'company', ..." (neo4j-contrib/mcp-neo4j),
                // "Common values: 0.5 (median), 0.95 (...)" (render-oss/render-mcp-server),
                // "Common patterns: \"user:*\", ..." (redis/mcp-redis): what is
                // typical, not what is accepted ("Supported values:" is a claim)
                || (w == "common" && common_examples(t, j)));
        t[j].output = output;
        t[j].example = example;
        t[j].lead = bits;
        output |= is_output;
        example |= is_example;
    }
}

/// "Name of the example to load: 'patient_journey', ..., or
/// 'health_insurance_fraud'" (neo4j-contrib/mcp-neo4j): "example" after
/// "the" and before the verb of a relative clause ("to load", "to run") is
/// the thing the value names, a noun, not a cue that what follows
/// illustrates ("The example: 'x'", "For example, 'x'").
fn names_an_example(t: &[Tok], j: usize) -> bool {
    j > 0 && word(t, j - 1) == "the" && word(t, j + 1) == "to" && kind(t, j + 2) == Some(Tk::Word)
}

/// "Common types:", "Common values:": the word at `j` is "common" heading a
/// plural noun and a colon, which introduce typical values.
fn common_examples(t: &[Tok], j: usize) -> bool {
    let noun = word(t, j + 1);
    noun.len() > 3 && noun.ends_with('s') && text(t, j + 2) == ":"
}

// One bit per family: the family can start a finding at a token with its bit
// set. Each family's loop skips the other tokens, so a doc comment costs one
// match per token plus the work at the few tokens that matter. Each bit is a
// superset of the tokens its family's detector looks for at its position.
pub(super) const BOUNDS: u8 = 1;
pub(super) const SPANS: u8 = 2;
pub(super) const EMPTINESS: u8 = 4;
pub(super) const SIGNS: u8 = 8;
pub(super) const SETS: u8 = 16;
pub(super) const FORMATS: u8 = 32;
pub(super) const PATTERNS: u8 = 64;

// Not families: the words that start an output sentence or an example.
const OUTPUT: u8 = 1;
const EXAMPLE: u8 = 2;
/// Words that mark the rest of their sentence (output verbs, example cues).
const CONTEXT: &[(&str, u8)] = &[
    ("common", EXAMPLE),
    ("displays", OUTPUT),
    ("e.g.", EXAMPLE),
    ("eg", EXAMPLE),
    ("example", EXAMPLE),
    ("examples", EXAMPLE),
    ("for", EXAMPLE),
    ("like", EXAMPLE),
    ("output", OUTPUT),
    ("outputs", OUTPUT),
    ("prints", OUTPUT),
    ("produces", OUTPUT),
    ("responds", OUTPUT),
    ("response", OUTPUT),
    ("return", OUTPUT),
    ("returns", OUTPUT),
    ("such", EXAMPLE),
    ("will", OUTPUT),
    ("yields", OUTPUT),
];

/// The words that can start each family's shapes, sorted (a word may lead
/// several): the index ([`Index`]) ORs the families of a word.
const LEADS: &[(u8, &str)] = &[
    (
        BOUNDS,
        "above apr april at aug august below can't cannot cap capped dec december eight \
         eighteen eleven exactly feb february fewer fifteen five fixed four fourteen \
         greater higher jan january jul july jun june larger less limit limited longer \
         lower mar march max maximum may min minimum more must never nine nineteen no \
         not nov november oct october one over sep sept september seven seventeen \
         shorter should six sixteen smaller ten thirteen three twelve twenty two under \
         up zero",
    ),
    (
        SPANS,
        "apr april aug august between dec december eight eighteen eleven feb february \
         fifteen five four fourteen from jan january jul july jun june mar march may \
         nine nineteen nov november oct october one sep sept september seven seventeen \
         six sixteen ten thirteen three twelve twenty two zero",
    ),
    (EMPTINESS, "can't cannot may must should"),
    (
        SIGNS,
        "based indexed negative non-negative nonnegative positive",
    ),
    (
        SETS,
        "accepted allowed any available can choices combination either formats levels \
         modes one only options or permitted possible supported valid values",
    ),
    (
        FORMATS,
        "domain e-mail email fqdn guid hh host hostname hostnames ip ipv4 ipv6 iso \
         iso8601 rfc rfc3339 uri uris url urls uuid uuids uuidv4",
    ),
    (
        PATTERNS,
        "allow alpha-2 alphabetic alphanumeric alphanumerics base64 base64-encoded bcp \
         begin begins camel-case camelcase can't cannot capital caps cidr dashes \
         decimal digits disallowed dots e eight-digit eleven-digit five-digit forbidden \
         form format formatted four-digit hex hexadecimal hyphen hyphens ietf iso \
         kebab-case letter letters lower-case lowercase nine-digit no not numbers \
         numerals numeric pascalcase patterns periods prefix prefixed prohibited rfc \
         screaming_snake_case semantic semver seven-digit six-digit slugified \
         snake-case snake_case start starts ten-digit three three-digit three-letter \
         twelve-digit two two-digit two-letter underscore underscores upper-case \
         upper_snake_case uppercase without",
    ),
];

/// The words of [`LEADS`] and [`CONTEXT`] by their key (first byte, last
/// byte, length): a word compares itself with the one or two words of its
/// key, most words with none. (A sieve of keys before two binary searches
/// cost 7,900 instructions per doc comment in an unoptimized macro; the
/// searches were a fifth of the check before the sieve.)
struct Index {
    /// Where the words of each key start in `words` (one more for the end).
    from: Vec<u16>,
    /// Each word with its families and its context bits.
    words: Vec<(&'static str, u8, u8)>,
}

fn key(w: &[u8]) -> usize {
    match w {
        [] => 0,
        [first, .., last] => {
            (usize::from(first & 31) * 32 + usize::from(last & 31)) * 16 + (w.len() & 15)
        }
        [only] => (usize::from(only & 31) * 32 + usize::from(only & 31)) * 16 + 1,
    }
}

fn index() -> &'static Index {
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let leads = LEADS
            .iter()
            .flat_map(|&(f, words)| words.split_whitespace().map(move |w| (w, f, 0)));
        let mut words: Vec<_> = leads
            .chain(CONTEXT.iter().map(|&(w, c)| (w, 0, c)))
            .collect();
        words.sort_by_key(|e| key(e.0.as_bytes()));
        let mut from = vec![0u16; 32 * 32 * 16 + 1];
        for e in &words {
            from[key(e.0.as_bytes()) + 1] += 1;
        }
        for k in 1..from.len() {
            from[k] += from[k - 1];
        }
        Index { from, words }
    })
}

/// The families that can start at `tok`, and whether it marks its sentence.
fn lead(tok: &Tok, index: &Index) -> (u8, u8) {
    if tok.k != Tk::Word {
        return (families(tok), 0);
    }
    let w = tok.s.as_str();
    let (mut bits, mut context) = (word_shape_families(w), 0);
    let k = key(w.as_bytes());
    for &(x, f, c) in &index.words[usize::from(index.from[k])..usize::from(index.from[k + 1])] {
        if x == w {
            bits |= f;
            context |= c;
        }
    }
    (bits, context)
}

/// The families that can start at `tok`, a token other than a word.
fn families(tok: &Tok) -> u8 {
    const VALUE: u8 = BOUNDS | SPANS | FORMATS | PATTERNS;
    match tok.k {
        Tk::Num => VALUE,
        Tk::Code => VALUE | SETS,
        Tk::Quoted => SETS | FORMATS | PATTERNS,
        // (bytes, not `str`s: a match on these compares them in line)
        Tk::Punct => match tok.s.as_bytes() {
            b"-" => BOUNDS | SPANS | SETS,
            b"*" | b"\xe2\x80\xa2" => SETS, // (a bullet, U+2022)
            b"(" => SPANS | SETS,
            b"[" => SPANS | SETS,
            b":" | b"=" => SETS,
            b"<=" | b">=" | b"<" | b">" => BOUNDS,
            _ => 0,
        },
        Tk::Word => 0,
    }
}

/// Words that a date or a format shape can start: "2024-01-31t10", "yyyy-mm-dd".
fn word_shape_families(w: &str) -> u8 {
    match w.as_bytes() {
        [b'0'..=b'9', ..]
        | [b'y', b'y', b'y', b'y', ..]
        | [b'd', b'd', ..]
        | [b'h', b'h', ..]
        | [b'm', b'm', ..] => FORMATS | PATTERNS,
        // a standard and its number in one word: "iso3166-1", "rfc3230", "bcp-47"
        [b'i', b's', b'o', b'0'..=b'9' | b'-', ..]
        | [b'r', b'f', b'c', b'0'..=b'9' | b'-', ..]
        | [b'b', b'c', b'p', b'0'..=b'9' | b'-', ..] => PATTERNS,
        _ => 0,
    }
}

/// What a number measures, read from the word after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Unit {
    /// No unit: the type decides (range on a number, length on a string, items on a list).
    None,
    /// Characters or bytes: a length.
    Chars,
    /// Words, lines, tokens, megabytes: a size the prose states that no
    /// keyword counts (`maxLength` counts characters), so never a
    /// contradiction of a declared length; the tool must enforce it.
    Uncounted,
    /// A bound of several values together ("the sum of length, width and
    /// height may not exceed 300"): a rule across arguments, never a
    /// contradiction of the one whose doc states it.
    Sum,
    /// A character class ("uppercase letters", "digits"): a pattern with a repeat count.
    Class(&'static str),
    /// "items", "entries", "elements": a list size.
    Items,
    /// Any other plural noun ("tags", "notes"): a list size, or a range on a number.
    Count,
    /// Seconds, days, times: always a range.
    Time,
    /// A year or a date, a sign ("positive"), or the values of a legend or a scale:
    /// always a range.
    Year,
}

impl Unit {
    /// Whether the number counts parts of the value (its characters, words,
    /// items): "exactly one character" is a size, "exactly one edit" is not.
    pub(super) fn counts_parts(self) -> bool {
        matches!(
            self,
            Unit::Chars | Unit::Uncounted | Unit::Class(_) | Unit::Items
        )
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Bound {
    pub(super) v: f64,
    pub(super) exclusive: bool,
    /// The day the prose wrote, when the bound was read from a full date
    /// ("Minimum is 1950-01-01"; `v` is its year): a date argument declares
    /// the day, and agreement compares days.
    pub(super) day: Option<Day>,
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

impl What {
    /// A size no schema keyword counts ("at most 300 words", "25 MB").
    pub(super) fn uncounted(&self) -> bool {
        matches!(
            self,
            What::Bound {
                unit: Unit::Uncounted,
                ..
            }
        )
    }

    /// A bound of several values together (see [`Unit::Sum`]).
    pub(super) fn of_a_sum(&self) -> bool {
        matches!(
            self,
            What::Bound {
                unit: Unit::Sum,
                ..
            }
        )
    }
}

#[derive(Clone, Debug)]
pub(super) struct Found {
    /// The row of [`TABLE`](crate::TABLE) whose reader pushed it, stamped
    /// by the driver (a reader does not name its recognizer); [`UNSTAMPED`]
    /// until then, which names no row, so a finding that escaped the
    /// driver fails loudly rather than passing as the first row's.
    pub(super) by: usize,
    pub(super) what: What,
    pub(super) t0: usize,
    pub(super) t1: usize,
    /// Reported even in a sentence about the output ("The value will always
    /// be `comment`").
    pub(super) always: bool,
}

/// The row of a finding no driver has stamped.
pub(super) const UNSTAMPED: usize = usize::MAX;

pub(super) fn found(what: What, t0: usize, t1: usize) -> Found {
    Found {
        by: UNSTAMPED,
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
        day: None,
    })
}

pub(super) fn excl(v: f64) -> Option<Bound> {
    Some(Bound {
        v,
        exclusive: true,
        day: None,
    })
}

/// The inclusive bound a value states, with its day when it is a full date.
pub(super) fn at(val: &Val) -> Option<Bound> {
    Some(Bound {
        day: val.day,
        ..incl(val.v)?
    })
}

/// Both sides of a bound read from `val`, each keeping the day it was written as.
pub(super) fn dated(
    sides: (Option<Bound>, Option<Bound>),
    val: &Val,
) -> (Option<Bound>, Option<Bound>) {
    let keep = |b: Option<Bound>| b.map(|b| Bound { day: val.day, ..b });
    (keep(sides.0), keep(sides.1))
}

/// Runs one family detector over `doc` and lists each finding as its phrase
/// and what it found, so each family's tests read as prose in, claims out.
#[cfg(test)]
#[test]
fn leads_are_sorted_and_unique() {
    for (_, words) in LEADS {
        let words: Vec<&str> = words.split_whitespace().collect();
        assert!(words.windows(2).all(|p| p[0] < p[1]), "{words:?}");
    }
    assert!(CONTEXT.windows(2).all(|p| p[0].0 < p[1].0));
    for verb in OUTPUT_VERBS {
        assert!(
            CONTEXT
                .iter()
                .any(|(w, bits)| w == verb && bits & OUTPUT != 0),
            "{verb}"
        );
    }
}

#[cfg(test)]
#[test]
fn a_sentence_about_the_response_is_output() {
    let marked = |doc: &str| {
        let mut t = tokenize(doc);
        mark_context(&mut t);
        t.iter().any(|x| x.output)
    };
    assert!(marked("The response lists at most 10 suggestions."));
    assert!(marked(
        "Counts. The response will compute counts of up to 10,000 elements."
    ));
    // the argument named after the response is not its output
    assert!(!marked("The response format: one of json or xml."));
    assert!(!marked("Limit the response to at most 10 items."));
}

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
        Some(Bound { v, exclusive, .. }) => {
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

/// A finding as `driver::found_in` summarizes it, for a test to compare.
#[cfg(test)]
pub(super) fn pair(phrase: &str, summary: &str) -> (String, String) {
    (phrase.to_string(), summary.to_string())
}
