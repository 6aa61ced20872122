//! Rules across arguments, declared once with `rules(...)`: each [`Rule`]
//! publishes itself (a JSON Schema keyword where JSON Schema can say it, else
//! plain words in the description, listed in the definition's `rules` so that
//! every dialect reports the loss) and is checked on the decoded arguments by
//! the functions below, which the generated `check` and `decode_value` call.
//!
//! A violation names every argument involved, one error per argument, each
//! with the rule's keyword: the JSON Schema keyword the schema carries
//! (`oneOf`, `not`, `then`), else the rule's own name (`le`,
//! `max_span`, or the check function's name).

use std::cmp::Ordering;

use serde_json::{json, Map, Value};

use crate::args::constraint::Num;
use crate::args::validate::{Ptr, Violation, Violations};

/// How two arguments compare in `lt(a, b)` and `le(a, b)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `a < b`.
    Lt,
    /// `a <= b`.
    Le,
}

/// The unit of a `max_span` bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanUnit {
    /// A plain difference of numbers (`max_span(min, max, 1000)`).
    Plain,
    /// Days between dates or date-times.
    Days,
    /// Hours.
    Hours,
    /// Minutes.
    Minutes,
    /// Seconds.
    Seconds,
}

impl SpanUnit {
    /// The unit as written after the bound (`days`), empty for plain numbers.
    pub fn name(self) -> &'static str {
        match self {
            SpanUnit::Plain => "",
            SpanUnit::Days => "days",
            SpanUnit::Hours => "hours",
            SpanUnit::Minutes => "minutes",
            SpanUnit::Seconds => "seconds",
        }
    }

    /// Seconds in one unit (`None` for plain numbers).
    pub fn seconds(self) -> Option<f64> {
        match self {
            SpanUnit::Plain => None,
            SpanUnit::Days => Some(86_400.0),
            SpanUnit::Hours => Some(3_600.0),
            SpanUnit::Minutes => Some(60.0),
            SpanUnit::Seconds => Some(1.0),
        }
    }
}

/// One rule across arguments, as `rules(...)` declares it; the names are the
/// arguments' JSON names.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// `exactly_one_of(a, b, ...)`: published as `oneOf`, one branch per argument sent.
    ExactlyOneOf(&'static [&'static str]),
    /// `at_most_one_of(a, b, ...)`: published as `not` of `anyOf` of pairs sent.
    AtMostOneOf(&'static [&'static str]),
    /// `requires(a => b, ...)`: published as `if` `a` is sent `then` `b` is.
    Requires(&'static str, &'static [&'static str]),
    /// `lt(a, b)`, `le(a, b)`: stated in the description.
    Compare {
        /// The comparison.
        op: Cmp,
        /// The argument that must be the smaller.
        left: &'static str,
        /// The argument that must be the larger.
        right: &'static str,
        /// How the operand type says "less than" and "less than or equal
        /// to" (a function, so that generated code names the type once).
        words: fn() -> OrderWords,
    },
    /// `max_span(a, b, limit unit)`: `b - a <= limit`, stated in the description.
    MaxSpan {
        /// The start.
        from: &'static str,
        /// The end.
        to: &'static str,
        /// The largest difference allowed.
        limit: Num,
        /// Its unit.
        unit: SpanUnit,
    },
    /// `check = path`: a function returning [`RuleViolation`]s.
    Check {
        /// The function's name: the keyword of its violations.
        name: &'static str,
        /// What it checks, in words (`check(path, "...")`), or empty.
        says: &'static str,
    },
}

/// How an operand type says "less than" and "less than or equal to".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderWords {
    /// `a < b` in words: "less than", "before".
    pub lt: &'static str,
    /// `a <= b` in words: "less than or equal to", "on or before".
    pub le: &'static str,
}

impl OrderWords {
    /// Numbers.
    pub const NUMBERS: OrderWords = OrderWords {
        lt: "less than",
        le: "less than or equal to",
    };
    /// Strings, compared by code point.
    pub const STRINGS: OrderWords = OrderWords {
        lt: "ordered before",
        le: "ordered before or equal to",
    };
    /// Dates and times.
    pub const TIMES: OrderWords = OrderWords {
        lt: "before",
        le: "on or before",
    };
}

fn quoted(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match q.len() {
        0 => String::new(),
        1 => q[0].clone(),
        n => format!("{} or {}", q[..n - 1].join(", "), q[n - 1]),
    }
}

fn quoted_and(names: &[&str]) -> String {
    quoted(names).replace(" or ", " and ")
}

impl Rule {
    /// The keyword of its violations and of its loss-report entry.
    pub fn keyword(&self) -> &'static str {
        match self {
            Rule::ExactlyOneOf(_) => "oneOf",
            Rule::AtMostOneOf(_) => "not",
            Rule::Requires(..) => "then",
            Rule::Compare { op: Cmp::Lt, .. } => "lt",
            Rule::Compare { op: Cmp::Le, .. } => "le",
            Rule::MaxSpan { .. } => "max_span",
            Rule::Check { name, .. } => name,
        }
    }

    /// The rule as written in `rules(...)`.
    pub fn name(&self) -> &'static str {
        match self {
            Rule::ExactlyOneOf(_) => "exactly_one_of",
            Rule::AtMostOneOf(_) => "at_most_one_of",
            Rule::Requires(..) => "requires",
            Rule::Compare { op: Cmp::Lt, .. } => "lt",
            Rule::Compare { op: Cmp::Le, .. } => "le",
            Rule::MaxSpan { .. } => "max_span",
            Rule::Check { .. } => "check",
        }
    }

    /// The arguments it names, in order.
    pub fn arguments(&self) -> Vec<&'static str> {
        match self {
            Rule::ExactlyOneOf(a) | Rule::AtMostOneOf(a) => a.to_vec(),
            Rule::Requires(a, b) => std::iter::once(*a).chain(b.iter().copied()).collect(),
            Rule::Compare { left, right, .. } => vec![left, right],
            Rule::MaxSpan { from, to, .. } => vec![from, to],
            Rule::Check { .. } => Vec::new(),
        }
    }

    /// Whether JSON Schema can say it (else it is in the description only).
    pub fn in_schema(&self) -> bool {
        matches!(
            self,
            Rule::ExactlyOneOf(_) | Rule::AtMostOneOf(_) | Rule::Requires(..)
        )
    }

    /// The rule in plain words, as the description and the loss report state it.
    pub fn words(&self) -> String {
        match self {
            Rule::ExactlyOneOf(a) => format!("send exactly one of {}", quoted(a)),
            Rule::AtMostOneOf(a) => format!("send at most one of {}", quoted(a)),
            Rule::Requires(a, b) => format!("when `{a}` is sent, send {} too", quoted_and(b)),
            Rule::Compare {
                op,
                left,
                right,
                words,
            } => {
                let words = words();
                let w = if *op == Cmp::Lt { words.lt } else { words.le };
                format!("`{left}` must be {w} `{right}`")
            }
            Rule::MaxSpan {
                from,
                to,
                limit,
                unit,
            } => match unit {
                SpanUnit::Plain => {
                    format!("`{to}` minus `{from}` must be at most {}", limit.to_json())
                }
                u => format!(
                    "`{to}` must be at most {} {} after `{from}`",
                    limit.to_json(),
                    u.name()
                ),
            },
            Rule::Check { name, says: "" } => {
                format!("further rules are checked when the tool is called (`{name}`)")
            }
            Rule::Check { says, .. } => (*says).to_owned(),
        }
    }

    /// The rule's entry in the canonical definition's `rules`.
    pub fn to_json(&self) -> Value {
        json!({
            "rule": self.name(),
            "keyword": self.keyword(),
            "arguments": self.arguments(),
            "in_schema": self.in_schema(),
            "text": self.words(),
        })
    }
}

/// "`name` is sent": present and not null. A null optional argument counts
/// as left out, as the decoder reads it (and as strict dialects send every
/// optional argument, null when unused), so key presence alone
/// (`dependentRequired`) would not say it.
fn sent(names: &[&str]) -> Value {
    let not_null: Map<String, Value> = names
        .iter()
        .map(|n| ((*n).to_owned(), json!({"not": {"type": "null"}})))
        .collect();
    json!({"required": names, "properties": not_null})
}

/// How the sentence of the rules a schema cannot say begins, in an argument
/// object's description.
pub(crate) const RULES_LEAD: &str = "Rules across arguments:";

/// The sentence of rules across arguments in an object's `description`, if
/// it has one (for a field's doc that replaces the object's own).
pub(crate) fn rules_sentence(description: &str) -> Option<&str> {
    if description.starts_with(RULES_LEAD) {
        return Some(description);
    }
    description
        .find(&format!("\n\n{RULES_LEAD}"))
        .map(|i| &description[i + 2..])
}

/// Adds the rules to an argument object's schema: each one JSON Schema can
/// say as one branch of a root `allOf`, its words as the branch's
/// `description`; the others as a sentence appended to the object's
/// description.
pub fn apply_rules(schema: &mut Map<String, Value>, rules: &[Rule]) {
    let mut branches = Vec::new();
    let mut words = Vec::new();
    for rule in rules {
        let text = rule.words();
        match rule {
            Rule::ExactlyOneOf(names) => {
                let one: Vec<Value> = names.iter().map(|n| sent(&[n])).collect();
                branches.push(json!({"description": text, "oneOf": one}));
            }
            Rule::AtMostOneOf(names) => {
                let mut pairs = Vec::new();
                for (i, a) in names.iter().enumerate() {
                    for b in &names[i + 1..] {
                        pairs.push(sent(&[a, b]));
                    }
                }
                branches.push(json!({"description": text, "not": {"anyOf": pairs}}));
            }
            Rule::Requires(a, b) => {
                branches.push(json!({"description": text, "if": sent(&[a]), "then": sent(b)}));
            }
            _ => words.push(text),
        }
    }
    if !branches.is_empty() {
        schema.insert("allOf".into(), Value::Array(branches));
    }
    if !words.is_empty() {
        let sentence = format!("{RULES_LEAD} {}.", words.join("; "));
        let text = match schema.get("description").and_then(Value::as_str) {
            Some(d) if !d.is_empty() => format!("{d}\n\n{sentence}"),
            _ => sentence,
        };
        schema.insert("description".into(), Value::from(text));
    }
}

fn push(out: &mut Violations, ptr: &Ptr<'_>, rule: &Rule, name: &str, v: Partial) {
    out.push_violation(Violation {
        pointer: ptr.key(name).render(),
        keyword: rule.keyword(),
        limit: Some(v.limit),
        actual: v.actual,
        message: v.message,
        hint: v.hint,
        served: false,
    });
}

struct Partial {
    limit: Value,
    actual: Option<Value>,
    message: String,
    hint: String,
}

/// Checks a presence rule; `present` holds, per argument of the rule in
/// order, whether it was sent.
pub fn check_presence(rule: &Rule, present: &[bool], ptr: &Ptr<'_>, out: &mut Violations) {
    let names = rule.arguments();
    let sent: Vec<&str> = names
        .iter()
        .zip(present)
        .filter(|(_, p)| **p)
        .map(|(n, _)| *n)
        .collect();
    let limit = match rule {
        Rule::Requires(a, b) => json!({ *a: b }),
        _ => Value::from(names.clone()),
    };
    // Every error of a presence rule has the rule's arguments as its limit
    // and nothing sent to show.
    let mut blame = |name: &str, message: String, hint: String| {
        let limit = limit.clone();
        push(
            out,
            ptr,
            rule,
            name,
            Partial {
                limit,
                actual: None,
                message,
                hint,
            },
        );
    };
    match rule {
        Rule::ExactlyOneOf(_) if sent.is_empty() => {
            for n in &names {
                blame(
                    n,
                    format!("is missing: exactly one of {} is required", quoted(&names)),
                    format!("send exactly one of {}", quoted(&names)),
                );
            }
        }
        Rule::ExactlyOneOf(_) | Rule::AtMostOneOf(_) if sent.len() > 1 => {
            for n in &sent {
                let others: Vec<&str> = sent.iter().copied().filter(|o| o != n).collect();
                blame(
                    n,
                    format!("cannot be sent together with {}", quoted_and(&others)),
                    format!("send only one of {}: remove the others", quoted(&sent)),
                );
            }
        }
        Rule::Requires(a, b) if present.first() == Some(&true) => {
            let missing: Vec<&str> = b
                .iter()
                .zip(&present[1..])
                .filter(|(_, p)| !**p)
                .map(|(n, _)| *n)
                .collect();
            if missing.is_empty() {
                return;
            }
            for n in std::iter::once(*a).chain(missing.iter().copied()) {
                let message = if n == *a {
                    format!("needs {} to be sent too", quoted_and(&missing))
                } else {
                    format!("is required when `{a}` is sent")
                };
                let hint = format!(
                    "send {} with `{a}`, or leave `{a}` out",
                    quoted_and(&missing)
                );
                blame(n, message, hint);
            }
        }
        _ => {}
    }
}

/// A value a rule can compare: numbers, strings, dates and times.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be compared by a rule across arguments",
    label = "not comparable",
    note = "`lt`, `le` and `max_span` compare numbers, strings, and dates or times (with a date feature), or `Option`s of them"
)]
pub trait Operand {
    /// The value compared.
    type Value: Ordered;
    /// The value, when the argument was sent.
    fn operand(&self) -> Option<&Self::Value>;
}

/// The two operands of a comparison, as their common value type.
pub struct Operands<'a, T> {
    left: Option<&'a T>,
    right: Option<&'a T>,
}

/// The operands of `lt`, `le` or `max_span`: two arguments of one type (`T`
/// or `Option<T>`). Generated code reaches both the rule's words and its
/// check through this one function, so that a type that cannot be ordered is
/// one error (rustc merges identical ones).
pub fn operands<'a, A: Operand, B: Operand<Value = A::Value>>(
    a: Option<&'a A>,
    b: Option<&'a B>,
) -> Operands<'a, A::Value> {
    Operands {
        left: a.and_then(Operand::operand),
        right: b.and_then(Operand::operand),
    }
}

impl<T: Ordered> Operands<'_, T> {
    /// How the operands' type says "less than".
    pub fn words(&self) -> OrderWords {
        T::WORDS
    }
}

/// A type whose values can be ordered by a rule.
pub trait Ordered {
    /// How "less than" reads for this type.
    const WORDS: OrderWords;
    /// The order (`None`: incomparable, such as NaN).
    fn order(&self, other: &Self) -> Option<Ordering>;
    /// The value as the envelope shows it.
    fn shown(&self) -> Value;
    /// `later - self` in `unit`; `None` when the type has no such difference.
    fn distance(&self, later: &Self, unit: SpanUnit) -> Option<f64>;
}

macro_rules! ordered_number {
    ($($t:ty),*) => {$(
        impl Ordered for $t {
            const WORDS: OrderWords = OrderWords::NUMBERS;
            fn order(&self, other: &Self) -> Option<Ordering> {
                self.partial_cmp(other)
            }
            fn shown(&self) -> Value {
                json!(self)
            }
            fn distance(&self, later: &Self, unit: SpanUnit) -> Option<f64> {
                (unit == SpanUnit::Plain).then(|| *later as f64 - *self as f64)
            }
        }
        impl Operand for $t {
            type Value = $t;
            fn operand(&self) -> Option<&$t> { Some(self) }
        }
        impl Operand for Option<$t> {
            type Value = $t;
            fn operand(&self) -> Option<&$t> { self.as_ref() }
        }
    )*};
}

ordered_number!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

impl Ordered for String {
    const WORDS: OrderWords = OrderWords::STRINGS;
    fn order(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
    fn shown(&self) -> Value {
        Value::from(self.as_str())
    }
    fn distance(&self, _: &Self, _: SpanUnit) -> Option<f64> {
        None
    }
}

impl Operand for String {
    type Value = String;
    fn operand(&self) -> Option<&String> {
        Some(self)
    }
}

impl Operand for Option<String> {
    type Value = String;
    fn operand(&self) -> Option<&String> {
        self.as_ref()
    }
}

/// A type `max_span` can measure: numbers (plain) and dates or times (in
/// time units).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no difference `max_span` can bound",
    label = "no span",
    note = "`max_span` bounds the difference of numbers (`max_span(a, b, 1000)`) or of dates and times (`max_span(a, b, 31 days)`)"
)]
pub trait Spanned: Ordered {}

macro_rules! spanned_number {
    ($($t:ty),*) => {$( impl Spanned for $t {} )*};
}
spanned_number!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

/// Checks `lt` or `le` on two arguments of one type (`T` or `Option<T>`);
/// a rule with an argument left out holds.
pub fn check_compare<T: Ordered>(
    rule: &Rule,
    operands: Operands<'_, T>,
    ptr: &Ptr<'_>,
    out: &mut Violations,
) {
    let (Some(a), Some(b)) = (operands.left, operands.right) else {
        return;
    };
    let Rule::Compare {
        op,
        left: ln,
        right: rn,
        words,
    } = rule
    else {
        return;
    };
    let holds = matches!(
        (a.order(b), op),
        (Some(Ordering::Less), _) | (Some(Ordering::Equal), Cmp::Le)
    );
    if holds {
        return;
    }
    let words = words();
    let w = if *op == Cmp::Lt { words.lt } else { words.le };
    let hint = format!("send a `{ln}` {w} `{rn}`, or swap them if they are reversed");
    push(
        out,
        ptr,
        rule,
        ln,
        Partial {
            limit: b.shown(),
            actual: Some(a.shown()),
            message: format!("must be {w} `{rn}` ({})", b.shown()),
            hint: hint.clone(),
        },
    );
    let inverse = if *op == Cmp::Lt {
        "greater than"
    } else {
        "greater than or equal to"
    };
    let inverse = match words {
        OrderWords::TIMES if *op == Cmp::Lt => "after",
        OrderWords::TIMES => "on or after",
        _ => inverse,
    };
    push(
        out,
        ptr,
        rule,
        rn,
        Partial {
            limit: a.shown(),
            actual: Some(b.shown()),
            message: format!("must be {inverse} `{ln}` ({})", a.shown()),
            hint,
        },
    );
}

/// Checks `max_span`; a rule with an argument left out holds, and so does a
/// reversed pair (that is what `le` is for).
pub fn check_span<T: Spanned>(
    rule: &Rule,
    operands: Operands<'_, T>,
    ptr: &Ptr<'_>,
    out: &mut Violations,
) {
    let (Some(a), Some(b)) = (operands.left, operands.right) else {
        return;
    };
    let Rule::MaxSpan {
        from: fname,
        to: tname,
        limit,
        unit,
    } = rule
    else {
        return;
    };
    let Some(span) = a.distance(b, *unit) else {
        return;
    };
    let max = limit.as_f64();
    if span <= max {
        return;
    }
    let unit_words = match unit {
        SpanUnit::Plain => String::new(),
        u => format!(" {}", u.name()),
    };
    let shown = |x: f64| {
        if x.fract() == 0.0 && x.abs() < 9e15 {
            Value::from(x as i64)
        } else {
            Value::from(x)
        }
    };
    // each end's error names the other end: "`/from` starts a range of
    // 367 days to `to`", "`/to` ends a range of 367 days from `from`"
    let message = |end: &str, other: &str| {
        format!(
            "{end} a range of {}{unit_words} {other}; at most {}{unit_words} is allowed",
            shown(span),
            limit.to_json()
        )
    };
    let hint = format!(
        "narrow the range to at most {}{unit_words}, or split it into several calls",
        limit.to_json()
    );
    let ends = [
        (fname, message("starts", &format!("to `{tname}`"))),
        (tname, message("ends", &format!("from `{fname}`"))),
    ];
    for (n, message) in ends {
        push(
            out,
            ptr,
            rule,
            n,
            Partial {
                limit: limit.to_json(),
                actual: Some(shown(span)),
                message,
                hint: hint.clone(),
            },
        );
    }
}

/// One violation found by a `check = path` function.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleViolation {
    /// The arguments involved (their JSON names); one error each.
    pub arguments: Vec<&'static str>,
    /// What is wrong, as a sentence about those arguments.
    pub message: String,
    /// What to send instead.
    pub repair: String,
}

impl RuleViolation {
    /// A violation of `arguments`, with a message and a repair.
    pub fn new(
        arguments: &[&'static str],
        message: impl Into<String>,
        repair: impl Into<String>,
    ) -> RuleViolation {
        RuleViolation {
            arguments: arguments.to_vec(),
            message: message.into(),
            repair: repair.into(),
        }
    }
}

/// Records the violations a `check = path` function returned.
pub fn check_custom(rule: &Rule, found: Vec<RuleViolation>, ptr: &Ptr<'_>, out: &mut Violations) {
    for v in found {
        let names = v.arguments.clone();
        if names.is_empty() {
            out.push_violation(Violation {
                pointer: ptr.render(),
                keyword: rule.keyword(),
                limit: Some(Value::from(rule.words())),
                actual: None,
                message: v.message.clone(),
                hint: v.repair.clone(),
                served: false,
            });
        }
        for n in names {
            push(
                out,
                ptr,
                rule,
                n,
                Partial {
                    limit: Value::from(v.arguments.clone()),
                    actual: None,
                    message: v.message.clone(),
                    hint: v.repair.clone(),
                },
            );
        }
    }
}

/// A presence rule's argument: only an `Option` can be left out.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is always sent, so a presence rule cannot name it",
    label = "not optional",
    note = "`exactly_one_of`, `at_most_one_of` and `requires` name `Option<T>` arguments"
)]
pub trait Presence {
    /// Whether the argument was sent.
    fn present(&self) -> bool;
}

impl<T> Presence for Option<T> {
    fn present(&self) -> bool {
        self.is_some()
    }
}
