//! A tool whose function is named with a raw identifier (`fn r#move`, a
//! keyword) is the tool `move`: the macro does not trip on the `r#`.
use contract_runtime::prelude::*;
use serde::Serialize;

/// What the tool did.
#[derive(Serialize, JsonSchema)]
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

/// Move a card to another column of the board.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn r#move(
    /// The card.
    card: u32,
    /// The column it goes to.
    column: u32,
) -> Result<Done, Oops> {
    let _ = (card, column);
    Ok(Done { ok: true })
}

/// Tell what kind of card it is: a keyword-named function with another tool name.
#[tool_contract(effect = read_only, name = "type_of")]
pub fn r#type(
    /// The card.
    card: u32,
) -> Result<Done, Oops> {
    let _ = card;
    Ok(Done { ok: true })
}

fn main() {
    let registry = contract_runtime::Registry::builder()
        .tool(r#move::contract())
        .tool(r#type::contract())
        .build()
        .expect("a registry");
    assert!(registry.get("move").is_some());
    assert!(registry.get("type_of").is_some());
}
