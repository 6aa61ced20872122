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

/// A moment in time.
pub struct Moment(pub u64);

/// The arguments of `remind`.
#[derive(ToolArgs)]
pub struct Remind {
    /// What to remind about.
    pub text: String,
    /// When to remind.
    pub at: Moment,
}

/// Set a reminder for later.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn remind(args: Remind) -> Result<Done, Oops> {
    let _ = args;
    Ok(Done { ok: true })
}

fn main() {}
