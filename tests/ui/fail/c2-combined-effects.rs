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

/// Looks up an event and emails its organiser.
#[tool_contract(effect = read_only + external, idempotency = none, approval = never)]
pub fn peek_and_tell(
    /// The event.
    event_id: String,
) -> Result<Done, Oops> {
    let _ = event_id;
    Ok(Done { ok: true })
}

/// Cancels an event and emails the invitees.
#[tool_contract(effect = destructive + extrenal, idempotency = none, approval = always)]
pub fn cancel_event(
    /// The event.
    event_id: String,
) -> Result<Done, Oops> {
    let _ = event_id;
    Ok(Done { ok: true })
}

/// Deletes an event and emails the invitees.
#[tool_contract(effect = external + destructive, idempotency = none, approval = never)]
pub fn delete_event(
    /// The event.
    event_id: String,
) -> Result<Done, Oops> {
    let _ = event_id;
    Ok(Done { ok: true })
}

fn main() {}
