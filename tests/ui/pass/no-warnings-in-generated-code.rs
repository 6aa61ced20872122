//! The code a contract generates gives no warning in the user's crate, so a
//! `-D warnings` build holds: an argument named with a leading underscore
//! (`_query`, not used yet) included, and an inline argument named as the
//! model sends it (`startDate`), allowed on the function.
#![deny(warnings)]

use contract_runtime::prelude::*;
use serde::Serialize;

/// What the search found.
#[derive(Serialize, JsonSchema)]
pub struct Found {
    /// How many notes matched.
    pub count: u32,
}

/// Why the search failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// The index is down.
    #[failure(code = "index-down", transient)]
    IndexDown,
}

/// Search the notes (the query is not used yet).
#[tool_contract(effect = read_only)]
pub fn search(
    /// Text to search for.
    #[arg(length(min = 1, max = 200))]
    _query: String,
    /// How many to return.
    #[arg(range(min = 1, max = 50))]
    limit: u32,
) -> Result<Found, Oops> {
    Ok(Found { count: limit.min(0) })
}

/// Arguments of a tool declared as a struct, one field with an underscore.
#[derive(ToolArgs)]
pub struct TagArgs {
    /// The tag.
    #[arg(pattern = "^[a-z]+$")]
    pub _tag: String,
}

/// Tag nothing yet.
#[tool_contract(effect = read_only)]
pub fn tag(args: TagArgs) -> Result<Found, Oops> {
    let _ = args._tag;
    Ok(Found { count: 0 })
}

/// List the notes written since a day.
#[tool_contract(effect = read_only)]
#[allow(non_snake_case)]
pub fn since(
    /// The first day, as `2024-01-31`.
    #[arg(format = "date")]
    startDate: String,
) -> Result<Found, Oops> {
    let _ = startDate;
    Ok(Found { count: 0 })
}

fn main() {
    let _ = (search::contract(), tag::contract(), since::contract());
}
