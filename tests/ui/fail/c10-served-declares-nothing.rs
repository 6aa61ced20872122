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

/// List a company's filings for one year.
#[tool_contract(effect = read_only)]
pub fn list_filings(
    /// Fiscal year.
    #[arg(served())]
    year: u16,
    /// Fiscal quarter.
    #[arg(served(range()))]
    quarter: u8,
    /// How many filings to list.
    #[arg(served(length(max = 5)))]
    limit: u32,
) -> Result<Done, Oops> {
    let _ = (year, quarter, limit);
    Ok(Done { ok: true })
}

fn main() {}
