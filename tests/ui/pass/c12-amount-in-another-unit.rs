//! A bound stated in one unit and declared in another compiles when the two
//! are the same amount: "up to one week (10080 minutes)" over `range(max =
//! 10080)`, "up to one year (365 days)", "at most 50 km" on metres (new
//! users' correct doc comments that were once compile errors whose help
//! asked for `range(max = 1)` and `range(max = 50)`).
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

/// Set a reminder before an event starts.
#[tool_contract(effect = read_only)]
pub fn set_reminder(
    /// How long before the start to remind, up to one week (10080 minutes).
    #[arg(range(max = 10080))]
    minutes_before: u32,
    /// How long to keep the reminder; at most 2 days.
    #[arg(range(max = 172800))]
    keep_seconds: u64,
    /// How many days to keep the reminder's history, up to one year (365 days).
    #[arg(range(min = 1, max = 365))]
    retention_days: u32,
    /// The radius in metres around the venue; at most 50 km.
    #[arg(range(min = 1, max = 50000))]
    radius_m: u32,
) -> Result<Done, Oops> {
    let _ = (minutes_before, keep_seconds, retention_days, radius_m);
    Ok(Done { ok: true })
}

fn main() {}
