use contract_runtime::prelude::*;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Sent {
    pub sent: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Send the weekly report to the team.
#[tool_contract(effect = external, approval = never, idempotency = none, task = optional)]
pub async fn send_report(
    /// The week, as `2026-W49`.
    #[arg(length(max = 10))]
    week: String,
) -> Result<Sent, Oops> {
    let _ = week;
    Ok(Sent { sent: true })
}

/// Export the archive.
#[tool_contract(effect = read_only, task = sometimes)]
pub async fn export_archive() -> Result<Sent, Oops> {
    Ok(Sent { sent: true })
}

fn main() {}
