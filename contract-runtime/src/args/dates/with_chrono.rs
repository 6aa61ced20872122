//! `chrono`: `NaiveDate`, `DateTime<Utc>`, `DateTime<FixedOffset>` and `NaiveTime`.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, Utc};

use super::{temporal_arg, Shape, Temporal};

impl Temporal for NaiveDate {
    const SHAPE: Shape = Shape::Date;
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

impl Temporal for DateTime<FixedOffset> {
    const SHAPE: Shape = Shape::DateTime;
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

impl Temporal for DateTime<Utc> {
    const SHAPE: Shape = Shape::DateTime;
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

impl Temporal for NaiveTime {
    const SHAPE: Shape = Shape::TimeOfDay;
    fn parse(s: &str) -> Option<Self> {
        let (h, m, sec, nanos, _) = super::time_of_day(s)?;
        NaiveTime::from_hms_nano_opt(h.into(), m.into(), sec.into(), nanos)
    }
    fn text(&self) -> String {
        use chrono::Timelike;
        super::time_text(
            self.hour() as u8,
            self.minute() as u8,
            self.second() as u8,
            self.nanosecond(),
        )
    }
    fn seconds(&self, later: &Self) -> i64 {
        later.signed_duration_since(*self).num_seconds()
    }
}

temporal_arg!(NaiveDate, DateTime<Utc>, DateTime<FixedOffset>, NaiveTime);

#[cfg(test)]
mod tests {
    use super::super::read;
    use super::*;
    use crate::args::rules::{Ordered, SpanUnit};

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

    #[test]
    fn a_naive_time_is_a_time_of_day_without_an_offset() {
        let t = read::<NaiveTime>("09:30:00.25").expect("a time of day");
        assert_eq!(t.text(), "09:30:00.25");
        assert!(read::<NaiveTime>("09:30:00Z").is_none());
        assert!(read::<NaiveTime>("9:30:00").is_none());
        let u = read::<NaiveTime>("10:00:30").expect("a time of day");
        // Whole seconds: 30 minutes and 29.75 seconds count as 1829.
        assert_eq!(t.distance(&u, SpanUnit::Seconds), Some(1829.0));
    }
}
