use contract_runtime::prelude::*;
use serde::Serialize;

/// Where to deliver.
#[derive(ToolArgs)]
pub enum Channel {
    /// By email.
    Email {
        /// The address.
        to: String,
    },
    /// Nowhere.
    Silent,
}

#[derive(Serialize, JsonSchema)]
pub struct Done {
    pub ok: bool,
}

/// Send a reminder.
#[tool_contract(effect = external, idempotency = none, approval = never)]
pub fn remind(
    /// Where it goes.
    channel: Channel,
) -> Result<Done, std::convert::Infallible> {
    let _ = channel;
    Ok(Done { ok: true })
}

fn main() {}
