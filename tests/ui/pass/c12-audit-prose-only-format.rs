//! Rule C12, third edition: what this file states only in prose is an audit
//! finding (`Registry::audit()`), not a compile error: no recognizer is at the
//! error level (docs/rule-c12.md). It was the compile-fail case `c12-prose-only-format`.
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

/// Show the agenda of one day.
#[tool_contract(effect = read_only)]
pub fn agenda(
    /// The day, as YYYY-MM-DD.
    day: String,
) -> Result<Done, Oops> {
    let _ = day;
    Ok(Done { ok: true })
}

fn main() {}
