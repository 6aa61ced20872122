use contract_runtime::prelude::*;

/// Where to deliver.
#[derive(ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Channel {
    /// By email.
    Email {
        /// The address.
        to: String,
    },
    /// Nowhere.
    Silent,
}

/// A reminder.
#[derive(ToolArgs)]
pub struct Remind {
    /// Where it goes: one of email or pager.
    pub channel: Channel,
}

fn main() {}
