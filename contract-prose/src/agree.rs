//! Agreement: a claim that the declaration covers must also say the same thing.
//! "at most 100" over `range(max = 500)` tells the model 100 while the runtime
//! accepts 500; a listed set that differs from the enum, or a format other than
//! the declared one, misleads the same way.
//!
//! Which side to change: for bounds the stricter side wins (loosening it would
//! let through, or invite, values someone meant to refuse); for formats, sets
//! and patterns the declaration wins, as it is what the schema publishes.

use super::finding::{excl, incl, Bound, Unit, What};
use super::help::{escape, num, whole};
use super::resolve::Resolved;
use super::units::{measure_of, MEASURES};
use super::{Change, Check, ClaimKind, Conflict, Declared, Limits, Scalar};
use std::cell::OnceCell;

/// A row of [`MEASURES`]: a unit, its kind and its size in the kind's base unit.
type Measure = (&'static str, u8, f64);

/// What the comparisons read of the whole doc, read once per doc and
/// declaration rather than once per claim: a long description that repeats
/// a claim made each claim read the whole text again, quadratic in its
/// length (rule-c12.md, "Cost").
/// Each is read when the first claim asks for it (most docs have no bound).
pub(super) struct Doc<'d> {
    text: &'d str,
    /// The argument is a number (not a list): it has a unit to count in.
    number: bool,
    name: Option<&'d str>,
    /// The unit the argument is counted in: said in the doc ("in grams",
    /// "in seconds") or by the argument's name (`timeout_seconds`, `wait_ms`).
    own: OnceCell<Option<Measure>>,
    /// The doc speaks of cents ("in cents; at most 100,000.00").
    cents: OnceCell<bool>,
    /// The declared values of a closed set the doc names as words of their
    /// own ([`named_elsewhere`]).
    named: OnceCell<Vec<String>>,
}

impl<'d> Doc<'d> {
    pub(super) fn new(text: &'d str, d: &Declared<'d>) -> Self {
        let number = d.is_number || matches!(d.scalar, Scalar::Integer | Scalar::Float);
        Doc {
            text,
            number: number && !d.is_list,
            name: d.name,
            own: OnceCell::new(),
            cents: OnceCell::new(),
            named: OnceCell::new(),
        }
    }

    fn own(&self) -> Option<Measure> {
        *self.own.get_or_init(|| {
            let name = || self.name.and_then(unit_of_name);
            self.number.then(|| own_unit(self.text).or_else(name))?
        })
    }

    fn cents(&self) -> bool {
        *self.cents.get_or_init(|| {
            count_read(self.text);
            (self.text.split(|c: char| !c.is_alphabetic())).any(|w| w.eq_ignore_ascii_case("cents"))
        })
    }

    /// Whether the doc names `v` as a word of its own, one of `values`.
    fn names(&self, values: &[String], v: &str) -> bool {
        let named = self.named.get_or_init(|| {
            (values.iter())
                .filter(|v| named_elsewhere(self.text, v))
                .cloned()
                .collect()
        });
        named.iter().any(|n| n == v)
    }
}

// The whole-doc reads of this module, counted in tests: a doc is read a
// fixed number of times whatever number of claims it holds.
#[cfg(test)]
thread_local! {
    pub(super) static WHOLE_READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn count_read(_doc: &str) {
    #[cfg(test)]
    WHOLE_READS.with(|n| n.set(n.get() + 1));
}

/// The unit an argument's name counts it in, its last word when that is a
/// unit: `timeout_seconds`, `wait_ms`, `delayMs`, `size_bytes`, `max_days`.
fn unit_of_name(name: &str) -> Option<Measure> {
    let last = name.rsplit(['_', '-']).next()?;
    // (camelCase: the last capitalized part)
    let last = match last.rfind(|c: char| c.is_ascii_uppercase()) {
        Some(k) if k > 0 => &last[k..],
        _ => last,
    };
    let w = last.to_ascii_lowercase();
    let w = match w.as_str() {
        "sec" | "secs" => "second",
        "msec" | "msecs" | "millis" => "ms",
        "hr" | "hrs" => "hour",
        w => w,
    };
    measure_of(w, "")
}

pub(super) fn conflict(r: &Resolved, d: &Declared, doc: &Doc) -> Option<Conflict> {
    let kind = r.claim.kind;
    match &r.what {
        What::Bound {
            min,
            max,
            unit: Unit::Class(_),
            ..
        } => pattern_repeat(*min, *max, d),
        // "Minimum is 1950-01-01", "from 2001-01-01 to 2024-12-31": days
        // against a range declared on a date argument, whose bounds are text
        // (`range(min = "1950-01-01")`) and carry no number
        What::Bound { min, max, .. } if d.range_text.0.or(d.range_text.1).is_some() => {
            days(*min, *max, d)
        }
        // "up to one week (10080 minutes)" over `range(max = 10080)`, "at
        // most 50 km" over `range(max = 50000)`: the same amount counted in
        // another unit agrees
        // (when the doc or the name says the argument's unit, the prose's
        // bound is converted into it, below, and compared exactly)
        What::Bound { min, max, .. }
            if doc.own().is_none() && same_amount_in_other_unit(*min, *max, r, doc, d) =>
        {
            None
        }
        What::Bound {
            min, max, integer, ..
        } => {
            let (min, max) = in_own_unit(*min, *max, r, doc);
            bounds(kind, min, max, *integer, d)
        }
        What::NonEmpty { .. } => bounds(kind, incl(1.0), None, true, d),
        What::Format(f) => format(f, &r.claim.phrase, d),
        What::Set(items) => set(items, r.whole, d, doc),
        What::Pattern(Some(re)) => pattern(re, r, d),
        What::Pattern(None) => None,
    }
}

/// Whether each side the prose states, counted in the unit its phrase
/// names ("up to one week", "at most 50 km"), is the declared side counted
/// in another unit of the same kind (10,080 minutes, 50,000 metres): the
/// argument's unit is not said, so an exact conversion is taken as the same
/// bound, never a coincidence.
fn same_amount_in_other_unit(min: Side, max: Side, r: &Resolved, doc: &Doc, d: &Declared) -> bool {
    let Some(l) = d.range_limits.as_ref() else {
        return false;
    };
    // (or an amount of money stated whole, over an argument the doc counts
    // in cents: "in cents; at most 100,000.00")
    let cents = || doc.cents().then_some(("currency", 3, 100.0));
    let Some((said, kind, from)) = stated_measure(r, doc.text).or_else(cents) else {
        return false;
    };
    let (lo, hi) = sides(l);
    let same = |p: Side, q: Side, to: f64| match (p, q) {
        (None, _) => true,
        (Some(p), Some(q)) => (p.v * from / to - q.v).abs() < 1e-9 * q.v.abs().max(1.0),
        (Some(_), None) => false,
    };
    let mut other = MEASURES.iter().filter(|(u, k, _)| *k == kind && *u != said);
    other.any(|&(_, _, to)| same(min, lo, to) && same(max, hi, to))
}

/// A shape the prose states against the declared pattern. A shape described
/// in words ("`pay_` and 12 lowercase letters or digits", "a two-letter
/// country code") is what the declared pattern says precisely, so it agrees;
/// only a length the declared pattern cannot have contradicts it ("two-letter
/// code" over `^[A-Z]{3}$`). The help never asks for a regex in the prose:
/// the schema publishes the pattern.
fn pattern(re: &str, r: &Resolved, d: &Declared) -> Option<Conflict> {
    let src = d.pattern_source?;
    if src == re || case_blind_language_code(re, src, &r.claim.phrase) {
        return None;
    }
    let declared = format!("pattern = \"{}\"", escape(src));
    let ((lit, said), (declared_lit, declared_len)) = (class_repeat(re)?, class_repeat(src)?);
    let differ = lit == declared_lit && (said.1 < declared_len.0 || declared_len.1 < said.0);
    differ.then(|| Conflict {
        check: Check::ShapeLength,
        declared,
        change: Change::Prose(match declared_len {
            (a, b) if a == b => format!("{a} characters"),
            (a, b) => format!("{a} to {b} characters"),
        }),
    })
}

/// `^lit[...]{a,b}$`, a literal (maybe none) and one class repeated: the
/// literal and the repeat, `(a, b)`.
fn class_repeat(re: &str) -> Option<(&str, (u32, u32))> {
    let (lit, body) = re.strip_prefix('^')?.strip_suffix("}$")?.split_once('[')?;
    let (class, rep) = body.rsplit_once("]{")?;
    if class.contains(']') || lit.ends_with('\\') {
        return None;
    }
    match counts(rep) {
        (Some(a), Some(b)) => Some((lit, (a, b))),
        _ => None,
    }
}

/// The counts of a repeat, `a,b` or `n` between its braces, each if it is one.
fn counts<N: std::str::FromStr>(rep: &str) -> (Option<N>, Option<N>) {
    let (a, b) = rep.split_once(',').unwrap_or((rep, rep));
    (a.trim().parse().ok(), b.trim().parse().ok())
}

/// "two-letter language code", "ISO 639-1": the codes are written in lower
/// case (`en`), and a pattern that also takes them in upper case
/// (`^[A-Za-z]{2}$`) still accepts every code the prose names, so it agrees.
fn case_blind_language_code(re: &str, src: &str, phrase: &str) -> bool {
    let phrase = phrase.to_ascii_lowercase();
    let language = phrase.contains("language") || phrase.contains("lang") || phrase.contains("639");
    let Some(n) = re
        .strip_prefix("^[a-z]{")
        .and_then(|r| r.strip_suffix("}$"))
    else {
        return false;
    };
    language
        && [format!("^[A-Za-z]{{{n}}}$"), format!("^[a-zA-Z]{{{n}}}$")]
            .iter()
            .any(|p| p == src)
}

/// One side of a bound, inclusive unless `exclusive`.
type Side = Option<Bound>;

/// Which of the two states the stricter bound on one side.
#[derive(PartialEq)]
enum Stricter {
    Same,
    Prose,
    Declaration,
}

fn compare(prose: Side, declared: Side, lower: bool) -> Stricter {
    match (prose, declared) {
        (None, _) => Stricter::Same,
        // a bound written as a template's placeholder ("max
        // ${MAX_TASKS_PER_OPERATION}"), whose number the prose does not show:
        // the model reads the placeholder as written, so a declared side is
        // the number to write; nothing to compare with an open side
        (Some(p), Some(_)) if p.v.is_nan() => Stricter::Declaration,
        (Some(p), None) if p.v.is_nan() => Stricter::Same,
        (Some(_), None) => Stricter::Prose,
        (Some(p), Some(q)) if p.v == q.v && p.exclusive == q.exclusive => Stricter::Same,
        (Some(p), Some(q)) => {
            let prose_tighter = if lower {
                p.v > q.v || (p.v == q.v && p.exclusive)
            } else {
                p.v < q.v || (p.v == q.v && p.exclusive)
            };
            if prose_tighter {
                Stricter::Prose
            } else {
                Stricter::Declaration
            }
        }
    }
}

/// The prose's sides counted in the argument's own unit, when its doc names
/// that unit ("in grams", "in cents", "in seconds") and the prose states its
/// bound in another of the same kind ("at most 20 kg" is 20,000 grams), or
/// an amount with a fraction of the currency over cents ("the maximum
/// 999,999.99 EUR" is 99,999,999): the comparison and the help then say
/// what the prose means, in the number the argument holds. The unit may
/// come from the argument's name as well (`timeout_seconds`, `wait_ms`):
/// "at most 1 hour" there is 3600, or 3,600,000, on both sides of the
/// comparison and in the help.
fn in_own_unit(min: Side, max: Side, r: &Resolved, doc: &Doc) -> (Side, Side) {
    let Some((own, kind, to)) = doc.own() else {
        return (min, max);
    };
    let from = match stated_measure(r, doc.text) {
        Some((said, k, from)) if k == kind && said != own => from,
        // a fraction written out (".99", ".00") is of the currency, not of a cent
        None if own == "cent" && written_fraction(&r.claim.phrase) => 100.0,
        _ => return (min, max),
    };
    let scale = |b: Side| {
        b.map(|b| Bound {
            v: b.v * from / to,
            ..b
        })
    };
    (scale(min), scale(max))
}

/// The unit the claim's phrase states its bound in, or the word after the
/// phrase (see [`measure_of`]), read where the claim ends in `doc`.
fn stated_measure(r: &Resolved, doc: &str) -> Option<(&'static str, u8, f64)> {
    measure_of(&r.claim.phrase, doc.get(r.end..).unwrap_or(""))
}

/// The unit the doc counts the argument in: "in grams", "in cents".
fn own_unit(doc: &str) -> Option<(&'static str, u8, f64)> {
    count_read(doc);
    let words: Vec<&str> = doc.split(|c: char| !c.is_alphanumeric()).collect();
    words.windows(2).find_map(|w| {
        w[0].eq_ignore_ascii_case("in")
            .then(|| measure_of(w[1], ""))?
    })
}

/// "999,999.99", "1,000.00": a number written with two decimals.
fn written_fraction(phrase: &str) -> bool {
    let b = phrase.as_bytes();
    (1..b.len().saturating_sub(2)).any(|i| {
        b[i] == b'.'
            && b[i - 1].is_ascii_digit()
            && b[i + 1].is_ascii_digit()
            && b[i + 2].is_ascii_digit()
            && !b.get(i + 3).is_some_and(u8::is_ascii_digit)
    })
}

fn sides(l: &Limits) -> (Side, Side) {
    let side = |i: Option<f64>, e: Option<f64>| i.and_then(incl).or(e.and_then(excl));
    (side(l.min, l.exclusive_min), side(l.max, l.exclusive_max))
}

/// The declaration a bound of `kind` is compared with, and how it is
/// written: its limits, its key, whether on a list's items, whether it counts.
fn declared_limits(kind: ClaimKind, d: &Declared) -> Option<(Limits, &'static str, bool, bool)> {
    Some(match kind {
        ClaimKind::Range => (d.range_limits?, "range", d.is_list, false),
        ClaimKind::Items => (d.length_limits?, "length", false, true),
        // characters on a list are its items' (`length(..)` counts the items)
        ClaimKind::Length if d.is_list => (d.each_length_limits?, "length", true, true),
        ClaimKind::Length => (d.length_limits?, "length", false, true),
        _ => return None,
    })
}

/// "No more than 5000" over `range(min = 1)`: the prose states a side the
/// declaration leaves open, and agrees with the sides it declares. Not a
/// contradiction (nothing declared says otherwise) but a constraint the
/// declaration lacks: the declaration to write, for `unmatched` to report
/// as a missing one, at its recognizer's level.
pub(super) fn undeclared_sides(r: &Resolved, d: &Declared, doc: &Doc) -> Option<String> {
    let What::Bound {
        min,
        max,
        unit,
        integer,
    } = &r.what
    else {
        return None;
    };
    let (min, max) = &in_own_unit(*min, *max, r, doc);
    if matches!(unit, Unit::Class(_)) || d.range_text.0.or(d.range_text.1).is_some() {
        return None;
    }
    let (dmin, dmax) = sides(&declared_limits(r.claim.kind, d)?.0);
    let (open_min, open_max) = (
        min.is_some() && dmin.is_none(),
        max.is_some() && dmax.is_none(),
    );
    let rest = |m: Side, open: bool| if open { None } else { m };
    // (a stated side beyond a declared one leaves no value: "not more than
    // 100" over `range(min = 101)` contradicts it)
    let below = |a: Side, b: Side| a.zip(b).is_some_and(|(a, b)| a.v > b.v);
    if !(open_min || open_max)
        || below(dmin, *max)
        || below(*min, dmax)
        || bounds(
            r.claim.kind,
            rest(*min, open_min),
            rest(*max, open_max),
            *integer,
            d,
        )
        .is_some()
    {
        return None;
    }
    match bounds(r.claim.kind, *min, *max, *integer, d)?.change {
        Change::Declaration(attr) => Some(attr),
        Change::Prose(_) | Change::Both(..) => None,
    }
}

fn bounds(kind: ClaimKind, min: Side, max: Side, integer: bool, d: &Declared) -> Option<Conflict> {
    let (limits, key, each, counts) = declared_limits(kind, d)?;
    let whole_numbers = counts || integer || d.scalar == Scalar::Integer;
    let (dmin, dmax) = sides(&limits);
    let (pmin, pmax, dmin, dmax) = if whole_numbers {
        (
            whole(min, true),
            whole(max, false),
            whole(dmin, true),
            whole(dmax, false),
        )
    } else {
        (min, max, dmin, dmax)
    };
    let lo = compare(pmin, dmin, true);
    let hi = compare(pmax, dmax, false);
    let served = match kind {
        ClaimKind::Range => served_sides(d, dmin.is_some(), dmax.is_some()),
        _ => (false, false),
    };
    let declared = write(key, each, dmin, dmax, served);
    let unit = match kind {
        ClaimKind::Length => " characters",
        ClaimKind::Items => " items",
        _ => "",
    };
    if lo == Stricter::Prose || hi == Stricter::Prose {
        let mut new_min = if lo == Stricter::Prose { pmin } else { dmin };
        let mut new_max = if hi == Stricter::Prose { pmax } else { dmax };
        // "must not be more than 100" over `range(min = 101)`: a declared side
        // on the wrong side of the prose's bound would make an empty range
        // (`min = 101, max = 100`); the prose's own bounds are the declaration
        if let (Some(a), Some(b)) = (new_min, new_max) {
            if a.v > b.v || (a.v == b.v && (a.exclusive || b.exclusive)) {
                (new_min, new_max) = (pmin, pmax);
            }
        }
        let attr = format!("#[arg({})]", write(key, each, new_min, new_max, served));
        // (a side where the declaration is stricter: the prose says it too)
        let change = match lo == Stricter::Declaration || hi == Stricter::Declaration {
            true => Change::Both(attr, words(new_min, new_max, unit)),
            false => Change::Declaration(attr),
        };
        return Some(Conflict {
            check: Check::Bounds,
            declared,
            change,
        });
    }
    if lo == Stricter::Declaration || hi == Stricter::Declaration {
        return Some(Conflict {
            check: Check::Bounds,
            declared,
            change: Change::Prose(words(dmin, dmax, unit)),
        });
    }
    None
}

/// Bounds read from full dates against the text bounds of a date argument,
/// compared by day (a later minimum, an earlier maximum is stricter), as
/// [`bounds`] compares numbers. A side the prose states without a day
/// ("at least 2001", a year) is not compared: a year is no day.
fn days(min: Side, max: Side, d: &Declared) -> Option<Conflict> {
    let (dmin, dmax) = d.range_text;
    // the day of a declared bound: a date-time bound's date
    fn day(t: &str) -> &str {
        t.get(..10).unwrap_or(t)
    }
    let side = |p: Side, declared: Option<&str>, lower: bool| {
        let Some(p) = p.and_then(|b| b.day) else {
            return (Stricter::Same, declared.map(str::to_string));
        };
        match declared {
            None => (Stricter::Prose, Some(p.as_str().to_string())),
            Some(q) if day(q) == p.as_str() => (Stricter::Same, Some(q.to_string())),
            Some(q) if (p.as_str() > day(q)) == lower => {
                (Stricter::Prose, Some(p.as_str().to_string()))
            }
            Some(q) => (Stricter::Declaration, Some(q.to_string())),
        }
    };
    let (lo, new_min) = side(min, dmin, true);
    let (hi, new_max) = side(max, dmax, false);
    let served = served_sides(d, dmin.is_some(), dmax.is_some());
    let quoted = |min: Option<&str>, max: Option<&str>| {
        let parts = [(min, "min", served.0), (max, "max", served.1)]
            .map(|(v, name, served)| Some((format!("{name} = \"{}\"", v?), served)));
        group("range", false, parts)
    };
    let declared = quoted(dmin, dmax);
    if lo == Stricter::Prose || hi == Stricter::Prose {
        let attr = quoted(new_min.as_deref(), new_max.as_deref());
        return Some(Conflict {
            check: Check::DateBounds,
            declared,
            change: Change::Declaration(format!("#[arg({attr})]")),
        });
    }
    if lo == Stricter::Declaration || hi == Stricter::Declaration {
        let says = match (dmin, dmax) {
            (Some(a), Some(b)) => format!("\"from {a} to {b}\""),
            (Some(a), None) => format!("\"from {a}\""),
            (None, Some(b)) => format!("\"until {b}\""),
            (None, None) => return None,
        };
        return Some(Conflict {
            check: Check::DateBounds,
            declared,
            change: Change::Prose(says),
        });
    }
    None
}

/// `range(min = 1, max = 100)`, `each(length(max = 32))`.
/// Which sides of a range to write inside `served(..)`: those declared there,
/// and a side the prose adds when its declared partner is served.
fn served_sides(d: &Declared, has_min: bool, has_max: bool) -> (bool, bool) {
    let (min, max) = d.served;
    (min || max && !has_min, max || min && !has_max)
}

/// A side declared inside `served(..)` is written there again
/// (`range(min = 1), served(range(max = 2026))`), so that a suggestion keeps
/// what the declaration meant.
fn write(key: &str, each: bool, min: Side, max: Side, served: (bool, bool)) -> String {
    let parts = [(min, "min", served.0), (max, "max", served.1)].map(|(b, name, served)| {
        let b = b?;
        let name = if b.exclusive {
            format!("exclusive_{name}")
        } else {
            name.to_string()
        };
        Some((format!("{name} = {}", num(b.v)), served))
    });
    group(key, each, parts)
}

/// `key(..)` around the parts of the form, `served(key(..))` around the
/// served ones, `each(..)` around a list's items.
fn group(key: &str, each: bool, parts: [Option<(String, bool)>; 2]) -> String {
    let of = |served: bool| {
        let mine: Vec<&str> = (parts.iter().flatten())
            .filter(|(_, s)| *s == served)
            .map(|(p, _)| p.as_str())
            .collect();
        (!mine.is_empty()).then(|| format!("{key}({})", mine.join(", ")))
    };
    let inner = match (of(false), of(true)) {
        (Some(form), Some(served)) => format!("{form}, served({served})"),
        (None, Some(served)) => format!("served({served})"),
        (form, None) => form.unwrap_or_else(|| format!("{key}()")),
    };
    if each {
        format!("each({inner})")
    } else {
        inner
    }
}

/// The declared bounds in words: "between 1 and 100", "at most 500 characters".
fn words(min: Side, max: Side, unit: &str) -> String {
    let v = |b: Bound| num(b.v);
    match (min, max) {
        (Some(a), Some(b)) if !a.exclusive && !b.exclusive => {
            format!("\"between {} and {}{unit}\"", v(a), v(b))
        }
        (Some(a), Some(b)) => format!(
            "\"{} {} and {} {}{unit}\"",
            if a.exclusive { "more than" } else { "at least" },
            v(a),
            if b.exclusive { "less than" } else { "at most" },
            v(b)
        ),
        (Some(a), None) if a.exclusive => format!("\"more than {}{unit}\"", v(a)),
        (Some(a), None) => format!("\"at least {}{unit}\"", v(a)),
        (None, Some(b)) if b.exclusive => format!("\"less than {}{unit}\"", v(b)),
        (None, Some(b)) => format!("\"at most {}{unit}\"", v(b)),
        (None, None) => "nothing about a bound".into(),
    }
}

/// "YYYY-MM-DD" over `format = "date-time"`. "ISO 8601" alone names a family
/// (dates, times, durations) and agrees with any of them.
fn format(stated: &str, phrase: &str, d: &Declared) -> Option<Conflict> {
    let declared = d.format_name?;
    let family = phrase.to_lowercase();
    let generic = (family.contains("8601") || family.contains("3339"))
        && matches!(declared, "date" | "date-time" | "time" | "duration");
    if stated == declared || generic {
        return None;
    }
    Some(Conflict {
        check: Check::Format,
        declared: format!("format = \"{declared}\""),
        change: Change::Prose(format!(
            "a {declared} (the `{declared}` format), not a {stated}"
        )),
    })
}

/// A listed set against the enum's values, or a pattern that is a plain
/// list of alternatives. A listed value the declaration lacks contradicts
/// it whether or not the list was read to its end (`set-wider`: the part
/// read names it). A declared value the list lacks contradicts it only when
/// the list was read to its end (`whole`) and the description names that
/// value nowhere else (`set-narrower`): a reader that stopped inside a list
/// ("Options:a(gloss ...),b(...)" whose gloss it could not close) read a
/// part, not a narrower set.
fn set(items: &[String], whole: bool, d: &Declared, doc: &Doc) -> Option<Conflict> {
    let quoted = |v: &[String]| v.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>();
    let (values, declared): (Vec<String>, String) = if !d.enum_values.is_empty() {
        let v: Vec<String> = d.enum_values.iter().map(|s| s.to_string()).collect();
        let declared = format!("an enum of {}", quoted(&v).join(", "));
        (v, declared)
    } else {
        let src = d.pattern_source?;
        (alternatives(src)?, format!("pattern = \"{}\"", escape(src)))
    };
    let has = |set: &[String], v: &str| set.iter().any(|x| x.eq_ignore_ascii_case(v));
    let wider = items.iter().any(|i| !has(&values, i));
    let missing: Vec<&String> = values.iter().filter(|v| !has(items, v)).collect();
    let check = if wider {
        Check::SetWider
    } else if missing.is_empty() || !whole || missing.iter().all(|v| doc.names(&values, v)) {
        return None;
    } else {
        Check::SetNarrower
    };
    Some(Conflict {
        check,
        declared,
        change: Change::Prose(format!("one of {}", quoted(&values).join(", "))),
    })
}

/// Whether `doc` names the value `v` as a word of its own (not inside a
/// longer word or identifier), in any letter case: "Use `issue` or `metric`
/// for numeric IDs; `all` treats ..." over `enum: [all, issue, metric]`
/// (getsentry's MCP server) gives the values in parts, and agrees.
pub fn named_elsewhere(doc: &str, v: &str) -> bool {
    if v.is_empty() {
        return false;
    }
    count_read(doc);
    let hay = doc.to_ascii_lowercase();
    let needle = v.to_ascii_lowercase();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = hay.as_bytes();
    // a byte joins the value when it is a word's, or a hyphen or a full
    // stop between the value and a word's byte ("re-use", "v1.2")
    let joins = |at: Option<usize>, beyond: Option<usize>| match at.map(|k| bytes[k]) {
        None => false,
        Some(b'-' | b'.') => beyond.is_some_and(|k| k < bytes.len() && word(bytes[k])),
        Some(c) => word(c),
    };
    let mut from = 0;
    while let Some(at) = hay[from..].find(&needle) {
        let (start, end) = (from + at, from + at + needle.len());
        let before = start.checked_sub(1);
        let after = (end < bytes.len()).then_some(end);
        if !joins(before, start.checked_sub(2)) && !joins(after, Some(end + 1)) {
            return true;
        }
        from = start + 1;
        while !hay.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

/// `^(a|b|c)$` as its alternatives, if each is a plain word.
fn alternatives(src: &str) -> Option<Vec<String>> {
    let inner = src.strip_prefix("^(")?.strip_suffix(")$")?;
    let mut out = Vec::new();
    for alt in inner.split('|') {
        let mut word = String::new();
        let mut chars = alt.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => word.push(chars.next()?),
                '.' | '*' | '+' | '?' | '[' | ']' | '(' | ')' | '{' | '}' | '^' | '$' => {
                    return None
                }
                c => word.push(c),
            }
        }
        out.push(word);
    }
    Some(out)
}

/// "6 to 30 characters" beside `pattern = "^[a-z][a-z0-9-]{4,28}[a-z0-9]$"`
/// and no `length(..)`: the lengths the pattern allows are the ones the
/// prose states, so the prose agrees (the second and fourth new users'
/// trials, where it was reported as a length left undeclared).
pub(super) fn pattern_states_the_length(r: &Resolved, d: &Declared) -> bool {
    let What::Bound { min, max, .. } = &r.what else {
        return false;
    };
    // (a list's pattern is its items', and a declared length is compared as such)
    let Some((lo, hi)) = d
        .pattern_source
        .filter(|_| !d.length && !d.is_list)
        .and_then(pattern_length)
    else {
        return false;
    };
    let length_limits = Some(Limits {
        min: Some(lo),
        max: hi,
        ..Limits::default()
    });
    let implied = Declared {
        length_limits,
        ..*d
    };
    bounds(ClaimKind::Length, *min, *max, true, &implied).is_none()
}

/// The lengths an anchored pattern of characters, classes and repeats
/// allows (`^[a-z][a-z0-9-]{4,28}$` is 5 to 29; `+` or `*` leaves no
/// maximum); `None` for groups, alternatives or an unanchored pattern.
fn pattern_length(src: &str) -> Option<(f64, Option<f64>)> {
    let body = src.strip_prefix('^')?.strip_suffix('$')?.as_bytes();
    let (mut lo, mut hi, mut i) = (0.0, Some(0.0), 0);
    while i < body.len() {
        // one character: a literal, an escape, a class or `.`
        i += match body[i] {
            b'(' | b')' | b'|' | b'{' | b'}' | b'*' | b'+' | b'?' | b'^' | b'$' => return None,
            b'\\' => 2,
            b'[' => {
                let close =
                    (i + 2..body.len()).find(|&k| body[k] == b']' && body[k - 1] != b'\\')?;
                close + 1 - i
            }
            _ => 1,
        };
        let (a, b): (f64, Option<f64>) = match body.get(i) {
            Some(b'?') => (0.0, Some(1.0)),
            Some(b'*') => (0.0, None),
            Some(b'+') => (1.0, None),
            Some(b'{') => {
                let close = i + body[i..].iter().position(|&c| c == b'}')?;
                let rep = std::str::from_utf8(&body[i + 1..close]).ok()?;
                let (a, b) = rep.split_once(',').unwrap_or((rep, rep));
                let b = (!b.is_empty()).then(|| b.parse::<f64>()).transpose().ok()?;
                i = close;
                (a.parse().ok()?, b)
            }
            _ => (1.0, Some(1.0)),
        };
        // past the quantifier, if there was one
        if matches!(body.get(i), Some(b'?' | b'*' | b'+' | b'}')) {
            i += 1;
        }
        lo += a;
        hi = hi.zip(b).map(|(h, b)| h + b);
    }
    Some((lo, hi))
}

/// "1-5 uppercase letters" against `pattern = "^[A-Z]{1,4}$"`: compare the repeat.
fn pattern_repeat(min: Side, max: Side, d: &Declared) -> Option<Conflict> {
    let src = d.pattern_source?;
    let body = src.strip_suffix('$')?;
    let open = body.rfind('{')?;
    let rep = body[open..].strip_prefix('{')?.strip_suffix('}')?;
    if !body[..open].ends_with(']') {
        return None;
    }
    let (lo, hi) = counts::<f64>(rep);
    let (pmin, pmax) = (whole(min, true), whole(max, false));
    let (dmin, dmax) = (lo.and_then(incl), hi.and_then(incl));
    let lo_s = compare(pmin, dmin, true);
    let hi_s = compare(pmax, dmax, false);
    if lo_s == Stricter::Same && hi_s == Stricter::Same {
        return None;
    }
    let declared = format!("pattern = \"{}\"", escape(src));
    if lo_s == Stricter::Prose || hi_s == Stricter::Prose {
        let a = if lo_s == Stricter::Prose { pmin } else { dmin };
        let b = if hi_s == Stricter::Prose { pmax } else { dmax };
        let rep = match (a, b) {
            (Some(a), Some(b)) if a.v == b.v => format!("{{{}}}", num(a.v)),
            (Some(a), Some(b)) => format!("{{{},{}}}", num(a.v), num(b.v)),
            (Some(a), None) => format!("{{{},}}", num(a.v)),
            (None, Some(b)) => format!("{{0,{}}}", num(b.v)),
            (None, None) => "+".into(),
        };
        let new = format!("{}{rep}$", &body[..open]);
        return Some(Conflict {
            check: Check::PatternRepeat,
            declared,
            change: Change::Declaration(format!("#[arg(pattern = \"{}\")]", escape(&new))),
        });
    }
    Some(Conflict {
        check: Check::PatternRepeat,
        declared,
        change: Change::Prose(words(dmin, dmax, " characters")),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{unmatched, Change, Declared, Limits, Scalar};
    use super::WHOLE_READS;

    fn limits(min: Option<f64>, max: Option<f64>) -> Option<Limits> {
        Some(Limits {
            min,
            max,
            ..Limits::default()
        })
    }

    fn number(range: Option<Limits>) -> Declared<'static> {
        Declared {
            scalar: Scalar::Integer,
            range_limits: range,
            ..Declared::default()
        }
    }

    fn date(min: Option<&'static str>, max: Option<&'static str>) -> Declared<'static> {
        Declared {
            format_name: Some("date"),
            scalar: Scalar::Other,
            range_text: (min, max),
            ..Declared::default()
        }
    }

    fn conflict_of(doc: &str, d: Declared) -> Option<(String, Change)> {
        let c = unmatched(doc, d);
        assert!(c.len() <= 1, "{doc}: {c:?}");
        let c = c.into_iter().next()?;
        let conflict = c.conflict.expect("a conflict, not a missing declaration");
        Some((conflict.declared, conflict.change))
    }

    /// Agreement over detection: a shape the prose describes in words, or a
    /// prefix the declared pattern requires, agrees with the declaration;
    /// only a length the declaration cannot have is a conflict, and its help
    /// never asks for a regex in the prose.
    #[test]
    fn a_pattern_in_words_agrees_with_the_declared_one() {
        let pattern = |p: &'static str| Declared {
            scalar: Scalar::String,
            pattern_source: Some(p),
            ..Declared::default()
        };
        for (doc, declared) in [
            (
                "The payment id: `pay_` and 12 lowercase letters or digits.",
                "^pay_[a-z0-9]{12}$",
            ),
            (
                "The live token. Must start with `tok_live_`.",
                "^tok_live_[A-Za-z0-9]{24}$",
            ),
            ("IDs begin with 'ws-'.", "^ws-[0-9a-f]{8}$"),
            ("Lowercase letters and digits only.", "^[a-z0-9]+$"),
            ("A 6-digit code.", "^[0-9]{6}$"),
            ("The two-letter country code.", "^[A-Za-z]{2}$"),
        ] {
            assert_eq!(
                conflict_of(doc, pattern(declared)),
                None,
                "{doc} over {declared}"
            );
        }
        // a count of characters the declaration does not allow: the help
        // says it in words, never as a regex
        let (_, change) =
            conflict_of("A 6-digit code.", pattern("^[0-9]{4}$")).expect("a conflict");
        assert_eq!(change, Change::Prose("4 characters".into()));
        // a new user's: the literal, then a count the declaration differs on
        let id = "The invoice: `in_` and 24 letters or digits.";
        let (_, change) = conflict_of(id, pattern("^in_[A-Za-z0-9]{16}$")).expect("a conflict");
        assert_eq!(change, Change::Prose("16 characters".into()));
    }

    /// Round 12: "Minimum is 1950-01-01." (open-meteo) on a date argument,
    /// whose range is declared as text (`range(min = "1950-01-01")`):
    /// compared day by day (seventh session); undeclared, the help names the
    /// date as written.
    #[test]
    fn a_date_bound_against_a_date_range() {
        let min = "Start date in ISO 8601 format. Minimum is 1950-01-01.";
        assert_eq!(conflict_of(min, date(Some("1950-01-01"), None)), None);
        // a date-time bound on the same day agrees
        assert_eq!(
            conflict_of(min, date(Some("1950-01-01T00:00:00Z"), None)),
            None
        );
        assert_eq!(
            conflict_of(min, date(Some("1940-01-01"), None)),
            Some((
                "range(min = \"1940-01-01\")".into(),
                Change::Declaration("#[arg(range(min = \"1950-01-01\"))]".into())
            ))
        );
        assert_eq!(
            conflict_of(min, date(Some("1960-01-01"), None)),
            Some((
                "range(min = \"1960-01-01\")".into(),
                Change::Prose("\"from 1960-01-01\"".into())
            ))
        );
        // the side the declaration leaves open is added
        assert_eq!(
            conflict_of(min, date(None, Some("2000-12-31"))),
            Some((
                "range(max = \"2000-12-31\")".into(),
                Change::Declaration(
                    "#[arg(range(min = \"1950-01-01\", max = \"2000-12-31\"))]".into()
                )
            ))
        );
        let span = "The day, from 2001-01-01 to 2024-12-31.";
        assert_eq!(
            conflict_of(span, date(Some("2001-01-01"), Some("2023-12-31"))),
            Some((
                "range(min = \"2001-01-01\", max = \"2023-12-31\")".into(),
                Change::Prose("\"from 2001-01-01 to 2023-12-31\"".into())
            ))
        );
        // a year is no day: "at least 2001" is not compared with a day
        let year = "The day, at least 2001.";
        assert_eq!(conflict_of(year, date(Some("2002-06-01"), None)), None);
        let c = unmatched("End date. Maximum is 2050-12-31.", date(None, None));
        assert_eq!(c.len(), 1);
        assert!(
            c[0].help.contains("range(max = \"2050-12-31\")"),
            "{}",
            c[0].help
        );
    }

    /// A new user's "up to one week (10080 minutes)" over `range(max =
    /// 10080)` was a compile error whose help was `range(max = 1)`: a span
    /// in another unit of time agrees when it converts exactly, only then.
    #[test]
    fn a_span_of_time_in_another_unit() {
        let max = |v: f64| {
            number(Some(Limits {
                max: Some(v),
                ..Limits::default()
            }))
        };
        let week = "How long before the start to remind, up to one week (10080 minutes).";
        assert_eq!(conflict_of(week, max(10080.0)), None);
        assert_eq!(conflict_of("At most 2 hours.", max(7200.0)), None);
        assert!(conflict_of(week, max(10000.0)).is_some());
        assert!(conflict_of("At most 90 days.", max(120.0)).is_some());
        // the second trial's: a year of days, kilometres of metres
        assert_eq!(conflict_of("Up to one year (365 days).", max(365.0)), None);
        assert_eq!(
            conflict_of("Radius in metres; at most 50 km.", max(50_000.0)),
            None
        );
        assert!(conflict_of("Radius in metres; at most 50 km.", max(5_000.0)).is_some());
        let price = "New price in cents; at most 100,000.00 in the store currency.";
        assert_eq!(conflict_of(price, max(10_000_000.0)), None);
        assert!(conflict_of("At most 100,000.00.", max(10_000_000.0)).is_some());
        // the fourth trial's: a bound in the argument's own unit when its
        // doc names it, for the comparison and the help alike
        let (_, change) = conflict_of("Radius in metres; at most 50 km.", max(5_000.0)).unwrap();
        assert_eq!(change, Change::Prose("\"at most 5000\"".into()));
        let grams = "Parcel weight in grams; at most 20 kg.";
        let (_, change) = conflict_of(grams, max(30_000.0)).unwrap();
        assert_eq!(
            change,
            Change::Declaration("#[arg(range(max = 20000))]".into())
        );
        let salary = "Salary in cents, from 1,000.00 to 500,000.00.";
        let (_, change) = conflict_of(salary, max(100_000_000.0)).unwrap();
        let want = "#[arg(range(min = 100000, max = 50000000))]";
        assert_eq!(change, Change::Declaration(want.into()));
    }

    /// The third lint audit's D2: the unit the argument's name states
    /// (`timeout_seconds`, `wait_ms`) is the one the prose's bound is
    /// converted into, for the side to change and the help alike, as it
    /// already was when the doc said it ("Timeout in seconds, ...").
    #[test]
    fn a_bound_in_the_unit_the_name_states() {
        let on = |name: &'static str, min: Option<f64>, max: f64| Declared {
            name: Some(name),
            ..number(Some(Limits {
                min,
                max: Some(max),
                ..Limits::default()
            }))
        };
        let hour = "Timeout, at most 1 hour.";
        let (_, change) = conflict_of(hour, on("timeout_seconds", None, 7200.0)).unwrap();
        let want = Change::Declaration("#[arg(range(max = 3600))]".into());
        assert_eq!(change, want);
        assert_eq!(conflict_of(hour, on("timeout_seconds", None, 3600.0)), None);
        // the declaration is the stricter: the prose says what it enforces
        let two = "Timeout, at most 2 hours.";
        let (_, change) = conflict_of(two, on("timeout_seconds", None, 3600.0)).unwrap();
        assert_eq!(change, Change::Prose("\"at most 3600\"".into()));
        // the help followed is no longer silent: 1 second is not 1 hour
        assert!(conflict_of(hour, on("timeout_seconds", None, 1.0)).is_some());
        let wait = "How long to wait; up to 30 seconds.";
        let (_, change) = conflict_of(wait, on("wait_ms", Some(0.0), 60_000.0)).unwrap();
        let want = Change::Declaration("#[arg(range(min = 0, max = 30000))]".into());
        assert_eq!(change, want);
        assert_eq!(conflict_of(wait, on("waitMs", Some(0.0), 30_000.0)), None);
        // 1 hour in seconds is not 1 hour in milliseconds
        assert!(conflict_of(hour, on("timeout_ms", None, 3600.0)).is_some());
        // a name that is no unit, or a bound in no unit, converts nothing
        assert_eq!(conflict_of(hour, on("timeout", None, 3600.0)), None);
        assert!(conflict_of("At most 50.", on("max_days", None, 50.0)).is_none());
    }

    /// The third lint audit's D3: a long description repeating a bound over
    /// a declaration read the whole text again for each claim (the unit the
    /// doc counts in), quadratic in its length. The whole-text reads of this
    /// module are counted: a fixed number per doc, whatever number of claims.
    #[test]
    fn the_whole_doc_is_read_a_fixed_number_of_times() {
        let reads = |doc: &str, d: Declared| {
            WHOLE_READS.with(|n| n.set(0));
            let found = unmatched(doc, d).len();
            (found, WHOLE_READS.with(|n| n.get()))
        };
        let string = Declared {
            scalar: Scalar::String,
            length_limits: Some(Limits {
                max: Some(10.0),
                ..Limits::default()
            }),
            ..Declared::default()
        };
        let count = number(Some(Limits {
            max: Some(10.0),
            ..Limits::default()
        }));
        let set = Declared {
            scalar: Scalar::String,
            pattern_source: Some("^(a|b|c)$"),
            ..Declared::default()
        };
        for (sentence, d) in [
            ("Lorem ipsum dolor sit amet, at most 10 items. ", string),
            ("Timeout, at most 1 hour. ", count),
            ("Price, at most 1,000.00. ", count),
            ("One of `a` or `b`. ", set),
        ] {
            let (_, once) = reads(sentence, d);
            let (found, many) = reads(&sentence.repeat(300), d);
            assert_eq!(many, once, "{sentence}: {found} claims");
        }
    }

    /// "from 2001-01-01 to 2024-12-31" is both days, each on its side (the
    /// help once gave the later day as the minimum).
    #[test]
    fn date_bounds_are_declared_with_their_days() {
        // the range claim's help (a date on a number is also a format claim)
        let help = |doc: &str, d: Declared| {
            let c = unmatched(doc, d);
            let range = c.iter().find(|c| c.kind == super::ClaimKind::Range);
            range.expect("a range claim").help.clone()
        };
        let span = "The day, from 2001-01-01 to 2024-12-31.";
        assert_eq!(
            help(span, date(None, None)),
            "#[arg(range(min = \"2001-01-01\", max = \"2024-12-31\"))]"
        );
        let text = Declared {
            scalar: Scalar::String,
            ..Declared::default()
        };
        assert!(help(span, text).starts_with(
            "a string cannot declare `range(min = \"2001-01-01\", max = \"2024-12-31\")`; make the argument a date"
        ));
    }

    /// A side declared inside `served(..)` stays there in the suggestion.
    #[test]
    fn a_served_side_stays_served() {
        let year = Declared {
            served: (true, false),
            ..number(limits(Some(1990.0), None))
        };
        assert_eq!(
            conflict_of("The year, at least 2001.", year),
            Some((
                "served(range(min = 1990))".into(),
                Change::Declaration("#[arg(served(range(min = 2001)))]".into())
            ))
        );
        let both = Declared {
            served: (false, true),
            ..number(limits(Some(1.0), Some(2026.0)))
        };
        assert_eq!(
            conflict_of("The year, between 1 and 2024.", both),
            Some((
                "range(min = 1), served(range(max = 2026))".into(),
                Change::Declaration("#[arg(range(min = 1), served(range(max = 2024)))]".into())
            ))
        );
    }

    #[test]
    fn a_looser_declaration_is_tightened_to_the_prose() {
        let c = unmatched("Page size, at most 100.", number(limits(None, Some(500.0))));
        assert_eq!(c.len(), 1);
        let conflict = c[0].conflict.as_ref().expect("a conflict");
        assert_eq!(conflict.declared, "range(max = 500)");
        assert_eq!(
            conflict.change,
            Change::Declaration("#[arg(range(max = 100))]".into())
        );
        let m = c[0].message("limit");
        assert!(
            m.contains("says \"at most 100\" but `limit` declares `range(max = 500)`"),
            "{m}"
        );
        // stricter on one side and looser on the other (the fifth trial's
        // "between 2 and 60" over `range(3.0 ..= 70.0)`): both change
        let (_, change) =
            conflict_of("Between 2 and 60.", number(limits(Some(3.0), Some(70.0)))).unwrap();
        let attr = "#[arg(range(min = 3, max = 60))]".to_string();
        assert_eq!(change, Change::Both(attr, "\"between 3 and 60\"".into()));
        let c = unmatched("Between 2 and 60.", number(limits(Some(3.0), Some(70.0))));
        assert!(c[0].message("fat").ends_with("help: the prose is stricter on one side and looser on the other; change the declaration to `#[arg(range(min = 3, max = 60))]` and the prose to say \"between 3 and 60\""), "{}", c[0].message("fat"));
        // a whole number's bound is rounded inward: `max = 2.5` declares no integer
        let (_, change) = conflict_of("At most 2.5.", number(limits(None, Some(10.0)))).unwrap();
        assert_eq!(change, Change::Declaration("#[arg(range(max = 2))]".into()));
    }

    /// The second and fourth trials' false findings: a length the pattern
    /// already allows, reported as a length left undeclared.
    #[test]
    fn a_pattern_states_its_length() {
        use super::pattern_length;
        let project = "^[a-z][a-z0-9-]{4,28}[a-z0-9]$";
        assert_eq!(pattern_length(project), Some((6.0, Some(30.0))));
        assert_eq!(
            pattern_length("^pay_[a-z0-9]{12}$"),
            Some((16.0, Some(16.0)))
        );
        assert_eq!(pattern_length("^\\d+[.]?\\d{0,2}$"), Some((1.0, None)));
        assert_eq!(pattern_length("^(ab|c)$"), None);
        let d = Declared {
            pattern: true,
            pattern_source: Some(project),
            is_string: true,
            scalar: Scalar::String,
            ..Declared::default()
        };
        let doc = "Project id: lowercase letters, digits and hyphens, starting with a letter, 6 to 30 characters.";
        assert!(unmatched(doc, d).is_empty(), "{:?}", unmatched(doc, d));
        assert_eq!(unmatched("Project id, 6 to 40 characters.", d).len(), 1);
    }

    #[test]
    fn a_looser_prose_is_reworded_to_the_declaration() {
        let c = unmatched("At least 1990.", number(limits(Some(2001.0), None)));
        assert_eq!(
            c[0].conflict.as_ref().map(|c| &c.change),
            Some(&Change::Prose("\"at least 2001\"".into()))
        );
        let c = unmatched("At least 2001.", number(limits(Some(1990.0), None)));
        assert_eq!(
            c[0].conflict.as_ref().map(|c| &c.change),
            Some(&Change::Declaration("#[arg(range(min = 2001))]".into()))
        );
    }

    #[test]
    fn equal_bounds_agree_whatever_the_wording() {
        assert!(unmatched("Between 1 and 100.", number(limits(Some(1.0), Some(100.0)))).is_empty());
        assert!(unmatched("A positive integer.", number(limits(Some(1.0), None))).is_empty());
        assert!(unmatched("Fewer than 10.", number(limits(None, Some(9.0)))).is_empty());
        // the prose need not repeat every declared side
        assert!(unmatched("At most 100.", number(limits(Some(1.0), Some(100.0)))).is_empty());
    }

    /// A bound written as a template's placeholder (Doist/todoist-ai,
    /// mondaycom/mcp): the declared number is what the prose should say.
    #[test]
    fn a_placeholder_bound_is_reworded_to_the_declared_number() {
        let list = |length: Option<Limits>| Declared {
            is_list: true,
            length_limits: length,
            ..Declared::default()
        };
        let doc = "The array of tasks to add (max ${MAX_TASKS_PER_OPERATION}).";
        let c = &unmatched(doc, list(limits(None, Some(25.0))))[0];
        assert_eq!(
            c.conflict.as_ref().map(|c| &c.change),
            Some(&Change::Prose("\"at most 25 items\"".into()))
        );
        // a declaration open on that side has nothing to compare
        assert!(unmatched(doc, list(limits(Some(1.0), None))).is_empty());
        // undeclared: the help asks for the number first
        let c = &unmatched(doc, list(None))[0];
        assert!(
            c.conflict.is_none() && c.help.contains("placeholder"),
            "{}",
            c.help
        );
    }

    /// A side the declaration leaves open, stated in the prose, is a
    /// constraint the declaration lacks (reported with the declaration to
    /// write), not a contradiction: the third new user's trial had "no more
    /// than 5000" over `range(min = 1)` as a compile error. A declared side
    /// the prose contradicts still is one.
    #[test]
    fn a_missing_side_is_added_to_the_declaration() {
        let c = unmatched("Between 1 and 100.", number(limits(None, Some(100.0))));
        assert_eq!(
            (c[0].conflict.is_none(), c[0].help.as_str()),
            (true, "#[arg(range(min = 1, max = 100))]")
        );
        let c = unmatched("No more than 5000.", number(limits(Some(1.0), None)));
        assert_eq!(
            (c[0].conflict.is_none(), c[0].help.as_str()),
            (true, "#[arg(range(min = 1, max = 5000))]")
        );
        let c = unmatched("Between 2 and 100.", number(limits(Some(1.0), None)));
        assert!(c[0].conflict.is_some(), "{c:?}");
        let c = unmatched(
            "Must not be more than 100.",
            number(limits(Some(101.0), None)),
        );
        assert!(c[0].conflict.is_some(), "{c:?}");
    }

    #[test]
    fn lengths_compare_with_the_right_declaration() {
        let text = Declared {
            scalar: Scalar::String,
            length_limits: limits(None, Some(500.0)),
            ..Declared::default()
        };
        let c = unmatched("No longer than 200 characters.", text);
        assert_eq!(
            c[0].conflict.as_ref().map(|c| c.declared.as_str()),
            Some("length(max = 500)")
        );
        let tags = Declared {
            scalar: Scalar::String,
            is_list: true,
            each_length_limits: limits(None, Some(32.0)),
            ..Declared::default()
        };
        assert!(unmatched("Each tag at most 32 characters.", tags).is_empty());
        let c = unmatched("Each tag at most 20 characters.", tags);
        assert_eq!(
            c[0].conflict.as_ref().map(|c| &c.change),
            Some(&Change::Declaration(
                "#[arg(each(length(max = 20)))]".into()
            ))
        );
    }

    #[test]
    fn formats_sets_and_patterns_follow_the_declaration() {
        let date = Declared {
            scalar: Scalar::String,
            format_name: Some("date-time"),
            ..Declared::default()
        };
        let c = unmatched("Due day as YYYY-MM-DD.", date);
        assert_eq!(
            c[0].conflict.as_ref().map(|c| c.declared.as_str()),
            Some("format = \"date-time\"")
        );
        assert!(unmatched("An ISO 8601 timestamp.", date).is_empty());
        let values = ["asc", "desc", "random"];
        let sort = Declared {
            scalar: Scalar::Other,
            enum_values: &values,
            ..Declared::default()
        };
        let c = unmatched("Only `asc` or `desc`.", sort);
        assert_eq!(
            c[0].conflict.as_ref().map(|c| &c.change),
            Some(&Change::Prose("one of `asc`, `desc`, `random`".into()))
        );
        let pat = Declared {
            scalar: Scalar::String,
            pattern_source: Some("^(json|csv)$"),
            ..Declared::default()
        };
        assert!(unmatched("Either 'json' or 'csv'.", pat).is_empty());
        assert_eq!(unmatched("Either 'json' or 'xml'.", pat).len(), 1);
        let ticker = Declared {
            scalar: Scalar::String,
            pattern_source: Some("^[A-Z]{1,4}$"),
            ..Declared::default()
        };
        let c = unmatched("1-5 uppercase letters.", ticker);
        assert_eq!(
            c[0].conflict.as_ref().map(|c| &c.change),
            Some(&Change::Prose("\"between 1 and 4 characters\"".into()))
        );
    }
}

#[cfg(test)]
mod false_alarm_tests {
    use crate::{unmatched, Declared, Scalar};

    fn errors(doc: &str, values: &[&str]) -> usize {
        let d = Declared {
            scalar: Scalar::Other,
            closed_set: true,
            enum_values: values,
            ..Declared::default()
        };
        unmatched(doc, d)
            .iter()
            .filter(|c| c.conflict.is_some())
            .count()
    }

    /// Two false alarms of the false-alarm set (`tests/false_alarms/`):
    /// the numbers of a numbered list read as values, and a set given in parts.
    #[test]
    fn numbered_lists_and_sets_in_parts_agree() {
        let numbered = "The read operation.\nOptions are:\n1. get - Get issue details.\n2. get_comments - Get issue comments.\n";
        assert_eq!(errors(numbered, &["get", "get_comments"]), 0);
        let parts = "Which alert rule family to inspect. Use `issue` or `metric` for numeric IDs; `all` treats the value as an exact-name lookup.";
        assert_eq!(errors(parts, &["all", "issue", "metric"]), 0);
        // a value the prose never names still contradicts
        assert_eq!(
            errors(
                "Use `issue` or `metric` for numeric IDs.",
                &["all", "issue", "metric"]
            ),
            1
        );
        assert_eq!(
            errors("One of `draft` or `final`.", &["draft", "published"]),
            1
        );
    }
}

/// The contradiction checks after their levels were measured: a list read
/// in part names no narrower set (lark-mcp's generated "Options:" lists, the
/// second false-alarm set), and the true contradictions are still found,
/// each by its check and at that check's level.
#[cfg(test)]
mod check_tests {
    use crate::{listed_sets, unmatched, Check, Declared, Level, Scalar};

    fn over_enum<'a>(values: &'a [&'a str]) -> Declared<'a> {
        Declared {
            scalar: Scalar::Other,
            closed_set: true,
            enum_values: values,
            ..Declared::default()
        }
    }

    /// The checks that find a contradiction in `doc` over `d`.
    fn checks(doc: &str, d: Declared) -> Vec<Check> {
        unmatched(doc, d)
            .into_iter()
            .filter_map(|c| c.conflict.map(|c| c.check))
            .collect()
    }

    /// One shape of each cause of the second set's 112 errors, over the
    /// enum the server declares: no contradiction, and where the reader
    /// stopped inside the list, it knows it read a part.
    #[test]
    fn lark_lists_read_in_part_are_not_narrower() {
        let cases: &[(&str, &[&str])] = &[
            // a gloss holds a sentence end
            (
                "The type of Department ID used in this call. Options:department_id(DepartmentId Supports user-defined configuration of Department ID. When custom configuring, a deleted `department_id` can be reused.),open_department_id(OpenDepartmentId The Department ID automatically generated by the system.)",
                &["department_id", "open_department_id"],
            ),
            // a gloss runs over 16 tokens
            (
                "The employee ID type of the user_id in the response body. Options:employee_id(Employee ID, that is the user ID in [Feishu Admin] > Organization > Member and Department > Member Details),employee_no(Employee number, that is the employee ID in [Feishu Admin] > Organization)",
                &["employee_id", "employee_no"],
            ),
            // the next value is longer than 24 characters
            (
                "Set the membership range. Options:anyone_can_join(AnyOne Any user can join the meeting),only_organization_employees(OnlySameOrganization Only users from the same organization can join),only_event_attendees(OnlyEventAttendees Only event attendees can join)",
                &["anyone_can_join", "only_organization_employees", "only_event_attendees"],
            ),
            // the values are numbers
            (
                "Resource processing type. Options:1(Transfer Transfer Resource),2(Retain Retain Resource),3(Delete Delete Resource)",
                &["1", "2", "3"],
            ),
            // the next value is a word not taken for a value
            (
                "indicates the way how to update Options:equal_to_availability(the permission range of contacts will keep consistent with the range of App availability),some(the permission range of contacts will be partial),all(All contacts data can be accessed)",
                &["equal_to_availability", "some", "all"],
            ),
            // another field's value named first, the others listed after
            (
                "Custom status of UI items. Only \"hide\" is supported. Options:hide(Hidden),readonly(Read-only),editable(Editable),unknown(Unknown UI item custom state. This parameter is only for read-time compatibility.)",
                &["hide", "readonly", "editable", "unknown"],
            ),
        ];
        for (doc, values) in cases {
            assert_eq!(checks(doc, over_enum(values)), [], "{doc}");
        }
        // the reader knows where it stopped: the first list of each of the
        // first five is read in part
        for (doc, _) in &cases[..5] {
            let sets = listed_sets(doc);
            assert!(sets.first().is_some_and(|s| !s.whole), "{doc}: {sets:?}");
        }
    }

    /// A list read to its end that names a value the enum lacks, or lacks
    /// one it declares and names nowhere, is a contradiction; so is a
    /// value the enum lacks in a list read in part. Each at its check's
    /// measured level: `set-narrower` and `bounds` at the error level,
    /// `set-wider`, `format` and `prefix` at the audit level today.
    #[test]
    fn true_contradictions_are_still_found() {
        let sort = ["asc", "desc", "random"];
        let kind = ["draft", "published"];
        let cases: &[(&str, &[&str], Check)] = &[
            ("Only `asc` or `desc`.", &sort, Check::SetNarrower),
            ("One of `draft` or `final`.", &kind, Check::SetWider),
            (
                "Options:draft(a draft),final(the final version)",
                &kind,
                Check::SetWider,
            ),
            // read in part, and naming a value the enum lacks
            (
                "Options:final(the final version. It cannot change.),draft(a draft)",
                &kind,
                Check::SetWider,
            ),
        ];
        for (doc, values, check) in cases {
            let found = unmatched(doc, over_enum(values));
            assert_eq!(found.len(), 1, "{doc}: {found:?}");
            let c = &found[0];
            assert_eq!(c.conflict.as_ref().map(|c| c.check), Some(*check), "{doc}");
            assert_eq!(c.level(), check.row().level_for(c.by.row().name), "{doc}");
        }
        // a whole list that names every declared value agrees, in any case
        assert_eq!(
            checks("Only `ASC`, `desc` or `random`.", over_enum(&sort)),
            []
        );
        // a missing value the description names apart agrees
        assert_eq!(
            checks("Only `asc` or `desc`; `random` shuffles.", over_enum(&sort)),
            []
        );
        // but not inside a longer word
        assert_eq!(
            checks("Only `asc` or `desc`; see randomness.", over_enum(&sort)),
            [Check::SetNarrower]
        );
        // the other checks, each at its level
        let number = Declared {
            scalar: Scalar::Integer,
            range_limits: Some(crate::Limits {
                max: Some(500.0),
                ..crate::Limits::default()
            }),
            ..Declared::default()
        };
        assert_eq!(checks("Page size, at most 100.", number), [Check::Bounds]);
        let date = Declared {
            scalar: Scalar::String,
            format_name: Some("date-time"),
            ..Declared::default()
        };
        assert_eq!(checks("Due day as YYYY-MM-DD.", date), [Check::Format]);
        let code = Declared {
            scalar: Scalar::String,
            pattern_source: Some("^[0-9]{4}$"),
            ..Declared::default()
        };
        assert_eq!(checks("A 6-digit code.", code), [Check::ShapeLength]);
        // a check's level holds only for the recognizers measured right
        // within it
        let level = |c: Check, by: &str| c.row().level_for(by);
        assert_eq!(level(Check::Bounds, "comparative"), Level::Error);
        assert_eq!(level(Check::Bounds, "span"), Level::Error);
        // the other bounds readers no labelled text measured within the
        // check
        for r in ["sized-noun", "date-bound", "postfix-bound"] {
            assert!(crate::TABLE.iter().any(|row| row.name == r), "{r}");
            assert_eq!(level(Check::Bounds, r), Level::Audit, "{r}");
        }
        for c in [Check::SetWider, Check::Format, Check::ShapeLength] {
            for r in crate::TABLE {
                assert_eq!(level(c, r.name), Level::Audit, "{c:?} {}", r.name);
            }
        }
    }
}
