//! Family: servable ranges (Range): what the tool can serve, not the form of a value.

use super::driver::Cx;
use super::finding::*;
use super::tokens::*;
use super::values::*;

/// The "since" at `i` names the origin of a timestamp's unit, not the first
/// year served: "seconds since 1970", "milliseconds since 1970-01-01", "Unix
/// time (seconds since the epoch)", "a Unix timestamp, since 1970". A count
/// of time units before it, or the Unix epoch's year in a sentence about
/// Unix time or timestamps ("Records since 1970" is still a range).
pub(super) fn since_the_epoch(t: &[Tok], i: usize) -> bool {
    if word(t, i) != "since" {
        return false;
    }
    let unit = |w: &str| {
        (matches!(w, "seconds" | "secs" | "s" | "ms" | "milliseconds")
            || matches!(w, "millis" | "microseconds" | "us" | "nanoseconds" | "ns")
            || matches!(w, "minutes" | "hours" | "days"))
    };
    if unit(prev_word(t, i, 1)) {
        return true;
    }
    let epoch = |k: usize| {
        matches!(
            word(t, k),
            "epoch" | "unix" | "posix" | "timestamp" | "timestamps"
        )
    };
    let sent = t[i].sent;
    let origin = text(t, i + 1) == "1970"
        || word(t, i + 1) == "epoch"
        || (word(t, i + 1) == "the" && word(t, i + 2) == "epoch");
    origin && (0..t.len()).any(|k| t[k].sent == sent && epoch(k))
}

// Family: servable ranges (Range) — "records back to 2001", "no earlier than 2010",
// "since 2001", "2001 or later", "from 2001 onwards", "the earliest year is 2001".
pub(super) fn back_to(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
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
    let lead = (matches!(word(t, i), "back" | "no" | "not" | "on" | "starting")
        || matches!(word(t, i), "since" | "through" | "until"))
    .then(|| {
        MIN_LEADS
            .iter()
            .map(|p| (p, true))
            .chain(MAX_LEADS.iter().map(|p| (p, false)))
            .find(|(p, _)| seq(t, i, p))
    })
    .flatten();
    if let Some((p, is_min)) = lead {
        if p[0] == "since"
            && ((matches!(prev_word(t, i, 1), "deprecated" | "removed" | "changed")
                || matches!(prev_word(t, i, 1), "added" | "introduced" | "renamed"))
                || since_the_epoch(t, i))
        {
            return Some(i + 1);
        }
        let mut j = i + p.len();
        if matches!(word(t, j), "the" | "year" | "early" | "late") {
            j += 1;
        }
        if let Some(v) = value_at(t, j) {
            if v.year {
                let b = at(&v);
                let (min, max) = if is_min { (b, None) } else { (None, b) };
                out.push(Found {
                    by: Rec::BackTo,
                    what: bound(min, max, Unit::Year),
                    t0: i,
                    t1: v.end,
                    always: true,
                });
                return Some(i + 1);
            }
        }
    }
    None
}

pub(super) fn from_year_on(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    // "2001 or later", "2001 onwards", "from 2001 on"
    if let Some(v) = value_at(t, i) {
        // "In API versions 2018-05-22 and earlier, this field is called `zip`"
        // (plaid's OpenAPI spec): a version named by its date is a reference,
        // as "version 2" and "lines 10-20" are for spans
        if !v.year || matches!(prev_word(t, i, 1), "version" | "versions") {
            return Some(i + 1);
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
            let b = at(&v);
            let (lo, hi) = if min { (b, None) } else { (None, b) };
            let t0 = if prev_word(t, i, 1) == "from" {
                i - 1
            } else {
                i
            };
            out.push(Found {
                by: Rec::FromYearOn,
                what: bound(lo, hi, Unit::Year),
                t0,
                t1: last,
                always: true,
            });
        }
    }
    None
}

pub(super) fn not_before(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    // "dates before 1900 are not supported": the negation makes it a minimum
    if matches!(word(t, i), "before" | "after") {
        if let Some(v) = value_at(t, i + 1).filter(|v| v.year) {
            if (v.end + 1..v.end + 5)
                .any(|k| matches!(word(t, k), "not" | "unsupported" | "unavailable"))
            {
                let b = at(&v);
                let (lo, hi) = if word(t, i) == "before" {
                    (b, None)
                } else {
                    (None, b)
                };
                out.push(Found {
                    by: Rec::NotBefore,
                    what: bound(lo, hi, Unit::Year),
                    t0: i,
                    t1: v.end,
                    always: true,
                });
            }
        }
    }
    None
}

pub(super) fn earliest_year(Cx { t, out, .. }: Cx, i: usize) -> Option<usize> {
    // "the earliest year is 2001", "earliest available date: 2001-01-01"
    if matches!(word(t, i), "earliest" | "oldest") {
        for k in i + 1..(i + 5).min(t.len()) {
            if let Some(v) = value_at(t, k) {
                if v.year {
                    out.push(Found {
                        by: Rec::EarliestYear,
                        what: bound(at(&v), None, Unit::Year),
                        t0: i,
                        t1: v.end,
                        always: true,
                    });
                }
                break;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::driver::drive;
    use super::super::finding::found_in;
    use super::*;

    fn servable(doc: &str) -> Vec<(String, String)> {
        found_in(doc, |t, doc, out| drive(t, doc, SERVABLE, out))
    }

    fn pair(p: &str, s: &str) -> (String, String) {
        (p.to_string(), s.to_string())
    }

    #[test]
    fn leads_before_a_year() {
        assert_eq!(
            servable("Records go back to 2001."),
            [pair("back to 2001", "min 2001 Year")]
        );
        assert_eq!(
            servable("no earlier than 2010"),
            [pair("no earlier than 2010", "min 2010 Year")]
        );
        assert_eq!(
            servable("data through 2023"),
            [pair("through 2023", "max 2023 Year")]
        );
        assert_eq!(
            servable("available since January 1995"),
            [pair("since January 1995", "min 1995 Year")]
        );
    }

    #[test]
    fn words_after_a_year() {
        assert_eq!(
            servable("2015 or later"),
            [pair("2015 or later", "min 2015 Year")]
        );
        assert_eq!(
            servable("from 2003 onwards"),
            [pair("from 2003 onwards", "min 2003 Year")]
        );
        assert_eq!(
            servable("Dates before 1900 are not supported."),
            [pair("before 1900", "min 1900 Year")]
        );
        assert_eq!(
            servable("The earliest supported year is 1980."),
            [pair("earliest supported year is 1980", "min 1980 Year")]
        );
    }

    #[test]
    fn history_and_plain_numbers_are_not_ranges() {
        assert!(servable("Deprecated since 2019.").is_empty());
        assert!(servable("Added since 2022 in the API.").is_empty());
        assert!(servable("Back to 200 results.").is_empty());
        assert!(servable("since the last call").is_empty());
    }

    #[test]
    fn a_version_named_by_its_date_is_a_reference() {
        // plaid's OpenAPI spec
        assert!(
            servable("In API versions 2018-05-22 and earlier, this field is called `zip`.")
                .is_empty()
        );
        assert!(
            servable("This field is only populated in API version 2019-05-29 and later.")
                .is_empty()
        );
        assert!(!servable("Records from 2001 onwards.").is_empty());
    }
}
