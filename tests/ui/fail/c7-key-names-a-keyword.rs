use contract_runtime::prelude::*;

/// What the tool did.
#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why the tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It did not.
    #[failure(code = "oops")]
    Oops,
}

/// Post a comment.
#[tool_contract(effect = external, idempotency = key(ref), approval = never)]
pub fn post(
    /// The comment.
    #[arg(length(min = 1, max = 2000))]
    body: String,
    /// A fresh UUID for this comment.
    #[arg(format = "uuid")]
    r#ref: String,
) -> Result<Done, Oops> {
    let _ = (body, r#ref);
    Ok(Done { ok: true })
}

fn main() {}
