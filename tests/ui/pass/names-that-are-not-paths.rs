//! `file_name` and `attachment_url` are names and addresses, not paths: C13
//! leaves them alone unless their description says they are paths.
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

/// Attach a link to an event, shown under the name given.
#[tool_contract(effect = reversible, idempotency = natural)]
pub fn attach_link(
    /// The name the attachment is shown under, such as `agenda.pdf`.
    #[arg(length(min = 1, max = 100))]
    file_name: String,
    /// Where the attachment can be downloaded.
    #[arg(format = "uri")]
    attachment_url: String,
) -> Result<Done, Oops> {
    let _ = (file_name, attachment_url);
    Ok(Done { ok: true })
}

fn main() {}
