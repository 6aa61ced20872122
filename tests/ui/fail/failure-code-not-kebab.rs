use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum SendError {
    /// The channel does not exist.
    #[failure(code = "NoChannel", field = "channel")]
    NoChannel,
}

fn main() {}
