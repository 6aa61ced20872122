//! Rule C12, third edition: what this file states only in prose is an audit
//! finding (`Registry::audit()`), not a compile error: no recognizer is at the
//! error level (docs/rule-c12.md). It was the compile-fail case `c12-negated-bounds-prose-only`.
//! Negated comparatives stated only in prose: the help declares the bound they
//! state ("must not be more than 100" is `range(max = 100)`), never its opposite.
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

/// Search the filings of one company.
#[tool_contract(effect = read_only)]
pub fn search_filings(
    /// How many filings to return. Must not be more than 100.
    limit: u32,
    /// The offset. May not be less than 5.
    offset: u32,
    /// The title. Cannot be longer than 80 characters.
    title: String,
    /// The code. Cannot be shorter than 3 characters.
    code: String,
    /// Tags to add. Must not contain more than 5 items.
    tags: Vec<String>,
) -> Result<Done, Oops> {
    let _ = (limit, offset, title, code, tags);
    Ok(Done { ok: true })
}

fn main() {}
