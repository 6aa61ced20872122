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

/// List recent notes.
#[tool_contract(effect = read_only)]
pub fn recent_notes(
    /// How many notes to return.
    #[arg(length(max = 50))]
    limit: u32,
) -> Result<Done, Oops> {
    let _ = limit;
    Ok(Done { ok: true })
}

fn main() {}
