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

/// Look a user up by their handle.
#[tool_contract(effect = read_only)]
pub fn find_user(
    /// The handle the user chose.
    #[arg(pattern = "^[a-zA-Z0-9_-.]{1,32}$")]
    handle: String,
) -> Result<Done, Oops> {
    let _ = handle;
    Ok(Done { ok: true })
}

fn main() {}
