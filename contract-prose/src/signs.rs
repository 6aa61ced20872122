//! Family: signs (Range).

use super::finding::*;
use super::reader::{Cx, NEXT};
use super::tokens::*;

// Family: signs (Range) — "a positive integer", "must be positive", "non-negative",
// "must not be negative".
pub(super) fn sign(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    const NOUNS: &[&str] = &[
        "integer", "integers", "number", "numbers", "int", "value", "values", "whole", "amount",
        "count", "float", "decimal",
    ];
    let p = prev_word(t, i, 1);
    if matches!(p, "false" | "true") {
        return Some(i + 1);
    }
    let next_noun = NOUNS.contains(&word(t, i + 1));
    if w == "positive" && says_what_it_means(t, i + 1) {
        return Some(i + 1);
    }
    let integer = matches!(
        word(t, i + 1),
        "integer" | "integers" | "int" | "whole" | "count"
    );
    // "must not be negative" reads as "non-negative"
    let negated =
        w == "negative" && p == "be" && matches!(prev_word(t, i, 2), "not" | "never" | "cannot");
    let what = match if negated { "non-negative" } else { w } {
        "positive"
            if next_noun
                || matches!(p, "be" | "must" | "only" | "strictly" | "is")
                || (matches!(p, "a" | "an") && prev_word(t, i, 2) == "be") =>
        {
            What::Bound {
                min: excl(0.0),
                max: None,
                unit: Unit::Year,
                integer,
            }
        }
        // "must not be negative", "cannot be negative": non-negative
        "non-negative" | "nonnegative" => What::Bound {
            min: incl(0.0),
            max: None,
            unit: Unit::Year,
            integer,
        },
        _ => return Some(i + 1),
    };
    // (the phrase of a negated "negative" opens at its negation)
    let from = if w == "negative" { i - 2 } else { i };
    out.push(found(what, from, if next_noun { i + 1 } else { i }));
    None
}

/// "Positive values penalize new tokens" (openai's OpenAPI spec), "where a
/// positive value increases the likelihood" (together's OpenAPI spec),
/// "Positive values when money moves out of the account; negative values when
/// ...", "a positive value on credit cards" (plaid's OpenAPI spec): what a
/// sign of the value means, a legend of a value that may take either sign,
/// not a bound ("Must be a positive value." and "A positive value, in
/// seconds." are).
fn says_what_it_means(t: &[Tok], noun: usize) -> bool {
    matches!(word(t, noun), "value" | "values" | "number" | "numbers")
        && (matches!(word(t, noun + 1), "when" | "on" | "for" | "mean")
            || matches!(word(t, noun + 1), "means" | "indicate" | "indicates")
            || matches!(word(t, noun + 1), "represent" | "represents" | "penalize")
            || matches!(word(t, noun + 1), "penalizes" | "increase" | "increases")
            || matches!(word(t, noun + 1), "decrease" | "decreases" | "make")
            || matches!(word(t, noun + 1), "makes" | "favor" | "favors")
            || matches!(word(t, noun + 1), "encourage" | "encourages"))
}

pub(super) fn one_based(Cx { t, w, out, .. }: Cx, i: usize) -> Option<usize> {
    // "Page number (1-indexed)", "1-based page number": at least 1
    let read = matches!(w, "based" | "indexed")
        && text(t, i.wrapping_sub(1)) == "-"
        && i >= 2
        && t[i - 2].num == Some(1.0);
    let what = What::Bound {
        min: incl(1.0),
        max: None,
        unit: Unit::Year,
        integer: true,
    };
    read.then(|| out.push(found(what, i - 2, i)))?;
    NEXT
}

#[cfg(test)]
mod tests {
    use super::super::driver::assert_finds;
    use super::*;

    /// Asserts each case (see [`assert_finds`]) of this family.
    fn finds(cases: &[&str]) {
        assert_finds(SIGNS, cases)
    }

    #[test]
    fn positive_and_non_negative() {
        finds(&[
            "A positive integer. | positive integer | min 0 excl Year",
            "Must be positive. | positive | min 0 excl Year",
            "A non-negative offset. | non-negative | min 0 Year",
            // a new user's (evals/new_user_trial); "is not negative" says no rule
            "Price of one unit in cents; must not be negative. | not be negative | min 0 Year",
            "Negative values mean a debit; it is not negative.",
        ]);
    }

    #[test]
    fn one_based_is_at_least_one() {
        // comet-ml/opik-mcp (batch 16)
        finds(&[
            "Page number (1-indexed). | 1-indexed | min 1 Year",
            "1-based page number. | 1-based | min 1 Year",
            // labelled either way across the batches: not read
            "Page number (0-based).",
            "A web-based tool.",
        ]);
    }

    #[test]
    fn adjectives_without_a_number_noun_are_prose() {
        finds(&[
            "A positive review of the film.",
            "Reports false positive matches.",
        ]);
    }

    #[test]
    fn what_a_sign_means_is_a_legend() {
        // openai's and together's OpenAPI specs
        finds(&[
            "Number between -2.0 and 2.0. Positive values penalize new tokens based on their existing frequency.",
            "A number between -2.0 and 2.0 where a positive value increases the likelihood of new topics.",
            // plaid's OpenAPI spec
            "Positive values when money moves out of the account; negative values when money moves in.",
            "Typically represented as a positive value on credit cards.",
            // the sign still bounds when nothing says what it means
            "Must be a positive value. | positive value | min 0 excl Year",
            "A positive value, in seconds. | positive value | min 0 excl Year",
            "Positive values only. | Positive values | min 0 excl Year",
        ]);
    }
}
