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

/// Show the agenda of one day.
#[tool_contract(effect = read_only)]
pub fn agenda(
    /// The day, as YYYY-MM-DD.
    day: String,
) -> Result<Done, Oops> {
    let _ = day;
    Ok(Done { ok: true })
}

fn main() {}
