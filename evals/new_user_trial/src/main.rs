#![allow(unused_variables, dead_code)]
use contract_runtime::prelude::*;
use chrono::{NaiveDate, NaiveTime};
use std::collections::BTreeMap;

/// The outcome of a call.
#[derive(serde::Serialize, JsonSchema)]
pub struct Ack {
    /// Whether the call did what it was asked.
    pub ok: bool,
}

/// Why a call failed upstream.
#[derive(Debug, ToolFailure)]
pub enum ApiError {
    /// The upstream service refused the request.
    #[failure(code = "upstream-refused")]
    Refused,
}

/// The state of an invoice.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum InvoiceStatus {
    /// Not yet finalized.
    Draft,
    /// Finalized and awaiting payment.
    Open,
    /// Paid in full.
    Paid,
    /// Voided.
    Void,
}

/// Why a refund is issued.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum RefundReason {
    /// The customer was charged twice.
    Duplicate,
    /// The charge was not made by the card holder.
    Fraudulent,
    /// The customer asked for the money back.
    RequestedByCustomer,
}

/// How a reminder is delivered.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum ReminderChannel {
    /// An email.
    Email,
    /// A push notification on the phone.
    Push,
    /// A text message.
    Sms,
}

/// A sort direction.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum SortOrder {
    /// Ascending.
    Asc,
    /// Descending.
    Desc,
}

/// A storage tier.
#[derive(ToolArgs)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StorageClass {
    /// Frequently read objects.
    Standard,
    /// Objects read rarely.
    InfrequentAccess,
    /// Objects kept for compliance, slow to read.
    Archive,
}

/// The state of a pipeline run.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum PipelineStatus {
    /// Waiting for a runner.
    Pending,
    /// In progress.
    Running,
    /// Finished successfully.
    Success,
    /// At least one job failed.
    Failed,
    /// Stopped by someone.
    Canceled,
}

/// The format a log is returned in.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Plain text.
    Text,
    /// One JSON object per line.
    Json,
    /// Rendered with colours.
    Html,
}

/// List one customer's invoices, newest first. Invoices exist from 2015-01-01 onward; nothing older is on file.
#[tool_contract(effect = read_only, authority = "billing:read")]
pub fn list_invoices(
    /// The customer whose invoices to list; its id starts with `cus_`.
    #[arg(pattern = "^cus_[A-Za-z0-9]{14}$")]
    customer_id: String,
    /// Only invoices in this state: `draft`, `open`, `paid`, `void` or `uncollectible`.
    status: Option<InvoiceStatus>,
    /// Only invoices issued on or after this day.
    issued_after: Option<NaiveDate>,
    /// How many invoices to return, between 1 and 100.
    #[arg(range(min = 1, max = 100))]
    limit: Option<u32>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Fetch one invoice with its totals and payment state.
#[tool_contract(effect = read_only, authority = "billing:read")]
pub fn get_invoice(
    /// Invoice identifier: `in_` followed by 24 letters or digits.
    #[arg(pattern = "^in_[A-Za-z0-9]{24}$")]
    invoice_id: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Create a draft invoice for a customer. The draft is not sent until it is finalized.
#[tool_contract(effect = reversible, idempotency = key(request_key), authority = "billing:write")]
pub fn create_invoice(
    /// The customer to bill. Customer ids begin with `cus_`.
    customer_id: String,
    /// Three-letter ISO 4217 currency code in lowercase, such as `usd` or `eur`.
    #[arg(pattern = "^[a-z]{3}$")]
    currency: String,
    /// A note printed on the invoice, at most 500 characters.
    memo: Option<String>,
    /// Days until payment is due; at most 90.
    #[arg(range(min = 1, max = 120), prose = "trial: a contradiction the build caught (kind C)")]
    due_in_days: u32,
    /// A fresh UUID for this request; sending the same one again returns the first result.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Add a line to a draft invoice.
#[tool_contract(effect = reversible, idempotency = none, authority = "billing:write")]
pub fn add_line_item(
    /// The draft invoice to add the line to: `in_` and 24 letters or digits.
    #[arg(pattern = "^in_[A-Za-z0-9]{16}$")]
    invoice_id: String,
    /// What the customer sees on the line, 1 to 200 characters.
    #[arg(length(min = 1, max = 200))]
    label: String,
    /// Number of units, from 1 to 10000.
    #[arg(range(min = 1, max = 1000), prose = "trial: a contradiction the build caught (kind C)")]
    quantity: u32,
    /// Price of one unit in cents; must not be negative.
    unit_amount_cents: i64,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Refund part or all of a paid invoice to the card that paid it. An order can be refunded at most 3 times.
#[tool_contract(effect = external, idempotency = key(request_key), approval = always, authority = "billing:refund")]
pub fn issue_refund(
    /// The paid invoice to refund.
    #[arg(pattern = "^in_[A-Za-z0-9]{24}$")]
    invoice_id: String,
    /// Amount to refund in cents, at least 1 and at most 1000000.
    #[arg(range(min = 1, max = 1000000))]
    amount_cents: u64,
    /// Why the money goes back: `duplicate`, `fraudulent` or `requested_by_customer`.
    reason: RefundReason,
    /// Unique key for this refund, a UUID.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Void an open invoice so it can no longer be paid. This cannot be undone.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "billing:write")]
pub fn void_invoice(
    /// The invoice to void.
    #[arg(pattern = "^in_[A-Za-z0-9]{24}$")]
    invoice_id: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Find customers by name or email.
#[tool_contract(effect = read_only, authority = "billing:read")]
pub fn search_customers(
    /// Name or email fragment to search for; at least 3 characters.
    query: String,
    /// Restrict to customers billed in this country, as a two-letter country code.
    #[arg(pattern = "^[A-Z]{2}$")]
    country: Option<String>,
    /// Results per page, 10 to 50.
    #[arg(range(min = 10, max = 100), prose = "trial: a contradiction the build caught (kind C)")]
    page_size: Option<u8>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Change the address a customer's invoices are emailed to.
#[tool_contract(effect = reversible, idempotency = natural, authority = "billing:write")]
pub fn update_customer_email(
    /// The customer to update.
    #[arg(pattern = "^cus_[A-Za-z0-9]{14}$")]
    customer_id: String,
    /// The new billing email address.
    #[arg(format = "email")]
    email: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// List the events of one calendar between two days, in start order.
#[tool_contract(effect = read_only, authority = "calendar:read")]
pub fn list_events(
    /// The calendar to read, e.g. `primary` or an id such as `cal_8f2k`.
    calendar_id: String,
    /// First day to include, no earlier than 2020-01-01.
    #[arg(range(min = "2020-01-01"))]
    from: NaiveDate,
    /// Last day to include; at most 62 days after `from`.
    to: NaiveDate,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Create an event and send invitations to its attendees.
#[tool_contract(effect = external, idempotency = none, approval = never, authority = "calendar:write")]
pub fn create_event(
    /// Title shown in the calendar, up to 120 characters.
    #[arg(length(min = 1, max = 100), prose = "trial: a contradiction the build caught (kind C)")]
    title: String,
    /// The day of the event.
    day: NaiveDate,
    /// Start time, 24-hour `HH:MM:SS`.
    start: NaiveTime,
    /// Length of the event in minutes, in 15-minute steps, between 15 and 480.
    #[arg(range(min = 15, max = 480))]
    duration_minutes: u32,
    /// Email addresses of the people to invite; no more than 50.
    #[arg(length(max = 50), each(format = "email"))]
    attendees: Vec<String>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Move an event to another day or time and tell the attendees.
#[tool_contract(effect = external, idempotency = natural, approval = never, authority = "calendar:write")]
pub fn reschedule_event(
    /// The event to move. Event ids are 26-character ULIDs.
    event_id: String,
    /// The new day; it cannot be in the past.
    new_day: NaiveDate,
    /// New start time; leave it out to keep the current one.
    new_start: Option<NaiveTime>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Cancel an event and email every attendee that it is off.
#[tool_contract(effect = destructive + external, idempotency = natural, approval = always, authority = "calendar:write")]
pub fn cancel_event(
    /// The event to cancel, a 26-character ULID.
    #[arg(pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")]
    event_id: String,
    /// Message to the attendees, at most 1000 characters.
    #[arg(length(max = 2000), prose = "trial: a contradiction the build caught (kind C)")]
    message: Option<String>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Find times when all the given people are free on one day.
#[tool_contract(effect = read_only, authority = "calendar:read")]
pub fn find_free_slots(
    /// The people who must all be free, 1 to 20 email addresses.
    #[arg(length(min = 1, max = 20), each(format = "email"))]
    attendees: Vec<String>,
    /// The day to search, between 2024-01-01 and 2030-12-31.
    #[arg(range(min = "2024-01-01", max = "2029-12-31"))]
    day: NaiveDate,
    /// Length of the slot wanted, at least 30 minutes.
    #[arg(range(min = 15, max = 240), prose = "trial: a contradiction the build caught (kind C)")]
    slot_minutes: u16,
    /// Only return slots between 09:00 and 17:00 local time.
    working_hours_only: Option<bool>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Add or replace the reminder of an event.
#[tool_contract(effect = reversible, idempotency = natural, authority = "calendar:write")]
pub fn set_reminder(
    /// The event the reminder belongs to.
    #[arg(pattern = "^[0-9A-HJKMNP-TV-Z]{26}$")]
    event_id: String,
    /// How long before the start to remind, up to one week (10080 minutes).
    #[arg(range(max = 10080))]
    minutes_before: u32,
    /// How to deliver it: `email` or `push`.
    #[arg(prose = "trial: a contradiction the build caught (kind C)")]
    channel: ReminderChannel,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Give another person access to a calendar.
#[tool_contract(effect = external, idempotency = natural, approval = always, authority = "calendar:share")]
pub fn share_calendar(
    /// The calendar to share.
    calendar_id: String,
    /// Email address of the person to share with.
    grantee: String,
    /// Access level: `reader`, `writer` or `owner`.
    role: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// List the objects in a bucket, one page at a time.
#[tool_contract(effect = read_only, authority = "storage:read")]
pub fn list_objects(
    /// Bucket name: 3 to 63 lowercase letters, digits or hyphens.
    #[arg(pattern = "^[a-z0-9-]{3,63}$")]
    bucket: String,
    /// Only keys that start with this prefix.
    prefix: Option<String>,
    /// Maximum number of keys to return (1-1000).
    #[arg(range(min = 1, max = 500), prose = "trial: a contradiction the build caught (kind C)")]
    max_keys: Option<u32>,
    /// Sort direction by key, one of `asc` or `desc`.
    sort: Option<SortOrder>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Store an object, replacing any object with the same key.
#[tool_contract(effect = reversible, idempotency = natural, authority = "storage:write")]
pub fn upload_object(
    /// The bucket to store the object in.
    #[arg(pattern = "^[a-z0-9-]{3,63}$")]
    bucket: String,
    /// Key to store the object under; it must not begin with a slash.
    key: String,
    /// The object's bytes, base64-encoded; 5 MB at most once decoded.
    content_base64: String,
    /// MIME type such as `text/plain` or `image/png`.
    #[arg(pattern = "^[a-z]+/[a-z0-9.+-]+$")]
    content_type: String,
    /// Storage tier: `STANDARD`, `INFREQUENT_ACCESS` or `ARCHIVE`.
    storage_class: StorageClass,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Copy an object to a new key in the same bucket.
#[tool_contract(effect = reversible, idempotency = natural, authority = "storage:write")]
pub fn copy_object(
    /// The bucket holding both the original and the copy.
    #[arg(pattern = "^[a-z0-9-]{3,63}$")]
    bucket: String,
    /// Key of the object to copy.
    #[arg(length(min = 1, max = 1024))]
    source_key: String,
    /// Key for the copy; it must differ from `source_key`.
    #[arg(length(min = 1, max = 1024))]
    target_key: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Delete objects from a bucket for good.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "storage:write")]
pub fn delete_objects(
    /// The bucket to delete from.
    #[arg(pattern = "^[a-z0-9-]{3,63}$")]
    bucket: String,
    /// Keys to delete, at most 1000 per call, each listed once.
    #[arg(length(min = 1, max = 1000), unique)]
    keys: Vec<String>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Make a link anyone can use to download one object.
#[tool_contract(effect = external, idempotency = none, approval = never, authority = "storage:share")]
pub fn create_share_link(
    /// The bucket of the object.
    #[arg(pattern = "^[a-z0-9-]{3,63}$")]
    bucket: String,
    /// Key of the object to share, at most 1024 characters.
    #[arg(length(min = 1, max = 1024))]
    key: String,
    /// Hours until the link stops working, 1 to 168.
    #[arg(range(min = 1, max = 720), prose = "trial: a contradiction the build caught (kind C)")]
    expires_in_hours: u32,
    /// Optional password for the link, at least 8 characters.
    #[arg(length(min = 8), secret)]
    password: Option<String>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Set the rule that archives and expires a bucket's objects.
#[tool_contract(effect = reversible, idempotency = natural, authority = "storage:admin")]
pub fn set_bucket_lifecycle(
    /// The bucket whose rule to set.
    #[arg(pattern = "^[a-z0-9-]{3,63}$")]
    bucket: String,
    /// Delete objects this many days after upload; 0 turns expiry off.
    expire_after_days: u32,
    /// Move objects to the archive tier after this many days; must be less than `expire_after_days`.
    archive_after_days: Option<u32>,
    /// Apply the rule only to keys under this prefix, which must end with `/`.
    apply_to_prefix: Option<String>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Start a pipeline run for a project at a given ref.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never, authority = "ci:run")]
pub fn trigger_pipeline(
    /// Project slug in the form `group/name`.
    #[arg(pattern = "^[a-z0-9-]+/[a-z0-9-]+$")]
    project: String,
    /// Branch, tag, or full 40-character commit SHA to build.
    git_ref: String,
    /// Extra environment variables for the run; names are uppercase letters, digits and underscores.
    #[arg(pattern = "^[A-Z0-9_]+$")]
    variables: Option<BTreeMap<String, String>>,
    /// UUID identifying this trigger request.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Show one pipeline run: its status, timing and jobs.
#[tool_contract(effect = read_only, authority = "ci:read")]
pub fn get_pipeline(
    /// Numeric id of the pipeline run.
    #[arg(range(min = 1))]
    pipeline_id: u64,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// List recent pipeline runs of a project.
#[tool_contract(effect = read_only, authority = "ci:read")]
pub fn list_pipelines(
    /// Project slug, such as `platform/api`.
    #[arg(pattern = "^[a-z0-9-]+/[a-z0-9-]+$")]
    project: String,
    /// Filter by state: `pending`, `running`, `success` or `failed`.
    #[arg(prose = "trial: a contradiction the build caught (kind C)")]
    status: Option<PipelineStatus>,
    /// Only runs of this branch; branch names are at most 255 characters.
    branch: Option<String>,
    /// Runs started on or after this day; history is kept for 90 days.
    since: Option<NaiveDate>,
    /// Page size, at most 100.
    #[arg(range(min = 1, max = 100))]
    per_page: Option<u32>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Run a failed job again with the same inputs.
#[tool_contract(effect = reversible, idempotency = none, authority = "ci:run")]
pub fn retry_job(
    /// The failed job to run again.
    job_id: u64,
    /// How many times to retry before giving up, 1 to 5.
    #[arg(range(min = 1, max = 3), prose = "trial: a contradiction the build caught (kind C)")]
    max_attempts: u8,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Stop a running pipeline; its unfinished jobs are marked canceled.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "ci:run")]
pub fn cancel_pipeline(
    /// The run to cancel.
    pipeline_id: u64,
    /// Why the run was cancelled, shown in its history; keep it under 200 characters.
    reason: Option<String>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Read the log of one job.
#[tool_contract(effect = read_only, authority = "ci:read")]
pub fn get_job_log(
    /// The job whose log to read.
    job_id: u64,
    /// Return only the last N lines, 1 to 5000.
    #[arg(range(min = 1, max = 5000))]
    tail_lines: Option<u32>,
    /// Output format: plain `text` or `json`.
    #[arg(prose = "trial: a contradiction the build caught (kind C)")]
    log_format: LogFormat,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Create or update a CI variable of a project.
#[tool_contract(effect = reversible, idempotency = natural, authority = "ci:admin")]
pub fn set_variable(
    /// The project to set the variable on.
    #[arg(pattern = "^[a-z0-9-]+/[a-z0-9-]+$")]
    project: String,
    /// Variable name in upper snake case, e.g. `DEPLOY_TOKEN`.
    name: String,
    /// The value, at most 10000 characters.
    #[arg(length(max = 10000), secret)]
    value: String,
    /// Environment scope: `production`, `staging`, or `*` for all.
    environment: Option<String>,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

/// Run a project's pipeline on a schedule.
#[tool_contract(effect = reversible, idempotency = none, authority = "ci:admin")]
pub fn create_schedule(
    /// Project the schedule belongs to.
    #[arg(pattern = "^[a-z0-9-]+/[a-z0-9-]+$")]
    project: String,
    /// Cron expression with five fields, evaluated in UTC.
    cron: String,
    /// Branch to build, 1 to 255 characters.
    #[arg(length(min = 1, max = 255))]
    git_ref: String,
    /// Stop running after this day, which can be at most one year from today.
    active_until: Option<NaiveDate>,
    /// Job timeout in minutes, at most 360.
    #[arg(range(min = 1, max = 720), prose = "trial: a contradiction the build caught (kind C)")]
    timeout_minutes: u32,
) -> Result<Ack, ApiError> {
    Ok(Ack { ok: true })
}

fn main() {
    let registry = Registry::builder()
        .tool(list_invoices::contract())
        .tool(get_invoice::contract())
        .tool(create_invoice::contract())
        .tool(add_line_item::contract())
        .tool(issue_refund::contract())
        .tool(void_invoice::contract())
        .tool(search_customers::contract())
        .tool(update_customer_email::contract())
        .tool(list_events::contract())
        .tool(create_event::contract())
        .tool(reschedule_event::contract())
        .tool(cancel_event::contract())
        .tool(find_free_slots::contract())
        .tool(set_reminder::contract())
        .tool(share_calendar::contract())
        .tool(list_objects::contract())
        .tool(upload_object::contract())
        .tool(copy_object::contract())
        .tool(delete_objects::contract())
        .tool(create_share_link::contract())
        .tool(set_bucket_lifecycle::contract())
        .tool(trigger_pipeline::contract())
        .tool(get_pipeline::contract())
        .tool(list_pipelines::contract())
        .tool(retry_job::contract())
        .tool(cancel_pipeline::contract())
        .tool(get_job_log::contract())
        .tool(set_variable::contract())
        .tool(create_schedule::contract())
        .build()
        .expect("registry builds");
    let findings = registry.audit();
    println!("{} findings", findings.len());
    for f in findings {
        println!("FINDING\ttool={}\targ={}\tfamily={}\tphrase={:?}\tlevel={:?}\trecognizer={}\tcheck={:?}\tack={:?}\thelp={}", f.tool, f.argument.as_deref().unwrap_or("(tool)"), f.family, f.phrase, f.level, f.recognizer, f.check, f.acknowledged, f.help);
    }
}
