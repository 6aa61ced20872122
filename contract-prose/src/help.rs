//! The attribute each claim asks for, with the numbers and values found filled in.

use super::finding::{Bound, Unit, What};
use super::{ClaimKind, Declared, Scalar};

pub(super) fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

pub(super) fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// A whole-number bound written inclusively: "fewer than 10" is "at most 9".
pub(super) fn whole(b: Option<Bound>, lower: bool) -> Option<Bound> {
    b.map(|b| {
        // (an inclusive fraction too: "at most 999.99" of a whole number is 999)
        let v = match (b.exclusive, lower) {
            (false, true) => b.v.ceil(),
            (false, false) => b.v.floor(),
            (true, true) => b.v.floor() + 1.0,
            (true, false) => b.v.ceil() - 1.0,
        };
        Bound {
            v,
            exclusive: false,
            ..b
        }
    })
}

/// Bounds on a count (length, items) are integers: "fewer than 10" is "max = 9".
pub(super) fn count_help(min: Option<Bound>, max: Option<Bound>) -> String {
    let parts: Vec<String> = [("min", whole(min, true)), ("max", whole(max, false))]
        .into_iter()
        .filter_map(|(name, b)| Some(format!("{name} = {}", num(b?.v))))
        .collect();
    format!("#[arg(length({}))]", parts.join(", "))
}

pub(super) fn range_help(min: Option<Bound>, max: Option<Bound>, integer: bool) -> String {
    let parts: Vec<String> = [("min", min, true), ("max", max, false)]
        .into_iter()
        .filter_map(|(name, b, lower)| {
            let b = b?;
            Some(match (b.exclusive, integer) {
                (false, _) => format!("{name} = {}", num(b.v)),
                (true, true) => format!("{name} = {}", num(whole(Some(b), lower)?.v)),
                (true, false) => format!("exclusive_{name} = {}", num(b.v)),
            })
        })
        .collect();
    format!("#[arg(range({}))]", parts.join(", "))
}

pub(super) fn class_help(class: &str, min: Option<Bound>, max: Option<Bound>) -> String {
    let lo = min.map(|b| num(if b.exclusive { b.v + 1.0 } else { b.v }));
    let hi = max.map(|b| num(if b.exclusive { b.v - 1.0 } else { b.v }));
    let rep = match (lo, hi) {
        (Some(a), Some(b)) if a == b => format!("{{{a}}}"),
        (Some(a), Some(b)) => format!("{{{a},{b}}}"),
        (Some(a), None) => format!("{{{a},}}"),
        (None, Some(b)) => format!("{{1,{b}}}"),
        (None, None) => "+".into(),
    };
    format!("#[arg(pattern = \"^[{class}]{rep}$\")]")
}

/// `value` as a regex that matches exactly it.
pub(super) fn regex_literal(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

pub(super) fn variant_name(value: &str) -> String {
    value
        .split(|c: char| !c.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut cs = p.chars();
            cs.next()
                .map(|f| f.to_uppercase().chain(cs).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// An ISO 8601 duration ("P3D", "PT1H30M"), in the regex subset rule C10 accepts.
pub(super) const DURATION: &str =
    "^P([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+([.][0-9]+)?S)?)?$";

/// The help for a claim of `kind`: an attribute the argument's type accepts.
///
/// Without a known type (`decl` is `None` or its scalar is `Unknown`) the help
/// assumes the attribute fits, as [`super::claims`] has no type to go by.
pub(super) fn help_for(kind: ClaimKind, what: &What, decl: Option<&Declared>) -> String {
    // a bound written as a template's placeholder ("max
    // ${MAX_TASKS_PER_OPERATION}", Doist/todoist-ai): no number to declare
    // until the prose states it, which the model needs too, as it reads the
    // placeholder as written
    if let What::Bound { min, max, .. } = what {
        if [min, max].iter().any(|b| b.is_some_and(|b| b.v.is_nan())) {
            let key = if kind == ClaimKind::Range {
                "range"
            } else {
                "length"
            };
            // no attribute to offer until the number is known: the message
            // adds the opt-out, the one declaration that compiles as written
            return format!(
                "the model reads the placeholder as written: write its number in the prose, then declare that number as `{key}(max = ..)`"
            );
        }
    }
    if let (
        ClaimKind::Length,
        What::Bound {
            unit: Unit::Uncounted,
            ..
        },
    ) = (kind, what)
    {
        return UNCOUNTED.to_string();
    }
    if what.of_a_sum() {
        return format!("a bound of several values together, which no one argument declares: the tool must check it when called and refuse with an error the model can read{RULES_HINT}");
    }
    // "Minimum is 1950-01-01", "from 2001-01-01 to 2024-12-31": declared with
    // the days as written
    if let (ClaimKind::Range, Some(attr)) = (kind, date_range(what)) {
        return date_bound_help(&attr, decl);
    }
    let typed = decl.filter(|d| d.scalar != Scalar::Unknown);
    let Some(d) = typed else {
        return untyped_help(kind, what);
    };
    let stringy = matches!(d.scalar, Scalar::String | Scalar::Path);
    let number = matches!(d.scalar, Scalar::Integer | Scalar::Float);
    let integer = d.scalar == Scalar::Integer;
    let attr = untyped_attr(kind, what, integer);
    // `each(..)` puts a constraint on the items of a list.
    let on_value = |attr: &str| {
        if d.is_list {
            format!("#[arg(each({attr}))]")
        } else {
            format!("#[arg({attr})]")
        }
    };
    match kind {
        ClaimKind::Range if number => on_value(&attr),
        ClaimKind::Length if stringy => on_value(&attr),
        ClaimKind::Items if d.is_list => format!("#[arg({attr})]"),
        // A length on a string counts characters, not the things the prose counts.
        ClaimKind::Items if stringy => format!(
            "`{attr}` on a string would count characters; make the argument a list (`Vec<..>`) to declare it"
        ),
        ClaimKind::Items => no_fit(d, &attr, "a list (`Vec<..>`)"),
        ClaimKind::Format if stringy => on_value(&attr),
        ClaimKind::Pattern if stringy && matches!(what, What::Pattern(None)) => {
            NAMED_SHAPE.to_string()
        }
        ClaimKind::Pattern if stringy => on_value(&attr),
        ClaimKind::Pattern if integer => match what {
            What::Bound {
                min,
                max,
                unit: Unit::Class("0-9"),
                ..
            } => on_value(&digits_range(*min, *max)),
            _ => no_fit(d, &attr, "a string"),
        },
        ClaimKind::ClosedSet if stringy && !d.is_list => untyped_help(kind, what),
        ClaimKind::ClosedSet if stringy => match what {
            What::Set(items) => set_help(items, true),
            _ => untyped_help(kind, what),
        },
        ClaimKind::ClosedSet => no_fit(d, "an enum", "an enum with `#[derive(ToolArgs)]`"),
        ClaimKind::Range => no_fit(d, &attr, "a number"),
        _ => no_fit(d, &attr, "a string"),
    }
}

/// The declaration of a bound read from full dates ("Minimum is
/// 1950-01-01", "from 2001-01-01 to 2024-12-31"): `range(..)` with each day as
/// written, as a date argument declares it (`range(min = "1950-01-01")` on
/// `chrono::NaiveDate`, `jiff::civil::Date`, `time::Date`). `None` unless every
/// side stated is an inclusive day (a date's bounds are inclusive).
fn date_range(what: &What) -> Option<String> {
    let What::Bound { min, max, .. } = what else {
        return None;
    };
    let mut parts = Vec::new();
    for (side, name) in [(min, "min"), (max, "max")] {
        if let Some(b) = side {
            let day = b.day.filter(|_| !b.exclusive)?;
            parts.push(format!("{name} = \"{}\"", day.as_str()));
        }
    }
    (!parts.is_empty()).then(|| format!("range({})", parts.join(", ")))
}

/// The help for a bound read from dates, `attr` being its declaration: a type
/// the macro reads as a date (its format known from the type's name) gets it;
/// a string, number or flag is told plainly that it cannot carry it; for any
/// other type the attribute is named without being handed over.
fn date_bound_help(attr: &str, decl: Option<&Declared>) -> String {
    const DATES: &str = "a date (`chrono::NaiveDate`, `jiff::civil::Date`, `time::Date`)";
    match decl.map(|d| (d, d.scalar)) {
        Some((
            d,
            Scalar::String | Scalar::Path | Scalar::Integer | Scalar::Float | Scalar::Bool,
        )) => no_fit(d, attr, DATES),
        // a type the macro reads as a date publishes its format
        Some((d, Scalar::Other)) if matches!(d.format_name, Some("date" | "date-time")) => {
            format!("#[arg({attr})]")
        }
        _ => format!("on {DATES} argument, declare `{attr}`"),
    }
}

/// The type cannot carry the attribute: say what would, and fall back on the
/// opt-out (the message adds it), so every suggestion compiles as written.
fn no_fit(d: &Declared, attr: &str, fits: &str) -> String {
    let what = if d.is_list {
        "a list of this type".to_string()
    } else {
        match d.scalar {
            Scalar::String => "a string".into(),
            Scalar::Path => "a confined path".into(),
            Scalar::Integer => "an integer".into(),
            Scalar::Float => "a float".into(),
            Scalar::Bool => "a bool".into(),
            Scalar::Other | Scalar::Unknown => "this type".into(),
        }
    };
    format!("{what} cannot declare `{attr}`; make the argument {fits} to declare it")
}

/// `length(..)`, `range(..)`, `format = ".."` or `pattern = ".."` as it goes inside `#[arg(..)]`.
fn untyped_attr(kind: ClaimKind, what: &What, integer: bool) -> String {
    let full = match (kind, what) {
        // named in "a number cannot declare `pattern = ..`"
        (_, What::Pattern(None)) => return "pattern = ..".to_string(),
        (
            ClaimKind::Range,
            What::Bound {
                min,
                max,
                integer: i,
                ..
            },
        ) => range_help(*min, *max, integer || *i),
        _ => untyped_help(kind, what),
    };
    full.strip_prefix("#[arg(")
        .and_then(|s| s.strip_suffix(")]"))
        .map(str::to_string)
        .unwrap_or(full)
}

/// The help as [`super::claims`] gives it, with no type to go by.
fn untyped_help(kind: ClaimKind, what: &What) -> String {
    match what {
        What::Bound {
            min,
            max,
            unit,
            integer,
        } => match (kind, unit) {
            (ClaimKind::Pattern, Unit::Class(c)) => class_help(c, *min, *max),
            (ClaimKind::Range, _) => range_help(*min, *max, *integer),
            _ => count_help(*min, *max),
        },
        What::NonEmpty { .. } => "#[arg(length(min = 1))]".to_string(),
        What::Set(items) => set_help(items, false),
        // The contract has no `duration` format: its shape is a pattern.
        What::Format("duration") => format!("#[arg(pattern = \"{}\")]", escape(DURATION)),
        What::Format(f) => format!("#[arg(format = \"{f}\")]"),
        What::Pattern(Some(re)) => format!("#[arg(pattern = \"{}\")]", escape(re)),
        What::Pattern(None) => NAMED_SHAPE.to_string(),
    }
}

/// The help of a bound in units of time on a date ("at most 62 days after
/// `from`"): no number a date's `range(..)` holds.
pub(super) const DATE_SPAN: &str = "a day's distance from another date argument is the rule `max_span(earlier, later, N days)` in `rules(..)` (of `#[tool_contract(..)]`, or `#[args(..)]` on an argument struct); from today it cannot be declared";

/// The help of a size in words, lines, tokens or megabytes ("at most 300
/// words", "up to 25 MB"): `maxLength` would count characters, so the
/// declaration that says the same does not exist.
const UNCOUNTED: &str = "no schema keyword counts words, lines, tokens or megabytes (`length(..)` counts characters): the tool must enforce this limit itself";

/// The help of a claim in a tool's description that no one argument holds
/// ("A patient may hold at most three future appointments", "The range may
/// cover at most 90 days"): no argument's declaration states it, so none is
/// offered; `named` are the arguments its sentence names.
pub(super) fn rule_help(named: &[String]) -> String {
    let whose = match named {
        [] => "no argument holds this rule (it is about the world or the whole call)".to_string(),
        _ => format!(
            "a rule across `{}`, which no one argument declares",
            named.join("`, `")
        ),
    };
    format!("{whose}: the tool must check it when called and refuse with an error the model can read{RULES_HINT}")
}

/// How the help of a bound in a tool's description that names no argument
/// ("at most 50 per page") begins; the attribute follows in backticks.
pub const NO_ARGUMENT_NAMED: &str = "the sentence names no argument";

/// What the help of a rule no one argument holds ends with for this
/// library's own tools, where `rules(..)` declares a rule across arguments;
/// a linter of another server's tools leaves it out.
pub const RULES_HINT: &str =
    " (`rules(..)` declares a rule across arguments: `lt`, `le`, `max_span`, `check = path`)";

/// The help of a shape the prose names without one regex ("an ISO code", a
/// template "`proj/<key>`", "up to 2 decimal places"): no declaration can be
/// handed over as it is, so the help asks for the regex (the message adds the
/// opt-out, the declaration that compiles as written).
const NAMED_SHAPE: &str =
    "write the shape it names as a regex and declare it with `pattern = \"^...$\"`";

/// Variant names for a closed set, with the serde rule that publishes the
/// values as written: "Asc, Desc (with `#[serde(rename_all = \"lowercase\")]`)".
/// The declaration of listed values: an enum, or a pattern (`each(..)` on
/// a list's items); a pattern alone when a value names no variant.
fn set_help(items: &[String], each: bool) -> String {
    let re = escape(&alternation(items));
    let (what, attr) = match each {
        true => ("the items", format!("#[arg(each(pattern = \"{re}\"))]")),
        false => ("the argument", format!("#[arg(pattern = \"{re}\")]")),
    };
    match variants(items) {
        Some(v) => format!(
            "make {what} an enum with `#[derive(ToolArgs)]` and variants {v}, or declare `{attr}`"
        ),
        None => attr,
    }
}

/// `None` when a value has no letter or digit to name a variant after (`*`):
/// only a pattern can publish it as written.
pub(super) fn variants(items: &[String]) -> Option<String> {
    let names: Vec<String> = items.iter().map(|s| variant_name(s)).collect();
    if names.iter().any(String::is_empty) {
        return None;
    }
    // the serde rule that publishes values of its characters (and digits)
    // as written
    let fits = |rule: &str, c: char| {
        c.is_ascii_digit()
            || match rule {
                "UPPERCASE" => c.is_ascii_uppercase(),
                "snake_case" => c.is_ascii_lowercase() || c == '_',
                "kebab-case" => c.is_ascii_lowercase() || c == '-',
                _ => c.is_ascii_lowercase(),
            }
    };
    let rule = if items.iter().all(|s| *s == variant_name(s)) {
        None
    } else {
        ["lowercase", "UPPERCASE", "snake_case", "kebab-case"]
            .into_iter()
            .find(|r| items.iter().all(|s| s.chars().all(|c| fits(r, c))))
    };
    Some(match rule {
        Some(r) => format!(
            "{} (with `#[serde(rename_all = \"{r}\")]`)",
            names.join(", ")
        ),
        None => names.join(", "),
    })
}

/// `^(a|b)$`: a pattern that accepts exactly the listed values.
pub(super) fn alternation(items: &[String]) -> String {
    let alternatives: Vec<String> = items.iter().map(|s| regex_literal(s)).collect();
    format!("^({})$", alternatives.join("|"))
}

/// "1-5 digits" on an integer: the range of numbers with that many digits.
fn digits_range(min: Option<Bound>, max: Option<Bound>) -> String {
    let lo = min.map(|b| if b.exclusive { b.v + 1.0 } else { b.v });
    let hi = max.map(|b| if b.exclusive { b.v - 1.0 } else { b.v });
    let mut parts = Vec::new();
    if let Some(n) = lo.filter(|n| *n > 1.0) {
        parts.push(format!("min = {}", num(10f64.powf(n - 1.0))));
    }
    if let Some(n) = hi {
        parts.push(format!("max = {}", num(10f64.powf(n) - 1.0)));
    }
    format!("range({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found in a new user's trial: "at most 62 days after `from`" on a
    /// date was given `range(max = 62)`, which a date cannot declare; a
    /// value with no letter or digit (`*`) was given an empty variant name.
    #[test]
    fn help_a_date_span_and_a_value_no_variant_names() {
        let date = Declared {
            format_name: Some("date"),
            scalar: Scalar::Other,
            ..Declared::default()
        };
        let c = crate::unmatched("Last day to include; at most 62 days after `from`.", date);
        assert_eq!(
            c.iter().map(|c| &c.help[..]).collect::<Vec<_>>(),
            [DATE_SPAN]
        );
        let c = crate::claims("The environment: one of `production`, `staging` or `*`.");
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(
            c[0].help,
            "#[arg(pattern = \"^(production|staging|\\\\*)$\")]"
        );
    }

    fn b(v: f64, exclusive: bool) -> Option<Bound> {
        Some(Bound {
            v,
            exclusive,
            day: None,
        })
    }

    #[test]
    fn counts_are_whole_numbers() {
        assert_eq!(
            count_help(b(0.0, true), b(10.0, true)),
            "#[arg(length(min = 1, max = 9))]"
        );
        assert_eq!(
            count_help(None, b(200.0, false)),
            "#[arg(length(max = 200))]"
        );
    }

    #[test]
    fn ranges_keep_exclusive_bounds_on_floats() {
        assert_eq!(
            range_help(b(0.0, true), None, true),
            "#[arg(range(min = 1))]"
        );
        assert_eq!(
            range_help(b(0.0, true), None, false),
            "#[arg(range(exclusive_min = 0))]"
        );
        assert_eq!(
            range_help(b(-90.0, false), b(90.0, false), false),
            "#[arg(range(min = -90, max = 90))]"
        );
    }

    #[test]
    fn classes_sets_and_escapes() {
        assert_eq!(
            class_help("A-Z", b(1.0, false), b(5.0, false)),
            "#[arg(pattern = \"^[A-Z]{1,5}$\")]"
        );
        assert_eq!(
            class_help("0-9", b(6.0, false), b(6.0, false)),
            "#[arg(pattern = \"^[0-9]{6}$\")]"
        );
        assert_eq!(regex_literal("a.b"), "a\\.b");
        assert_eq!(variant_name("dry-run"), "DryRun");
        assert_eq!(escape("^\\d\"$"), "^\\\\d\\\"$");
    }
}
