//! Dates, date-times and times of day as argument types, from `chrono`,
//! `jiff` and `time` (each behind the cargo feature of its name).
//!
//! A value is first checked against the grammar its schema publishes (the
//! RFC 3339 `format` of a date or date-time, the same check `format =
//! "date"` makes on a `String`; the `pattern` of a time of day), then
//! parsed: what the published schema accepts and what the runtime accepts
//! are one rule. Bounds are `range(min = "..", max = "..")`; the schema and
//! the envelope name them `formatMinimum`/`formatMaximum`, the JSON Schema
//! vocabulary proposed for bounds on formatted strings.
//!
//! A time of day has no offset, and JSON Schema's `time` format requires
//! one (RFC 3339 full-time: `09:30:00Z`): publishing `format: time` would
//! make every validator and provider that checks formats refuse what the
//! type accepts, and accepting an offset would mean dropping it silently.
//! So a time of day publishes a `pattern` for RFC 3339 partial-time
//! (`09:30:00`, optionally with a fraction) instead.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use crate::args::constraint::{Constraints, Format};
use crate::args::rules::SpanUnit;
use crate::args::validate::{Ptr, Violations};

#[cfg(feature = "chrono")]
mod with_chrono;
#[cfg(feature = "jiff")]
mod with_jiff;
#[cfg(feature = "time")]
mod with_time;

/// The pattern a time of day publishes: RFC 3339 partial-time, `HH:MM:SS`
/// with an optional fraction (to the nanosecond, which every crate holds),
/// no offset, no leap second.
pub(super) const TIME_OF_DAY_PATTERN: &str =
    "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?$";

/// What a temporal type reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// RFC 3339 full-date (`format: date`).
    Date,
    /// RFC 3339 date-time with an offset (`format: date-time`).
    DateTime,
    /// RFC 3339 partial-time, without an offset (`pattern`).
    TimeOfDay,
}

impl Shape {
    fn format(self) -> Option<Format> {
        match self {
            Shape::Date => Some(Format::Date),
            Shape::DateTime => Some(Format::DateTime),
            Shape::TimeOfDay => None,
        }
    }

    /// The shape in words, as messages and repairs name it.
    fn name(self) -> &'static str {
        match self {
            Shape::Date => "date",
            Shape::DateTime => "date-time",
            Shape::TimeOfDay => "time of day",
        }
    }

    fn example(self) -> &'static str {
        match self.format() {
            Some(f) => f.example(),
            None => "09:30:00",
        }
    }

    fn matches(self, s: &str) -> bool {
        match self.format() {
            Some(f) => f.matches(s),
            // The pattern: no leap second, at most nine fraction digits.
            None => {
                s.len() <= 18
                    && time_of_day(s)
                        .is_some_and(|(_, _, sec, _, rest)| sec < 60 && rest.is_empty())
            }
        }
    }
}

/// A temporal type of one of the date crates.
pub(crate) trait Temporal: Sized + Ord + Clone + Send + 'static {
    const SHAPE: Shape;
    /// Parses text that already matches `SHAPE`'s grammar.
    fn parse(s: &str) -> Option<Self>;
    /// The value as the envelope shows it (in `SHAPE`'s grammar).
    fn text(&self) -> String;
    /// `later - self` in seconds.
    fn seconds(&self, later: &Self) -> i64;
}

/// Strict parsing: the grammar first (the crates' parsers are lenient about
/// padding, separators or offsets), then the calendar.
pub(crate) fn read<T: Temporal>(s: &str) -> Option<T> {
    if T::SHAPE.matches(s) {
        T::parse(s)
    } else {
        None
    }
}

/// `YYYY-MM-DD` as (year, month, day), for crates built from parts.
#[cfg_attr(not(feature = "time"), allow(dead_code))]
pub(crate) fn date_parts(s: &str) -> Option<(i32, u8, u8)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y = i32::try_from(digits(&b[0..4])?).ok()?;
    let m = u8::try_from(digits(&b[5..7])?).ok()?;
    let d = u8::try_from(digits(&b[8..10])?).ok()?;
    Some((y, m, d))
}

/// `HH:MM:SS[.frac]` at the start of `s` as (hour, minute, second,
/// nanosecond) and what follows. RFC 3339 allows a leap second (60) and a
/// fraction of any length: the second is returned as written, the fraction
/// cut to the nanosecond (as chrono reads it).
pub(crate) fn time_of_day(s: &str) -> Option<(u8, u8, u8, u32, &str)> {
    let b = s.as_bytes();
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return None;
    }
    let (h, m, sec) = (digits(&b[0..2])?, digits(&b[3..5])?, digits(&b[6..8])?);
    if h > 23 || m > 59 || sec > 60 {
        return None;
    }
    let mut rest = &s[8..];
    let mut nanos = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        let kept = n.min(9);
        nanos = digits(&frac.as_bytes()[..kept])? * 10u32.pow(9 - kept as u32);
        rest = &frac[n..];
    }
    Some((h as u8, m as u8, sec as u8, nanos, rest))
}

/// `s` with its seconds' fraction cut to nine digits, for parsers that
/// refuse finer ones (RFC 3339 sets no limit).
#[cfg_attr(not(feature = "jiff"), allow(dead_code))]
pub(crate) fn to_nanoseconds(s: &str) -> std::borrow::Cow<'_, str> {
    let Some(dot) = s.find('.') else {
        return s.into();
    };
    let n = s[dot + 1..].bytes().take_while(u8::is_ascii_digit).count();
    if n <= 9 {
        return s.into();
    }
    format!("{}{}", &s[..dot + 10], &s[dot + 1 + n..]).into()
}

use super::format::digits;

/// `HH:MM:SS` with the fraction's significant digits, for crates built from parts.
#[cfg_attr(not(any(feature = "chrono", feature = "time")), allow(dead_code))]
pub(crate) fn time_text(h: u8, m: u8, s: u8, nanos: u32) -> String {
    let mut t = format!("{h:02}:{m:02}:{s:02}");
    if nanos > 0 {
        let frac = format!("{nanos:09}");
        t.push('.');
        t.push_str(frac.trim_end_matches('0'));
    }
    t
}

fn schema<T: Temporal>(c: &'static Constraints) -> Map<String, Value> {
    let mut s = Map::new();
    s.insert("type".into(), Value::from("string"));
    match T::SHAPE.format() {
        Some(f) => s.insert("format".into(), Value::from(f.name())),
        None => s.insert("pattern".into(), Value::from(TIME_OF_DAY_PATTERN)),
    };
    if let Some(min) = c.format_minimum {
        s.insert("formatMinimum".into(), Value::from(min));
    }
    if let Some(max) = c.format_maximum {
        s.insert("formatMaximum".into(), Value::from(max));
    }
    c.served.publish(&mut s);
    s
}

fn decode<T: Temporal>(
    v: &Value,
    c: &'static Constraints,
    ptr: &Ptr<'_>,
    out: &mut Violations,
) -> Option<T> {
    let s = crate::args::string_value(v, ptr, out)?;
    let Some(d) = read::<T>(s) else {
        let shape = T::SHAPE;
        let (keyword, limit, grammar) = match shape.format() {
            Some(f) => ("format", f.name(), "RFC 3339"),
            None => (
                "pattern",
                TIME_OF_DAY_PATTERN,
                "HH:MM:SS, without an offset",
            ),
        };
        // Well formed but past what the Rust type holds (jiff's instants
        // end on 9999-12-30).
        let message = if shape.matches(s) {
            format!(
                "is a {} outside the range this argument can hold",
                shape.name()
            )
        } else {
            format!("is not a valid {} ({grammar})", shape.name())
        };
        out.push(
            ptr,
            keyword,
            Value::from(limit),
            Some(v.clone()),
            message,
            format!("send a {} such as {}", shape.name(), shape.example()),
        );
        return None;
    };
    check_bounds(&d, c, ptr, out);
    Some(d)
}

fn check_bounds<T: Temporal>(v: &T, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
    // The macro checked the bounds' shape; one it could not read bounds nothing.
    let bounds = [
        (
            c.format_minimum,
            "formatMinimum",
            Ordering::Less,
            "on or after",
            "no earlier than",
        ),
        (
            c.format_maximum,
            "formatMaximum",
            Ordering::Greater,
            "on or before",
            "no later than",
        ),
    ];
    for (bound, keyword, beyond, must, send) in bounds {
        let Some(b) = bound else { continue };
        if read::<T>(b).is_none_or(|m| v.cmp(&m) != beyond) {
            continue;
        }
        if c.served.covers(keyword) {
            // A bound of service: report it as unserved, never as a date to move.
            out.push_served(
                ptr,
                keyword,
                Value::from(b),
                Some(Value::from(v.text())),
                &c.served_time_words(),
            );
        } else {
            out.push(
                ptr,
                keyword,
                Value::from(b),
                Some(Value::from(v.text())),
                format!("must be {must} {b}"),
                format!("send a {} {send} {b}", T::SHAPE.name()),
            );
        }
    }
}

/// `later - self` in `unit`, for `max_span` (plain numbers have no unit here).
fn distance<T: Temporal>(a: &T, later: &T, unit: SpanUnit) -> Option<f64> {
    unit.seconds().map(|per| a.seconds(later) as f64 / per)
}

/// `ArgValue`, `Ordered`, `Spanned` and `Operand` for temporal types.
macro_rules! temporal_arg {
    ($($t:ty),*) => {$(
        // An example gives a date or time as the string a call sends.
        impl $crate::args::example::ExampleStr for $t {}

        impl $crate::args::seal::Sealed for $t {}
        impl $crate::args::ArgValue for $t {
            fn schema(c: &'static $crate::args::constraint::Constraints) -> serde_json::Map<String, serde_json::Value> {
                $crate::args::dates::schema::<$t>(c)
            }
            fn decode_value(
                v: &serde_json::Value,
                c: &'static $crate::args::constraint::Constraints,
                ptr: &$crate::args::validate::Ptr<'_>,
                out: &mut $crate::args::validate::Violations,
            ) -> Option<Self> {
                $crate::args::dates::decode::<$t>(v, c, ptr, out)
            }
            fn fast<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s: std::borrow::Cow<'de, str> = serde::Deserialize::deserialize(d)?;
                $crate::args::dates::read::<$t>(&s).ok_or_else(|| serde::de::Error::custom("not a valid date or time"))
            }
            fn check(&self, c: &'static $crate::args::constraint::Constraints, ptr: &$crate::args::validate::Ptr<'_>, out: &mut $crate::args::validate::Violations) {
                $crate::args::dates::check_bounds(self, c, ptr, out);
            }
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }

        impl $crate::args::rules::Ordered for $t {
            const WORDS: $crate::args::rules::OrderWords = $crate::args::rules::OrderWords::TIMES;
            fn order(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
            fn shown(&self) -> serde_json::Value {
                serde_json::Value::from($crate::args::dates::Temporal::text(self))
            }
            fn distance(&self, later: &Self, unit: $crate::args::rules::SpanUnit) -> Option<f64> {
                $crate::args::dates::distance(self, later, unit)
            }
        }
        impl $crate::args::rules::Spanned for $t {}
        impl $crate::args::rules::Operand for $t {
            type Value = $t;
            fn operand(&self) -> Option<&$t> { Some(self) }
        }
        impl $crate::args::rules::Operand for Option<$t> {
            type Value = $t;
            fn operand(&self) -> Option<&$t> { self.as_ref() }
        }
    )*};
}
use temporal_arg;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_of_day_has_no_offset_and_no_leap_second() {
        assert!(Shape::TimeOfDay.matches("09:30:00"));
        assert!(Shape::TimeOfDay.matches("23:59:59.250"));
        for bad in [
            "9:30:00",
            "09:30",
            "09:30:00Z",
            "09:30:00+02:00",
            "24:00:00",
            "23:59:60",
            "09:30:00.",
        ] {
            assert!(!Shape::TimeOfDay.matches(bad), "{bad}");
        }
        let re = regex::Regex::new(TIME_OF_DAY_PATTERN).expect("the pattern compiles");
        for s in [
            "09:30:00",
            "23:59:59.250",
            "09:30:00Z",
            "24:00:00",
            "23:59:60",
            "09:30:00.1234567890",
        ] {
            assert_eq!(re.is_match(s), Shape::TimeOfDay.matches(s), "{s}");
        }
        assert_eq!(time_of_day("07:05:09.5"), Some((7, 5, 9, 500_000_000, "")));
        assert_eq!(
            time_of_day("23:59:60.1234567891Z"),
            Some((23, 59, 60, 123_456_789, "Z"))
        );
        assert_eq!(
            to_nanoseconds("2024-01-31T09:30:00.1234567891Z"),
            "2024-01-31T09:30:00.123456789Z"
        );
        assert_eq!(
            to_nanoseconds("2024-01-31T09:30:00.5Z"),
            "2024-01-31T09:30:00.5Z"
        );
        assert_eq!(time_text(7, 5, 9, 500_000_000), "07:05:09.5");
        assert_eq!(crate::args::format::offset_seconds("-05:30"), Some(-19_800));
        assert_eq!(date_parts("2024-02-29"), Some((2024, 2, 29)));
    }
}
