//! Family: spans (Length, Range, Items).

use super::finding::*;
use super::tokens::*;
use super::units::*;
use super::values::*;

/// Words before a bare "3-5" that make it a reference, not a constraint ("lines 3-5").
pub(super) const REFERENCE_NOUNS: &[&str] = &[
    "line", "lines", "page", "pages", "row", "rows", "column", "columns", "chapter", "chapters",
    "section", "sections", "verse", "verses", "version", "versions", "step", "steps", "rfc",
    "http", "issues", "issue", "python", "node", "ports", "port", "v", "edition", "volume",
    "figure", "table",
    // "the ISO-3166-1 alpha-2 country code standard" (plaid's OpenAPI spec), "ISO
    // 639-1" (together's, okta's): a standard's number, like "RFC 3339"
    "iso",
];

// Family: spans (Length, Range, Items) — "between 1 and 100", "from 2001 to 2020",
// "1-200 chars", "(1-100)", "1 to 50 items", "in the range [1, 100]", "`1..=200`".
pub(super) fn detect_spans(t: &[Tok], out: &mut Vec<Found>) {
    let mut legend_end = 0;
    for i in 0..t.len() {
        if t[i].lead & SPANS == 0 {
            continue;
        }
        // "0=disabled, 1=Covered Call, 2=Long Call, 3=Spreads": a legend of every
        // whole number from the first to the last is their range; so are two or
        // more entries read with a word: "1 for a guild subscription, 2 for a user
        // subscription" (discord's OpenAPI spec), "(0 is inactive, 1 is active)"
        // (sendgrid's)
        let sep = text(t, i + 1);
        let worded = matches!(sep, "for" | "is") && !in_example(t, i);
        if i >= legend_end && kind(t, i) == Some(Tk::Num) && (sep == "=" || worded) {
            let (mut next, mut k, mut last) = (t[i].num, i, i);
            let first = t[i].num;
            let mut count = 0;
            while k < t.len() && t[k].sent == t[i].sent {
                if kind(t, k) == Some(Tk::Num) && text(t, k + 1) == sep && t[k].num == next {
                    count += 1;
                    last = k;
                    next = next.map(|n| n + 1.0);
                }
                k += 1;
            }
            legend_end = last + 1;
            let enough = count >= if worded { 2 } else { 3 };
            if let (Some(lo), Some(hi), true) = (first, next.map(|n| n - 1.0), enough) {
                out.push(found(bound(incl(lo), incl(hi), Unit::None), i, last + 1));
                continue;
            }
        }
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
                let next = uend.max(b.end) + 1;
                let closes = matches!(text(t, next), "." | ";" | "")
                    || (text(t, next) == "("
                        && matches!(word(t, next + 1), "inclusive" | "exclusive"));
                // "(1-4 low, 5-7 mid, 8+ high)" is a legend of ranges, not a bound
                let legend = prev == "("
                    && unit == Unit::None
                    && !matches!(text(t, next), ")" | "," | ";" | "inclusive" | "exclusive");
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
                // "Check again after 15-30 seconds" is advice about timing
                let timing = matches!(prev, "after" | "every" | "again" | "wait");
                if !cue
                    || legend
                    || timing
                    || REFERENCE_NOUNS.contains(&prev)
                    || (unit == Unit::Count && a.year)
                {
                    continue;
                }
            }
            // "Summarize the article in 2-3 sentences" (the first corpus), "passages
            // of text (1-2 paragraphs)" (pinecone's MCP server): a span of
            // sentences or paragraphs describes a size, and no declaration counts them
            if matches!(
                word(t, uend),
                "sentence" | "sentences" | "paragraph" | "paragraphs"
            ) {
                continue;
            }
            // "values between 0 and 1 indicate at least one tunnel is not UP"
            // (awslabs' MCP servers): what values in the span mean, a legend
            if matches!(
                word(t, uend.max(b.end) + 1),
                "indicate" | "indicates" | "mean" | "means" | "represent" | "represents"
            ) {
                continue;
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

#[cfg(test)]
mod tests {
    use super::super::finding::found_in;
    use super::*;

    fn spans(doc: &str) -> Vec<(String, String)> {
        found_in(doc, |t, _, out| detect_spans(t, out))
    }

    fn pair(p: &str, s: &str) -> (String, String) {
        (p.to_string(), s.to_string())
    }

    #[test]
    fn led_and_bare_spans() {
        assert_eq!(
            spans("Between 1 and 100."),
            [pair("Between 1 and 100", "min 1 max 100 None")]
        );
        assert_eq!(
            spans("Title, 1-200 chars."),
            [pair("1-200 chars", "min 1 max 200 Chars")]
        );
        assert_eq!(
            spans("Page size (1-100)."),
            [pair("1-100", "min 1 max 100 None")]
        );
        assert_eq!(
            spans("from 2001 to 2020"),
            [pair("from 2001 to 2020", "min 2001 max 2020 Year")]
        );
        assert_eq!(
            spans("from -90 to 90"),
            [pair("from -90 to 90", "min -90 max 90 None")]
        );
    }

    #[test]
    fn bracketed_and_rust_ranges() {
        assert_eq!(
            spans("in the range [0, 1]"),
            [pair("[0, 1]", "min 0 max 1 None")]
        );
        assert_eq!(
            spans("Any of `1..=99`."),
            [pair("`1..=99`", "min 1 max 99 None")]
        );
        assert_eq!(
            spans("Any of `0..10`."),
            [pair("`0..10`", "min 0 max 10 excl None")]
        );
    }

    #[test]
    fn references_and_versions_are_not_spans() {
        assert!(spans("See lines 10-20 of the file.").is_empty());
        assert!(spans("Works with Python 3-4 releases.").is_empty());
        assert!(spans("Read chapters 3-5 first.").is_empty());
        assert!(spans("A bare 3-5 in a sentence.").is_empty());
        assert!(spans("Released 2024-01-31.").is_empty());
    }

    #[test]
    fn legends_of_whole_numbers() {
        assert_eq!(
            spans("0=disabled, 1=read, 2=write, 3=admin"),
            [pair("0=disabled, 1=read, 2=write, 3=", "min 0 max 3 None")]
        );
        assert_eq!(
            spans("1 for a guild subscription, 2 for a user subscription"),
            [pair(
                "1 for a guild subscription, 2 for",
                "min 1 max 2 None"
            )]
        );
        assert_eq!(
            spans("Set the version as active (0 is inactive, 1 is active)."),
            [pair("0 is inactive, 1 is", "min 0 max 1 None")]
        );
        // not consecutive, an example, or one entry: no legend
        assert!(spans("Iterations (e.g. 7 for weekly, 14 for bi-weekly).").is_empty());
        assert!(spans("1 for a guild subscription.").is_empty());
        assert!(spans("0=disabled, 1=read").is_empty());
    }

    #[test]
    fn what_a_span_means_is_a_legend() {
        assert!(spans("Values between 0 and 1 indicate at least one tunnel is not UP.").is_empty());
        assert!(spans("A score from 1 to 3 means low confidence.").is_empty());
        assert_eq!(
            spans("Values between 0 and 1 are accepted."),
            [pair("between 0 and 1", "min 0 max 1 None")]
        );
    }

    #[test]
    fn sizes_in_sentences_are_not_spans() {
        assert!(spans("Summarize the article in 2-3 sentences for the reader.").is_empty());
        assert!(spans("Passages of text (1-2 paragraphs).").is_empty());
        assert_eq!(
            spans("A summary of 1-200 words."),
            [pair("1-200 words", "min 1 max 200 Chars")]
        );
    }

    #[test]
    fn a_standard_number_is_a_reference() {
        // plaid's OpenAPI spec
        assert!(spans("Use the ISO-3166-1 alpha-2 country code standard.").is_empty());
        assert!(spans("An ISO 639-1 language code.").is_empty());
    }
}
