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

/// Post a comment on an issue.
#[tool_contract(effect = external, idempotency = key(issue), approval = never)]
pub fn post_comment(
    /// The issue number.
    issue: u32,
    /// The comment text.
    body: String,
) -> Result<Done, Oops> {
    let _ = (issue, body);
    Ok(Done { ok: true })
}

fn main() {}
