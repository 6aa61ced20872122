//! A bound the prose states in another unit than the one the argument's
//! name counts in (`timeout_seconds`, `wait_ms`) is converted into the
//! name's unit before it is compared: "at most 1 hour" is 3600 seconds,
//! "up to 30 seconds" 30000 milliseconds. And "strictly between 0 and 1",
//! "exclusively between", "between 0 and 1, exclusive" are the exclusive
//! range (once a false compile error asking the prose to say "more than 0
//! and less than 1").
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
    #[arg(range(max = 3600))]
    timeout_seconds: u32,
    /// How long to wait between polls; up to 30 seconds.
    #[arg(range(min = 0, max = 30000))]
    wait_ms: u32,
    /// The share of the job done, strictly between 0 and 1.
    #[arg(range(exclusive_min = 0.0, exclusive_max = 1.0))]
    done: f64,
    /// The share of retries, exclusively between 0 and 1.
    #[arg(range(exclusive_min = 0.0, exclusive_max = 1.0))]
    retries: f64,
    /// The share sampled, between 0 and 1, exclusive.
    #[arg(range(exclusive_min = 0.0, exclusive_max = 1.0))]
    sampled: f64,
) -> Result<Done, Oops> {
    let _ = (timeout_seconds, wait_ms, done, retries, sampled);
    Ok(Done { ok: true })
}

fn main() {}
