//! `time`: `Date`, `OffsetDateTime` and `Time`, built from the parts of the
//! text the grammar already checked, so that `time` needs neither its
//! `parsing` nor its `formatting` feature (nor its macros).

use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use super::{date_parts, temporal_arg, time_of_day, time_text, Shape, Temporal};
use crate::args::format::offset_seconds;

fn date(s: &str) -> Option<Date> {
    let (y, m, d) = date_parts(s)?;
    Date::from_calendar_date(y, Month::try_from(m).ok()?, d).ok()
}

fn date_text(d: &Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
}

/// A time and what follows it. A leap second (`23:59:60`, which RFC 3339
/// allows in a date-time) is read as the last nanosecond of its minute:
/// `time` holds no leap seconds.
fn time(s: &str) -> Option<(Time, &str)> {
    let (h, m, sec, nanos, rest) = time_of_day(s)?;
    let (sec, nanos) = if sec == 60 {
        (59, 999_999_999)
    } else {
        (sec, nanos)
    };
    Some((Time::from_hms_nano(h, m, sec, nanos).ok()?, rest))
}

fn clock_text(t: &Time) -> String {
    time_text(t.hour(), t.minute(), t.second(), t.nanosecond())
}

impl Temporal for Date {
    const SHAPE: Shape = Shape::Date;
    fn parse(s: &str) -> Option<Self> {
        date(s)
    }
    fn text(&self) -> String {
        date_text(self)
    }
    fn seconds(&self, later: &Self) -> i64 {
        (*later - *self).whole_seconds()
    }
}

impl Temporal for OffsetDateTime {
    const SHAPE: Shape = Shape::DateTime;
    fn parse(s: &str) -> Option<Self> {
        let (d, t) = (s.get(..10)?, s.get(11..)?);
        let (t, offset) = time(t)?;
        let offset = UtcOffset::from_whole_seconds(offset_seconds(offset)?).ok()?;
        Some(PrimitiveDateTime::new(date(d)?, t).assume_offset(offset))
    }
    fn text(&self) -> String {
        let offset = match self.offset().whole_seconds() {
            0 => "Z".to_owned(),
            secs => {
                let sign = if secs < 0 { '-' } else { '+' };
                let a = secs.unsigned_abs();
                format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60)
            }
        };
        format!(
            "{}T{}{offset}",
            date_text(&self.date()),
            clock_text(&self.time())
        )
    }
    fn seconds(&self, later: &Self) -> i64 {
        (*later - *self).whole_seconds()
    }
}

impl Temporal for Time {
    const SHAPE: Shape = Shape::TimeOfDay;
    fn parse(s: &str) -> Option<Self> {
        time(s).map(|(t, _)| t)
    }
    fn text(&self) -> String {
        clock_text(self)
    }
    fn seconds(&self, later: &Self) -> i64 {
        (*later - *self).whole_seconds()
    }
}

temporal_arg!(Date, OffsetDateTime, Time);

#[cfg(test)]
mod tests {
    use super::super::read;
    use super::*;
    use crate::args::rules::{Ordered, SpanUnit};

    #[test]
    fn time_values_are_read_strictly() {
        assert!(read::<Date>("2024-2-1").is_none());
        assert!(read::<Date>("2023-02-29").is_none());
        assert_eq!(
            read::<Date>("2024-02-29").map(|d| d.text()).as_deref(),
            Some("2024-02-29")
        );
        assert!(read::<OffsetDateTime>("2024-01-05T10:00:00").is_none());
        let a = read::<OffsetDateTime>("2024-01-05T10:00:00+02:00").expect("an instant");
        assert_eq!(a.text(), "2024-01-05T10:00:00+02:00");
        let b = read::<OffsetDateTime>("2024-01-06T08:30:00Z").expect("an instant");
        assert_eq!(a.distance(&b, SpanUnit::Hours), Some(24.5));
        assert_eq!(b.text(), "2024-01-06T08:30:00Z");
        assert!(read::<Time>("09:30:00Z").is_none());
        let t = read::<Time>("09:30:00.125").expect("a time of day");
        assert_eq!(t.text(), "09:30:00.125");
    }
}
