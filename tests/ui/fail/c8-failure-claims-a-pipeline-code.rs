use contract_runtime::prelude::*;

/// Why the lookup failed.
#[derive(Debug, ToolFailure)]
pub enum LookupError {
    /// The upstream said the query was malformed; but `schema-violation` is
    /// the dispatcher's own code, with its own status.
    #[failure(code = "schema-violation", field = "query")]
    Rejected,
    /// The upstream timed out: `timeout` is a code tools share.
    #[failure(code = "timeout", transient)]
    TimedOut,
}

fn main() {}
