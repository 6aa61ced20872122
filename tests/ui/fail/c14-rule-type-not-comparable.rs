use contract_runtime::prelude::*;

/// How urgent.
#[derive(ToolArgs)]
pub enum Level {
    Low,
    High,
}

/// Notify between two levels.
#[derive(ToolArgs)]
#[args(rules(le(lowest, highest)))]
pub struct Notify {
    /// The lowest level.
    pub lowest: Level,
    /// The highest level.
    pub highest: Level,
}

fn main() {}
