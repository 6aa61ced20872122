use contract_runtime::prelude::*;

/// What the tool did.
#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    /// Whether it did it.
    pub ok: bool,
}

/// Why the tool failed.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// It did not.
    #[failure(code = "oops")]
    Oops,
}

#[tool_contract(effect = read_only, description = "   ")]
pub fn ping(
    #[arg(description = " ")]
    host: String,
) -> Result<Done, Oops> {
    let _ = host;
    Ok(Done { ok: true })
}

fn main() {}
