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

/// Look a code up.
#[tool_contract(effect = read_only)]
pub fn look_up(
    /// A letter A, as a code point in braces.
    #[arg(pattern = r"^\x{41}$")]
    a: String,
    /// A Python-style named group.
    #[arg(pattern = r"^(?P<x>a)$")]
    b: String,
    /// A braced Unicode escape.
    #[arg(pattern = r"^\u{e9}$")]
    c: String,
    /// A Unicode class.
    #[arg(pattern = r"^\p{L}+$")]
    d: String,
    /// A start-of-word boundary.
    #[arg(pattern = r"\<cat")]
    e: String,
    /// A class difference.
    #[arg(pattern = r"^[a-z--q]$")]
    f: String,
) -> Result<Done, Oops> {
    let _ = (a, b, c, d, e, f);
    Ok(Done { ok: true })
}

fn main() {}
