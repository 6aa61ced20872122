//! A tagged enum's tags other than the listed values (rule C12): it
//! compiles, since the set checks are at the audit level (measured,
//! `docs/rule-c12.md#the-contradiction-checks`).
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
