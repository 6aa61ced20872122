//! A date or time argument type publishes its format, so prose that names
//! that format ("YYYY-MM-DD", "ISO 8601", "HH:MM", a date example) is not a
//! constraint stated only in prose (rule C12): the type enforces it.
use contract_runtime::prelude::*;
use serde::Serialize;

/// What the tool did.
#[derive(Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why the tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It did not.
    #[failure(code = "oops")]
    Oops,
}

/// List the bookings of a room over a period.
#[tool_contract(effect = read_only)]
pub fn list_bookings(
    /// The first day, YYYY-MM-DD, e.g. 2024-01-31.
    first: chrono::NaiveDate,
    /// The last day, as an ISO 8601 date.
    last: Option<jiff::civil::Date>,
    /// Only bookings made after this instant (RFC 3339).
    since: Option<chrono::DateTime<chrono::Utc>>,
    /// The earliest start time of day, HH:MM.
    opens: Option<time::Time>,
    /// Start date in ISO 8601 format. Minimum is 1950-01-01.
    #[arg(range(min = "1950-01-01"))]
    archive_from: Option<time::Date>,
) -> Result<Done, Oops> {
    let _ = (first, last, since, opens, archive_from);
    Ok(Done { ok: true })
}

fn main() {}
