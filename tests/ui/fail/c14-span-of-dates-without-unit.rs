use contract_runtime::prelude::*;

/// Events between two days.
#[derive(ToolArgs)]
#[args(rules(le(from, to), max_span(from, to, 366)))]
pub struct ListEvents {
    /// First day.
    pub from: Option<chrono::NaiveDate>,
    /// Last day.
    pub to: Option<chrono::NaiveDate>,
}

fn main() {}
