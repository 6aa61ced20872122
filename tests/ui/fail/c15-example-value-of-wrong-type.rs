use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// The arguments of `search`.
#[derive(ToolArgs)]
pub struct SearchArgs {
    /// The phrase to look for.
    pub query: String,
    /// The most results to return.
    pub limit: Option<u8>,
    /// Tags the notes must have.
    pub tags: Vec<String>,
}

/// Search the notes for a phrase.
#[tool_contract(
    effect = read_only,
    examples(
        {query: 42, limit: 255, tags: "lang"},
        {query: None, limit: 2.5, tags: [1], colour: "red"}
    )
)]
pub fn search(args: SearchArgs) -> Result<Vec<String>, Oops> {
    let _ = (args.limit, args.tags);
    Ok(vec![args.query])
}

fn main() {}
