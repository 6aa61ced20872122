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

/// Read one file of the repository.
#[tool_contract(effect = read_only)]
pub fn read_file(
    /// The file, relative to the repository root.
    path: String,
) -> Result<Done, Oops> {
    let _ = path;
    Ok(Done { ok: true })
}

fn main() {}
