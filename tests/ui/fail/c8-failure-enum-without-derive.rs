//! A failure type the macro cannot judge by its spelling (a user's enum
//! that does not derive `ToolFailure`) is refused by the compiler at that
//! type, with the fix (rule C8), and not with a pile of copies.
use contract_runtime::prelude::*;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub ok: bool,
}

#[derive(Debug)]
pub enum PingError {
    Down,
}

/// Ping the service.
#[tool_contract(effect = read_only)]
pub fn ping() -> Result<Done, PingError> {
    Ok(Done { ok: true })
}

fn main() {}
