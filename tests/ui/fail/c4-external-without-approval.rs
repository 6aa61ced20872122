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

/// Send a message to a chat channel, visible to its members.
#[tool_contract(effect = external, idempotency = none)]
pub fn send_message(
    /// The text to send.
    text: String,
) -> Result<Done, Oops> {
    let _ = text;
    Ok(Done { ok: true })
}

fn main() {}
