//! A span of time stated in one unit and declared in another compiles when
//! the two are the same span: "up to one week (10080 minutes)" over
//! `range(max = 10080)` (a new user's correct doc comment that was once a
//! compile error whose help asked for `range(max = 1)`).
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
) -> Result<Done, Oops> {
    let _ = (minutes_before, keep_seconds);
    Ok(Done { ok: true })
}

fn main() {}
