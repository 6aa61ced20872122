//! `#[tool_contract(prose = "why")]` takes the tool's description out of C12,
//! for inline parameters and for an argument struct; the arguments' own doc
//! comments are still read.
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

/// The days to list.
#[derive(ToolArgs)]
pub struct Span {
    /// The first day, included.
    #[arg(format = "date")]
    pub start: String,
    /// The last day, included.
    #[arg(format = "date")]
    pub end: String,
}

/// List the events between two days. The range may span at most 31 days.
#[tool_contract(effect = read_only, prose = "the calendar service refuses longer spans itself")]
pub fn list_events(args: Span) -> Result<Done, Oops> {
    let _ = args;
    Ok(Done { ok: true })
}

/// List the events of a calendar between two days. The range may span at most 31 days.
#[tool_contract(effect = read_only, prose = "the calendar service refuses longer spans itself")]
pub fn list_calendar_events(
    /// The first day, included.
    #[arg(format = "date")]
    start: String,
    /// The last day, included.
    #[arg(format = "date")]
    end: String,
    /// The calendar to read, at most 64 characters.
    #[arg(length(max = 64))]
    calendar: String,
) -> Result<Done, Oops> {
    let _ = (start, end, calendar);
    Ok(Done { ok: true })
}

fn main() {}
