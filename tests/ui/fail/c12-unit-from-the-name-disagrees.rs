//! A bound in another unit than the one the argument's name counts in is
//! converted before it is compared and before the help is written: "at most
//! 1 hour" over `range(max = 7200)` on `timeout_seconds` asks for 3600 (it
//! once asked for 1), "at most 2 hours" over `range(max = 3600)` finds the
//! declaration the stricter (it once said the prose was), and the help once
//! followed, `range(max = 1)`, no longer compiles silently. A plain "between
//! 0 and 1" over an exclusive range states both ends, which the declaration
//! refuses: the prose is to say so.
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

/// Wait for a job.
#[tool_contract(effect = read_only)]
pub fn wait_for_job(
    /// Timeout, at most 1 hour.
    #[arg(range(max = 7200))]
    timeout_seconds: u32,
    /// Grace period, at most 2 hours.
    #[arg(range(max = 3600))]
    grace_seconds: u32,
    /// Timeout, at most 1 hour.
    #[arg(range(max = 1))]
    idle_seconds: u32,
    /// How long to wait between polls; up to 30 seconds.
    #[arg(range(min = 0, max = 60000))]
    wait_ms: u32,
    /// The share of the job done, between 0 and 1.
    #[arg(range(exclusive_min = 0.0, exclusive_max = 1.0))]
    done: f64,
) -> Result<Done, Oops> {
    let _ = (timeout_seconds, grace_seconds, idle_seconds, wait_ms, done);
    Ok(Done { ok: true })
}

fn main() {}
