//! Prose and declaration that disagree (rule C12), each at its check's
//! measured level for the recognizer that read the prose: the bounds
//! (`bounds`, read by `comparative` and `span`) and the alternatives a
//! pattern has more of (`set-narrower`) stop the build; the country code's
//! size (`bounds` too, but read by `sized-noun`, which no labelled text has
//! measured within it) and the day's format (`format`, at the audit level) do
//! not: they are audit findings.
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
    /// Results per page, between 1 and 50.
    #[arg(range(min = 1, max = 100))]
    per_page: u32,
    /// The 2-character country code.
    #[arg(length(min = 3, max = 3))]
    country: String,
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
    let _ = (limit, per_page, country, query, filed, form);
    Ok(Done { ok: true })
}

fn main() {}
