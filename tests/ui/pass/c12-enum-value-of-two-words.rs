//! A declared value the description names as a word of its own, outside
//! the list the reader read, is no value the list lacks (rule C12's
//! `set-narrower`), whatever characters the value holds: the compile-time
//! check reads the description as the audit does (`office supplies`, two
//! words; `us/eu`, a slash).
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

/// What an expense was for.
#[derive(ToolArgs)]
pub enum Category {
    /// Flights, trains, hotels.
    #[serde(rename = "travel")]
    Travel,
    /// Food and drink.
    #[serde(rename = "meals")]
    Meals,
    /// Anything bought for the office.
    #[serde(rename = "office supplies")]
    OfficeSupplies,
}

/// Where the data lives.
#[derive(ToolArgs)]
pub enum Region {
    #[serde(rename = "us")]
    Us,
    #[serde(rename = "eu")]
    Eu,
    #[serde(rename = "us/eu")]
    Both,
}

/// Count the expenses of one category.
#[tool_contract(effect = read_only)]
pub fn count_expenses(
    /// The category, either `travel` or `meals`. Use office supplies for
    /// anything bought for the office.
    category: Category,
    /// The region, either `us` or `eu`; us/eu keeps a copy in both.
    region: Region,
) -> Result<Done, Oops> {
    let _ = (category, region);
    Ok(Done { ok: true })
}

fn main() {}
