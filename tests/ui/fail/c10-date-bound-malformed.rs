use contract_runtime::prelude::*;

/// Which filings to list.
#[derive(ToolArgs)]
pub struct Filings {
    /// First filing date.
    #[arg(range(min = "2001-1-1"))]
    pub from: chrono::NaiveDate,
    /// Last filing date.
    #[arg(range(max = 2026))]
    pub to: chrono::NaiveDate,
    /// Fiscal year.
    #[arg(range(min = "2001"))]
    pub year: u16,
}

fn main() {}
