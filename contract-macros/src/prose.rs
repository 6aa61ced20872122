//! Rule C12: a constraint stated only in prose is an error.
//!
//! This module reads a doc comment (of a tool or of one argument) and finds
//! the statements in it that a caller must obey but that a schema would not
//! carry: bounds ("at most 50", "between 1 and 200", "up to 10 items"),
//! closed sets ("one of draft, final"), formats ("YYYY-MM-DD", "a UUID") and
//! servable ranges ("records back to 2001"). [`unmatched`] then keeps the
//! claims that the argument's declared constraints do not cover; the macro
//! reports each one as a C12 error with the claim's `help`.
//!
//! The detector works on lowercased tokens (words, numbers, code spans,
//! quoted strings, punctuation) with one small function per claim family.
//! It uses only `std`: no regex, no syn. See `docs/rule-c12.md` for the
//! measured precision and recall and for the accepted misses.

/// The family of a constraint stated in prose; each needs its own attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimKind {
    /// A string length: "at most 200 characters", "non-empty". Needs `length(..)`.
    Length,
    /// A numeric bound or servable range: "between 1 and 100", "back to 2001". Needs `range(..)`.
    Range,
    /// A list size: "up to 10 items", "non-empty list". Needs `length(..)` on the list.
    Items,
    /// A closed set of values: "one of draft, final". Needs a Rust enum type.
    ClosedSet,
    /// A named format: "YYYY-MM-DD", "a UUID", "an email address". Needs `format = ".."`.
    Format,
    /// A shape: "lowercase letters and digits only", "must match `^[A-Z]+$`". Needs `pattern = ".."`.
    Pattern,
}

/// One constraint-like statement found in a doc comment.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// The family of the statement.
    pub kind: ClaimKind,
    /// The words found, as written in the doc comment.
    pub phrase: String,
    /// The attribute to write instead, with the numbers or values found filled in.
    pub help: String,
}

/// What an argument declares, filled in from its parsed `#[arg(..)]` and its type.
#[derive(Clone, Copy, Debug, Default)]
pub struct Declared {
    /// `length(..)` is declared.
    pub length: bool,
    /// `range(..)` is declared.
    pub range: bool,
    /// `pattern = ".."` is declared.
    pub pattern: bool,
    /// `format = ".."` is declared.
    pub format: bool,
    /// The type is a Rust enum (a closed set derived with `ToolArgs`).
    pub closed_set: bool,
    /// The type is a list (`Vec<T>`, a slice, a set).
    pub is_list: bool,
    /// The type is a number.
    pub is_number: bool,
    /// The type is a string.
    pub is_string: bool,
}

/// Every constraint-like statement in a doc text, in the order written.
///
/// Without a type, a bare bound ("at most 50") is reported as [`ClaimKind::Range`];
/// [`unmatched`] uses the argument's type to read it as a length or a list size.
///
/// ```ignore
/// let found = claims("Year to fetch; records go back to 2001.");
/// assert_eq!(found[0].kind, ClaimKind::Range);
/// assert_eq!(found[0].help, "#[arg(range(min = 2001))]");
/// ```
#[cfg_attr(not(test), allow(dead_code))]
pub fn claims(doc: &str) -> Vec<Claim> {
    resolve_all(doc, None)
}

/// Claims that no declared constraint matches.
///
/// A Length claim is satisfied by `length`; Range by `range`; Items by `length`;
/// ClosedSet by an enum type (or a pattern); Format by `format` (or a pattern);
/// Pattern by `pattern` (or a format, or an enum type). The type disambiguates
/// bare bounds: "at most 50" is a range on a number, a length on a string and a
/// list size on a list.
pub fn unmatched(doc: &str, declared: Declared) -> Vec<Claim> {
    resolve_all(doc, Some(declared))
        .into_iter()
        .filter(|c| !satisfied(c.kind, &declared))
        .collect()
}

fn satisfied(kind: ClaimKind, d: &Declared) -> bool {
    match kind {
        ClaimKind::Length => d.length,
        ClaimKind::Range => d.range,
        ClaimKind::Items => d.length,
        ClaimKind::ClosedSet => d.closed_set || d.pattern,
        ClaimKind::Format => d.format || d.pattern,
        ClaimKind::Pattern => d.pattern || d.format || d.closed_set,
    }
}

// ---------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tk {
    Word,
    Num,
    Code,
    Quoted,
    Punct,
}

#[derive(Clone, Debug)]
struct Tok {
    k: Tk,
    /// Lowercased text (for code and quotes: the content without delimiters).
    s: String,
    start: usize,
    end: usize,
    num: Option<f64>,
    /// Digits in the integer part of a number.
    digits: usize,
    sent: usize,
}

fn closing_quote(c: char) -> Option<char> {
    match c {
        '"' => Some('"'),
        '\'' => Some('\''),
        '\u{201c}' => Some('\u{201d}'),
        '\u{2018}' => Some('\u{2019}'),
        _ => None,
    }
}

const ABBREV: &[&str] = &[
    "e.g.", "i.e.", "etc", "vs", "max", "min", "approx", "no", "incl",
];

fn tokenize(doc: &str) -> Vec<Tok> {
    let cs: Vec<(usize, char)> = doc.char_indices().collect();
    let n = cs.len();
    let byte = |i: usize| if i < n { cs[i].0 } else { doc.len() };
    let ch = |i: usize| if i < n { cs[i].1 } else { '\0' };
    let mut out: Vec<Tok> = Vec::new();
    let mut sent = 0;
    let mut i = 0;
    let push = |out: &mut Vec<Tok>, k: Tk, s: String, a: usize, b: usize, sent: usize| {
        out.push(Tok {
            k,
            s,
            start: a,
            end: b,
            num: None,
            digits: 0,
            sent,
        });
    };
    while i < n {
        let c = ch(i);
        if c.is_whitespace() {
            let mut nl = 0;
            while i < n && ch(i).is_whitespace() {
                if ch(i) == '\n' {
                    nl += 1;
                }
                i += 1;
            }
            if nl >= 2 {
                sent += 1;
            }
            continue;
        }
        // A fenced code block is an example, never a statement: skip it.
        if c == '`' && ch(i + 1) == '`' && ch(i + 2) == '`' {
            let mut j = i + 3;
            while j < n && !(ch(j) == '`' && ch(j + 1) == '`' && ch(j + 2) == '`') {
                j += 1;
            }
            i = (j + 3).min(n);
            sent += 1;
            continue;
        }
        if c == '`' {
            if let Some(j) = (i + 1..n).find(|&j| ch(j) == '`') {
                let s = doc[byte(i + 1)..byte(j)].to_lowercase();
                push(&mut out, Tk::Code, s, byte(i), byte(j + 1), sent);
                i = j + 1;
                continue;
            }
        }
        if let Some(close) = closing_quote(c) {
            if i == 0 || !ch(i - 1).is_alphanumeric() {
                let lim = (i + 61).min(n);
                let mut found = None;
                for j in i + 1..lim {
                    let d = ch(j);
                    if d == '\n' {
                        break;
                    }
                    let closes = d == close || (close == '\'' && d == '\u{2019}');
                    if closes && j > i + 1 && !ch(j + 1).is_alphanumeric() {
                        found = Some(j);
                        break;
                    }
                }
                if let Some(j) = found {
                    let s = doc[byte(i + 1)..byte(j)].to_lowercase();
                    push(&mut out, Tk::Quoted, s, byte(i), byte(j + 1), sent);
                    i = j + 1;
                    continue;
                }
            }
            i += 1; // a stray quote or an apostrophe: drop it
            continue;
        }
        if c.is_ascii_digit() {
            let mut j = i;
            while ch(j).is_ascii_digit() {
                j += 1;
            }
            while ch(j) == ','
                && (1..=3).all(|k| ch(j + k).is_ascii_digit())
                && !ch(j + 4).is_ascii_digit()
            {
                j += 4;
            }
            let int_end = j;
            if ch(j) == '.' && ch(j + 1).is_ascii_digit() {
                j += 1;
                while ch(j).is_ascii_digit() {
                    j += 1;
                }
            }
            let a = byte(i);
            if ch(j).is_alphabetic() || ch(j) == '_' {
                while ch(j).is_alphanumeric() || ch(j) == '_' {
                    j += 1;
                }
                push(
                    &mut out,
                    Tk::Word,
                    doc[a..byte(j)].to_lowercase(),
                    a,
                    byte(j),
                    sent,
                );
            } else {
                let text: String = doc[a..byte(j)].chars().filter(|c| *c != ',').collect();
                let digits = doc[a..byte(int_end)]
                    .chars()
                    .filter(|c| c.is_ascii_digit())
                    .count();
                out.push(Tok {
                    k: Tk::Num,
                    num: text.parse::<f64>().ok(),
                    s: text,
                    start: a,
                    end: byte(j),
                    digits,
                    sent,
                });
            }
            i = j;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let mut j = i;
            loop {
                while ch(j).is_alphanumeric() || ch(j) == '_' {
                    j += 1;
                }
                let joiner = matches!(ch(j), '-' | '\'' | '\u{2019}');
                if joiner && ch(j + 1).is_alphabetic() {
                    j += 1;
                    continue;
                }
                break;
            }
            let mut w = doc[byte(i)..byte(j)]
                .to_lowercase()
                .replace('\u{2019}', "'");
            if (w == "e" || w == "i")
                && ch(j) == '.'
                && ch(j + 1).is_alphabetic()
                && ch(j + 2) == '.'
            {
                w = format!("{}.{}.", w, ch(j + 1).to_lowercase());
                j += 3;
            }
            push(&mut out, Tk::Word, w, byte(i), byte(j), sent);
            i = j;
            continue;
        }
        // punctuation
        let (p, len): (&str, usize) = match (c, ch(i + 1), ch(i + 2)) {
            ('.', '.', '=') => ("..=", 3),
            ('.', '.', _) => ("..", 2),
            ('<', '=', _) => ("<=", 2),
            ('>', '=', _) => (">=", 2),
            ('\u{2264}', _, _) => ("<=", 1),
            ('\u{2265}', _, _) => (">=", 1),
            ('\u{2013}', _, _) | ('\u{2212}', _, _) => ("-", 1),
            _ => ("", 1),
        };
        let s = if p.is_empty() {
            c.to_string()
        } else {
            p.to_string()
        };
        let a = byte(i);
        let b = byte(i + len);
        let ends = matches!(c, '.' | '!' | '?')
            && p.is_empty()
            && (i + 1 >= n || ch(i + 1).is_whitespace());
        let abbrev = out
            .last()
            .is_some_and(|t| t.k == Tk::Word && ABBREV.contains(&t.s.as_str()));
        push(&mut out, Tk::Punct, s, a, b, sent);
        if ends && !abbrev {
            sent += 1;
        }
        i += len;
    }
    out
}

// ---------------------------------------------------------------------------
// Token helpers
// ---------------------------------------------------------------------------

fn word(t: &[Tok], i: usize) -> &str {
    match t.get(i) {
        Some(x) if x.k == Tk::Word => &x.s,
        _ => "",
    }
}

/// Text of a word, number or punctuation token (never of code or quotes).
fn text(t: &[Tok], i: usize) -> &str {
    match t.get(i) {
        Some(x) if matches!(x.k, Tk::Word | Tk::Punct | Tk::Num) => &x.s,
        _ => "",
    }
}

fn kind(t: &[Tok], i: usize) -> Option<Tk> {
    t.get(i).map(|x| x.k)
}

fn seq(t: &[Tok], i: usize, words: &[&str]) -> bool {
    words.iter().enumerate().all(|(k, w)| text(t, i + k) == *w)
}

fn prev_word(t: &[Tok], i: usize, back: usize) -> &str {
    if i < back || t[i - back].sent != t[i].sent {
        ""
    } else {
        word(t, i - back)
    }
}

fn is_lit(t: &[Tok], i: usize) -> bool {
    matches!(kind(t, i), Some(Tk::Code) | Some(Tk::Quoted))
}

const NUMBER_WORDS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

#[derive(Clone, Copy, Debug)]
struct Val {
    v: f64,
    /// Index of the value's last token.
    end: usize,
    year: bool,
    date: bool,
    word: bool,
}

/// A date literal's format ("date" or "date-time"), if `s` starts with `dddd-dd-dd`.
fn date_literal(s: &str) -> Option<&'static str> {
    let b = s.as_bytes();
    let d = |k: usize| b.get(k).is_some_and(|c| c.is_ascii_digit());
    let shape = (0..4).all(d)
        && b.get(4) == Some(&b'-')
        && d(5)
        && d(6)
        && b.get(7) == Some(&b'-')
        && d(8)
        && d(9);
    if !shape {
        return None;
    }
    match b.get(10) {
        None => Some("date"),
        Some(b't') | Some(b' ') if d(11) => Some("date-time"),
        Some(c) if !c.is_ascii_alphanumeric() => Some("date"),
        _ => None,
    }
}

fn is_year(v: f64, digits: usize) -> bool {
    digits == 4 && v.fract() == 0.0 && (1800.0..=2199.0).contains(&v)
}

/// A number at `i`: digits, a number word, a date (`2001-01-01`, in a code span or not), or "January 2001".
fn value_at(t: &[Tok], i: usize) -> Option<Val> {
    let tok = t.get(i)?;
    if tok.s == "-"
        && kind(t, i + 1) == Some(Tk::Num)
        && (i == 0 || kind(t, i - 1) != Some(Tk::Num))
    {
        let v = value_at(t, i + 1)?;
        return Some(Val {
            v: -v.v,
            year: false,
            date: false,
            ..v
        });
    }
    match tok.k {
        Tk::Num => {
            let v = tok.num?;
            let date_chain = tok.digits == 4
                && text(t, i + 1) == "-"
                && kind(t, i + 2) == Some(Tk::Num)
                && t[i + 2].digits <= 2
                && text(t, i + 3) == "-"
                && (kind(t, i + 4) == Some(Tk::Num)
                    || word(t, i + 4).chars().take(2).all(|c| c.is_ascii_digit())
                        && !word(t, i + 4).is_empty());
            if date_chain {
                return Some(Val {
                    v,
                    end: i + 4,
                    year: true,
                    date: true,
                    word: false,
                });
            }
            Some(Val {
                v,
                end: i,
                year: is_year(v, tok.digits),
                date: false,
                word: false,
            })
        }
        Tk::Word => {
            if let Some(p) = NUMBER_WORDS.iter().position(|w| *w == tok.s) {
                return Some(Val {
                    v: p as f64,
                    end: i,
                    year: false,
                    date: false,
                    word: true,
                });
            }
            if MONTHS.contains(&tok.s.as_str()) && kind(t, i + 1) == Some(Tk::Num) {
                let y = &t[i + 1];
                let v = y.num?;
                if is_year(v, y.digits) {
                    return Some(Val {
                        v,
                        end: i + 1,
                        year: true,
                        date: true,
                        word: false,
                    });
                }
            }
            None
        }
        Tk::Code => {
            if date_literal(&tok.s).is_some() {
                let v: f64 = tok.s[..4].parse().ok()?;
                return Some(Val {
                    v,
                    end: i,
                    year: true,
                    date: true,
                    word: false,
                });
            }
            let v: f64 = tok.s.parse().ok()?;
            Some(Val {
                v,
                end: i,
                year: false,
                date: false,
                word: false,
            })
        }
        _ => None,
    }
}

/// A sentence that describes the output ("Returns up to 10 results") states no input constraint.
const OUTPUT_VERBS: &[&str] = &[
    "returns", "return", "yields", "responds", "produces", "displays", "prints", "outputs",
];

fn in_output_sentence(t: &[Tok], i: usize) -> bool {
    (0..i)
        .rev()
        .take_while(|&j| t[j].sent == t[i].sent)
        .any(|j| {
            let w = word(t, j);
            OUTPUT_VERBS.contains(&w)
                && !(w == "return" && matches!(prev_word(t, j, 1), "to" | "not"))
        })
}

// ---------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------

/// What a number measures, read from the word after it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Unit {
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
struct Bound {
    v: f64,
    exclusive: bool,
}

#[derive(Clone, Debug)]
enum What {
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
struct Found {
    what: What,
    t0: usize,
    t1: usize,
    /// Reported even in a sentence about the output (servable ranges).
    always: bool,
}

fn found(what: What, t0: usize, t1: usize) -> Found {
    Found {
        what,
        t0,
        t1,
        always: false,
    }
}

fn bound(min: Option<Bound>, max: Option<Bound>, unit: Unit) -> What {
    What::Bound {
        min,
        max,
        unit,
        integer: false,
    }
}

fn incl(v: f64) -> Option<Bound> {
    Some(Bound {
        v,
        exclusive: false,
    })
}

fn excl(v: f64) -> Option<Bound> {
    Some(Bound { v, exclusive: true })
}

const CHAR_UNITS: &[&str] = &[
    "character",
    "characters",
    "char",
    "chars",
    "byte",
    "bytes",
    "codepoint",
    "codepoints",
    "kb",
    "mb",
    "gb",
    "kib",
    "mib",
    "word",
    "words",
    "sentence",
    "sentences",
    "line",
    "lines",
    "paragraph",
    "paragraphs",
    "token",
    "tokens",
    "graphemes",
];
const ITEM_UNITS: &[&str] = &[
    "item", "items", "element", "elements", "entry", "entries", "value", "values", "ids", "list",
];
const TIME_UNITS: &[&str] = &[
    "second",
    "seconds",
    "sec",
    "secs",
    "s",
    "ms",
    "millisecond",
    "milliseconds",
    "minute",
    "minutes",
    "mins",
    "hour",
    "hours",
    "hr",
    "hrs",
    "h",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "times",
    "percent",
    "retries",
    "attempts",
];
const SKIP_ADJ: &[&str] = &[
    "unicode",
    "ascii",
    "utf-8",
    "total",
    "distinct",
    "unique",
    "individual",
    "separate",
    "more",
    "additional",
    "non-empty",
    "nonempty",
    "printable",
    "single",
    "other",
];
/// Words that are never the noun a number counts.
const FUNCTION_WORDS: &[&str] = &[
    "and",
    "or",
    "but",
    "to",
    "per",
    "of",
    "in",
    "on",
    "for",
    "is",
    "are",
    "be",
    "if",
    "the",
    "a",
    "an",
    "when",
    "with",
    "by",
    "at",
    "as",
    "this",
    "that",
    "it",
    "its",
    "was",
    "has",
    "does",
    "us",
    "less",
    "unless",
    "plus",
    "always",
    "thus",
    "yes",
    "across",
    "this",
    "his",
    "than",
    "from",
    "inclusive",
    "exclusive",
    "max",
    "min",
    "maximum",
    "minimum",
    "default",
    "defaults",
    "chars",
    "after",
    "before",
    "since",
    "per",
    "each",
    "es",
];

fn class_of(adj: &str) -> Option<&'static str> {
    Some(match adj {
        "uppercase" | "upper-case" | "capital" => "A-Z",
        "lowercase" | "lower-case" => "a-z",
        "alphanumeric" => "A-Za-z0-9",
        "hex" | "hexadecimal" => "0-9a-f",
        "numeric" | "decimal" => "0-9",
        _ => return None,
    })
}

/// The unit after a number at `j`: returns the unit and the index of its last token
/// (or `j - 1` when there is none). `None` means the number is followed by "of" ("one of").
fn unit_at(t: &[Tok], j: usize, v: f64) -> Option<(Unit, usize)> {
    let mut k = j;
    let mut class: Option<&'static str> = None;
    for _ in 0..2 {
        let w = word(t, k);
        if let Some(c) = class_of(w) {
            class = Some(c);
            k += 1;
        } else if SKIP_ADJ.contains(&w) {
            k += 1;
        } else {
            break;
        }
    }
    let w = word(t, k);
    if w == "of" {
        return None;
    }
    let unit = if matches!(w, "letter" | "letters") {
        Unit::Class(class.unwrap_or("A-Za-z"))
    } else if matches!(w, "digit" | "digits") {
        Unit::Class("0-9")
    } else if CHAR_UNITS.contains(&w) {
        class.map(Unit::Class).unwrap_or(Unit::Chars)
    } else if ITEM_UNITS.contains(&w) {
        Unit::Items
    } else if TIME_UNITS.contains(&w) || text(t, k) == "%" {
        Unit::Time
    } else if !w.is_empty()
        && !FUNCTION_WORDS.contains(&w)
        && w.chars().all(|c| c.is_alphabetic() || c == '-' || c == '_')
        && (w.len() >= 3 && w.ends_with('s') && !w.ends_with("ss") || v == 1.0)
    {
        Unit::Count
    } else if !w.is_empty()
        && !FUNCTION_WORDS.contains(&w)
        && w.chars().all(char::is_alphabetic)
        && {
            let n = word(t, k + 1);
            n.len() >= 4
                && n.ends_with('s')
                && !n.ends_with("ss")
                && !FUNCTION_WORDS.contains(&n)
                && !TIME_UNITS.contains(&n)
        }
    {
        // "3 stop sequences": a noun used as an adjective, then the counted noun
        return Some((Unit::Count, k + 1));
    } else {
        return Some((Unit::None, j.saturating_sub(1)));
    };
    Some((unit, k))
}

/// "when at least one file has changed" describes a situation, not a rule.
fn in_condition(t: &[Tok], i: usize) -> bool {
    (1..=4).any(|b| {
        matches!(
            prev_word(t, i, b),
            "when" | "if" | "unless" | "whenever" | "once"
        )
    })
}

fn has_cue(t: &[Tok], i: usize) -> bool {
    const CUES: &[&str] = &[
        "must", "should", "be", "cannot", "shall", "need", "needs", "required", "value", "values",
        "only", "allowed", "may", "number", "no", "not", "length",
    ];
    (1..=3).any(|b| CUES.contains(&prev_word(t, i, b)))
        || (i > 0 && matches!(text(t, i - 1), "(" | ":" | ","))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Max,
    Min,
    MaxEx,
    MinEx,
    Exact,
}

/// Phrases that state a bound, longest first; `true` marks a comparative that
/// needs a cue ("must be greater than 0") so that "takes less than 5 seconds" stays prose.
const OPS: &[(&[&str], Op, bool)] = &[
    (&["less", "than", "or", "equal", "to"], Op::Max, false),
    (&["greater", "than", "or", "equal", "to"], Op::Min, false),
    (&["up", "to", "and", "including"], Op::Max, false),
    (&["must", "not", "exceed"], Op::Max, false),
    (&["may", "not", "exceed"], Op::Max, false),
    (&["should", "not", "exceed"], Op::Max, false),
    (&["not", "to", "exceed"], Op::Max, false),
    (&["no", "more", "than"], Op::Max, false),
    (&["not", "more", "than"], Op::Max, false),
    (&["no", "greater", "than"], Op::Max, false),
    (&["not", "greater", "than"], Op::Max, false),
    (&["no", "larger", "than"], Op::Max, false),
    (&["no", "longer", "than"], Op::Max, false),
    (&["not", "longer", "than"], Op::Max, false),
    (&["no", "less", "than"], Op::Min, false),
    (&["not", "less", "than"], Op::Min, false),
    (&["no", "fewer", "than"], Op::Min, false),
    (&["not", "fewer", "than"], Op::Min, false),
    (&["no", "shorter", "than"], Op::Min, false),
    (&["no", "smaller", "than"], Op::Min, false),
    (&["cannot", "exceed"], Op::Max, false),
    (&["can't", "exceed"], Op::Max, false),
    (&["not", "exceed"], Op::Max, false),
    (&["at", "most"], Op::Max, false),
    (&["at", "least"], Op::Min, false),
    (&["up", "to"], Op::Max, false),
    (&["maximum", "of"], Op::Max, false),
    (&["max", "of"], Op::Max, false),
    (&["minimum", "of"], Op::Min, false),
    (&["min", "of"], Op::Min, false),
    (&["limited", "to"], Op::Max, false),
    (&["limit", "of"], Op::Max, false),
    (&["capped", "at"], Op::Max, false),
    (&["cap", "of"], Op::Max, false),
    (&["less", "than"], Op::MaxEx, true),
    (&["fewer", "than"], Op::MaxEx, true),
    (&["shorter", "than"], Op::MaxEx, true),
    (&["smaller", "than"], Op::MaxEx, true),
    (&["lower", "than"], Op::MaxEx, true),
    (&["greater", "than"], Op::MinEx, true),
    (&["more", "than"], Op::MinEx, true),
    (&["larger", "than"], Op::MinEx, true),
    (&["longer", "than"], Op::MinEx, true),
    (&["higher", "than"], Op::MinEx, true),
    (&["exactly"], Op::Exact, false),
    (&["maximum"], Op::Max, false),
    (&["max"], Op::Max, false),
    (&["minimum"], Op::Min, false),
    (&["min"], Op::Min, false),
    (&["<="], Op::Max, false),
    (&[">="], Op::Min, false),
    (&["<"], Op::MaxEx, false),
    (&[">"], Op::MinEx, false),
];

/// A bound operator at `i`: the operator, the index of the value, and a unit hint
/// from words like "length" in "maximum length of 200".
fn bound_op(t: &[Tok], i: usize) -> Option<(Op, usize, Unit, bool)> {
    let (phrase, mut op, cue) = OPS.iter().find(|(p, _, _)| seq(t, i, p))?;
    let weak = *cue && !has_cue(t, i);
    let mut j = i + phrase.len();
    if matches!(op, Op::MaxEx | Op::MinEx) && seq(t, j, &["or", "equal", "to"]) {
        op = if op == Op::MaxEx { Op::Max } else { Op::Min };
        j += 3;
    }
    let mut hint = Unit::None;
    if phrase.len() == 1 && matches!(phrase[0], "max" | "maximum" | "min" | "minimum") {
        if text(t, j) == "." {
            j += 1;
        }
        // "maximum length is 200", "max items: 10"
        let mut k = j;
        while k < j + 2
            && kind(t, k) == Some(Tk::Word)
            && value_at(t, k).is_none()
            && !matches!(word(t, k), "is" | "of")
        {
            k += 1;
        }
        if k > j {
            if !matches!(text(t, k), ":" | "=" | "is" | "of") {
                return None;
            }
            for w in j..k {
                let w = word(t, w);
                if matches!(w, "length" | "len" | "characters" | "chars" | "bytes") {
                    hint = Unit::Chars;
                } else if matches!(w, "items" | "entries" | "elements") {
                    hint = Unit::Items;
                }
            }
            j = k + 1;
        } else if matches!(text(t, j), ":" | "=" | "is") {
            j += 1;
        }
    }
    Some((op, j, hint, weak))
}

fn apply(op: Op, v: f64) -> (Option<Bound>, Option<Bound>) {
    match op {
        Op::Max => (None, incl(v)),
        Op::MaxEx => (None, excl(v)),
        Op::Min => (incl(v), None),
        Op::MinEx => (excl(v), None),
        Op::Exact => (incl(v), incl(v)),
    }
}

// Family: bounds (Length, Range, Items) — "at most 200 characters", "max 50",
// "at least one tag", "<= 100", and postfix forms "200 characters max", "1 or more".
fn detect_bounds(t: &[Tok], out: &mut Vec<Found>) {
    for i in 0..t.len() {
        if let Some((op, j, hint, weak)) = bound_op(t, i) {
            let Some(val) = value_at(t, j) else { continue };
            if in_condition(t, i) {
                continue;
            }
            if val.date || text(t, val.end + 1) == "-" && kind(t, val.end + 2) == Some(Tk::Num) {
                continue; // dates and "1-5" ranges belong to other detectors
            }
            let Some((mut unit, end)) = unit_at(t, val.end + 1, val.v) else {
                continue;
            };
            if unit == Unit::None {
                unit = hint;
            }
            // "takes less than 5 seconds" is prose; "fewer than 80 characters" is a bound
            if weak && !matches!(unit, Unit::Chars | Unit::Class(_) | Unit::Items) {
                continue;
            }
            if val.year
                && unit == Unit::None
                && matches!(op, Op::Min | Op::MinEx | Op::Max | Op::MaxEx)
            {
                unit = Unit::Year;
            }
            let (min, max) = apply(op, val.v);
            out.push(found(bound(min, max, unit), i, end.max(val.end)));
        }
        // postfix: "200 characters max", "10 or fewer tags", "1 or more"
        if let Some(val) = value_at(t, i) {
            if val.date || (i > 0 && bound_op(t, i - 1).is_some()) || in_condition(t, i) {
                continue;
            }
            let Some((unit, end)) = unit_at(t, val.end + 1, val.v) else {
                continue;
            };
            let k = end.max(val.end) + 1;
            let op = if matches!(word(t, k), "max" | "maximum") || seq(t, k, &["at", "most"]) {
                Some((Op::Max, k + usize::from(word(t, k) == "at")))
            } else if seq(t, k, &["at", "least"]) {
                Some((Op::Min, k + 1))
            } else if word(t, k) == "or"
                && matches!(
                    word(t, k + 1),
                    "less" | "fewer" | "shorter" | "smaller" | "below"
                )
            {
                Some((Op::Max, k + 1))
            } else if word(t, k) == "or"
                && matches!(
                    word(t, k + 1),
                    "more" | "greater" | "larger" | "longer" | "above"
                )
            {
                Some((Op::Min, k + 1))
            } else {
                None
            };
            let Some((op, last)) = op else { continue };
            // "1 or more tags": the unit follows the operator
            let (unit, last) =
                if unit == Unit::None && word(t, last) != "max" && word(t, last) != "maximum" {
                    match unit_at(t, last + 1, val.v) {
                        Some((u, e)) if u != Unit::None => (u, e),
                        _ => (unit, last),
                    }
                } else {
                    (unit, last)
                };
            let (min, max) = apply(op, val.v);
            out.push(found(bound(min, max, unit), i, last));
        }
    }
}

/// Words before a bare "3-5" that make it a reference, not a constraint ("lines 3-5").
const REFERENCE_NOUNS: &[&str] = &[
    "line", "lines", "page", "pages", "row", "rows", "column", "columns", "chapter", "chapters",
    "section", "sections", "verse", "verses", "version", "versions", "step", "steps", "rfc",
    "http", "issues", "issue", "python", "node", "ports", "port", "v", "edition", "volume",
    "figure", "table",
];

// Family: spans (Length, Range, Items) — "between 1 and 100", "from 2001 to 2020",
// "1-200 chars", "(1-100)", "1 to 50 items", "in the range [1, 100]", "`1..=200`".
fn detect_spans(t: &[Tok], out: &mut Vec<Found>) {
    for i in 0..t.len() {
        let lead = word(t, i);
        let (a_at, led) = if matches!(lead, "between" | "from") {
            (i + 1, true)
        } else {
            (i, false)
        };
        if let Some(a) = value_at(t, a_at) {
            let sep = text(t, a.end + 1);
            let ok_sep = match lead {
                "between" => matches!(sep, "and" | "-" | "to"),
                "from" => matches!(sep, "to" | "-" | "through" | "until"),
                _ => matches!(sep, "-" | "to" | ".." | "..=" | "through"),
            };
            let Some(b) = value_at(t, a.end + 2) else {
                continue;
            };
            if !ok_sep || a.date != b.date || b.v < a.v {
                continue;
            }
            if !led {
                // a bare "3-5": not part of a date or version chain, not after "between"/"from"
                if a.word
                    || b.word
                    || text(t, b.end + 1) == "-"
                    || text(t, b.end + 1) == "." && kind(t, b.end + 2) == Some(Tk::Num)
                {
                    continue;
                }
                if i > 0
                    && (matches!(word(t, i - 1), "between" | "from")
                        || text(t, i - 1) == "-"
                        || text(t, i - 1) == ".")
                {
                    continue;
                }
            }
            let Some((mut unit, uend)) = unit_at(t, b.end + 1, b.v) else {
                continue;
            };
            if !led {
                let prev = if i > 0 { text(t, i - 1) } else { "" };
                let closes = matches!(text(t, uend.max(b.end) + 1), "." | ";" | "");
                let cue = unit != Unit::None
                    || (prev == "," && closes)
                    || matches!(
                        prev,
                        "(" | ":"
                            | "="
                            | "be"
                            | "is"
                            | "range"
                            | "in"
                            | "within"
                            | "values"
                            | "value"
                            | "accepts"
                    )
                    || matches!(
                        text(t, uend.max(b.end) + 1),
                        ")" | "inclusive" | "exclusive" | "range"
                    );
                if !cue || REFERENCE_NOUNS.contains(&prev) || (unit == Unit::Count && a.year) {
                    continue;
                }
            }
            if unit == Unit::None && a.year && b.year {
                unit = Unit::Year;
            }
            out.push(found(bound(incl(a.v), incl(b.v), unit), i, uend.max(b.end)));
            continue;
        }
        // "in the range [1, 100]"
        if matches!(text(t, i), "[" | "(")
            && matches!(prev_word(t, i, 1), "range" | "in" | "within")
        {
            if let (Some(a), true) = (value_at(t, i + 1), text(t, i + 2) == ",") {
                if let Some(b) = value_at(t, i + 3) {
                    if matches!(text(t, b.end + 1), "]" | ")") {
                        out.push(found(bound(incl(a.v), incl(b.v), Unit::None), i, b.end + 1));
                    }
                }
            }
        }
        // "`1..=200`" in a code span
        if kind(t, i) == Some(Tk::Code) {
            let s = &t[i].s;
            let (a, b, exclusive) = if let Some((a, b)) = s.split_once("..=") {
                (a, b, false)
            } else if let Some((a, b)) = s.split_once("..") {
                (a, b, true)
            } else {
                continue;
            };
            if let (Ok(a), Ok(b)) = (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
                let max = if exclusive { excl(b) } else { incl(b) };
                out.push(found(bound(incl(a), max, Unit::None), i, i));
            }
        }
    }
}

// Family: servable ranges (Range) — "records back to 2001", "no earlier than 2010",
// "since 2001", "2001 or later", "from 2001 onwards", "the earliest year is 2001".
fn detect_servable(t: &[Tok], out: &mut Vec<Found>) {
    const MIN_LEADS: &[&[&str]] = &[
        &["back", "to"],
        &["no", "earlier", "than"],
        &["not", "earlier", "than"],
        &["not", "before"],
        &["no", "sooner", "than"],
        &["on", "or", "after"],
        &["starting", "from"],
        &["starting", "in"],
        &["starting"],
        &["since"],
    ];
    const MAX_LEADS: &[&[&str]] = &[
        &["no", "later", "than"],
        &["not", "later", "than"],
        &["not", "after"],
        &["on", "or", "before"],
        &["through"],
        &["until"],
    ];
    for i in 0..t.len() {
        let lead = MIN_LEADS
            .iter()
            .map(|p| (p, true))
            .chain(MAX_LEADS.iter().map(|p| (p, false)))
            .find(|(p, _)| seq(t, i, p));
        if let Some((p, is_min)) = lead {
            if p[0] == "since"
                && matches!(
                    prev_word(t, i, 1),
                    "deprecated" | "removed" | "changed" | "added" | "introduced" | "renamed"
                )
            {
                continue;
            }
            let mut j = i + p.len();
            if matches!(word(t, j), "the" | "year" | "early" | "late") {
                j += 1;
            }
            if let Some(v) = value_at(t, j) {
                if v.year {
                    let b = incl(v.v);
                    let (min, max) = if is_min { (b, None) } else { (None, b) };
                    out.push(Found {
                        what: bound(min, max, Unit::Year),
                        t0: i,
                        t1: v.end,
                        always: true,
                    });
                    continue;
                }
            }
        }
        // "2001 or later", "2001 onwards", "from 2001 on"
        if let Some(v) = value_at(t, i) {
            if !v.year {
                continue;
            }
            let k = v.end + 1;
            let min = (matches!(word(t, k), "or" | "and")
                && matches!(word(t, k + 1), "later" | "newer" | "after"))
                || matches!(word(t, k), "onwards" | "onward" | "forward")
                || (word(t, k) == "on" && prev_word(t, i, 1) == "from");
            let max = matches!(word(t, k), "or" | "and")
                && matches!(word(t, k + 1), "earlier" | "older" | "before");
            let last = if matches!(word(t, k), "or" | "and") {
                k + 1
            } else {
                k
            };
            if min || max {
                let b = incl(v.v);
                let (lo, hi) = if min { (b, None) } else { (None, b) };
                let t0 = if prev_word(t, i, 1) == "from" {
                    i - 1
                } else {
                    i
                };
                out.push(Found {
                    what: bound(lo, hi, Unit::Year),
                    t0,
                    t1: last,
                    always: true,
                });
            }
        }
        // "dates before 1900 are not supported": the negation makes it a minimum
        if matches!(word(t, i), "before" | "after") {
            if let Some(v) = value_at(t, i + 1).filter(|v| v.year) {
                if (v.end + 1..v.end + 5)
                    .any(|k| matches!(word(t, k), "not" | "unsupported" | "unavailable"))
                {
                    let b = incl(v.v);
                    let (lo, hi) = if word(t, i) == "before" {
                        (b, None)
                    } else {
                        (None, b)
                    };
                    out.push(Found {
                        what: bound(lo, hi, Unit::Year),
                        t0: i,
                        t1: v.end,
                        always: true,
                    });
                }
            }
        }
        // "the earliest year is 2001", "earliest available date: 2001-01-01"
        if matches!(word(t, i), "earliest" | "oldest") {
            for k in i + 1..(i + 5).min(t.len()) {
                if let Some(v) = value_at(t, k) {
                    if v.year {
                        out.push(Found {
                            what: bound(incl(v.v), None, Unit::Year),
                            t0: i,
                            t1: v.end,
                            always: true,
                        });
                    }
                    break;
                }
            }
        }
    }
}

const LIST_WORDS: &[&str] = &[
    "list",
    "array",
    "vec",
    "set",
    "collection",
    "sequence",
    "lists",
    "arrays",
];

// Family: emptiness (Length, Items) — "non-empty", "must not be empty", "cannot be blank".
fn detect_emptiness(t: &[Tok], out: &mut Vec<Found>) {
    const NEGATED: &[&[&str]] = &[
        &["must", "not", "be", "empty"],
        &["must", "not", "be", "blank"],
        &["may", "not", "be", "empty"],
        &["should", "not", "be", "empty"],
        &["cannot", "be", "empty"],
        &["can't", "be", "empty"],
        &["cannot", "be", "blank"],
        &["must", "contain", "at", "least", "one"],
    ];
    for i in 0..t.len() {
        let w = word(t, i);
        if matches!(w, "non-empty" | "nonempty" | "non-blank" | "nonblank") {
            if matches!(prev_word(t, i, 1), "if" | "when" | "unless" | "whether") {
                continue;
            }
            let list = (1..=2).any(|k| LIST_WORDS.contains(&word(t, i + k)));
            out.push(found(What::NonEmpty { list }, i, i));
            continue;
        }
        if let Some(p) = NEGATED.iter().find(|p| seq(t, i, p)) {
            if p[1] == "contain" {
                continue; // "must contain at least one" is read by the bounds detector
            }
            let list = (1..=6).any(|b| LIST_WORDS.contains(&prev_word(t, i, b)));
            out.push(found(What::NonEmpty { list }, i, i + p.len() - 1));
        }
    }
}

// Family: signs (Range) — "a positive integer", "must be positive", "non-negative".
fn detect_signs(t: &[Tok], out: &mut Vec<Found>) {
    const NOUNS: &[&str] = &[
        "integer", "integers", "number", "numbers", "int", "value", "values", "whole", "amount",
        "count", "float", "decimal",
    ];
    for i in 0..t.len() {
        let w = word(t, i);
        let p = prev_word(t, i, 1);
        if matches!(p, "false" | "true") {
            continue;
        }
        let next_noun = NOUNS.contains(&word(t, i + 1));
        let integer = matches!(
            word(t, i + 1),
            "integer" | "integers" | "int" | "whole" | "count"
        );
        let what = match w {
            "positive" if next_noun || matches!(p, "be" | "must" | "only" | "strictly" | "is") => {
                What::Bound {
                    min: excl(0.0),
                    max: None,
                    unit: Unit::Year,
                    integer,
                }
            }
            "non-negative" | "nonnegative" if p != "false" => What::Bound {
                min: incl(0.0),
                max: None,
                unit: Unit::Year,
                integer,
            },
            _ => continue,
        };
        out.push(found(what, i, if next_noun { i + 1 } else { i }));
    }
}

/// Words that cannot be a value in a closed set ("one of the tools", "either way").
const NOT_VALUES: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "your",
    "my",
    "our",
    "their",
    "its",
    "his",
    "her",
    "them",
    "it",
    "they",
    "we",
    "you",
    "all",
    "any",
    "each",
    "every",
    "some",
    "several",
    "many",
    "more",
    "both",
    "other",
    "another",
    "way",
    "not",
    "no",
    "none",
    "following",
    "few",
    "two",
    "three",
    "us",
    "which",
    "what",
    "if",
    "is",
    "are",
    "be",
    "was",
    "to",
    "of",
    "in",
    "on",
    "at",
    "for",
    "with",
    "by",
    "from",
    "do",
    "does",
    "will",
    "can",
    "may",
    "must",
    "should",
    "use",
    "used",
    "when",
    "where",
    "how",
    "who",
    "there",
    "here",
    "then",
    "than",
    "so",
    "because",
    "only",
    "just",
    "also",
    "one",
    "same",
    "best",
    "most",
    "first",
    "last",
    "next",
    "side",
    "case",
    "cases",
    "option",
    "options",
    "kind",
    "type",
    "way",
    "him",
    "me",
    "less",
];

struct List {
    items: Vec<String>,
    last: usize,
    all_lit: bool,
    has_or: bool,
}

/// A list of at least one value at `i`: code spans, quoted strings or single words,
/// separated by ",", "or", "and", "|" or "/". A word list must end the clause.
fn parse_list(t: &[Tok], doc: &str, i: usize) -> Option<List> {
    let mut items = Vec::new();
    let mut j = i;
    let mut all_lit = true;
    let mut has_or = false;
    let mut last = i;
    loop {
        let tok = t.get(j)?;
        match tok.k {
            Tk::Code | Tk::Quoted => items.push(doc[tok.start + 1..tok.end - 1].to_string()),
            Tk::Word | Tk::Num
                if !NOT_VALUES.contains(&tok.s.as_str()) && tok.s.chars().count() <= 24 =>
            {
                all_lit = false;
                items.push(doc[tok.start..tok.end].to_string());
            }
            _ => break,
        }
        last = j;
        j += 1;
        if text(t, j) == "(" && word(t, j + 1) == "default" && text(t, j + 2) == ")" {
            j += 3;
        }
        let mut sep = false;
        if text(t, j) == "," {
            j += 1;
            sep = true;
        }
        if matches!(word(t, j), "or" | "and") {
            has_or |= word(t, j) == "or";
            j += 1;
            sep = true;
        } else if matches!(text(t, j), "|" | "/") {
            has_or = true;
            j += 1;
            sep = true;
        }
        if !sep {
            break;
        }
        // ", or" followed by something that is not a value ends the list
        if !matches!(kind(t, j), Some(Tk::Code | Tk::Quoted | Tk::Word | Tk::Num)) {
            break;
        }
    }
    if items.is_empty() {
        return None;
    }
    if !all_lit {
        let after = text(t, last + 1);
        let ends = last + 1 >= t.len()
            || t[last + 1].sent != t[last].sent
            || matches!(
                after,
                "." | ";" | "," | ")" | ":" | "(" | "\u{2014}" | "-" | "is" | "are"
            );
        if !ends {
            return None;
        }
    }
    Some(List {
        items,
        last,
        all_lit,
        has_or,
    })
}

/// "either `owner` or `org` must be provided" names arguments, not values.
fn names_arguments(t: &[Tok], last: usize) -> bool {
    (last + 1..last + 5).any(|k| {
        matches!(
            word(t, k),
            "required" | "provided" | "given" | "specified" | "supplied" | "set"
        )
    }) && matches!(
        word(t, last + 1),
        "must" | "is" | "are" | "should" | "has" | "have"
    )
}

// Family: closed sets (ClosedSet) — "one of draft, final", "only `asc` or `desc`",
// "either 'json' or 'csv'", "allowed values: a, b, c", "`asc` or `desc`".
fn detect_closed_sets(t: &[Tok], doc: &str, out: &mut Vec<Found>) {
    let mut covered = 0usize;
    for i in 0..t.len() {
        if i < covered {
            continue;
        }
        let w = word(t, i);
        let start = match w {
            "one" | "any" if text(t, i + 1) == "of" => {
                let before = (prev_word(t, i, 2), prev_word(t, i, 1));
                if matches!(before.1, "exactly" | "only" | "just" | "than")
                    || matches!(before, ("at", "least") | ("at", "most"))
                {
                    continue;
                }
                let mut j = i + 2;
                if seq(t, j, &["the", "following"]) {
                    j += 2;
                    if matches!(word(t, j), "values" | "options" | "choices" | "strings") {
                        j += 1;
                    }
                }
                if text(t, j) == ":" {
                    j += 1;
                }
                Some((j, false))
            }
            "either" => Some((i + 1, false)),
            "only" => Some((i + 1, true)),
            "values" | "options" | "choices" | "modes" | "formats" | "levels" => {
                let mut j = i + 1;
                if matches!(word(t, j), "are" | "include" | "is") {
                    j += 1;
                }
                if text(t, j) == ":" {
                    j += 1;
                }
                if j == i + 1 {
                    None
                } else {
                    Some((j, false))
                }
            }
            _ if is_lit(t, i) => Some((i, true)),
            _ => None,
        };
        let Some((j, lit_only)) = start else { continue };
        let Some(list) = parse_list(t, doc, j) else {
            continue;
        };
        if list.items.len() < 2 || (lit_only && !list.all_lit) {
            continue;
        }
        if (w == "either" || is_lit(t, i)) && !list.has_or {
            continue;
        }
        if names_arguments(t, list.last) {
            covered = list.last + 1;
            continue;
        }
        let bools = list
            .items
            .iter()
            .all(|s| matches!(s.to_lowercase().as_str(), "true" | "false" | "yes" | "no"));
        if bools {
            continue;
        }
        covered = list.last + 1;
        out.push(found(What::Set(list.items), i, list.last));
    }
}

/// The format named by a word, code span or quoted string: "yyyy-mm-dd", "2024-01-31".
fn format_of_text(s: &str) -> Option<What> {
    if let Some(rest) = s.strip_prefix("yyyy-mm-dd") {
        return Some(What::Format(
            if rest.starts_with('t') || rest.contains("hh") {
                "date-time"
            } else {
                "date"
            },
        ));
    }
    if let Some(f) = date_literal(s) {
        return Some(What::Format(f));
    }
    if s.contains("yyyy") || s == "hh:mm" || s == "hh:mm:ss" {
        return Some(if s.starts_with("hh") {
            What::Format("time")
        } else {
            What::Pattern(None)
        });
    }
    None
}

// Family: formats (Format) — "YYYY-MM-DD", "ISO 8601", "RFC 3339", "a UUID",
// "an email address", "a URL", "IPv4", "hostname", "HH:MM", and date literals.
// Decision: a date literal such as "e.g. `2024-01-31`" states the date format, so it fires.
fn detect_formats(t: &[Tok], out: &mut Vec<Found>) {
    let mut i = 0;
    while i < t.len() {
        let tok = &t[i];
        let w = word(t, i);
        let mut push = |what: What, t1: usize| out.push(found(what, i, t1));
        if matches!(tok.k, Tk::Word | Tk::Code | Tk::Quoted) {
            if let Some(what) = format_of_text(&tok.s) {
                push(what, i);
                i += 1;
                continue;
            }
        }
        if let Some(v) = value_at(t, i) {
            if v.date && tok.k == Tk::Num {
                let f = if kind(t, v.end) == Some(Tk::Word) {
                    "date-time"
                } else {
                    "date"
                };
                push(What::Format(f), v.end);
                i = v.end + 1;
                continue;
            }
        }
        let iso = (w == "iso"
            && (text(t, i + 1) == "8601" || text(t, i + 1) == "-" && text(t, i + 2) == "8601"))
            || w == "iso8601";
        let rfc = (w == "rfc" && text(t, i + 1) == "3339") || w == "rfc3339";
        if iso || rfc {
            let end = if w.len() > 3 {
                i
            } else if text(t, i + 1) == "-" {
                i + 2
            } else {
                i + 1
            };
            let mut f = "date-time";
            for k in end + 1..(end + 4).min(t.len()) {
                match word(t, k) {
                    "duration" | "durations" if iso => f = "duration",
                    "date"
                        if !matches!(word(t, k + 1), "time" | "and") && text(t, k + 1) != "-" =>
                    {
                        f = "date"
                    }
                    _ => continue,
                }
                break;
            }
            push(What::Format(f), end);
            i = end + 1;
            continue;
        }
        match w {
            "uuid" | "uuids" | "guid" | "uuidv4" => push(What::Format("uuid"), i),
            "email" | "e-mail" if matches!(word(t, i + 1), "address" | "addresses") => {
                push(What::Format("email"), i + 1)
            }
            "email" | "e-mail" if prev_word(t, i, 1) == "valid" => push(What::Format("email"), i),
            "url" | "uri" | "urls" | "uris"
                if !matches!(
                    word(t, i + 1),
                    "encoded"
                        | "encoding"
                        | "path"
                        | "parameter"
                        | "parameters"
                        | "query"
                        | "param"
                        | "params"
                        | "scheme"
                        | "fragment"
                        | "template"
                ) =>
            {
                push(What::Format("uri"), i)
            }
            "ipv4" | "ipv6" => push(What::Format(if w == "ipv4" { "ipv4" } else { "ipv6" }), i),
            "ip" if matches!(word(t, i + 1), "address" | "addresses") => {
                push(What::Format("ipv4"), i + 1)
            }
            "hostname" | "hostnames" | "fqdn" => push(What::Format("hostname"), i),
            "host" | "domain" if word(t, i + 1) == "name" => push(What::Format("hostname"), i + 1),
            "hh" if text(t, i + 1) == ":" && word(t, i + 2) == "mm" => {
                push(What::Format("time"), i + 2)
            }
            _ => {}
        }
        i += 1;
    }
}

const CLASS_WORDS: &[(&str, &str)] = &[
    ("letters", "A-Za-z"),
    ("letter", "A-Za-z"),
    ("digits", "0-9"),
    ("numbers", "0-9"),
    ("numerals", "0-9"),
    ("hyphens", "-"),
    ("hyphen", "-"),
    ("dashes", "-"),
    ("underscores", "_"),
    ("underscore", "_"),
    ("periods", "."),
    ("dots", "."),
    ("alphanumeric", "A-Za-z0-9"),
    ("alphanumerics", "A-Za-z0-9"),
];

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

// Family: patterns (Pattern) — "lowercase letters and digits only", "must match `^[A-Z]{1,5}$`",
// "no spaces", "must start with a letter", "kebab-case", "E.164", "ISO 3166 country code",
// "a 6-digit code", "hex string", "semver".
fn detect_patterns(t: &[Tok], doc: &str, out: &mut Vec<Found>) {
    for i in 0..t.len() {
        let w = word(t, i);
        // an explicit regex
        if kind(t, i) == Some(Tk::Code) && (t[i].s.starts_with('^') || t[i].s.ends_with('$')) {
            out.push(found(
                What::Pattern(Some(doc[t[i].start + 1..t[i].end - 1].to_string())),
                i,
                i,
            ));
            continue;
        }
        if matches!(w, "match" | "matches" | "matching") {
            let mut j = i + 1;
            while matches!(
                word(t, j),
                "the" | "regex" | "pattern" | "regular" | "expression" | "regexp"
            ) {
                j += 1;
            }
            if text(t, j) == ":" {
                j += 1;
            }
            if let Some(tok) = t.get(j) {
                if is_lit(t, j) {
                    if !tok.s.starts_with('^') {
                        out.push(found(
                            What::Pattern(Some(doc[tok.start + 1..tok.end - 1].to_string())),
                            i,
                            j,
                        ));
                    }
                    continue;
                }
                // a bare regex: take the raw text up to whitespace
                let rest = &doc[tok.start..];
                if rest.starts_with('^') {
                    let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
                    let re = rest[..len].trim_end_matches(['.', ',', ';']);
                    let endb = tok.start + re.len();
                    let last = (j..t.len())
                        .take_while(|&k| t[k].end <= endb)
                        .last()
                        .unwrap_or(j);
                    out.push(found(What::Pattern(Some(re.to_string())), i, last));
                }
            }
            continue;
        }
        // character classes: "lowercase letters, digits and hyphens only", "alphanumeric"
        if matches!(w, "hex" | "hexadecimal")
            && matches!(
                word(t, i + 1),
                "string" | "digits" | "characters" | "chars" | "color" | "colour"
            )
        {
            out.push(found(What::Pattern(Some("^[0-9a-f]+$".into())), i, i + 1));
            continue;
        }
        let is_class = |k: usize| {
            let x = word(t, k);
            CLASS_WORDS.iter().any(|(c, _)| *c == x)
                || (class_of(x).is_some() && !matches!(x, "hex" | "hexadecimal"))
        };
        // start a run of class words at its first word only
        let mid_run = i > 0
            && (is_class(i - 1)
                || (matches!(text(t, i - 1), "," | "and" | "or") && i > 1 && is_class(i - 2)));
        if is_class(i) && !mid_run {
            let mut k = i;
            let mut classes: Vec<&str> = Vec::new();
            let mut case: Option<&str> = None;
            let mut count = 0;
            loop {
                let x = word(t, k);
                if let Some((_, c)) = CLASS_WORDS.iter().find(|(c, _)| *c == x) {
                    let c = if c.contains("A-Za-z") && !c.contains('0') {
                        case.take().unwrap_or(c)
                    } else {
                        c
                    };
                    classes.push(c);
                    count += 1;
                } else if let Some(c) = class_of(x) {
                    if matches!(x, "uppercase" | "lowercase" | "upper-case" | "lower-case") {
                        case = Some(c);
                    } else {
                        classes.push(c);
                        count += 1;
                    }
                } else if !(matches!(x, "and" | "or" | "characters" | "ascii" | "only")
                    || text(t, k) == ",")
                {
                    break;
                }
                k += 1;
            }
            let last = k.saturating_sub(1);
            let sentence_only = (i.saturating_sub(4)..(k + 2).min(t.len()))
                .any(|m| word(t, m) == "only" && t[m].sent == t[i].sent)
                || (1..=4).any(|b| {
                    matches!(
                        prev_word(t, i, b),
                        "consisting" | "composed" | "contain" | "contains"
                    )
                });
            let strong = w == "alphanumeric" || (count >= 2) || (count >= 1 && sentence_only);
            // "must be lowercase"
            let case_only = case.is_some()
                && count == 0
                && matches!(prev_word(t, i, 1), "be" | "in")
                && matches!(prev_word(t, i, 2), "must" | "should" | "be" | "is");
            if strong || case_only {
                if let Some(c) = case {
                    classes.push(c);
                }
                let mut set: String = classes.iter().filter(|c| **c != "-").copied().collect();
                if classes.contains(&"-") {
                    set.push('-');
                }
                out.push(found(
                    What::Pattern(Some(format!("^[{set}]+$"))),
                    i,
                    last.max(i),
                ));
            }
            continue;
        }
        let spaces = matches!(w, "no" | "without")
            && matches!(word(t, i + 1), "spaces" | "whitespace")
            || seq(t, i, &["must", "not", "contain", "spaces"])
            || seq(t, i, &["cannot", "contain", "spaces"]);
        if spaces {
            out.push(found(What::Pattern(Some("^\\S+$".into())), i, i + 1));
            continue;
        }
        if matches!(w, "must" | "should")
            && matches!(
                word(t, i + 1),
                "start" | "begin" | "end" | "starts" | "begins" | "ends"
            )
            && word(t, i + 2) == "with"
        {
            out.push(found(What::Pattern(None), i, i + 3));
            continue;
        }
        let styled = matches!(
            w,
            "kebab-case"
                | "snake_case"
                | "snake-case"
                | "camelcase"
                | "camel-case"
                | "pascalcase"
                | "semver"
                | "slugified"
        ) || seq(t, i, &["semantic", "version"]);
        if styled {
            out.push(found(What::Pattern(None), i, i));
            continue;
        }
        if (matches!(w, "form" | "format")
            && matches!(prev_word(t, i, 1), "the" | "of")
            && matches!(prev_word(t, i, 2), "in" | "of"))
            || seq(t, i, &["formatted", "as"])
        {
            let j = i + if w == "formatted" { 2 } else { 1 };
            let j = if text(t, j) == ":" { j + 1 } else { j };
            let known = t.get(j).is_some_and(|x| format_of_text(&x.s).is_some());
            let shaped =
                is_lit(t, j) || (j..j + 3).any(|k| matches!(text(t, k), "/" | ":" | "#" | "@"));
            if shaped && !known {
                out.push(found(What::Pattern(None), i, j));
                continue;
            }
        }
        if seq(t, i, &["e", ".", "164"]) {
            out.push(found(
                What::Pattern(Some("^\\+[1-9][0-9]{1,14}$".into())),
                i,
                i + 2,
            ));
            continue;
        }
        let code = if w == "iso" {
            match text(t, i + 1) {
                "3166" => Some("^[A-Z]{2}$"),
                "4217" => Some("^[A-Z]{3}$"),
                "639" => Some("^[a-z]{2}$"),
                _ => None,
            }
        } else if matches!(w, "two-letter" | "alpha-2")
            || (word(t, i + 2) == "letter" && text(t, i + 1) == "-" && text(t, i) == "2")
        {
            Some("^[A-Z]{2}$")
        } else if w == "three-letter" {
            Some("^[A-Z]{3}$")
        } else {
            None
        };
        if let Some(re) = code {
            out.push(found(What::Pattern(Some(re.into())), i, i + 1));
            continue;
        }
        // "a 6-digit code", "a 40-character hex string"
        if kind(t, i) == Some(Tk::Num) && text(t, i + 1) == "-" {
            let n = text(t, i);
            let unit = word(t, i + 2);
            let re = match unit {
                "digit" => Some(format!("^[0-9]{{{n}}}$")),
                "letter" => Some(format!("^[A-Za-z]{{{n}}}$")),
                "character" | "char" => class_of(word(t, i + 3)).map(|c| format!("^[{c}]{{{n}}}$")),
                _ => None,
            };
            if let Some(re) = re {
                out.push(found(What::Pattern(Some(re)), i, i + 2));
                continue;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// From findings to claims
// ---------------------------------------------------------------------------

fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Bounds on a count (length, items) are integers: "fewer than 10" is "max = 9".
fn count_help(min: Option<Bound>, max: Option<Bound>) -> String {
    let mut parts = Vec::new();
    if let Some(b) = min {
        parts.push(format!(
            "min = {}",
            num(if b.exclusive {
                b.v.floor() + 1.0
            } else {
                b.v.ceil()
            })
        ));
    }
    if let Some(b) = max {
        parts.push(format!(
            "max = {}",
            num(if b.exclusive {
                b.v.ceil() - 1.0
            } else {
                b.v.floor()
            })
        ));
    }
    format!("#[arg(length({}))]", parts.join(", "))
}

fn range_help(min: Option<Bound>, max: Option<Bound>, integer: bool) -> String {
    let mut parts = Vec::new();
    if let Some(b) = min {
        parts.push(match (b.exclusive, integer) {
            (false, _) => format!("min = {}", num(b.v)),
            (true, true) => format!("min = {}", num(b.v.floor() + 1.0)),
            (true, false) => format!("exclusive_min = {}", num(b.v)),
        });
    }
    if let Some(b) = max {
        parts.push(match (b.exclusive, integer) {
            (false, _) => format!("max = {}", num(b.v)),
            (true, true) => format!("max = {}", num(b.v.ceil() - 1.0)),
            (true, false) => format!("exclusive_max = {}", num(b.v)),
        });
    }
    format!("#[arg(range({}))]", parts.join(", "))
}

fn class_help(class: &str, min: Option<Bound>, max: Option<Bound>) -> String {
    let lo = min.map(|b| num(if b.exclusive { b.v + 1.0 } else { b.v }));
    let hi = max.map(|b| num(if b.exclusive { b.v - 1.0 } else { b.v }));
    let rep = match (lo, hi) {
        (Some(a), Some(b)) if a == b => format!("{{{a}}}"),
        (Some(a), Some(b)) => format!("{{{a},{b}}}"),
        (Some(a), None) => format!("{{{a},}}"),
        (None, Some(b)) => format!("{{1,{b}}}"),
        (None, None) => "+".into(),
    };
    format!("#[arg(pattern = \"^[{class}]{rep}$\")]")
}

/// `value` as a regex that matches exactly it.
fn regex_literal(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn variant_name(value: &str) -> String {
    value
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut cs = p.chars();
            cs.next()
                .map(|f| f.to_uppercase().chain(cs).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

fn resolve(f: &Found, doc: &str, t: &[Tok], decl: Option<Declared>) -> Claim {
    let phrase = doc[t[f.t0].start..t[f.t1].end].to_string();
    let (kind, help) = match &f.what {
        What::Bound {
            min,
            max,
            unit,
            integer,
        } => {
            let kind = match unit {
                Unit::Class(_) => ClaimKind::Pattern,
                Unit::Year | Unit::Time => ClaimKind::Range,
                _ => match decl {
                    Some(d) if d.is_number => ClaimKind::Range,
                    Some(d) if d.is_list => {
                        if *unit == Unit::Chars {
                            ClaimKind::Length
                        } else {
                            ClaimKind::Items
                        }
                    }
                    Some(d) if d.is_string => match unit {
                        Unit::Chars | Unit::None => ClaimKind::Length,
                        _ => ClaimKind::Items,
                    },
                    _ => match unit {
                        Unit::Chars => ClaimKind::Length,
                        Unit::Items | Unit::Count => ClaimKind::Items,
                        _ => ClaimKind::Range,
                    },
                },
            };
            let integer = *integer;
            let help = match (kind, unit) {
                (ClaimKind::Pattern, Unit::Class(c)) => class_help(c, *min, *max),
                (ClaimKind::Range, _) => range_help(*min, *max, integer),
                _ => count_help(*min, *max),
            };
            (kind, help)
        }
        What::NonEmpty { list } => {
            let kind = match decl {
                Some(d) if d.is_list => ClaimKind::Items,
                Some(d) if d.is_string => ClaimKind::Length,
                _ if *list => ClaimKind::Items,
                _ => ClaimKind::Length,
            };
            (kind, "#[arg(length(min = 1))]".to_string())
        }
        What::Set(items) => {
            let variants: Vec<String> = items.iter().map(|s| variant_name(s)).collect();
            let alternatives: Vec<String> = items.iter().map(|s| regex_literal(s)).collect();
            (
                ClaimKind::ClosedSet,
                format!(
                    "make the argument an enum with `#[derive(ToolArgs)]` and variants {}, or declare `#[arg(pattern = \"^({})$\")]`",
                    variants.join(", "),
                    escape(&alternatives.join("|"))
                ),
            )
        }
        What::Format(f) => (ClaimKind::Format, format!("#[arg(format = \"{f}\")]")),
        What::Pattern(re) => (
            ClaimKind::Pattern,
            format!(
                "#[arg(pattern = \"{}\")]",
                re.as_deref().map(escape).unwrap_or_else(|| "...".into())
            ),
        ),
    };
    Claim { kind, phrase, help }
}

/// "at least 1 and at most 200 characters": one claim with both bounds and the later unit.
fn merge_bounds(fs: &mut Vec<Found>, t: &[Tok]) {
    fs.sort_by_key(|f| (f.t0, std::cmp::Reverse(f.t1)));
    let mut i = 0;
    while i + 1 < fs.len() {
        let (a, b) = (&fs[i], &fs[i + 1]);
        let joinable = b.t0 > a.t1
            && b.t0 <= a.t1 + 3
            && t[a.t0].sent == t[b.t0].sent
            && (a.t1 + 1..b.t0).all(|k| matches!(text(t, k), "and" | "," | "but" | ";"));
        if let (
            true,
            What::Bound {
                min: amin,
                max: amax,
                unit: au,
                integer: ai,
            },
            What::Bound {
                min: bmin,
                max: bmax,
                unit: bu,
                integer: bi,
            },
        ) = (joinable, &a.what, &b.what)
        {
            let complementary =
                (amin.is_some() != bmin.is_some()) && (amax.is_some() != bmax.is_some());
            if complementary && (*au == Unit::None || au == bu) {
                let what = What::Bound {
                    min: amin.or(*bmin),
                    max: amax.or(*bmax),
                    unit: *bu,
                    integer: *ai || *bi,
                };
                let merged = Found {
                    what,
                    t0: a.t0,
                    t1: b.t1,
                    always: a.always || b.always,
                };
                fs[i] = merged;
                fs.remove(i + 1);
                continue;
            }
        }
        i += 1;
    }
}

fn resolve_all(doc: &str, decl: Option<Declared>) -> Vec<Claim> {
    let t = tokenize(doc);
    let mut fs = Vec::new();
    detect_bounds(&t, &mut fs);
    detect_spans(&t, &mut fs);
    detect_servable(&t, &mut fs);
    detect_emptiness(&t, &mut fs);
    detect_signs(&t, &mut fs);
    detect_closed_sets(&t, doc, &mut fs);
    detect_formats(&t, &mut fs);
    detect_patterns(&t, doc, &mut fs);
    fs.retain(|f| f.always || !in_output_sentence(&t, f.t0));
    merge_bounds(&mut fs, &t);
    let mut resolved: Vec<(usize, usize, Claim)> = fs
        .iter()
        .map(|f| (f.t0, f.t1, resolve(f, doc, &t, decl)))
        .collect();
    // Of two overlapping claims of the same kind, keep the longer (then the earlier).
    resolved.sort_by_key(|(a, b, _)| (std::cmp::Reverse(b - a), *a));
    let mut kept: Vec<(usize, usize, Claim)> = Vec::new();
    for (a, b, c) in resolved {
        if !kept
            .iter()
            .any(|(ka, kb, kc)| kc.kind == c.kind && a <= *kb && *ka <= b)
        {
            kept.push((a, b, c));
        }
    }
    kept.sort_by_key(|(a, _, _)| *a);
    kept.into_iter().map(|(_, _, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(doc: &str) -> Vec<ClaimKind> {
        claims(doc).into_iter().map(|c| c.kind).collect()
    }

    #[test]
    fn servable_year_names_its_range() {
        let c = claims("Year to fetch; records go back to 2001.");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].kind, ClaimKind::Range);
        assert_eq!(c[0].phrase, "back to 2001");
        assert_eq!(c[0].help, "#[arg(range(min = 2001))]");
    }

    #[test]
    fn type_decides_a_bare_bound() {
        let doc = "Search text, at most 50.";
        let on = |d: Declared| {
            unmatched(doc, d)
                .into_iter()
                .map(|c| c.kind)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            on(Declared {
                is_number: true,
                ..Declared::default()
            }),
            [ClaimKind::Range]
        );
        assert_eq!(
            on(Declared {
                is_string: true,
                ..Declared::default()
            }),
            [ClaimKind::Length]
        );
        assert_eq!(
            on(Declared {
                is_list: true,
                ..Declared::default()
            }),
            [ClaimKind::Items]
        );
        assert!(on(Declared {
            is_string: true,
            length: true,
            ..Declared::default()
        })
        .is_empty());
    }

    #[test]
    fn helps_fill_in_numbers_and_values() {
        let c = claims("Title, between 1 and 200 characters.");
        assert_eq!(c[0].help, "#[arg(length(min = 1, max = 200))]");
        let c = claims("Sort order: only `asc` or `desc`.");
        assert_eq!(c[0].kind, ClaimKind::ClosedSet);
        assert!(c[0].help.contains("Asc, Desc"), "{}", c[0].help);
        let c = claims("Due date in YYYY-MM-DD format.");
        assert_eq!(c[0].help, "#[arg(format = \"date\")]");
        let c = claims("A ticker symbol of 1-5 uppercase letters.");
        assert_eq!(
            kinds("A ticker symbol of 1-5 uppercase letters."),
            [ClaimKind::Pattern]
        );
        assert_eq!(c[0].help, "#[arg(pattern = \"^[A-Z]{1,5}$\")]");
        let c = claims("Page size; at least 1 and at most 100.");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].help, "#[arg(range(min = 1, max = 100))]");
    }

    #[test]
    fn declared_constraints_satisfy_claims() {
        let d = Declared {
            format: true,
            is_string: true,
            ..Declared::default()
        };
        assert!(unmatched("An ISO 8601 date.", d).is_empty());
        let d = Declared {
            closed_set: true,
            ..Declared::default()
        };
        assert!(unmatched("One of draft, final.", d).is_empty());
        let d = Declared {
            is_string: true,
            ..Declared::default()
        };
        assert_eq!(unmatched("One of draft, final.", d).len(), 1);
    }

    #[derive(Default)]
    struct Score {
        tp: usize,
        fp: usize,
        fneg: usize,
    }

    fn parse_kind(s: &str) -> ClaimKind {
        match s.trim() {
            "Length" => ClaimKind::Length,
            "Range" => ClaimKind::Range,
            "Items" => ClaimKind::Items,
            "ClosedSet" => ClaimKind::ClosedSet,
            "Format" => ClaimKind::Format,
            "Pattern" => ClaimKind::Pattern,
            other => panic!("unknown label {other:?} in the corpus"),
        }
    }

    /// Precision and recall over (entry, kind) pairs of the labelled corpus.
    #[test]
    fn corpus_precision_and_recall() {
        let corpus = include_str!("../tests/prose_corpus.txt");
        let mut score = Score::default();
        let mut held = Score::default();
        let mut in_held_out = false;
        let mut entries = 0;
        let mut negatives = 0;
        for (n, line) in corpus.lines().enumerate() {
            if line.starts_with('#') {
                in_held_out |= line.contains("held-out");
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let mut cols = line.splitn(3, '\t');
            let (Some(labels), Some(ty), Some(doc)) = (cols.next(), cols.next(), cols.next())
            else {
                panic!("corpus line {} needs three tab-separated columns", n + 1);
            };
            entries += 1;
            let mut expected: Vec<ClaimKind> = if labels.trim() == "NONE" {
                negatives += 1;
                Vec::new()
            } else {
                labels.split(',').map(parse_kind).collect()
            };
            expected.sort_by_key(|k| *k as u8);
            expected.dedup();
            let declared = match ty.trim() {
                "num" => Some(Declared {
                    is_number: true,
                    ..Declared::default()
                }),
                "str" => Some(Declared {
                    is_string: true,
                    ..Declared::default()
                }),
                "list" => Some(Declared {
                    is_list: true,
                    ..Declared::default()
                }),
                "-" => None,
                other => panic!("unknown type {other:?} on corpus line {}", n + 1),
            };
            let found = match declared {
                Some(d) => unmatched(doc, d),
                None => claims(doc),
            };
            let mut got: Vec<ClaimKind> = found.iter().map(|c| c.kind).collect();
            got.sort_by_key(|k| *k as u8);
            got.dedup();
            for k in &got {
                if expected.contains(k) {
                    score.tp += 1;
                    held.tp += usize::from(in_held_out);
                } else {
                    score.fp += 1;
                    held.fp += usize::from(in_held_out);
                    println!("FP line {}: {k:?} in {doc:?} ({:?})", n + 1, found);
                }
            }
            for k in &expected {
                if !got.contains(k) {
                    score.fneg += 1;
                    held.fneg += usize::from(in_held_out);
                    println!("FN line {}: {k:?} in {doc:?}", n + 1);
                }
            }
        }
        let precision = score.tp as f64 / (score.tp + score.fp) as f64;
        let recall = score.tp as f64 / (score.tp + score.fneg) as f64;
        println!(
            "C12 corpus: {entries} entries ({negatives} negative), tp {} fp {} fn {}, precision {precision:.3}, recall {recall:.3}",
            score.tp, score.fp, score.fneg
        );
        println!(
            "held-out part: tp {} fp {} fn {}, precision {:.3}, recall {:.3}",
            held.tp,
            held.fp,
            held.fneg,
            held.tp as f64 / (held.tp + held.fp).max(1) as f64,
            held.tp as f64 / (held.tp + held.fneg).max(1) as f64
        );
        assert!(entries >= 150, "the corpus needs at least 150 entries");
        assert!(precision >= 0.9, "precision {precision:.3} < 0.9");
        assert!(recall >= 0.9, "recall {recall:.3} < 0.9");
    }
}
