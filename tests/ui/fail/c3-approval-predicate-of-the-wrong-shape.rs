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

/// Delete one note for good.
#[tool_contract(effect = destructive, idempotency = natural, approval = when(is_shared))]
pub fn delete_note(
    /// The note's name.
    #[arg(length(min = 1, max = 64))]
    name: String,
) -> Result<Done, Oops> {
    let _ = name;
    Ok(Done { ok: true })
}

/// The predicate takes the call's context too, and says why (or `None`).
fn is_shared(args: &DeleteNoteArgs) -> bool {
    args.name.starts_with("shared-")
}

fn main() {}
