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

/// Export a report.
#[tool_contract(effect = read_only)]
pub fn export_report(
    /// The file format, either `json` or `csv`.
    output: String,
) -> Result<Done, Oops> {
    let _ = output;
    Ok(Done { ok: true })
}

fn main() {}
