use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum SendError {
    /// The service did not answer; the message may or may not have gone out.
    #[failure(code = "no-answer", transient, unknown)]
    NoAnswer,
}

fn main() {}
