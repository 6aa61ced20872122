//! Rule C12, third edition: what this file states only in prose is an audit
//! finding (`Registry::audit()`), not a compile error: no recognizer is at the
//! error level (docs/rule-c12.md). It was the compile-fail case `c12-prose-only-closed-set`.
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

/// Export a report.
#[tool_contract(effect = read_only)]
pub fn export_report(
    /// The file format, either `json` or `csv`.
    output: String,
) -> Result<Done, Oops> {
    let _ = output;
    Ok(Done { ok: true })
}

fn main() {}
