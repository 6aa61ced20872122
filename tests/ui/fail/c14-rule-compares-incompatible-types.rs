use contract_runtime::prelude::*;

/// Events between two days.
#[derive(ToolArgs)]
#[args(rules(le(from, count), max_span(from, to, 31 days), lt(all_day, urgent)))]
pub struct ListEvents {
    /// First day, counted from the epoch.
    pub from: Option<u32>,
    /// Last day, counted the same way.
    pub to: Option<u32>,
    /// How many events.
    pub count: Option<String>,
    /// Only all-day events.
    pub all_day: bool,
    /// Only urgent events.
    pub urgent: bool,
}

fn main() {}
