//! Family: spans (Length, Range, Items).

use super::finding::*;
use super::reader::Cx;
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

/// "Intensity, 0-10 (0 is off, 10 is MAX)" (the gemini cookbook), "the minimum
/// rating of the hotel (7-9). 7 is 3.5+ stars, 8 is 4+ stars, ..." (the mistral
/// cookbook): a legend right after a span that reads its low end says the span's
/// numbers are values, a range whatever the type ("1-200 chars (200 is plenty)"
/// reads no low end).
/// Returns the index of the legend's first number.
fn legend_follows(t: &[Tok], from: usize, lo: f64) -> Option<usize> {
    let k = (from..from + 3).find(|&k| !matches!(text(t, k), "(" | ")" | "." | "," | ";" | ":"))?;
    (kind(t, k) == Some(Tk::Num)
        && t[k].num == Some(lo)
        && matches!(text(t, k + 1), "is" | "=" | "for")
        && !in_example(t, k))
    .then_some(k)
}

/// Words before "of" that make the span after it something other than the
/// value's ends: a share or a count of things ("one of 2 to 5", "a ratio of
/// 1 to 3", "as of 2024-06").
const NOT_VALUES_BEFORE_OF: &[&str] = &[
    "one", "some", "any", "each", "all", "none", "most", "many", "ratio", "out", "as", "type",
    "kind", "version", "versions",
];

// "0=disabled, 1=read, 2=write, 3=admin", "(0 is inactive, 1 is active)"
pub(super) fn numbered_legend(Cx { t, mark, out, .. }: Cx, i: usize) -> Option<usize> {
    // "0=disabled, 1=Covered Call, 2=Long Call, 3=Spreads": a legend of every
    // whole number from the first to the last is their range; so are two or
    // more entries read with a word: "1 for a guild subscription, 2 for a user
    // subscription" (discord's OpenAPI spec), "(0 is inactive, 1 is active)"
    // (sendgrid's)
    //
    // Entries read with "is" in ascending order, each after a comma, name the
    // ends of a scale even when they skip numbers: "1 is the world, 20 is zoomed
    // in to building level" (the gemini cookbook), "3 is lowest price, 8 is
    // highest rating, 13 is most reviewed" (the mistral cookbook). The numbers
    // of a legend are values, never a length or a count, whatever the type.
    let sep = text(t, i + 1);
    let worded = matches!(sep, "for" | "is") && !in_example(t, i);
    if i >= *mark && kind(t, i) == Some(Tk::Num) && (sep == "=" || worded) {
        let (mut hi, mut k, mut last) = (t[i].num, i, i);
        let first = t[i].num;
        let mut count = 0;
        while k < t.len() && t[k].sent == t[i].sent {
            if kind(t, k) == Some(Tk::Num) && text(t, k + 1) == sep {
                let n = t[k].num;
                let consecutive = count == 0 || n == hi.map(|h| h + 1.0);
                let ascending =
                    sep == "is" && count > 0 && matches!(text(t, k - 1), "," | ";") && n > hi;
                if consecutive || ascending {
                    count += 1;
                    last = k;
                    hi = n;
                }
            }
            k += 1;
        }
        *mark = last + 1;
        let enough = count >= if worded { 2 } else { 3 };
        if let (Some(lo), Some(hi), true) = (first, hi, enough) {
            out.push(found(bound(incl(lo), incl(hi), Unit::Year), i, last + 1));
            return Some(i + 1);
        }
    }
    None
}

pub(super) fn length_label_span(Cx { t, mark, out, .. }: Cx, i: usize) -> Option<usize> {
    if let Some((_, Some(f))) = length_label(t, i).then(|| span_at(t, i, mark)).flatten() {
        out.push(f);
    }
    None
}

pub(super) fn span(Cx { t, mark, out, .. }: Cx, i: usize) -> Option<usize> {
    out.push(span_at(t, i, mark)?.0);
    Some(i + 1)
}

/// "Length: 1–3 digits." (adyen-openapi): a span after a label naming the
/// length counts characters of the class its unit names, a length as well
/// as a pattern.
fn length_label(t: &[Tok], i: usize) -> bool {
    i >= 2 && text(t, i - 1) == ":" && matches!(word(t, i - 2), "length" | "len")
}

// "between 1 and 100", "from 2001 to 2020", "1-200 chars", "(1-100)", "1 to
// 50 items", "in the range [1, 100]", "`1..=200`": the span, and its
// length's if a length label opens it
fn span_at(t: &[Tok], i: usize, mark: &mut usize) -> Option<(Found, Option<Found>)> {
    let lead = word(t, i);
    let (a_at, led) = if matches!(lead, "between" | "from") {
        (i + 1, true)
    } else {
        (i, false)
    };
    let a = value_at(t, a_at)?;
    let sep = text(t, a.end + 1);
    let ok_sep = match lead {
        "between" => matches!(sep, "and" | "-" | "to"),
        "from" => matches!(sep, "to" | "-" | "through" | "until"),
        _ => matches!(sep, "-" | "to" | ".." | "..=" | "through"),
    };
    let b = value_at(t, a.end + 2)?;
    if !ok_sep || a.date != b.date || b.v < a.v {
        return None;
    }
    if !led {
        // a bare "3-5": not part of a date or version chain, not after "between"/"from"
        if a.word
            || b.word
            || text(t, b.end + 1) == "-"
            || text(t, b.end + 1) == "." && kind(t, b.end + 2) == Some(Tk::Num)
        {
            return None;
        }
        if i > 0
            && (matches!(word(t, i - 1), "between" | "from")
                || text(t, i - 1) == "-"
                || text(t, i - 1) == ".")
        {
            return None;
        }
    }
    let (mut unit, uend) = unit_at(t, b.end + 1, b.v)?;
    let legend_at = legend_follows(t, uend.max(b.end) + 1, a.v);
    let scale = legend_at.is_some();
    if !led {
        let prev = if i > 0 { text(t, i - 1) } else { "" };
        let next = uend.max(b.end) + 1;
        let closes = matches!(text(t, next), "." | ";" | "")
            || (text(t, next) == "(" && matches!(word(t, next + 1), "inclusive" | "exclusive"));
        // "(1-4 low, 5-7 mid, 8+ high)" is a legend of ranges, not a bound;
        // "(0-10 scale)" (the mistral cookbook, whose "(0-1 scale)" was already
        // read, "scale" counted as a noun after 1) names the span itself
        let legend = prev == "("
            && unit == Unit::None
            && !scale
            && !(matches!(text(t, next), ")" | "," | ";" | "inclusive" | "exclusive")
                || matches!(text(t, next), "scale"));
        let cue = unit != Unit::None
            || scale
            || (prev == "," && closes)
            || (matches!(prev, "(" | ":" | "=" | "be" | "is" | "range" | "in")
                || matches!(prev, "within" | "values" | "value" | "accepts"))
            || matches!(
                text(t, uend.max(b.end) + 1),
                ")" | "inclusive" | "exclusive" | "range"
            );
        // "The price level of the place, on a scale of 0 to 4"
        // (googlemaps/openapi-specification), "Use a range of 1-5 to
        // indicate the call experience score" (twilio-oai): a noun and
        // "of" before the span, whatever the noun ("scale", "range",
        // "level"), give its ends, as "range" and "values" do before
        // a bare span; not "one of 2 to 5", "page 1 of 2-3" (a
        // number or a count before "of") nor "a ratio of 1 to 3"
        let of_noun = prev == "of"
            && i >= 2
            && kind(t, i - 2) == Some(Tk::Word)
            && !NOT_VALUES_BEFORE_OF.contains(&word(t, i - 2));
        let cue = cue || of_noun;
        // "Check again after 15-30 seconds" is advice about timing
        let timing = matches!(prev, "after" | "every" | "again" | "wait");
        if !cue
            || legend
            || timing
            || REFERENCE_NOUNS.contains(&prev)
            || (unit == Unit::Count && a.year)
        {
            return None;
        }
    }
    // "Summarize the article in 2-3 sentences" (the first corpus), "passages
    // of text (1-2 paragraphs)" (pinecone's MCP server): a span of
    // sentences or paragraphs describes a size, and no declaration counts them
    if matches!(
        word(t, uend),
        "sentence" | "sentences" | "paragraph" | "paragraphs"
    ) {
        return None;
    }
    // "Higher values (100-1000) provide more granular data", "Lower values
    // (1-60) provide higher resolution" (awslabs' MCP servers), "Higher values
    // (e.g., 8-10) make the output more faithful" (together's OpenAPI spec):
    // which part of the range to pick, advice, not the range
    let open = (i.saturating_sub(5)..i)
        .rev()
        .take_while(|&k| t[k].sent == t[i].sent && text(t, k) != ")")
        .find(|&k| text(t, k) == "(");
    if open.is_some_and(|o| {
        matches!(word(t, o.wrapping_sub(1)), "values" | "value")
            && matches!(
                prev_word(t, o, 2),
                "higher" | "lower" | "larger" | "smaller" | "greater"
            )
    }) {
        return None;
    }
    // "values between 0 and 1 indicate at least one tunnel is not UP"
    // (awslabs' MCP servers): what values in the span mean, a legend
    if (matches!(word(t, uend.max(b.end) + 1), "indicate" | "indicates")
        || matches!(word(t, uend.max(b.end) + 1), "mean" | "means")
        || matches!(word(t, uend.max(b.end) + 1), "represent" | "represents"))
    {
        return None;
    }
    if unit == Unit::None && (a.year && b.year || scale) {
        unit = Unit::Year;
    }
    // the legend repeats the span: one claim
    if let Some(k) = legend_at {
        *mark = (k..t.len())
            .find(|&e| t[e].sent != t[k].sent)
            .unwrap_or(t.len());
    }
    let end = uend.max(b.end);
    let label = (matches!(unit, Unit::Class(_)) && length_label(t, i))
        .then(|| found(bound(incl(a.v), incl(b.v), Unit::Chars), i, end));
    // "strictly between 0 and 1", "exclusively between 0 and 1", "between
    // 0 and 1, exclusive", "between 0 and 1 (exclusive)": neither end is a
    // value; a plain "between" takes both
    let (start, end, side) = match exclusive_between(t, i, end) {
        Some((start, end)) if lead == "between" => (start, end, excl_at as fn(&Val) -> _),
        _ => (i, end, at as fn(&Val) -> _),
    };
    Some((found(bound(side(&a), side(&b), unit), start, end), label))
}

/// The words that make "between" exclusive around the span `i..=end`: the
/// span's first and last token with them, if any.
fn exclusive_between(t: &[Tok], i: usize, end: usize) -> Option<(usize, usize)> {
    let before = i > 0 && t[i - 1].sent == t[i].sent;
    if before && matches!(word(t, i - 1), "strictly" | "exclusively") {
        return Some((i - 1, end));
    }
    let same = |k: usize| k < t.len() && t[k].sent == t[end].sent;
    match (text(t, end + 1), word(t, end + 2)) {
        ("," | "(", "exclusive") if same(end + 2) => {
            let close = text(t, end + 3) == ")" && text(t, end + 1) == "(";
            Some((i, if close { end + 3 } else { end + 2 }))
        }
        _ if word(t, end + 1) == "exclusive" && same(end + 1) => Some((i, end + 1)),
        _ => None,
    }
}

/// The exclusive bound a value states, with its day.
fn excl_at(val: &Val) -> Option<Bound> {
    Some(Bound {
        day: val.day,
        ..excl(val.v)?
    })
}

#[cfg(test)]
mod tests {
    use super::super::claims;
    use super::super::driver::assert_finds;
    use super::*;

    /// Asserts each case (see [`assert_finds`]) of this family.
    fn finds(cases: &[&str]) {
        assert_finds(SPANS, cases)
    }

    /// "strictly between 0 and 1", "exclusively between", "between 0 and 1,
    /// exclusive" exclude both ends (once read inclusive, a false compile
    /// error over `range(exclusive_min = 0.0, exclusive_max = 1.0)`); a
    /// plain or "(inclusive)" "between" keeps them.
    #[test]
    fn an_exclusive_between() {
        let both = |doc: &str, phrase: &str, want: (bool, bool)| {
            let found = claims(doc);
            assert_eq!(found.len(), 1, "{doc}");
            assert_eq!(found[0].phrase, phrase, "{doc}");
            let exclusive = found[0].help.contains("exclusive_min");
            assert_eq!(
                (exclusive, found[0].help.contains("exclusive_max")),
                want,
                "{doc}: {}",
                found[0].help
            );
        };
        let open = (true, true);
        both(
            "Share, strictly between 0 and 1.",
            "strictly between 0 and 1",
            open,
        );
        both(
            "Share, exclusively between 0 and 1.",
            "exclusively between 0 and 1",
            open,
        );
        both(
            "Share, between 0 and 1, exclusive.",
            "between 0 and 1, exclusive",
            open,
        );
        both(
            "Share, between 0 and 1 (exclusive).",
            "between 0 and 1 (exclusive)",
            open,
        );
        both("Share, between 0 and 1.", "between 0 and 1", (false, false));
        both(
            "Share, between 0 and 1 (inclusive).",
            "between 0 and 1",
            (false, false),
        );
    }

    /// Round 11: a noun and "of" before a bare span give its ends, whatever
    /// the noun (googlemaps/openapi-specification's "on a scale of 0 to 4",
    /// twilio-oai's "Use a range of 1-5 to indicate ...").
    /// Round 12: "Length: 1–3 digits." (adyen-openapi): a span after a
    /// label naming the length is a length as well as a pattern of digits;
    /// without the label, "1-3 digits" stays a pattern only.
    #[test]
    fn a_span_after_a_length_label() {
        finds(&[
            "Country code. Length: 1–3 digits. | 1–3 digits | min 1 max 3 Chars | 1–3 digits | min 1 max 3 Class(\"0-9\")",
            "A code of 1-3 digits. | 1-3 digits | min 1 max 3 Class(\"0-9\")",
        ]);
    }

    #[test]
    fn a_span_after_a_noun_and_of() {
        finds(&[
            "The price level of the place, on a scale of 0 to 4. The exact amount will vary. | 0 to 4 | min 0 max 4 None",
            "Use a range of 1-5 to indicate the call experience score. | 1-5 | min 1 max 5 None",
            "A value in the range of 1 to 10. | 1 to 10 | min 1 max 10 None",
            // a share, a ratio, a date, a bare "of"
            "Pick any of 2 to 5.",
            "A ratio of 1 to 3.",
            "In effect as of 2024-06.",
            "Of 1 to 3, pick the best.",
        ]);
    }

    #[test]
    fn led_and_bare_spans() {
        finds(&[
            "Between 1 and 100. | Between 1 and 100 | min 1 max 100 None",
            "Title, 1-200 chars. | 1-200 chars | min 1 max 200 Chars",
            "Page size (1-100). | 1-100 | min 1 max 100 None",
            "from 2001 to 2020 | from 2001 to 2020 | min 2001 max 2020 Year",
            "from -90 to 90 | from -90 to 90 | min -90 max 90 None",
        ]);
    }

    #[test]
    fn references_and_versions_are_not_spans() {
        finds(&[
            "See lines 10-20 of the file.",
            "Works with Python 3-4 releases.",
            "Read chapters 3-5 first.",
            "A bare 3-5 in a sentence.",
            "Released 2024-01-31.",
        ]);
    }

    #[test]
    fn legends_of_whole_numbers() {
        finds(&[
            "0=disabled, 1=read, 2=write, 3=admin | 0=disabled, 1=read, 2=write, 3= | min 0 max 3 Year",
            "1 for a guild subscription, 2 for a user subscription | 1 for a guild subscription, 2 for | min 1 max 2 Year",
            "Set the version as active (0 is inactive, 1 is active). | 0 is inactive, 1 is | min 0 max 1 Year",
            // not consecutive, an example, or one entry: no legend
            "Iterations (e.g. 7 for weekly, 14 for bi-weekly).",
            "1 for a guild subscription.",
            "0=disabled, 1=read",
        ]);
    }

    #[test]
    fn a_legend_of_the_ends_is_a_scale() {
        // the gemini cookbook, the mistral cookbook: ascending entries read with
        // "is", each after a comma
        finds(&[
            "Google Maps zoom level. 1 is the world, 20 is zoomed in to building level. | 1 is the world, 20 is | min 1 max 20 Year",
            "3 is lowest price, 8 is highest rating, 13 is most reviewed | 3 is lowest price, 8 is highest rating, 13 is | min 3 max 13 Year",
            // descending, without a comma, in another sentence, or an example: no scale
            "10 is the most, 1 is the least.",
            "1 is the world and 20 is a building.",
            "Level 11 shows a 15km radius. Level 9 is a 30km radius.",
            "Zoom (e.g. 1 is the world, 20 is a building).",
            "Iterations (e.g. 7 for weekly, 14 for bi-weekly).",
        ]);
    }

    #[test]
    fn a_span_with_a_legend_of_its_ends_is_a_range_of_values() {
        // the gemini cookbook; the mistral cookbook (on a string argument)
        finds(&[
            "Intensity of the climate to apply, 0-10 (0 is off, 10 is MAX). | 0-10 | min 0 max 10 Year",
            "The minimum rating of the hotel (7-9). 7 is 3.5+ stars, 8 is 4+ stars. | 7-9 | min 7 max 9 Year",
            // a legend that does not read the low end leaves the span as it was
            "Title, 1-200 chars (200 is plenty). | 1-200 chars | min 1 max 200 Chars",
            "A bare 3-5 (4 is typical).",
        ]);
    }

    #[test]
    fn a_span_named_a_scale_is_not_a_legend() {
        // the mistral cookbook: "(0-1 scale)" and "(0-10 scale)" alike
        finds(&[
            "How well the skill matches the requirement (0-10 scale) | 0-10 | min 0 max 10 None",
            "Confidence in the skill evaluation (0-1 scale) | 0-1 scale | min 0 max 1 Count",
            // without a cue it stays a remark (PostHog's MCP server), and a legend of
            // ranges stays a legend
            "NPS questions always use 0-10 scale",
            "Score (1-4 low, 5-7 mid, 8+ high)",
        ]);
    }

    #[test]
    fn what_a_span_means_is_a_legend() {
        finds(&[
            "Values between 0 and 1 indicate at least one tunnel is not UP.",
            "A score from 1 to 3 means low confidence.",
            "Values between 0 and 1 are accepted. | between 0 and 1 | min 0 max 1 None",
        ]);
    }

    #[test]
    fn a_span_of_higher_values_is_advice() {
        // awslabs' MCP servers, together's OpenAPI spec
        finds(&[
            "Maximum number of data points to return. Higher values (100-1000) provide more granular data.",
            "Lower values (1-60) provide higher resolution but may be less available.",
            "Higher values (e.g., 8-10) make the output more faithful to the prompt.",
            // the range itself
            "Maximum number of results to return (1-100). Higher values are slower. | 1-100 | min 1 max 100 None",
            "Allowed values (1-60). | 1-60 | min 1 max 60 None",
        ]);
    }

    #[test]
    fn sizes_in_sentences_are_not_spans() {
        finds(&[
            "Summarize the article in 2-3 sentences for the reader.",
            "Passages of text (1-2 paragraphs).",
            "A summary of 1-200 words. | 1-200 words | min 1 max 200 Uncounted",
        ]);
    }

    #[test]
    fn a_standard_number_is_a_reference() {
        // plaid's OpenAPI spec
        finds(&[
            "Use the ISO-3166-1 alpha-2 country code standard.",
            "An ISO 639-1 language code.",
        ]);
    }
}
