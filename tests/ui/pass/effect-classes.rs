//! One tool per effect class, each with the fewest attributes its class allows.
use contract_runtime::prelude::*;
use serde::Serialize;

/// What the tool did.
#[derive(Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why a tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// The note does not exist.
    #[failure(code = "no-such-note", field = "note", repair = "call list_notes to find its name")]
    NoSuchNote,
}

/// Show one note.
#[tool_contract(effect = read_only)]
pub fn show_note(
    /// The note, by name.
    note: String,
) -> Result<Done, Oops> {
    let _ = note;
    Ok(Done { ok: true })
}

/// Pin one note to the top of the list; unpinning undoes it.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn pin_note(
    /// The note, by name.
    note: String,
) -> Result<Done, Oops> {
    let _ = note;
    Ok(Done { ok: true })
}

/// Share one note with the public, visible to anyone with the link.
#[tool_contract(effect = external, idempotency = none, approval = never)]
pub fn share_note(
    /// The note, by name.
    note: String,
) -> Result<Done, Oops> {
    let _ = note;
    Ok(Done { ok: true })
}

/// Delete one note for good.
#[tool_contract(effect = destructive, idempotency = natural, approval = always)]
pub fn delete_note(
    /// The note, by name.
    note: String,
) -> Result<Done, Oops> {
    let _ = note;
    Err(Oops::NoSuchNote)
}

fn main() {
    let registry = Registry::builder()
        .tool(show_note::contract())
        .tool(pin_note::contract())
        .tool(share_note::contract())
        .tool(delete_note::contract())
        .build()
        .expect("a valid registry");
    assert_eq!(registry.names().count(), 4);
}
