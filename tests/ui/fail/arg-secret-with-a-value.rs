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

/// Sign in to the mail server.
#[tool_contract(effect = read_only)]
pub fn sign_in(
    /// The account's password.
    #[arg(secret = true)]
    password: String,
) -> Result<Done, Oops> {
    let _ = password;
    Ok(Done { ok: true })
}

fn main() {}
