#![allow(unused)]
use crate::common::{Done, Oops};
use contract_runtime::prelude::*;

/// Delivery channel of a notification.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// Mobile push notification.
    Push,
    /// Email.
    Email,
    /// Text message.
    Sms,
}

/// How often a digest is sent.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Frequency {
    /// No digest.
    Never,
    /// Every day.
    Daily,
    /// Every week.
    Weekly,
}

// GT-TOOL: A
/// Send a text message to one phone number. The recipient sees it at once.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never, authority = "sms:send")]
pub fn send_sms(
    // GT: A
    /// Recipient phone number in E.164 format.
    #[arg(pattern = "^\\+[1-9][0-9]{6,14}$")]
    to: String,
    // GT: C: prose max 160 characters vs declared length max 1600
    /// Message text, at most 160 characters.
    #[arg(prose = "trial: a compile error of the first build", length(min = 1, max = 1600))]
    body: String,
    // GT: B: maxLength 11 (not declared)
    /// Alphanumeric sender name shown to the recipient, up to 11 characters.
    sender_id: Option<String>,
    // GT: A
    /// A UUID so that a retry sends the message only once.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Send an HTML email from the workspace's verified domain.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never, authority = "email:send")]
pub fn send_email(
    // GT: A
    /// Recipients' email addresses; 1 to 50 of them.
    #[arg(length(min = 1, max = 50), each(format = "email"))]
    to: Vec<String>,
    // GT: C: prose max 78 characters vs declared length max 255
    /// Subject line, up to 78 characters.
    #[arg(prose = "trial: a compile error of the first build", length(min = 1, max = 255))]
    subject: String,
    // GT: B: maxItems 10 (not declared)
    /// Addresses to copy; no more than 10.
    #[arg(each(format = "email"))]
    cc: Option<Vec<String>>,
    // GT: B: format email on a verified domain (not declared)
    /// Address that replies go to; must be an email address on a verified domain.
    reply_to: Option<String>,
    // GT: A
    /// A UUID for this send.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Schedule a notification to a user for later delivery.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never, authority = "notify:write")]
pub fn schedule_notification(
    // GT: C: prose lists webhook, which the enum does not have
    /// Delivery channel: push, email, sms or webhook.
    channel: Channel,
    // GT: B: at least 5 minutes in the future, at most 30 days ahead (not declared)
    /// When to send, as an RFC 3339 timestamp; at least 5 minutes in the future and at most 30 days ahead.
    send_at: chrono::DateTime<chrono::Utc>,
    // GT: A
    /// Priority from 1 (lowest) to 5 (highest).
    #[arg(range(min = 1, max = 5))]
    priority: Option<u8>,
    // GT: A
    /// Request key, a UUID.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Create a chat channel and invite its first members.
#[tool_contract(effect = reversible, idempotency = natural, authority = "chat:admin")]
pub fn create_channel(
    // GT: A
    /// Channel name: lowercase letters, digits and hyphens, at most 80 characters.
    #[arg(pattern = "^[a-z0-9-]{1,80}$")]
    name: String,
    // GT: A
    /// Channel topic, shown under the name; up to 250 characters.
    #[arg(length(max = 250))]
    topic: Option<String>,
    // GT: C: prose up to 500 vs declared length max 1000
    /// Users to invite at creation, up to 500.
    #[arg(prose = "trial: a compile error of the first build", length(max = 1000), each(pattern = "^usr_[a-z0-9]{10}$"))]
    members: Vec<String>,
    // GT: B: range 1..=3650 (not declared)
    /// Days to keep messages; 1 to 3650, or leave out to keep forever.
    retention_days: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Stop a member from posting in a channel for a while.
#[tool_contract(effect = reversible, idempotency = natural, authority = "chat:moderate")]
pub fn mute_user(
    // GT: A
    /// The channel, an id starting with C, like C01ABCD2E.
    #[arg(pattern = "^C[A-Z0-9]{8}$")]
    channel_id: String,
    // GT: C: prose up to 7 days (10080 minutes) vs declared range max 1440 minutes (1 day)
    /// How long to mute, in minutes; up to 7 days.
    #[arg(prose = "trial: a compile error of the first build", range(min = 1, max = 1440))]
    duration_minutes: u32,
    // GT: B: maxLength 200 (not declared)
    /// Reason shown to the muted user; keep it under 200 characters.
    reason: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Report whether a message was delivered, bounced or is still queued.
#[tool_contract(effect = read_only, authority = "notify:read")]
pub fn get_delivery_status(
    // GT: A
    /// The message id returned by `send_sms` or `send_email`, e.g. `msg_01HZX3`.
    message_id: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Change a user's notification preferences.
#[tool_contract(effect = reversible, idempotency = natural, authority = "notify:write")]
pub fn update_preferences(
    // GT: A
    /// Start of quiet hours in the user's local time, HH:MM:SS.
    quiet_hours_start: Option<chrono::NaiveTime>,
    // GT: C: prose lists monthly, which the enum does not have
    /// How often to send a digest: never, daily, weekly or monthly.
    digest_frequency: Option<Frequency>,
    // GT: B: range 1..=50 (not declared)
    /// Cap on notifications per day, between 1 and 50.
    max_per_day: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}
