use contract_runtime::prelude::*;

/// What the tool did.
#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why the tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It did not.
    #[failure(code = "oops")]
    Oops,
}

/// What to search for.
pub struct SearchArgs {
    /// The words to look for.
    pub query: String,
}

/// Search the notes.
#[tool_contract(effect = read_only)]
pub fn search(args: SearchArgs) -> Result<Done, Oops> {
    let _ = args.query;
    Ok(Done { ok: true })
}

fn main() {}
