//! Prose and declaration that disagree on a bound, a served range, a length,
//! a format and a set of alternatives (rule C12): it compiles, since every
//! contradiction check is at the audit level (measured,
//! `docs/rule-c12.md#the-contradiction-checks`); `Registry::audit()` reports each.
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
    /// How many filings to return, at most 100.
    #[arg(range(min = 1, max = 500))]
    limit: u32,
    /// The year; records go back to 2001.
    #[arg(range(min = 1990, max = 2026))]
    year: u16,
    /// Words to search for, no longer than 200 characters.
    #[arg(length(max = 100))]
    query: String,
    /// The day filed, as YYYY-MM-DD.
    #[arg(format = "date-time")]
    filed: Option<String>,
    /// The form, either `10-K` or `10-Q`.
    #[arg(pattern = "^(10-K|10-Q|8-K)$")]
    form: Option<String>,
) -> Result<Done, Oops> {
    let _ = (limit, year, query, filed, form);
    Ok(Done { ok: true })
}

fn main() {}
