use std::cell::Cell;

use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// A counter that is not thread-safe.
pub struct Counter(pub Cell<u32>);

/// Counts calls.
#[tool_contract(effect = read_only, state(Counter))]
pub fn count(counter: &Counter) -> Result<u32, Oops> {
    Ok(counter.0.get())
}

fn main() {}
