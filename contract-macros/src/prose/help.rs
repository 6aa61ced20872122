//! The attribute each claim asks for, with the numbers and values found filled in.

use super::finding::Bound;

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

/// Bounds on a count (length, items) are integers: "fewer than 10" is "max = 9".
pub(super) fn count_help(min: Option<Bound>, max: Option<Bound>) -> String {
    let mut parts = Vec::new();
    if let Some(b) = min {
        parts.push(format!(
            "min = {}",
            num(if b.exclusive {
                b.v.floor() + 1.0
            } else {
                b.v.ceil()
            })
        ));
    }
    if let Some(b) = max {
        parts.push(format!(
            "max = {}",
            num(if b.exclusive {
                b.v.ceil() - 1.0
            } else {
                b.v.floor()
            })
        ));
    }
    format!("#[arg(length({}))]", parts.join(", "))
}

pub(super) fn range_help(min: Option<Bound>, max: Option<Bound>, integer: bool) -> String {
    let mut parts = Vec::new();
    if let Some(b) = min {
        parts.push(match (b.exclusive, integer) {
            (false, _) => format!("min = {}", num(b.v)),
            (true, true) => format!("min = {}", num(b.v.floor() + 1.0)),
            (true, false) => format!("exclusive_min = {}", num(b.v)),
        });
    }
    if let Some(b) = max {
        parts.push(match (b.exclusive, integer) {
            (false, _) => format!("max = {}", num(b.v)),
            (true, true) => format!("max = {}", num(b.v.ceil() - 1.0)),
            (true, false) => format!("exclusive_max = {}", num(b.v)),
        });
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: f64, exclusive: bool) -> Option<Bound> {
        Some(Bound { v, exclusive })
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
