//! Each mistake is one error (C11, C7, C10): a misspelled key inside
//! `retry(..)`, `length(..)` or `#[failure(..)]` is not also reported
//! missing, a number with a unit suffix is refused rather than read without
//! it, and an optional request key is named for what it is.
use contract_runtime::prelude::*;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub ok: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(cod = "oops")]
    Oops,
}

#[derive(Debug, ToolFailure)]
pub enum Busy {
    #[failure(code = "busy", transient)]
    Busy,
}

/// Read the status page.
#[tool_contract(effect = read_only, retry(attemps = 3))]
pub fn status(
    /// The section to read.
    #[arg(length(mni = 1, max = 40))]
    section: String,
) -> Result<Done, Busy> {
    let _ = section;
    Ok(Done { ok: true })
}

/// Read the status page, slowly.
#[tool_contract(effect = read_only, timeout_ms = 5s)]
pub fn slow_status() -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Post a message to the channel everyone reads.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never)]
pub fn post(
    /// The message.
    #[arg(length(min = 1kb))]
    text: String,
    /// A key that makes a repeated post post once.
    request_key: Option<String>,
) -> Result<Done, Busy> {
    let _ = (text, request_key);
    Ok(Done { ok: true })
}

fn main() {}
