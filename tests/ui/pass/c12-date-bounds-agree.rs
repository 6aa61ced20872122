//! Bounds written as days agree with a date argument's declared days (rule
//! C12): the same day, or a date-time bound on that day, compiles.
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

/// Fetch the daily weather of one place.
#[tool_contract(effect = read_only)]
pub fn daily_weather(
    /// The first day. Minimum is 1950-01-01.
    #[arg(range(min = "1950-01-01"))]
    start: chrono::NaiveDate,
    /// The last day, from 1950-01-01 to 2050-12-31.
    #[arg(range(min = "1950-01-01", max = "2050-12-31"))]
    end: chrono::NaiveDate,
    /// The day of the archive. Earliest available date: 2001-01-01.
    #[arg(served(range(min = "2001-01-01")))]
    archived: Option<chrono::NaiveDate>,
    /// Observations since this instant. Minimum is 1950-01-01.
    #[arg(range(min = "1950-01-01T00:00:00Z"))]
    since: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<Done, Oops> {
    let _ = (start, end, archived, since);
    Ok(Done { ok: true })
}

fn main() {}
