//! Dates, date-times and times of day of `chrono`, `jiff` and `time` as
//! arguments (features `chrono`, `jiff`, `time`): the schema each publishes,
//! strict parsing, `range` bounds and rules across arguments, and the date
//! bound in every dialect (kept in the canonical schema, stated in words
//! and reported elsewhere).

use contract_runtime::decode::{decode_args, DecodeError, Limits};
use contract_runtime::dialect::{export, Dialect, ExportOptions};
use contract_runtime::envelope::ErrorEntry;
use contract_runtime::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

/// A shift booked on each of the date crates' types.
#[derive(ToolArgs, Debug)]
#[args(rules(le(starts, ends), max_span(opens, closes, 12 hours)))]
pub struct Shift {
    /// The day of the shift (chrono).
    #[arg(range(min = "2001-01-01", max = "2030-12-31"))]
    pub day: chrono::NaiveDate,
    /// When the doors open (chrono).
    #[arg(range(min = "06:00:00"))]
    pub opens: chrono::NaiveTime,
    /// When the doors close (chrono).
    #[arg(range(max = "23:00:00"))]
    pub closes: chrono::NaiveTime,
    /// The day it was booked (jiff).
    #[arg(range(min = "2001-01-01"))]
    pub booked: Option<jiff::civil::Date>,
    /// The instant it starts (jiff).
    pub starts: jiff::Timestamp,
    /// The instant it ends (jiff).
    pub ends: jiff::Timestamp,
    /// The break's start (jiff).
    pub pause: Option<jiff::civil::Time>,
    /// The pay day (time).
    #[arg(range(max = "2030-12-31"))]
    pub paid: Option<time::Date>,
    /// When it was approved (time).
    #[arg(range(min = "2001-01-01T00:00:00Z"))]
    pub approved: Option<time::OffsetDateTime>,
    /// The hand-over (time).
    pub handover: Option<time::Time>,
}

fn decode(v: &Value) -> Result<Shift, Vec<ErrorEntry>> {
    decode_args::<Shift>(&v.to_string(), &Limits::default()).map_err(DecodeError::into_errors)
}

fn base() -> Value {
    json!({
        "day": "2024-02-29", "opens": "08:00:00", "closes": "17:30:00.5",
        "starts": "2024-02-29T08:00:00+01:00", "ends": "2024-02-29T17:00:00Z"
    })
}

fn with(k: &str, v: Value) -> Value {
    let mut b = base();
    b[k] = v;
    b
}

/// (pointer, keyword, limit) of every error.
fn errors(v: Value) -> Vec<(String, String, Value)> {
    decode(&v)
        .err()
        .unwrap_or_else(|| panic!("{v} is refused"))
        .into_iter()
        .map(|e| {
            let c = e.constraint.expect("a constraint");
            (
                e.field.unwrap_or_default(),
                c.keyword,
                c.limit.unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn each_type_publishes_its_format_or_the_time_of_day_pattern() {
    let s = Shift::input_schema();
    let p = &s["properties"];
    let pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?$";
    assert_eq!(
        p["day"],
        json!({"description": "The day of the shift (chrono).", "type": "string", "format": "date",
               "formatMinimum": "2001-01-01", "formatMaximum": "2030-12-31"})
    );
    assert_eq!(
        p["opens"],
        json!({"description": "When the doors open (chrono).", "type": "string", "pattern": pattern,
               "formatMinimum": "06:00:00"})
    );
    assert_eq!(p["booked"]["format"], "date");
    assert_eq!(p["starts"]["format"], "date-time");
    assert_eq!(p["pause"]["pattern"], pattern);
    assert_eq!(p["paid"]["format"], "date");
    assert_eq!(p["approved"]["format"], "date-time");
    assert_eq!(p["handover"]["pattern"], pattern);
    assert!(p["handover"].get("format").is_none());
}

#[test]
fn every_type_decodes_on_both_paths() {
    let full = json!({
        "day": "2024-02-29", "opens": "08:00:00", "closes": "17:30:00.5",
        "booked": "2024-01-02", "starts": "2024-02-29T08:00:00+01:00", "ends": "2024-02-29T17:00:00Z",
        "pause": "12:15:00", "paid": "2024-03-31", "approved": "2024-01-03T09:00:00-05:00", "handover": "16:45:30"
    });
    let a = decode(&full).expect("accepted");
    assert_eq!(
        a.booked.map(|d| d.to_string()).as_deref(),
        Some("2024-01-02")
    );
    assert_eq!(a.starts.to_string(), "2024-02-29T07:00:00Z");
    assert_eq!(a.paid.map(|d| d.day()), Some(31));
    assert_eq!(a.approved.map(|d| d.offset().whole_hours()), Some(-5));
    assert_eq!(a.handover.map(|t| t.second()), Some(30));
    // The slow path (a key the fast path refuses sends it there) reads the same.
    let mut slow = full.clone();
    slow["zzz"] = json!(1);
    let e = errors(slow);
    assert_eq!(
        e,
        vec![("/zzz".into(), "additionalProperties".into(), json!(false))]
    );
}

#[test]
fn malformed_values_name_the_format_or_the_pattern() {
    assert_eq!(errors(with("booked", json!("2024-2-1")))[0].1, "format");
    assert_eq!(
        errors(with("paid", json!("2023-02-29")))[0],
        ("/paid".into(), "format".into(), json!("date"))
    );
    assert_eq!(
        errors(with("approved", json!("2024-01-03T09:00:00")))[0].1,
        "format"
    );
    assert_eq!(
        errors(with("starts", json!("2024-01-03 09:00:00Z")))[0].1,
        "format"
    );
    let e = decode(&with("handover", json!("16:45:30Z"))).unwrap_err();
    assert_eq!(e[0].field.as_deref(), Some("/handover"));
    assert_eq!(e[0].constraint.as_ref().unwrap().keyword, "pattern");
    assert_eq!(
        e[0].message,
        "`/handover` is not a valid time of day (HH:MM:SS, without an offset)"
    );
    assert_eq!(
        e[0].repair.as_ref().unwrap().hint,
        "send a time of day such as 09:30:00"
    );
    assert_eq!(errors(with("pause", json!("24:00:00")))[0].1, "pattern");
    // Well formed, but past the last instant jiff holds.
    let e = decode(&with("ends", json!("9999-12-31T23:59:59Z"))).unwrap_err();
    assert_eq!(
        e[0].message,
        "`/ends` is a date-time outside the range this argument can hold"
    );
    // Finer than a nanosecond is cut; a leap second is read (time: as the
    // minute's last nanosecond).
    let a = decode(&with("approved", json!("2016-12-31T23:59:60.5Z"))).expect("a leap second");
    assert_eq!(a.approved.map(|d| d.second()), Some(59));
    let a = decode(&with("ends", json!("2024-02-29T17:00:00.1234567891Z"))).expect("accepted");
    assert_eq!(a.ends.to_string(), "2024-02-29T17:00:00.123456789Z");
}

#[test]
fn bounds_hold_on_every_crate() {
    assert_eq!(
        errors(with("day", json!("2031-01-01"))),
        vec![("/day".into(), "formatMaximum".into(), json!("2030-12-31"))]
    );
    assert_eq!(
        errors(with("opens", json!("05:59:59"))),
        vec![("/opens".into(), "formatMinimum".into(), json!("06:00:00"))]
    );
    assert_eq!(
        errors(with("booked", json!("2000-12-31")))[0].1,
        "formatMinimum"
    );
    assert_eq!(
        errors(with("paid", json!("2031-01-01")))[0].1,
        "formatMaximum"
    );
    let e = decode(&with("approved", json!("2000-12-31T23:00:00-02:00"))).err();
    assert!(
        e.is_none(),
        "2001-01-01T01:00:00Z is no earlier than the bound"
    );
    let e = decode(&with("approved", json!("2000-12-31T23:00:00+02:00"))).unwrap_err();
    assert_eq!(
        e[0].repair.as_ref().unwrap().hint,
        "send a date-time no earlier than 2001-01-01T00:00:00Z"
    );
}

#[test]
fn rules_compare_and_measure_jiff_and_chrono_values() {
    let e = errors(with("ends", json!("2024-02-29T06:00:00Z")));
    assert_eq!(e.len(), 2);
    assert_eq!((e[0].0.as_str(), e[0].1.as_str()), ("/starts", "le"));
    let e = errors(with("closes", json!("22:00:01")));
    assert_eq!(e[0].1, "max_span");
    assert_eq!(e[0].2, json!(12));
}

#[derive(Serialize, JsonSchema)]
struct Booked {
    ok: bool,
}

/// Book a shift.
#[tool_contract(effect = reversible, idempotency = natural, authority = "shifts:write")]
fn book_shift(args: Shift) -> Result<Booked, std::convert::Infallible> {
    let _ = args;
    Ok(Booked { ok: true })
}

#[test]
fn a_date_bound_is_a_loss_in_every_dialect_but_the_canonical_one() {
    let registry = Registry::builder()
        .tool(book_shift::contract())
        .build()
        .expect("a registry");
    let defs = registry.canonical();
    for &d in Dialect::ALL {
        let out =
            export(&defs, d, &ExportOptions::default()).unwrap_or_else(|e| panic!("{d}: {e}"));
        let bounds: Vec<&str> = out
            .losses
            .iter()
            .filter(|l| l.keyword.starts_with("formatM"))
            .map(|l| l.pointer.as_str())
            .collect();
        let text = out.tools[0].to_string();
        if d == Dialect::Canonical {
            assert!(bounds.is_empty());
            assert!(text.contains(r#""formatMaximum":"2030-12-31""#));
            continue;
        }
        assert_eq!(
            bounds,
            [
                "/properties/day/formatMinimum",
                "/properties/day/formatMaximum",
                "/properties/opens/formatMinimum",
                "/properties/closes/formatMaximum",
                "/properties/booked/formatMinimum",
                "/properties/paid/formatMaximum",
                "/properties/approved/formatMinimum",
            ],
            "{d}"
        );
        assert!(
            text.contains("The day of the shift (chrono). Must be no earlier than 2001-01-01 and no later than 2030-12-31."),
            "{d}: {text}"
        );
    }
}
