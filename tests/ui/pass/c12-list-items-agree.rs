//! A tool's description written as a markdown list with no period at the
//! end of its items: each item is a sentence of its own and belongs to the
//! argument it opens with, so items that say what the arguments declare
//! compile (they were once read as one sentence naming both arguments, its
//! names as a closed set).
use contract_runtime::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub ok: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// How to run the query.
#[derive(ToolArgs, Deserialize, Serialize, JsonSchema, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Fast,
    Slow,
}

/// Run a query.
/// - `limit`: at most 50 results
/// - `mode`: one of `fast`, `slow`
#[tool_contract(effect = read_only)]
pub fn query(
    /// Maximum number of results.
    #[arg(range(min = 1, max = 50))]
    limit: u32,
    /// Query mode.
    mode: Mode,
) -> Result<Done, Oops> {
    let _ = (limit, mode);
    Ok(Done { ok: true })
}

fn main() {}
