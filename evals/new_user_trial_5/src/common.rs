use contract_runtime::prelude::*;

/// What the call did.
#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    /// Whether it worked.
    pub ok: bool,
}

/// Why a call could not complete.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// The backend is unavailable; try again shortly.
    #[failure(code = "backend-down", transient)]
    Down,
}

pub fn done() -> Result<Done, Oops> {
    Ok(Done { ok: true })
}
