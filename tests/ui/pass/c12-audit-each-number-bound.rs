//! Rule C12, third edition: what this file states only in prose is an audit
//! finding (`Registry::audit()`), not a compile error: no recognizer is at the
//! error level (docs/rule-c12.md). It was the compile-fail case `c12-each-number-bound`.
//! A per-item bound on a list of numbers ("Scores, each from 1 to 10") bounds the
//! values of the items, `each(range(..))`: a `length(..)`, which counts the items,
//! does not declare it.
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

/// Score the answers.
#[tool_contract(effect = read_only)]
pub fn score_answers(
    /// Scores, each from 1 to 10.
    #[arg(length(min = 1, max = 10))]
    scores: Vec<u8>,
    /// Weights; every weight must be at most 5.
    weights: Vec<u32>,
) -> Result<Done, Oops> {
    let _ = (scores, weights);
    Ok(Done { ok: true })
}

fn main() {}
