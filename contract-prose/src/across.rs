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
    /// Seconds in one unit of the limit; `None` for a plain difference.
    fn seconds(&self) -> Option<f64> {
        measure_of(self.unit, "").map(|(_, _, seconds)| seconds)
    }

    /// The rule with another limit, as `rules(..)` writes it.
    fn written(&self, limit: f64) -> String {
        let unit = match self.unit {
            "" => String::new(),
            unit => format!(" {unit}"),
        };
        format!(
            "max_span({}, {}, {}{unit})",
            self.from,
            self.to,
            super::help::num(limit)
        )
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

/// The distance in `rule`'s unit, when the phrase states one it can be
/// compared with: a time against a time, a bare number against a plain
/// difference.
fn in_rule_unit(d: (f64, Option<f64>), rule: &SpanRule) -> Option<f64> {
    match (d.1, rule.seconds()) {
        (Some(said), Some(unit)) => Some(d.0 * said / unit),
        (None, None) => Some(d.0),
        _ => None,
    }
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
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    if rules
        .iter()
        .any(|rule| in_rule_unit(d, rule).is_some_and(|v| close(v, rule.limit)))
    {
        return Some(None);
    }
    // a bare number that differs may be a bound of the value itself; a
    // time on a date can only be a distance
    let (rule, said) = rules
        .iter()
        .filter(|_| date && d.1.is_some())
        .find_map(|rule| Some((rule, in_rule_unit(d, rule)?)))?;
    let change = if said < rule.limit {
        Change::Declaration(rule.written(said))
    } else {
        let unit = match rule.unit {
            "" => String::new(),
            unit => format!(" {unit}"),
        };
        Change::Prose(format!("at most {}{unit}", super::help::num(rule.limit)))
    };
    Some(Some(Claim {
        conflict: Some(Conflict {
            check: Check::Span,
            declared: rule.written(rule.limit),
            change,
        }),
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

    const NINETY_DAYS: SpanRule = SpanRule {
        from: "from",
        to: "to",
        limit: 90.0,
        unit: "days",
    };

    fn date<'a>(spans: &'a [SpanRule<'a>]) -> Declared<'a> {
        Declared {
            format_name: Some("date"),
            scalar: Scalar::Other,
            spans,
            ..Declared::default()
        }
    }

    fn helps(doc: &str, d: Declared) -> Vec<String> {
        unmatched(doc, d)
            .into_iter()
            .map(|c| match c.conflict {
                Some(c) => format!("{} | {:?}", c.declared, c.change),
                None => c.help,
            })
            .collect()
    }

    #[test]
    fn a_declared_span_agrees_with_the_same_distance_in_any_unit() {
        let rules = [NINETY_DAYS];
        for doc in [
            "Last day to include; at most 90 days after `from`.",
            "Last day; fewer than 91 days after `from`.",
            "Last day; at most 2160 hours after `from`.",
        ] {
            assert_eq!(helps(doc, date(&rules)), Vec::<String>::new(), "{doc}");
        }
        // undeclared, it is still reported with the rule that declares it
        assert_eq!(
            helps(
                "Last day to include; at most 90 days after `from`.",
                date(&[])
            ),
            [crate::help::DATE_SPAN]
        );
    }

    #[test]
    fn another_distance_on_a_date_contradicts_the_rule() {
        let rules = [NINETY_DAYS];
        assert_eq!(
            helps("Last day; at most 60 days after `from`.", date(&rules)),
            ["max_span(from, to, 90 days) | Declaration(\"max_span(from, to, 60 days)\")"]
        );
        assert_eq!(
            helps("Last day; at most 6 months after `from`.", date(&rules)),
            ["max_span(from, to, 90 days) | Prose(\"at most 90 days\")"]
        );
    }

    #[test]
    fn a_plain_span_agrees_and_another_number_is_left_to_the_range() {
        let rules = [SpanRule {
            from: "low",
            to: "high",
            limit: 10.0,
            unit: "",
        }];
        let int = |spans| Declared {
            scalar: Scalar::Integer,
            spans,
            ..Declared::default()
        };
        assert_eq!(
            helps("High end; at most 10 above `low`.", int(&rules)),
            Vec::<String>::new()
        );
        // 20 is no distance the rule holds: read as the value's own bound
        assert_eq!(
            helps("High end; at most 20.", int(&rules)),
            ["#[arg(range(max = 20))]"]
        );
    }

    #[test]
    fn a_tool_sentence_stating_a_declared_span_agrees() {
        let claims = crate::claims("The range may cover at most 90 days.");
        assert_eq!(claims.len(), 1, "{claims:?}");
        assert!(states_a_declared_span(&claims[0], &[NINETY_DAYS]));
        let other = SpanRule {
            limit: 30.0,
            ..NINETY_DAYS
        };
        assert!(!states_a_declared_span(&claims[0], &[other]));
        assert!(!states_a_declared_span(&claims[0], &[]));
    }
}
