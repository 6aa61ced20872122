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

#[doc = include_str!("c1-doc-given-by-a-macro.txt")]
#[tool_contract(effect = read_only)]
pub fn look(
    #[doc = concat!("The thing ", "to look at.")]
    thing: String,
) -> Result<Done, Oops> {
    let _ = thing;
    Ok(Done { ok: true })
}

/// The arguments of a search.
#[derive(ToolArgs)]
pub struct Search {
    #[doc = concat!("Text ", "to search for.")]
    pub query: String,
}

fn main() {}
