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

/// Fetch a page, retrying a few times.
#[tool_contract(effect = read_only, retry(attempts = 3, backoff_ms = -1))]
pub fn fetch(
    /// The page number.
    #[arg(length(min = -1))]
    page: String,
) -> Result<Done, Oops> {
    let _ = page;
    Ok(Done { ok: true })
}

fn main() {}
