use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Search the notes for a phrase.
#[tool_contract(effect = read_only, examples({query: "kv cache", limit: 300}))]
pub fn search(
    /// The phrase to look for.
    query: String,
    /// The most results to return.
    limit: Option<u8>,
) -> Result<Vec<String>, Oops> {
    let _ = limit;
    Ok(vec![query])
}

fn main() {}
