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

mod bounds;
mod closed_sets;
mod emptiness;
mod finding;
mod formats;
mod help;
mod patterns;
mod resolve;
mod servable;
mod signs;
mod spans;
mod tokens;
mod units;
mod values;

use resolve::resolve_all;

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
        let corpus = include_str!("../../tests/prose_corpus.txt");
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
