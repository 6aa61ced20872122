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

/// Ping a host and say whether it answered.
#[tool_contract(effect = read_only)]
pub fn ping(
    /// The host to ping.
    host: String,
    count: u32,
) -> Result<Done, Oops> {
    let _ = (host, count);
    Ok(Done { ok: true })
}

fn main() {}
