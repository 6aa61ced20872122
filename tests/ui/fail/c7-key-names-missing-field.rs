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
#[tool_contract(effect = external, idempotency = key(request_id), approval = never)]
pub fn post_comment(
    /// The comment text.
    body: String,
    /// A fresh UUID for this comment.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    let _ = (body, request_key);
    Ok(Done { ok: true })
}

fn main() {}
