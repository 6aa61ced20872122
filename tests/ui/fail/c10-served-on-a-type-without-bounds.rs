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

/// Search the notes.
#[tool_contract(effect = read_only)]
pub fn search_notes(
    /// Text to search for.
    #[arg(served(range(max = 200)))]
    query: String,
    /// Whether to search the archive too.
    #[arg(served(range(min = 1)))]
    archive: bool,
) -> Result<Done, Oops> {
    let _ = (query, archive);
    Ok(Done { ok: true })
}

fn main() {}
