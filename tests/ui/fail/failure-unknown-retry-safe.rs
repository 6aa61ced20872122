use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum SendError {
    /// The connection dropped after the message was handed over.
    #[failure(code = "dropped", unknown, retry_safe)]
    Dropped,
}

fn main() {}
