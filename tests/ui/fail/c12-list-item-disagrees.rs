//! A tool's description written as a markdown list with no period at the
//! end of its items: the item about `limit` contradicts its declaration and
//! stops the build as a sentence ending with a period does (it was once
//! read with the next item as one sentence naming two arguments, and the
//! contradiction was missed).
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

/// Run a query.
/// - `limit`: at most 50 results
/// - `mode`: `fast` or `slow`
#[tool_contract(effect = read_only)]
pub fn query(
    /// Maximum number of results.
    #[arg(range(min = 1, max = 500))]
    limit: u32,
    /// Query mode.
    #[arg(pattern = "^(fast|slow)$")]
    mode: String,
) -> Result<Done, Oops> {
    let _ = (limit, mode);
    Ok(Done { ok: true })
}

fn main() {}
