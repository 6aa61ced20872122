use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Search the notes for a phrase.
#[tool_contract(
    effect = read_only,
    examples({querry: "kv cache"}, {query: "rust", limit: 3, limit: 4})
)]
pub fn search(
    /// The phrase to look for.
    query: String,
    /// The most results to return.
    limit: Option<u32>,
) -> Result<Vec<String>, Oops> {
    let _ = limit;
    Ok(vec![query])
}

/// Ping.
#[tool_contract(effect = read_only, examples())]
pub fn ping() -> Result<u32, Oops> {
    Ok(1)
}

fn main() {}
