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

/// Attach a file of the repository to an event.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn attach(
    /// The path of the file to attach, relative to the repository.
    file_name: String,
) -> Result<Done, Oops> {
    let _ = file_name;
    Ok(Done { ok: true })
}

fn main() {}
