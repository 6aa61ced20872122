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
    #[arg(range(min = 1900), served(range(min = 2001, max = 2026)))]
    year: u16,
    /// How many filings to list.
    #[arg(range(min = 10), served(range(max = 5)))]
    limit: u32,
    /// Filed on or after this date.
    #[arg(served(range(min = 2001)))]
    from: Option<chrono::NaiveDate>,
) -> Result<Done, Oops> {
    let _ = (year, limit, from);
    Ok(Done { ok: true })
}

fn main() {}
