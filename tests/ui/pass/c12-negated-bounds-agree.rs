//! Negated comparatives ("must not be more than 100" is `max = 100`), bounds on
//! each number of a list, lower-case language codes and Unix timestamps
//! ("seconds since 1970") compile with the declarations they state.
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
    #[arg(range(max = 100))]
    limit: u32,
    /// The page size. Cannot be greater than 1000.
    #[arg(range(max = 1000))]
    page_size: u32,
    /// The offset. May not be less than 5.
    #[arg(range(min = 5))]
    offset: u32,
    /// The depth; should never be more than 8.
    #[arg(range(max = 8))]
    depth: u8,
    /// The weight; can't be larger than 20.
    #[arg(range(max = 20.0))]
    weight: f64,
    /// The title. Cannot be longer than 80 characters.
    #[arg(length(max = 80))]
    title: String,
    /// The code. Cannot be shorter than 3 characters.
    #[arg(length(min = 3))]
    code: String,
    /// Tags to add. Must not contain more than 5 items.
    #[arg(length(max = 5))]
    tags: Vec<String>,
    /// The retries; must not be above 10.
    #[arg(range(max = 10))]
    retries: u8,
    /// The year. Not greater than 2030, and must not exceed the current year.
    #[arg(range(max = 2030))]
    year: u16,
    /// A note. Cannot exceed 80 characters.
    #[arg(length(max = 80))]
    note: String,
    /// Scores, each from 1 to 10.
    #[arg(each(range(min = 1, max = 10)))]
    scores: Vec<u8>,
    /// Ratings; every rating must be between 1 and 5.
    #[arg(each(range(min = 1, max = 5)))]
    ratings: Vec<u32>,
    /// The two-letter language code of the text.
    #[arg(pattern = "^[a-z]{2}$")]
    lang: String,
    /// The two-letter language code of the answer, in either case.
    #[arg(pattern = "^[A-Za-z]{2}$")]
    answer_lang: String,
    /// The two-letter country code.
    #[arg(pattern = "^[A-Z]{2}$")]
    country: String,
    /// The time filed, in seconds since 1970.
    filed_at: i64,
    /// A Unix timestamp in milliseconds since the epoch.
    updated_ms: i64,
    /// Milliseconds since 1970-01-01.
    created_ms: i64,
) -> Result<Done, Oops> {
    let _ = (
        limit, page_size, offset, depth, weight, title, code, tags, retries, year, note,
    );
    let _ = (
        scores,
        ratings,
        lang,
        answer_lang,
        country,
        filed_at,
        updated_ms,
        created_ms,
    );
    Ok(Done { ok: true })
}

fn main() {}
