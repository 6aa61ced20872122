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

/// How to sort.
#[derive(ToolArgs, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    NewestFirst,
    #[serde(alias = "oldest")]
    OldestFirst,
}

/// List the notes.
#[tool_contract(effect = read_only)]
pub fn list_notes(
    /// The order.
    order: Order,
) -> Result<Done, Oops> {
    let _ = order;
    Ok(Done { ok: true })
}

fn main() {}
