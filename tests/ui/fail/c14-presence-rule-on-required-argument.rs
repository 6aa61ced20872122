use contract_runtime::prelude::*;

/// Cancel an event by id or by title.
#[derive(ToolArgs)]
#[args(rules(exactly_one_of(id, title)))]
pub struct CancelEvent {
    /// The event's id.
    pub id: String,
    /// The event's title.
    pub title: Option<String>,
}

fn main() {}
