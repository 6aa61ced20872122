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
pub fn search(
    /// Text to search for.
    #[cfg_attr(all(), arg(length(min = 1, max = 200)))]
    query: String,
) -> Result<Done, Oops> {
    let _ = query;
    Ok(Done { ok: true })
}

fn main() {}
