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

/// List the events of a calendar between two days. The range may span at most 31 days.
#[tool_contract(effect = read_only)]
pub fn list_events(
    /// The first day, included.
    #[arg(format = "date")]
    start: String,
    /// The last day, included.
    #[arg(format = "date")]
    end: String,
    /// The calendar to read.
    calendar: String,
) -> Result<Done, Oops> {
    let _ = (start, end, calendar);
    Ok(Done { ok: true })
}

/// List the messages of a channel. The `limit` is at most 200.
#[tool_contract(effect = read_only)]
pub fn list_messages(
    /// The channel to read.
    channel: String,
    /// How many messages to return.
    #[arg(range(max = 1000))]
    limit: u32,
) -> Result<Done, Oops> {
    let _ = (channel, limit);
    Ok(Done { ok: true })
}

fn main() {}
