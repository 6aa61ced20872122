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
    /// Fiscal year; the index serves 2001 to 2026.
    #[arg(served(range(min = 2001, max = 2026)))]
    year: u16,
    /// How many filings to list; at most 100 are served.
    #[arg(range(min = 1), served(range(max = 100)))]
    limit: u32,
    /// Filed on or after this date.
    #[arg(served(range(min = "2001-01-01")))]
    from: Option<chrono::NaiveDate>,
    /// Quarters to list, each 1 to 4; served for fiscal quarters only.
    #[arg(each(range(min = 1), served(range(max = 4))))]
    quarters: Vec<u8>,
    /// Price floor; the feed serves prices above 0.
    #[arg(served(range(exclusive_min = 0.0)))]
    floor: Option<f64>,
) -> Result<Done, Oops> {
    let _ = (year, limit, from, quarters, floor);
    Ok(Done { ok: true })
}

fn main() {}
