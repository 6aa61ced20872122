use contract_runtime::prelude::*;

/// What a tool reports back.
#[derive(serde::Serialize, JsonSchema, Default)]
pub struct Done {
    /// Whether the operation went through.
    pub ok: bool,
}

/// Why a tool could not do its job.
#[derive(Debug, ToolFailure)]
pub enum Oops {
    /// The upstream service is unavailable; try again shortly.
    #[failure(code = "upstream-unavailable", transient)]
    Unavailable,
    /// The thing named does not exist.
    #[failure(code = "not-found")]
    NotFound,
}
