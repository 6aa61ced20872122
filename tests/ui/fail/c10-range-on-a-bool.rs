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
    /// Whether to search archived notes too.
    #[arg(range(min = 1, max = 1))]
    archived: Option<bool>,
) -> Result<Done, Oops> {
    let _ = archived;
    Ok(Done { ok: true })
}

fn main() {}
