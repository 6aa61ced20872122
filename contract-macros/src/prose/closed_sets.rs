//! Family: closed sets (ClosedSet).

use super::finding::*;
use super::tokens::*;

/// Words that cannot be a value in a closed set ("one of the tools", "either way").
pub(super) const NOT_VALUES: &[&str] = &[
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

pub(super) struct List {
    pub(super) items: Vec<String>,
    pub(super) last: usize,
    pub(super) all_lit: bool,
    pub(super) has_or: bool,
}

/// A list of at least one value at `i`: code spans, quoted strings or single words,
/// separated by ",", "or", "and", "|" or "/". A word list must end the clause.
pub(super) fn parse_list(t: &[Tok], doc: &str, i: usize) -> Option<List> {
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
pub(super) fn names_arguments(t: &[Tok], last: usize) -> bool {
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
pub(super) fn detect_closed_sets(t: &[Tok], doc: &str, out: &mut Vec<Found>) {
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

#[cfg(test)]
mod tests {
    use super::super::finding::found_in;
    use super::*;

    fn sets(doc: &str) -> Vec<(String, String)> {
        found_in(doc, detect_closed_sets)
    }

    fn pair(p: &str, s: &str) -> (String, String) {
        (p.to_string(), s.to_string())
    }

    #[test]
    fn lead_ins_and_literal_lists() {
        assert_eq!(
            sets("One of draft, final."),
            [pair("One of draft, final", "set draft|final")]
        );
        assert_eq!(
            sets("Only `asc` or `desc`."),
            [pair("Only `asc` or `desc`", "set asc|desc")]
        );
        assert_eq!(
            sets("either 'json' or 'csv'"),
            [pair("either 'json' or 'csv'", "set json|csv")]
        );
        assert_eq!(
            sets("Allowed values: low, medium, high."),
            [pair("values: low, medium, high", "set low|medium|high")]
        );
        assert_eq!(
            sets("`merge`, `squash` or `rebase`"),
            [pair(
                "`merge`, `squash` or `rebase`",
                "set merge|squash|rebase"
            )]
        );
    }

    #[test]
    fn ordinary_english_is_not_a_set() {
        assert!(sets("One of the tools the agent can call.").is_empty());
        assert!(sets("Either way, the result is cached.").is_empty());
        assert!(sets("Either a branch name or a commit SHA.").is_empty());
        assert!(sets("Exactly one of these, chosen by the caller.").is_empty());
        assert!(sets("Either `owner` or `org` must be provided.").is_empty());
        assert!(sets("One of true, false.").is_empty());
    }
}
