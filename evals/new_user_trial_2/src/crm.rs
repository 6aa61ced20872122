#![allow(unused)]
use crate::common::{Done, Oops};
use contract_runtime::prelude::*;

/// Lifecycle stage of a contact.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Lifecycle {
    /// Not yet qualified.
    Lead,
    /// Qualified, talking to sales.
    Prospect,
    /// Paying customer.
    Customer,
    /// Former customer.
    Churned,
}

/// Stage of a deal in the pipeline.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum DealStage {
    /// Qualifying the need.
    Qualification,
    /// Proposal sent.
    Proposal,
    /// Terms under negotiation.
    Negotiation,
    /// Won.
    ClosedWon,
    /// Lost.
    ClosedLost,
}

/// Kind of activity on a contact's timeline.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum ActivityKind {
    /// A phone call.
    Call,
    /// An email exchange.
    Email,
    /// A meeting.
    Meeting,
    /// A free-form note.
    Note,
}

/// File format of a contact export.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// Comma-separated values.
    Csv,
    /// Excel workbook.
    Xlsx,
    /// JSON array.
    Json,
}

// GT-TOOL: A
/// Search the CRM's contacts by name, email or company. Results are sorted by
/// last activity, newest first.
#[tool_contract(effect = read_only, authority = "crm:read")]
pub fn search_contacts(
    // GT: A
    /// Free text matched against name, email and company; 1 to 100 characters.
    #[arg(length(min = 1, max = 100))]
    query: String,
    // GT: A
    /// Maximum number of contacts to return, from 1 to 50. Defaults to 20.
    #[arg(range(min = 1, max = 50))]
    limit: Option<u32>,
    // GT: A
    /// Lifecycle stage to filter by: lead, prospect, customer or churned.
    lifecycle: Option<Lifecycle>,
    // GT: B: at most 365 (range max = 365 not declared)
    /// Only contacts created in the last N days; at most 365.
    created_within_days: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Fetch one contact with its company, owner and open deals.
#[tool_contract(effect = read_only, authority = "crm:read")]
pub fn get_contact(
    // GT: A
    /// The contact's id, which starts with `con_` followed by 12 letters or digits.
    #[arg(pattern = "^con_[A-Za-z0-9]{12}$")]
    contact_id: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Create a new contact in the CRM. Use `search_contacts` first to avoid
/// creating a duplicate.
#[tool_contract(effect = reversible, idempotency = key(request_id), authority = "crm:write")]
pub fn create_contact(
    // GT: B: format email (not declared)
    /// Primary email address of the contact; must be a valid email address.
    email: String,
    // GT: C: prose max 80 characters vs declared length max 120
    /// Full name as the contact writes it, up to 80 characters.
    #[arg(prose = "trial: a compile error of the first build", length(min = 1, max = 120))]
    full_name: String,
    // GT: A
    /// Phone number in E.164 format, such as +14155550123.
    #[arg(pattern = "^\\+[1-9][0-9]{6,14}$")]
    phone: Option<String>,
    // GT: A
    /// Two-letter ISO 3166-1 country code, uppercase (e.g. DE, US).
    #[arg(pattern = "^[A-Z]{2}$")]
    country: String,
    // GT: A
    /// A fresh UUID for this request, so that a retry does not create a duplicate.
    #[arg(format = "uuid")]
    request_id: String,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Move a deal to another stage of the sales pipeline.
#[tool_contract(effect = reversible, idempotency = natural, authority = "crm:write")]
pub fn update_deal_stage(
    // GT: A
    /// The deal to move, like `deal_00012345`.
    #[arg(pattern = "^deal_[0-9]{8}$")]
    deal_id: String,
    // GT: C: prose lists 4 stages, declaration has 5 (closed_lost missing from prose)
    /// New pipeline stage: qualification, proposal, negotiation or closed_won.
    #[arg(prose = "trial: a compile error of the first build")]
    stage: DealStage,
    // GT: B: range 0..=100 (u8 declares 0..=255)
    /// Win probability as a percentage between 0 and 100.
    probability: Option<u8>,
    // GT: C: prose max 500 characters vs declared length max 2000
    /// A short note explaining the change, at most 500 characters.
    #[arg(prose = "trial: a compile error of the first build", length(max = 2000))]
    note: Option<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Record a call, email, meeting or note on a contact's timeline.
#[tool_contract(effect = reversible, idempotency = natural, authority = "crm:write")]
pub fn log_activity(
    // GT: A
    /// What kind of activity: call, email, meeting or note.
    kind: ActivityKind,
    // GT: B: maxLength 120 (not declared)
    /// One-line summary of the activity, no longer than 120 characters.
    subject: String,
    // GT: A
    /// How long the call or meeting lasted, in minutes; at most 8 hours.
    #[arg(range(min = 1, max = 480))]
    duration_minutes: Option<u32>,
    // GT: B: not in the future (not declared; only min 2000-01-01 declared)
    /// The day the activity happened (YYYY-MM-DD). Must not be in the future.
    #[arg(range(min = "2000-01-01"))]
    occurred_on: chrono::NaiveDate,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: B: a contact can be merged at most once per day (world rule, not declared)
/// Merge duplicate contacts into one. The duplicates are deleted and their
/// activities moved to the primary contact. A contact can be merged at most
/// once per day.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "crm:admin")]
pub fn merge_contacts(
    // GT: A
    /// Contacts to merge into the primary one and then delete; between 1 and 10 ids.
    #[arg(length(min = 1, max = 10), each(pattern = "^con_[A-Za-z0-9]{12}$"))]
    duplicate_ids: Vec<String>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}

// GT-TOOL: A
/// Export contacts to a file and return a download link valid for one hour.
#[tool_contract(effect = read_only, authority = "crm:export")]
pub fn export_contacts(
    // GT: C: prose lists csv, xlsx; declaration also has json
    /// File format of the export: csv or xlsx.
    #[arg(prose = "trial: a compile error of the first build")]
    format: ExportFormat,
    // GT: B: maxItems 20 (not declared)
    /// Columns to include; at most 20 columns.
    fields: Vec<String>,
    // GT: B: formatMinimum 2015-01-01 (not declared)
    /// Only contacts created on or after this date; the CRM keeps records since 2015-01-01.
    created_after: Option<chrono::NaiveDate>,
) -> Result<Done, Oops> {
    Ok(Done::default())
}
