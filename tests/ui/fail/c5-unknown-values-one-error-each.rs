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

/// Rename a note.
#[tool_contract(effect = reversible, idempotency = natual, approval = sometimes)]
pub fn rename_note(
    /// The note to rename.
    note: String,
    /// Its new name.
    new_name: String,
) -> Result<Done, Oops> {
    let _ = (note, new_name);
    Ok(Done { ok: true })
}

fn main() {}
