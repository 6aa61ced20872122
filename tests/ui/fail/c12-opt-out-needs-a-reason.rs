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

/// List recent orders.
#[tool_contract(effect = read_only)]
pub fn orders(
    /// How many orders to return, at most 100.
    #[arg(prose = "  ")]
    limit: u32,
) -> Result<Done, Oops> {
    let _ = limit;
    Ok(Done { ok: true })
}

fn main() {}
