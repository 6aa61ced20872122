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

/// Show the events around one moment.
#[tool_contract(effect = read_only)]
pub fn around(
    /// The moment.
    #[arg(format = "datetime")]
    at: String,
) -> Result<Done, Oops> {
    let _ = at;
    Ok(Done { ok: true })
}

fn main() {}
