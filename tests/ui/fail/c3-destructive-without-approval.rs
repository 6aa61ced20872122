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

/// Delete one note for good.
#[tool_contract(effect = destructive, idempotency = natural)]
pub fn delete_note(
    /// The note to delete, by name.
    note: String,
) -> Result<Done, Oops> {
    let _ = note;
    Ok(Done { ok: true })
}

fn main() {}
