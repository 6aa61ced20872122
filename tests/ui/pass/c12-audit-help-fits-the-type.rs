//! Rule C12, third edition: what this file states only in prose is an audit
//! finding (`Registry::audit()`), not a compile error: no recognizer is at the
//! error level (docs/rule-c12.md). It was the compile-fail case `c12-help-fits-the-type`.
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

/// Show the weather of one year.
#[tool_contract(effect = read_only)]
pub fn yearly_weather(
    /// The year, as text; at least 2001.
    year: String,
    /// Comma-separated tags, up to 10 tags.
    tags: String,
    /// The station's code, a UUID.
    station: u64,
) -> Result<Done, Oops> {
    let _ = (year, tags, station);
    Ok(Done { ok: true })
}

fn main() {}
