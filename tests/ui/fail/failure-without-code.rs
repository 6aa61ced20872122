use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum SendError {
    /// The channel does not exist.
    #[failure(code = "no-channel", field = "channel")]
    NoChannel,
    /// The message was too long for the channel.
    #[failure(field = "text")]
    TooLong,
}

fn main() {}
