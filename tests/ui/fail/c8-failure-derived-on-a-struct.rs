use contract_runtime::prelude::*;

/// What the search found.
#[derive(serde::Serialize, JsonSchema)]
pub struct Found {
    /// How many notes matched.
    pub count: u32,
}

/// Why a search failed: one case, written as a struct. The derive says so,
/// once; the tool returning it adds no "not a typed tool failure" errors.
#[derive(Debug, ToolFailure)]
#[failure(code = "search-failed")]
pub struct SearchFailed;

/// Search the notes.
#[tool_contract(effect = read_only)]
pub fn search(
    /// Text to search for.
    #[arg(length(min = 1, max = 200))]
    query: String,
) -> Result<Found, SearchFailed> {
    let _ = query;
    Ok(Found { count: 0 })
}

fn main() {}
