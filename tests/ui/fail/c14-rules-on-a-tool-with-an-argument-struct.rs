use contract_runtime::prelude::*;

#[derive(Debug, ToolFailure)]
pub enum Oops {
    #[failure(code = "oops")]
    Oops,
}

/// Events in a range.
#[derive(ToolArgs)]
pub struct Range {
    /// The first.
    pub from: Option<u32>,
    /// The last.
    pub to: Option<u32>,
}

/// Lists events.
#[tool_contract(effect = read_only, rules(le(from, to)))]
pub fn list_events(args: Range) -> Result<u32, Oops> {
    let _ = args;
    Ok(0)
}

fn main() {}
