//! Agreement with a rule across arguments: a distance the prose states
//! ("at most 90 days after `from`", "The range may cover at most 90 days")
//! that a declared `max_span(from, to, 90 days)` already holds is no
//! constraint left undeclared, and one it does not hold is a contradiction.
//! Without this, the help that asks for `max_span` would be given again
//! after the author declared it.

use super::finding::{Bound, What};
use super::resolve::{resolve_all, Resolved};
use super::units::measure_of;
use super::{Change, Check, Claim, ClaimKind, Conflict};

/// A `max_span(from, to, limit unit)` rule a tool declares: `to - from <=
/// limit`, in `unit` (`days`, `hours`, `minutes`, `seconds`, or empty for a
/// plain difference of numbers). The names are the arguments' JSON names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpanRule<'a> {
    pub from: &'a str,
    pub to: &'a str,
    pub limit: f64,
    pub unit: &'a str,
}

impl SpanRule<'_> {
    /// The rule with `limit`, as `rules(..)` writes it, and the distance
    /// as prose says it.
    fn written(&self, limit: f64) -> (String, String) {
        let n = super::help::num(limit);
        let unit = match self.unit {
            "" => String::new(),
            unit => format!(" {unit}"),
        };
        let rule = format!("max_span({}, {}, {n}{unit})", self.from, self.to);
        (rule, format!("at most {n}{unit}"))
    }

    /// A distance (its value, and seconds in its unit or `None` for a bare
    /// number) in the rule's unit, when the two compare: a time with a
    /// time, a bare number with a plain difference.
    fn in_unit(&self, (v, seconds): (f64, Option<f64>)) -> Option<f64> {
        match (seconds, measure_of(self.unit, "")) {
            (Some(said), Some((_, _, unit))) => Some(v * said / unit),
            (None, None) => Some(v),
            _ => None,
        }
    }
}

/// The largest distance the phrase states, and the seconds in its unit
/// (`None` for a bare number): "at most 90 days" is `(90, Some(86400))`; an
/// exclusive bound counts whole units ("fewer than 91 days" is 90).
fn distance(r: &Resolved) -> Option<(f64, Option<f64>)> {
    let What::Bound {
        min: None,
        max: Some(Bound { v, exclusive, .. }),
        ..
    } = r.what
    else {
        return None;
    };
    let v = if exclusive { v - 1.0 } else { v };
    let unit = measure_of(&r.claim.phrase, "").filter(|(_, kind, _)| *kind == 0);
    Some((v, unit.map(|(_, _, seconds)| seconds)))
}

/// What a claim read on an argument that takes part in `rules` comes to:
/// `None` when it states no distance a rule holds (it goes on to the
/// argument's own declaration), `Some(None)` when a rule states the same
/// distance (they agree), `Some(Some(claim))` when it states another
/// distance in time on a date (which holds no other bound: a
/// contradiction).
pub(super) fn against(r: &Resolved, rules: &[SpanRule], date: bool) -> Option<Option<Claim>> {
    if r.claim.kind != ClaimKind::Range || rules.is_empty() {
        return None;
    }
    let d = distance(r)?;
    // (hours and weeks converted to days come out whole, to rounding)
    let holds = |rule: &SpanRule| {
        rule.in_unit(d)
            .is_some_and(|v| (v - rule.limit).abs() < 1e-9)
    };
    if rules.iter().any(holds) {
        return Some(None);
    }
    // a bare number that differs may be a bound of the value itself; a
    // time on a date can only be a distance
    let (rule, said) = (rules.iter().filter(|_| date && d.1.is_some()))
        .find_map(|rule| Some((rule, rule.in_unit(d)?)))?;
    let (declared, says) = rule.written(rule.limit);
    let change = match said < rule.limit {
        true => Change::Declaration(rule.written(said).0),
        false => Change::Prose(says),
    };
    let conflict = Some(Conflict {
        check: Check::Span,
        declared,
        change,
    });
    Some(Some(Claim {
        conflict,
        ..r.claim.clone()
    }))
}

/// Whether a claim of a tool's description that no one argument holds
/// ("The range may cover at most 90 days") states a distance one of the
/// tool's `max_span` rules holds: it then agrees with the rule.
pub fn states_a_declared_span(claim: &Claim, rules: &[SpanRule]) -> bool {
    resolve_all(&claim.phrase, None)
        .iter()
        .any(|r| matches!(against(r, rules, false), Some(None)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{unmatched, Declared, Scalar};

    const DAYS: SpanRule = SpanRule {
        from: "from",
        to: "to",
        limit: 90.0,
        unit: "days",
    };

    /// Each case: the doc, then what is left of it beside the rule (help,
    /// or a conflict's declaration and change), `;`-separated.
    fn assert_left(rules: &[SpanRule], scalar: Scalar, cases: &[&str]) {
        let format_name = (scalar == Scalar::Other).then_some("date");
        let d = Declared {
            format_name,
            scalar,
            spans: rules,
            ..Declared::default()
        };
        for case in cases {
            let (doc, want) = case.split_once(" | ").unwrap_or((case, ""));
            let left: Vec<String> = (unmatched(doc, d).into_iter())
                .map(|c| match c.conflict {
                    Some(c) => format!("{} {:?}", c.declared, c.change),
                    None => c.help,
                })
                .collect();
            assert_eq!(left.join("; "), want, "{doc}");
        }
    }

    #[test]
    fn a_declared_span_agrees_and_another_distance_on_a_date_contradicts_it() {
        assert_left(&[DAYS], Scalar::Other, &[
            "Last day to include; at most 90 days after `from`.",
            "Last day; fewer than 91 days after `from`.",
            "Last day; at most 2160 hours after `from`.",
            "Last day; at most 60 days after `from`. | max_span(from, to, 90 days) Declaration(\"max_span(from, to, 60 days)\")",
            "Last day; at most 6 months after `from`. | max_span(from, to, 90 days) Prose(\"at most 90 days\")",
        ]);
        // (undeclared, the help asks for the rule: `help::DATE_SPAN`'s test)
        // a bare number the rule does not hold is the value's own bound
        let plain = SpanRule {
            from: "low",
            to: "high",
            limit: 10.0,
            unit: "",
        };
        assert_left(
            &[plain],
            Scalar::Integer,
            &[
                "High end; at most 10 above `low`.",
                "High end; at most 20. | #[arg(range(max = 20))]",
            ],
        );
    }

    #[test]
    fn a_tool_sentence_stating_a_declared_span_agrees() {
        let claims = crate::claims("The range may cover at most 90 days.");
        assert_eq!(claims.len(), 1, "{claims:?}");
        let other = SpanRule {
            limit: 30.0,
            ..DAYS
        };
        assert!(states_a_declared_span(&claims[0], &[DAYS]));
        assert!(!states_a_declared_span(&claims[0], &[other]));
        assert!(!states_a_declared_span(&claims[0], &[]));
    }
}
