use crate::common::{done, Done, Oops};
use contract_runtime::prelude::*;

// @gt A: type doc
/// What a party does with the contract.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum PartyRole {
    Signer,
    Approver,
    Viewer,
    Witness,
}

// @gt A: struct doc
/// One party to the contract.
#[derive(ToolArgs)]
pub struct Party {
    // @gt A: no constraint
    /// Legal name of the person or company.
    #[arg(length(min = 1, max = 100))]
    pub full_name: String,
    // @gt A: email
    /// Where the signing request goes.
    #[arg(format = "email")]
    pub email: String,
    // @gt C: list lacks witness, which the enum has
    /// Role: signer, approver or viewer.
    pub role: PartyRole,
}

// @gt A: type doc
/// In which order the parties sign.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum SigningOrder {
    Parallel,
    Sequential,
}

// @gt A: type doc
/// The state of a contract.
#[derive(ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum ContractStatus {
    Draft,
    Sent,
    Signed,
    Declined,
    Expired,
    Voided,
}

// @gt A: type doc
/// How the signature is given.
#[derive(ToolArgs)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum SignatureMethod {
    // @gt A: variant doc
    /// The signer types their name.
    Typed {
        // @gt A: no constraint
        /// Name typed as the signature.
        #[arg(length(min = 2, max = 100))]
        full_name: String,
    },
    // @gt A: variant doc
    /// The signer draws the signature.
    Drawn {
        // @gt B: 20 kB size limit not declared (declares 50000 chars)
        /// The drawn signature as SVG markup, at most 20 kB.
        #[arg(length(max = 50000))]
        svg: String,
    },
    // @gt A: variant doc
    /// A one-time code sent by SMS.
    Otp {
        // @gt A: 6 digits as pattern
        /// The 6-digit code from the SMS.
        #[arg(pattern = "^[0-9]{6}$")]
        code: String,
    },
}

// @gt A: expiry is information, not a constraint on arguments
/// Create a draft contract from a template. A draft that is never sent expires
/// after 30 days.
#[tool_contract(effect = reversible, idempotency = key(draft_key), authority = "contracts:write")]
pub fn create_contract(
    // @gt A: tpl_ and 8 as pattern
    /// Template to start from, `tpl_` and 8 lowercase letters or digits.
    #[arg(pattern = "^tpl_[a-z0-9]{8}$")]
    template_id: String,
    // @gt A: 3-120 as declared
    /// Contract title, 3-120 characters.
    #[arg(length(min = 3, max = 120))]
    title: String,
    // @gt C: says two to six, declared max 10
    /// The parties to the contract, two to six.
    #[arg(length(min = 2, max = 10))]
    parties: Vec<Party>,
    // @gt A: alpha-2 code as pattern
    /// Governing law as an ISO 3166-1 alpha-2 country code, like DE.
    #[arg(pattern = "^[A-Z]{2}$")]
    jurisdiction: String,
    // @gt A: default only
    /// Day the contract takes effect; defaults to the day of the last signature.
    effective_date: Option<chrono::NaiveDate>,
    // @gt A: uuid
    /// UUID of this draft request, for safe retries.
    #[arg(format = "uuid")]
    draft_key: String,
) -> Result<Done, Oops> {
    let _ = (template_id, title, parties, jurisdiction, effective_date, draft_key);
    done()
}

// @gt B: no edits in signing; at most 200 clauses (world rules)
/// Add a clause to a draft. Contracts out for signature cannot be edited, and
/// a contract holds at most 200 clauses.
#[tool_contract(effect = reversible, idempotency = none, authority = "contracts:write")]
pub fn add_clause(
    // @gt A: ctr_ + 12 hex as pattern
    /// Contract id (ctr_ followed by 12 hex digits).
    #[arg(pattern = "^ctr_[0-9a-f]{12}$")]
    contract_id: String,
    // @gt B: min 3 characters not declared (only max 80)
    /// Clause heading, at least 3 characters.
    #[arg(length(max = 80))]
    heading: String,
    // @gt C: says at most 5000, declared max 10000
    /// Clause text in Markdown, at most 5000 characters.
    #[arg(length(min = 1, max = 10000))]
    body: String,
    // @gt A: 1 = first, matches min 1
    /// Where to insert it (1 = first); appended at the end when left out.
    #[arg(range(min = 1))]
    position: Option<u16>,
) -> Result<Done, Oops> {
    let _ = (contract_id, heading, body, position);
    done()
}

// @gt A: plain description
/// Send a contract to its parties for signature by email.
#[tool_contract(
    effect = external,
    idempotency = key(send_key),
    approval = always,
    authority = "contracts:send"
)]
pub fn send_for_signature(
    // @gt A: same as pattern
    /// Contract id (ctr_ followed by 12 hex digits).
    #[arg(pattern = "^ctr_[0-9a-f]{12}$")]
    contract_id: String,
    // @gt A: up to 1000 as declared
    /// Cover message shown in the email, up to 1000 characters.
    #[arg(length(max = 1000))]
    message: Option<String>,
    // @gt A: 1 to 90 as declared, default
    /// Days until the request expires, 1 to 90; default 30.
    #[arg(range(min = 1, max = 90))]
    expires_in_days: u16,
    // @gt C: says 1-7, declared max 14
    /// Send a reminder every this many days (1-7).
    #[arg(range(min = 1, max = 14))]
    reminder_every_days: Option<u8>,
    // @gt A: complete description of the two values
    /// Whether parties sign in the listed order or all at once.
    signing_order: SigningOrder,
    // @gt A: uuid
    /// UUID of this send request.
    #[arg(format = "uuid")]
    send_key: String,
) -> Result<Done, Oops> {
    let _ = (contract_id, message, expires_in_days, reminder_every_days, signing_order, send_key);
    done()
}

// @gt B: a party signs once (world rule)
/// Sign a contract as one party. A party signs once; a second signature is refused.
#[tool_contract(
    effect = external,
    idempotency = key(signature_key),
    approval = never,
    authority = "contracts:sign"
)]
pub fn sign_document(
    // @gt A: uuid as declared
    /// The signing envelope's UUID.
    #[arg(format = "uuid")]
    envelope_id: String,
    // @gt B: must be a party of the contract (world rule)
    /// The signer's email; it must belong to a party of the contract.
    #[arg(format = "email")]
    signer_email: String,
    // @gt A: no constraint
    /// How the signature is given.
    signature: SignatureMethod,
    // @gt A: example matches pattern
    /// Version of the consent text shown, like v3.
    #[arg(pattern = "^v[0-9]+$")]
    consent_text_version: String,
    // @gt A: uuid
    /// UUID of this signature, for safe retries.
    #[arg(format = "uuid")]
    signature_key: String,
) -> Result<Done, Oops> {
    let _ = (envelope_id, signer_email, signature, consent_text_version, signature_key);
    done()
}

// @gt C: says at most 50 per page, page_size declares max 100
/// List the organisation's contracts, newest first, at most 50 per page.
#[tool_contract(effect = read_only, authority = "contracts:read")]
pub fn list_contracts(
    // @gt A: complete list of the enum
    /// Filter by status: draft, sent, signed, declined, expired or voided.
    status: Option<ContractStatus>,
    // @gt A: no constraint
    /// Part of a party's name or email.
    #[arg(length(min = 2, max = 100))]
    counterparty: Option<String>,
    // @gt B: archive start 2018-01-01 not declared
    /// Only contracts created after this day; the archive starts on 2018-01-01.
    created_after: Option<chrono::NaiveDate>,
    // @gt A: 1 to 100 as declared
    /// Results per page, 1 to 100.
    #[arg(range(min = 1, max = 100))]
    page_size: u8,
    // @gt A: opaque
    /// Opaque cursor from the previous page.
    #[arg(length(max = 200))]
    cursor: Option<String>,
    // @gt B: closed set newest/oldest/title not declared
    /// Sort order: newest, oldest or title.
    sort: Option<String>,
) -> Result<Done, Oops> {
    let _ = (status, counterparty, created_after, page_size, cursor, sort);
    done()
}

// @gt B: fully signed contracts cannot be voided (world rule)
/// Void a contract that is out for signature. Fully signed contracts cannot be voided.
#[tool_contract(
    effect = destructive,
    idempotency = natural,
    approval = always,
    authority = "contracts:void"
)]
pub fn void_contract(
    // @gt A: same as pattern
    /// Contract id (ctr_ followed by 12 hex digits).
    #[arg(pattern = "^ctr_[0-9a-f]{12}$")]
    contract_id: String,
    // @gt C: says at least 20, declared min 10
    /// Why it is voided, at least 20 characters; shown to every party.
    #[arg(length(min = 10, max = 500))]
    reason: String,
    // @gt A: flag
    /// Email every party about the voiding.
    notify_parties: bool,
) -> Result<Done, Oops> {
    let _ = (contract_id, reason, notify_parties);
    done()
}

// @gt A: link expiry is information
/// Download the PDF of a fully signed contract. Download links expire after 15 minutes.
#[tool_contract(effect = read_only, authority = "contracts:read")]
pub fn download_signed_copy(
    // @gt C: says 10 hex digits, pattern says 12
    /// The contract, `ctr_` plus 10 hex digits.
    #[arg(pattern = "^ctr_[0-9a-f]{12}$")]
    contract_id: String,
    // @gt A: flag
    /// Append the certificate of completion.
    include_audit_trail: bool,
    // @gt A: up to 40 as declared, example
    /// Text stamped on each page, up to 40 characters, e.g. COPY.
    #[arg(length(max = 40))]
    watermark: Option<String>,
) -> Result<Done, Oops> {
    let _ = (contract_id, include_audit_trail, watermark);
    done()
}
