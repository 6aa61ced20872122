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

/// Ping the service.
#[tool_contract(effect = "read_only", authority = "svc:read")]
pub fn ping() -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Post a message to the channel everyone reads.
#[tool_contract(effect = external, idempotency = key("request_key"), approval = never)]
pub fn post(
    /// The message, at most 200 characters.
    #[arg(length(max = 200))]
    text: String,
    /// A key that makes a repeated post post once.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    let _ = (text, request_key);
    Ok(Done { ok: true })
}

/// Post a message, once per key.
#[tool_contract(effect = external, idempotency = key, approval = never)]
pub fn post_again(
    /// The message, at most 200 characters.
    #[arg(length(max = 200))]
    text: String,
) -> Result<Done, Oops> {
    let _ = text;
    Ok(Done { ok: true })
}

fn main() {}
