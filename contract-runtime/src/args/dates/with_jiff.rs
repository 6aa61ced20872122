//! `jiff`: `civil::Date`, `Timestamp` (a date-time with an offset, read as
//! the instant it names) and `civil::Time`.

use jiff::civil::{Date, Time};
use jiff::Timestamp;

use super::{temporal_arg, Shape, Temporal};

/// jiff reads and writes RFC 3339 itself (its Temporal grammar, of which the
/// shapes the runtime checked first are a part).
macro_rules! jiff_temporal {
    ($($t:ty => $shape:expr),*) => {$(
        impl Temporal for $t {
            const SHAPE: Shape = $shape;
            fn parse(s: &str) -> Option<Self> {
                s.parse().ok()
            }
            fn text(&self) -> String {
                self.to_string()
            }
            fn seconds(&self, later: &Self) -> i64 {
                self.duration_until(*later).as_secs()
            }
        }
    )*};
}

jiff_temporal!(Date => Shape::Date, Time => Shape::TimeOfDay);

/// An instant: RFC 3339 allows a fraction finer than jiff's nanosecond,
/// which is cut (as chrono does). jiff holds instants from -9999-01-02 to
/// 9999-12-30 (so that every offset's civil time fits); a date-time outside
/// is refused.
impl Temporal for Timestamp {
    const SHAPE: Shape = Shape::DateTime;
    fn parse(s: &str) -> Option<Self> {
        super::to_nanoseconds(s).parse().ok()
    }
    fn text(&self) -> String {
        self.to_string()
    }
    fn seconds(&self, later: &Self) -> i64 {
        self.duration_until(*later).as_secs()
    }
}
temporal_arg!(Date, Timestamp, Time);

#[cfg(test)]
mod tests {
    use super::super::read;
    use super::*;
    use crate::args::rules::{Ordered, SpanUnit};

    #[test]
    fn jiff_values_are_read_strictly() {
        assert!(read::<Date>("2024-2-1").is_none());
        assert!(read::<Date>("2023-02-29").is_none());
        assert!(read::<Timestamp>("2024-01-05T10:00:00").is_none());
        let a = read::<Timestamp>("2024-01-05T10:00:00+02:00").expect("an instant");
        assert_eq!(a.text(), "2024-01-05T08:00:00Z");
        let b = read::<Timestamp>("2024-01-06T08:30:00Z").expect("an instant");
        assert_eq!(a.distance(&b, SpanUnit::Hours), Some(24.5));
        let (d, e) = (read::<Date>("2024-02-28"), read::<Date>("2024-03-01"));
        assert_eq!(
            d.expect("a date")
                .distance(&e.expect("a date"), SpanUnit::Days),
            Some(2.0)
        );
        assert!(read::<Time>("09:30:00+01:00").is_none());
        let t = read::<Time>("09:30:00.5").expect("a time of day");
        assert_eq!(t.text(), "09:30:00.5");
        // Finer than a nanosecond: cut; a leap second: jiff clamps it.
        let fine = read::<Timestamp>("2024-01-31T09:30:00.1234567891Z").expect("an instant");
        assert_eq!(fine.text(), "2024-01-31T09:30:00.123456789Z");
        assert!(read::<Timestamp>("2016-12-31T23:59:60Z").is_some());
        // Past the last instant jiff holds.
        assert!(read::<Timestamp>("9999-12-31T23:59:59Z").is_none());
    }
}
