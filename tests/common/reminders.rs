//! A test-only tool set whose arguments are enums with data: a reminder
//! delivered on one of several channels (internally tagged) and repeated
//! on one of several schedules (adjacently tagged), at a time of day. Shared by
//! `tests/tagged_enums.rs`, `tests/agreement.rs` and the provider SDK
//! oracles (`examples/oracle_tools.rs`), so every dialect export of these
//! shapes is checked by the providers' own SDKs.

use contract_runtime::prelude::*;
use serde::Serialize;

/// Where a reminder is delivered.
#[derive(ToolArgs, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Channel {
    /// An email to one address.
    Email {
        /// The recipient's address.
        #[arg(length(min = 3, max = 254))]
        to: String,
        /// Up to three more addresses to copy.
        #[arg(length(max = 3), each(pattern = "^[^@ ]+@[^@ ]+$"))]
        cc: Option<Vec<String>>,
    },
    /// A message in a chat room.
    ChatRoom {
        /// The room, such as #ops.
        #[arg(pattern = "^#[a-z0-9-]{1,20}$")]
        room: String,
        /// Minutes to wait before posting.
        #[arg(range(min = 0, max = 60))]
        delay_minutes: Option<u32>,
    },
    /// No delivery: the reminder is only listed.
    Silent,
}

/// How a reminder repeats.
#[derive(ToolArgs, Debug, PartialEq)]
#[serde(tag = "every", content = "with", rename_all = "snake_case")]
pub enum Repeat {
    /// Every few days.
    Days {
        /// Days between two reminders.
        #[arg(range(min = 1, max = 365))]
        count: u16,
    },
    /// On some days of the week.
    Weekdays {
        /// The days, 1 (Monday) to 7 (Sunday).
        #[arg(length(min = 1, max = 7), unique, each(range(min = 1, max = 7)))]
        days: Vec<u8>,
    },
    /// Once only.
    Never,
}

/// What was scheduled.
#[derive(Serialize, JsonSchema)]
pub struct Scheduled {
    /// The channel's kind.
    pub channel: String,
    /// Whether it repeats.
    pub repeats: bool,
}

/// Schedule a reminder with a text, a delivery channel and an optional
/// repetition.
#[tool_contract(effect = reversible, idempotency = natural, authority = "reminders:write")]
pub fn schedule_reminder(
    /// What the reminder says.
    #[arg(length(min = 1, max = 200))]
    text: String,
    /// Where the reminder is delivered.
    channel: Channel,
    /// How the reminder repeats; once when left out.
    repeat: Option<Repeat>,
    /// The time of day to deliver it, in the recipient's time zone; as soon
    /// as possible when left out.
    at: Option<chrono::NaiveTime>,
) -> Result<Scheduled, std::convert::Infallible> {
    let _ = (text, at);
    let channel = match channel {
        Channel::Email { .. } => "email",
        Channel::ChatRoom { .. } => "chat_room",
        Channel::Silent => "silent",
    };
    Ok(Scheduled {
        channel: channel.to_owned(),
        repeats: !matches!(repeat, None | Some(Repeat::Never)),
    })
}

/// The tool set.
pub fn registry() -> Registry {
    Registry::builder()
        .tool(schedule_reminder::contract())
        .build()
        .unwrap_or_else(|e| panic!("the reminder registry is valid: {e}"))
}
