//! Prose that states the declared constraints in its own words compiles.
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

/// How to order the filings.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Oldest first.
    Asc,
    /// Newest first.
    Desc,
}

/// Search the filings of one company. Returns at most 100 filings.
#[tool_contract(effect = read_only)]
pub fn search_filings(
    /// How many filings to return, between 1 and 100.
    #[arg(range(min = 1, max = 100))]
    limit: u32,
    /// The year, at least 2001 and at most 2026.
    #[arg(range(min = 2001, max = 2026))]
    year: u16,
    /// Words to search for, fewer than 201 characters.
    #[arg(length(max = 200))]
    query: String,
    /// The day filed, as YYYY-MM-DD.
    #[arg(format = "date")]
    filed: Option<String>,
    /// The form, either `10-K` or `10-Q`.
    #[arg(pattern = "^(10-K|10-Q)$")]
    form: Option<String>,
    /// Labels, each at most 32 characters.
    #[arg(each(length(min = 1, max = 32)))]
    labels: Vec<String>,
    /// A positive weight.
    #[arg(range(exclusive_min = 0))]
    weight: f64,
    /// The order, `DESC` or `ASC` (the enum's values, in other case and order).
    order: Order,
    /// Orders to try in turn, each one of `asc`, `desc`.
    fallbacks: Option<Vec<Order>>,
) -> Result<Done, Oops> {
    let _ = (limit, year, query, filed, form, labels, weight, order, fallbacks);
    Ok(Done { ok: true })
}

fn main() {}
