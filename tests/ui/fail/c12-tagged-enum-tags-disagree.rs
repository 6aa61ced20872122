//! A tagged enum's tags against the listed values (rule C12): a whole list
//! that lacks a tag the description names nowhere (`silent`) stops the
//! build (`set-narrower`, at the error level).
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
    /// By pager.
    Pager,
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
