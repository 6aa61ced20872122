//! Dates and date-times of `chrono` as argument types (feature `chrono`).
//!
//! A value is first checked against the RFC 3339 grammar its `format` names
//! (the same check `format = "date"` makes on a `String`), then parsed: what
//! the published schema accepts and what the runtime accepts are one rule.
//! Bounds are `range(min = "..", max = "..")`; the envelope names them
//! `formatMinimum`/`formatMaximum`, the JSON Schema vocabulary for formats.

use std::cmp::Ordering;

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde::de::{self, Deserializer};
use serde_json::{Map, Value};

use crate::arg_rules::{Operand, OrderWords, Ordered, SpanUnit, Spanned};
use crate::args::ArgValue;
use crate::constraint::{Constraints, Format};
use crate::validate::{Ptr, Violations};

/// A `chrono` type that reads and writes one RFC 3339 format.
trait Rfc3339: Sized + Ord + Clone + Send + 'static {
    const FORMAT: Format;
    /// Parses text that already matches `FORMAT`'s grammar.
    fn parse(s: &str) -> Option<Self>;
    fn text(&self) -> String;
    /// `later - self` in seconds.
    fn seconds(&self, later: &Self) -> i64;
}

impl Rfc3339 for NaiveDate {
    const FORMAT: Format = Format::Date;
    fn parse(s: &str) -> Option<Self> {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
    }
    fn text(&self) -> String {
        self.format("%Y-%m-%d").to_string()
    }
    fn seconds(&self, later: &Self) -> i64 {
        later.signed_duration_since(*self).num_seconds()
    }
}

impl Rfc3339 for DateTime<FixedOffset> {
    const FORMAT: Format = Format::DateTime;
    fn parse(s: &str) -> Option<Self> {
        DateTime::parse_from_rfc3339(s).ok()
    }
    fn text(&self) -> String {
        self.to_rfc3339()
    }
    fn seconds(&self, later: &Self) -> i64 {
        later.signed_duration_since(*self).num_seconds()
    }
}

impl Rfc3339 for DateTime<Utc> {
    const FORMAT: Format = Format::DateTime;
    fn parse(s: &str) -> Option<Self> {
        DateTime::parse_from_rfc3339(s)
            .ok()
            .map(|d| d.with_timezone(&Utc))
    }
    fn text(&self) -> String {
        self.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    }
    fn seconds(&self, later: &Self) -> i64 {
        later.signed_duration_since(*self).num_seconds()
    }
}

/// Strict parsing: the format's grammar first (chrono alone is lenient about
/// padding and separators), then the calendar.
fn read<T: Rfc3339>(s: &str) -> Option<T> {
    if T::FORMAT.matches(s) {
        T::parse(s)
    } else {
        None
    }
}

fn schema<T: Rfc3339>(c: &'static Constraints) -> Map<String, Value> {
    let mut s = Map::new();
    s.insert("type".into(), Value::from("string"));
    s.insert("format".into(), Value::from(T::FORMAT.name()));
    if let Some(min) = c.format_minimum {
        s.insert("formatMinimum".into(), Value::from(min));
    }
    if let Some(max) = c.format_maximum {
        s.insert("formatMaximum".into(), Value::from(max));
    }
    s
}

fn check_bounds<T: Rfc3339>(v: &T, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
    // The macro checked the bounds' shape; one it could not read bounds nothing.
    if let Some(min) = c.format_minimum {
        if read::<T>(min).is_some_and(|m| *v < m) {
            out.push(
                ptr,
                "formatMinimum",
                Value::from(min),
                Some(Value::from(v.text())),
                format!("must be on or after {min}"),
                format!("send a {} no earlier than {min}", T::FORMAT.name()),
            );
        }
    }
    if let Some(max) = c.format_maximum {
        if read::<T>(max).is_some_and(|m| *v > m) {
            out.push(
                ptr,
                "formatMaximum",
                Value::from(max),
                Some(Value::from(v.text())),
                format!("must be on or before {max}"),
                format!("send a {} no later than {max}", T::FORMAT.name()),
            );
        }
    }
}

macro_rules! chrono_arg {
    ($($t:ty),*) => {$(
        impl ArgValue for $t {
            fn schema(c: &'static Constraints) -> Map<String, Value> {
                schema::<$t>(c)
            }
            fn decode_value(
                v: &Value,
                c: &'static Constraints,
                ptr: &Ptr<'_>,
                out: &mut Violations,
            ) -> Option<Self> {
                let Value::String(s) = v else {
                    out.wrong_type(ptr, "string", v);
                    return None;
                };
                let Some(d) = read::<$t>(s) else {
                    let f = <$t as Rfc3339>::FORMAT;
                    out.push(
                        ptr,
                        "format",
                        Value::from(f.name()),
                        Some(v.clone()),
                        format!("is not a valid {} (RFC 3339)", f.name()),
                        format!("send a {} such as {}", f.name(), f.example()),
                    );
                    return None;
                };
                check_bounds(&d, c, ptr, out);
                Some(d)
            }
            fn fast<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s: std::borrow::Cow<'de, str> = serde::Deserialize::deserialize(d)?;
                read::<$t>(&s).ok_or_else(|| de::Error::custom("not RFC 3339"))
            }
            fn check(&self, c: &'static Constraints, ptr: &Ptr<'_>, out: &mut Violations) {
                check_bounds(self, c, ptr, out);
            }
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }

        impl Ordered for $t {
            const WORDS: OrderWords = OrderWords::TIMES;
            fn order(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
            fn shown(&self) -> Value {
                Value::from(self.text())
            }
            fn distance(&self, later: &Self, unit: SpanUnit) -> Option<f64> {
                let secs = self.seconds(later) as f64;
                match unit {
                    SpanUnit::Plain => None,
                    SpanUnit::Days => Some(secs / 86_400.0),
                    SpanUnit::Hours => Some(secs / 3_600.0),
                    SpanUnit::Minutes => Some(secs / 60.0),
                    SpanUnit::Seconds => Some(secs),
                }
            }
        }
        impl Spanned for $t {}
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

chrono_arg!(NaiveDate, DateTime<Utc>, DateTime<FixedOffset>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times_need_the_rfc_3339_shape_and_an_offset() {
        assert!(read::<DateTime<Utc>>("2019-01-05T10:00").is_none());
        assert!(read::<DateTime<Utc>>("2019-01-05T10:00:00").is_none());
        assert!(read::<NaiveDate>("2019-1-5").is_none());
        assert!(read::<NaiveDate>("2019-02-29").is_none());
        let a = read::<DateTime<Utc>>("2019-01-05T10:00:00+02:00").expect("an instant");
        assert_eq!(a.text(), "2019-01-05T08:00:00Z");
        let b = read::<DateTime<Utc>>("2019-01-06T08:30:00Z").expect("an instant");
        assert_eq!(a.distance(&b, SpanUnit::Hours), Some(24.5));
        assert_eq!(a.distance(&b, SpanUnit::Plain), None);
        let (d, e) = (
            read::<NaiveDate>("2024-02-28"),
            read::<NaiveDate>("2024-03-01"),
        );
        let (d, e) = (d.expect("a date"), e.expect("a date"));
        assert_eq!(d.distance(&e, SpanUnit::Days), Some(2.0));
    }
}
