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

/// Append a line to the shared log.
#[tool_contract(effect = external, approval = never, retry(attempts = 3))]
pub fn append_log(
    /// The line to append.
    line: String,
) -> Result<Done, Oops> {
    let _ = line;
    Ok(Done { ok: true })
}

fn main() {}
