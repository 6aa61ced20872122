//! What a number measures (the word after it) and the cues that make a
//! number a rule rather than a remark.

use super::finding::Unit;
use super::tokens::*;

#[rustfmt::skip]
pub(super) const CHAR_UNITS: &[&str] = &[
    "character", "characters", "char", "chars", "byte", "bytes", "codepoint", "codepoints",
    "graphemes",
];
/// Sizes no schema keyword counts: "at most 300 words", "up to 25 MB".
#[rustfmt::skip]
pub(super) const UNCOUNTED_UNITS: &[&str] = &[
    "kb", "mb", "gb", "kib", "mib", "word", "words", "sentence", "sentences", "line", "lines",
    "paragraph", "paragraphs", "token", "tokens",
];
pub(super) const ITEM_UNITS: &[&str] = &[
    "item", "items", "element", "elements", "entry", "entries", "value", "values", "ids", "list",
];
#[rustfmt::skip]
pub(super) const TIME_UNITS: &[&str] = &[
    "second", "seconds", "sec", "secs", "s", "ms", "millisecond", "milliseconds", "minute",
    "minutes", "mins", "hour", "hours", "hr", "hrs", "h", "day", "days", "week", "weeks",
    "month", "months", "year", "years", "times", "percent", "retries", "attempts",
];
/// Units a bound may be stated in and declared in another, each with its
/// kind (0 time, 1 distance, 2 data, 3 money, 4 mass) and its size in the
/// kind's base unit (seconds, a month 30 days and a year 365; metres; bytes;
/// cents; grams).
#[rustfmt::skip]
pub(super) const MEASURES: &[(&str, u8, f64)] = &[
    ("millisecond", 0, 0.001), ("ms", 0, 0.001), ("second", 0, 1.0), ("minute", 0, 60.0),
    ("hour", 0, 3_600.0), ("day", 0, 86_400.0), ("week", 0, 604_800.0),
    ("month", 0, 2_592_000.0), ("year", 0, 31_536_000.0),
    ("mm", 1, 0.001), ("millimetre", 1, 0.001), ("millimeter", 1, 0.001), ("cm", 1, 0.01),
    ("centimetre", 1, 0.01), ("centimeter", 1, 0.01), ("m", 1, 1.0), ("metre", 1, 1.0),
    ("meter", 1, 1.0), ("km", 1, 1_000.0), ("kilometre", 1, 1_000.0), ("kilometer", 1, 1_000.0),
    ("byte", 2, 1.0), ("kb", 2, 1e3), ("mb", 2, 1e6), ("gb", 2, 1e9), ("kib", 2, 1_024.0),
    ("mib", 2, 1_048_576.0), ("gib", 2, 1_073_741_824.0), ("cent", 3, 1.0), ("eur", 3, 100.0),
    ("euro", 3, 100.0), ("usd", 3, 100.0), ("dollar", 3, 100.0), ("gbp", 3, 100.0),
    ("mg", 4, 0.001), ("g", 4, 1.0), ("gram", 4, 1.0), ("kg", 4, 1_000.0), ("kilogram", 4, 1_000.0),
];

/// The unit a bound's phrase ends with ("up to one week"), or else the word
/// after it (`after`, the text that follows: "at most 50" km), as a row of
/// [`MEASURES`].
pub(super) fn measure_of(phrase: &str, after: &str) -> Option<(&'static str, u8, f64)> {
    let last = phrase
        .rsplit(|c: char| !c.is_alphabetic())
        .find(|w| !w.is_empty());
    let next = after
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty());
    [last, next].into_iter().flatten().find_map(|w| {
        let w = w.to_ascii_lowercase();
        let plural = w.strip_suffix('s');
        MEASURES
            .iter()
            .copied()
            .find(|(u, ..)| w == *u || plural == Some(u))
    })
}

#[rustfmt::skip]
pub(super) const SKIP_ADJ: &[&str] = &[
    "unicode", "ascii", "utf-8", "total", "distinct", "unique", "individual", "separate",
    "more", "additional", "non-empty", "nonempty", "printable", "single", "other",
];
/// Words that are never the noun a number counts.
#[rustfmt::skip]
pub(super) const FUNCTION_WORDS: &[&str] = &[
    "and", "or", "but", "to", "per", "of", "in", "on", "for", "is", "are", "be", "if", "the",
    "a", "an", "when", "with", "by", "at", "as", "this", "that", "it", "its", "was", "has",
    "does", "us", "less", "unless", "plus", "always", "thus", "yes", "across", "his",
    "than", "from", "inclusive", "exclusive", "max", "min", "maximum", "minimum", "default",
    "defaults", "chars", "after", "before", "since", "each", "es",
    // a value's meaning follows it: "1 indicates UP" (awslabs' MCP servers)
    "indicate", "indicates", "mean", "means", "represent", "represents",
];

pub(super) fn class_of(adj: &str) -> Option<&'static str> {
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
pub(super) fn unit_at(t: &[Tok], j: usize, v: f64) -> Option<(Unit, usize)> {
    // "a 12-character string": the unit joined to the number by a hyphen
    let sized = |w: &str| CHAR_UNITS.contains(&w) || UNCOUNTED_UNITS.contains(&w);
    let j = if text(t, j) == "-" && sized(word(t, j + 1)) {
        j + 1
    } else {
        j
    };
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
    // "one to ten `seed_ids`": a plural argument name counts items
    if kind(t, k) == Some(Tk::Code) && t[k].s.ends_with('s') && !t[k].s.contains(' ') {
        return Some((Unit::Count, k));
    }
    // a word that can stand before the counted noun, and the counted noun:
    // a plural of at least `len` letters that is not a unit of time
    let adjective = |w: &str| {
        !w.is_empty() && !FUNCTION_WORDS.contains(&w) && w.chars().all(char::is_alphabetic)
    };
    let counted = |n: &str, len: usize| {
        n.len() >= len
            && n.ends_with('s')
            && !n.ends_with("ss")
            && !FUNCTION_WORDS.contains(&n)
            && !TIME_UNITS.contains(&n)
    };
    let unit = if matches!(w, "letter" | "letters") {
        Unit::Class(class.unwrap_or("A-Za-z"))
    } else if matches!(w, "digit" | "digits") {
        Unit::Class("0-9")
    } else if CHAR_UNITS.contains(&w) {
        class.map(Unit::Class).unwrap_or(Unit::Chars)
    } else if UNCOUNTED_UNITS.contains(&w) {
        Unit::Uncounted
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
    } else if adjective(w) && counted(word(t, k + 1), 4) {
        // "3 stop sequences": a noun used as an adjective, then the counted noun
        return Some((Unit::Count, k + 1));
    } else if adjective(w) && adjective(word(t, k + 1)) && counted(word(t, k + 2), 3) {
        // "50 log group names", "two VPC subnet IDs": two nouns used as adjectives
        return Some((Unit::Count, k + 2));
    } else {
        return Some((Unit::None, j.saturating_sub(1)));
    };
    Some((unit, k))
}

/// "when at least one file has changed" describes a situation, not a rule;
/// "this value is usually greater than zero" describes what is typical.
pub(super) fn in_condition(t: &[Tok], i: usize) -> bool {
    (1..=4).any(|b| {
        matches!(
            prev_word(t, i, b),
            "when" | "if" | "unless" | "whenever" | "once"
        )
    }) || (1..=3).any(|b| {
        (matches!(prev_word(t, i, b), "indicate" | "indicates" | "means")
            || matches!(prev_word(t, i, b), "mean" | "usually" | "typically")
            || matches!(prev_word(t, i, b), "normally"))
    })
}

pub(super) fn has_cue(t: &[Tok], i: usize) -> bool {
    const CUES: &[&str] = &[
        "must", "should", "be", "cannot", "shall", "need", "needs", "required", "value", "values",
        "only", "allowed", "may", "number", "no", "not", "length",
    ];
    (1..=3).any(|b| CUES.contains(&prev_word(t, i, b)))
        || (i > 0 && matches!(text(t, i - 1), "(" | ":" | ","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(doc: &str) -> Option<Unit> {
        let t = tokenize(doc);
        unit_at(&t, 1, 2.0).map(|(u, _)| u)
    }

    #[test]
    fn the_word_after_a_number_names_what_it_counts() {
        assert_eq!(unit("5 characters"), Some(Unit::Chars));
        assert_eq!(unit("5 uppercase letters"), Some(Unit::Class("A-Z")));
        assert_eq!(unit("5 items"), Some(Unit::Items));
        assert_eq!(unit("5 seconds"), Some(Unit::Time));
        assert_eq!(unit("5 labels"), Some(Unit::Count));
        assert_eq!(unit("5 stop sequences"), Some(Unit::Count));
        assert_eq!(unit("5 of"), None);
        assert_eq!(unit("1 indicates"), Some(Unit::None));
        assert_eq!(unit("1 means"), Some(Unit::None));
        assert_eq!(unit("5 tags indicate"), Some(Unit::Count));
        assert_eq!(unit("5 and"), Some(Unit::None));
    }

    #[test]
    fn conditions_and_cues() {
        let t = tokenize("when at least 5");
        assert!(in_condition(&t, 1));
        let t = tokenize("must be greater than 0");
        assert!(has_cue(&t, 2));
        let t = tokenize("it takes less than 5");
        assert!(!has_cue(&t, 2));
    }
}
