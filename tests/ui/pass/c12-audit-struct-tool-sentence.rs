//! Rule C12, third edition: what this file states only in prose is an audit
//! finding (`Registry::audit()`), not a compile error: no recognizer is at the
//! error level (docs/rule-c12.md). It was the compile-fail case `c12-struct-tool-sentence`.
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

/// The days to list.
#[derive(ToolArgs)]
pub struct Span {
    /// The first day, included.
    #[arg(format = "date")]
    pub start: String,
    /// The last day, included.
    #[arg(format = "date")]
    pub end: String,
}

/// List the events between two days. The range may span at most 31 days.
#[tool_contract(effect = read_only)]
pub fn list_events(args: Span) -> Result<Done, Oops> {
    let _ = args;
    Ok(Done { ok: true })
}

fn main() {}
