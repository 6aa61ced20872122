//! A negated comparative over the declaration of its opposite: "must not be more
//! than 100" is `range(max = 100)`, so `range(min = 101)` disagrees.
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

/// Search the filings of one company.
#[tool_contract(effect = read_only)]
pub fn search_filings(
    /// How many filings to return. Must not be more than 100.
    #[arg(range(min = 101))]
    limit: u32,
) -> Result<Done, Oops> {
    let _ = limit;
    Ok(Done { ok: true })
}

fn main() {}
