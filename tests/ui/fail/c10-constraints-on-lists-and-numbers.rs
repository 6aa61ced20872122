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

/// Store scores and ids.
#[tool_contract(effect = read_only)]
pub fn store(
    /// The order number.
    #[arg(pattern = "^[0-9]{6}$")]
    order: u32,
    /// The scores.
    #[arg(range(min = 1, max = 10))]
    scores: Vec<u8>,
    /// The request ids.
    #[arg(format = "uuid")]
    ids: Vec<String>,
) -> Result<Done, Oops> {
    let _ = (order, scores, ids);
    Ok(Done { ok: true })
}

fn main() {}
