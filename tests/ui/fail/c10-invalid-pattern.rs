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

/// List the filings of a company.
#[tool_contract(effect = read_only)]
pub fn list_filings(
    /// Ticker symbol of the company.
    #[arg(pattern = "^[A-Z{1,5}$")]
    company: String,
) -> Result<Done, Oops> {
    let _ = company;
    Ok(Done { ok: true })
}

fn main() {}
