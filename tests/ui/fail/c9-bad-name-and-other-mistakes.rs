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


#[tool_contract(name = "net.ping host", effect = read_only)]
pub fn ping(
    /// The host to ping.
    host: String,
) -> Result<Done, Oops> {
    let _ = host;
    Ok(Done { ok: true })
}

fn main() {}
