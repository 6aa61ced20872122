//! Rule C12: bounds written as days are compared with a date argument's
//! declared days, day by day. What disagrees here compiles and is an audit
//! finding (`Registry::audit()`): a contradiction of days (`date-bounds`) is
//! at the audit level (docs/rule-c12.md, the check table), and so is a day
//! stated in prose only (`archived`). Bounds that agree with a range declared
//! inside `served(..)` (`normals`) raise nothing. It was the compile-fail case
//! `c12-date-bounds-disagree`.
use contract_runtime::prelude::*;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub ok: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Fetch the daily weather of one place.
#[tool_contract(effect = read_only)]
pub fn daily_weather(
    /// The first day. Minimum is 1950-01-01.
    #[arg(range(min = "1940-01-01"))]
    start: chrono::NaiveDate,
    /// The last day, from 1950-01-01 to 2050-12-31.
    #[arg(range(min = "1950-01-01", max = "2030-12-31"))]
    end: chrono::NaiveDate,
    /// The day of the archive. Minimum is 2001-01-01.
    archived: Option<chrono::NaiveDate>,
    /// The year of the climate normals, from 1981 to 2026.
    #[arg(served(range(min = 1981, max = 2026)))]
    normals: Option<u16>,
) -> Result<Done, Oops> {
    let _ = (start, end, archived, normals);
    Ok(Done { ok: true })
}

fn main() {}
