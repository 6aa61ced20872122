//! The model of `rules(...)`: the rules across arguments, each with the
//! identifiers it names (spanned where the user wrote them).

use proc_macro2::Span;
use syn::{Ident, LitStr, Path};

use super::NumLit;

/// One rule across arguments.
#[derive(Clone)]
pub enum RuleKind {
    /// `exactly_one_of(a, b, ...)`.
    ExactlyOneOf(Vec<Ident>),
    /// `at_most_one_of(a, b, ...)`.
    AtMostOneOf(Vec<Ident>),
    /// `requires(a => b, ...)`.
    Requires(Ident, Vec<Ident>),
    /// `lt(a, b)` (`strict`) or `le(a, b)`.
    Compare {
        strict: bool,
        left: Ident,
        right: Ident,
    },
    /// `max_span(from, to, 31 days)` or `max_span(min, max, 1000)`.
    MaxSpan {
        from: Ident,
        to: Ident,
        limit: NumLit,
        unit: Option<(SpanUnit, Span)>,
    },
    /// `check = path` or `check(path, "what it checks")`.
    Check { path: Path, says: Option<LitStr> },
}

/// The unit after a `max_span` bound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum SpanUnit {
    Days,
    Hours,
    Minutes,
    Seconds,
}

impl SpanUnit {
    pub const WORDS: &'static [&'static str] = &["days", "hours", "minutes", "seconds"];

    pub fn read(word: &str) -> Option<SpanUnit> {
        Some(match word {
            "day" | "days" => SpanUnit::Days,
            "hour" | "hours" => SpanUnit::Hours,
            "minute" | "minutes" => SpanUnit::Minutes,
            "second" | "seconds" => SpanUnit::Seconds,
            _ => return None,
        })
    }

    /// The unit as written after the bound.
    pub fn word(self) -> &'static str {
        match self {
            SpanUnit::Days => "days",
            SpanUnit::Hours => "hours",
            SpanUnit::Minutes => "minutes",
            SpanUnit::Seconds => "seconds",
        }
    }

    /// The runtime variant's name.
    pub fn variant(self) -> &'static str {
        match self {
            SpanUnit::Days => "Days",
            SpanUnit::Hours => "Hours",
            SpanUnit::Minutes => "Minutes",
            SpanUnit::Seconds => "Seconds",
        }
    }
}

/// A rule as written, spanned on its name.
#[derive(Clone)]
pub struct RuleDecl {
    pub kind: RuleKind,
    pub span: Span,
}

impl RuleDecl {
    /// The rule's name as written.
    pub fn name(&self) -> &'static str {
        match &self.kind {
            RuleKind::ExactlyOneOf(_) => "exactly_one_of",
            RuleKind::AtMostOneOf(_) => "at_most_one_of",
            RuleKind::Requires(..) => "requires",
            RuleKind::Compare { strict: true, .. } => "lt",
            RuleKind::Compare { strict: false, .. } => "le",
            RuleKind::MaxSpan { .. } => "max_span",
            RuleKind::Check { .. } => "check",
        }
    }

    /// The arguments it names, in order.
    pub fn idents(&self) -> Vec<&Ident> {
        match &self.kind {
            RuleKind::ExactlyOneOf(a) | RuleKind::AtMostOneOf(a) => a.iter().collect(),
            RuleKind::Requires(a, b) => std::iter::once(a).chain(b).collect(),
            RuleKind::Compare { left, right, .. } => vec![left, right],
            RuleKind::MaxSpan { from, to, .. } => vec![from, to],
            RuleKind::Check { .. } => Vec::new(),
        }
    }

    /// Whether it is about which arguments are sent (they must be optional).
    pub fn is_presence(&self) -> bool {
        matches!(
            self.kind,
            RuleKind::ExactlyOneOf(_) | RuleKind::AtMostOneOf(_) | RuleKind::Requires(..)
        )
    }
}
