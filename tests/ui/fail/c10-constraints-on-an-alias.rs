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

type Query = String;
type RequestKey = String;

/// Search the notes.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never)]
pub fn search(
    /// Text to search for.
    #[arg(length(min = 1, max = 200))]
    query: Query,
    /// A fresh UUID per call.
    #[arg(format = "uuid")]
    request_key: RequestKey,
    /// Labels to match.
    #[arg(each(pattern = "^[a-z]+$"))]
    labels: Vec<Query>,
) -> Result<Done, Oops> {
    let _ = (query, request_key, labels);
    Ok(Done { ok: true })
}

fn main() {}
