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

#[tool_contract(effect = destructive, retry(attempts = 3), timeout = 100)]
pub fn purge_notes(
    /// Notes to purge, at most 20.
    notes: Vec<String>,
    /// Purge notes older than this many days.
    #[arg(length(min = 1))]
    older_than_days: u32,
) -> Result<Done, String> {
    let _ = (notes, older_than_days);
    Ok(Done { ok: true })
}

fn main() {}
