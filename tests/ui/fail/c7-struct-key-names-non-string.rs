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

/// The arguments of `post_comment`.
#[derive(ToolArgs)]
pub struct PostComment {
    /// The issue number.
    pub issue: u32,
    /// The comment text.
    pub body: String,
    /// A fresh UUID for this comment.
    #[arg(format = "uuid")]
    pub request_key: String,
}

/// Post a comment on an issue.
#[tool_contract(effect = external, idempotency = key(issue), approval = never)]
pub fn post_comment(args: PostComment) -> Result<Done, Oops> {
    let _ = args;
    Ok(Done { ok: true })
}

fn main() {}
