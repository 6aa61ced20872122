use contract_runtime::prelude::*;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Sent {
    pub sent: bool,
}

/// Send the weekly report to the team.
#[tool_contract(effect = external, approval = never, idempotency = key(request_key), task = required)]
pub async fn send_report(
    /// A fresh key per report.
    #[arg(length(min = 1, max = 100))]
    request_key: String,
) -> Result<Sent, std::convert::Infallible> {
    let _ = request_key;
    Ok(Sent { sent: true })
}

/// Export the archive.
#[tool_contract(effect = read_only, task = optional)]
pub async fn export_archive() -> Result<Sent, std::convert::Infallible> {
    Ok(Sent { sent: true })
}

fn main() {
    assert_eq!(send_report::contract().spec().task, contract_runtime::TaskSupport::Required);
    assert_eq!(export_archive::contract().spec().task, contract_runtime::TaskSupport::Optional);
}
