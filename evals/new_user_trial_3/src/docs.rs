#![allow(unused_variables)]
use contract_runtime::prelude::*;
use crate::common::*;

/// Full-text search over the knowledge base, ranked by relevance. The query may not contain more than 32 words.
#[tool_contract(effect = read_only, authority = "kb:read", prose = "trial: compile error recorded")]
pub fn search_documents(
    /// Search terms; between 1 and 256 characters.
    #[arg(length(min = 1, max = 256))]
    query: String,
    /// Collections to search, at most ten; all collections if omitted.
    #[arg(length(max = 10), each(pattern = "^col_[a-z0-9]{6}$"))]
    collections: Option<Vec<String>>,
    /// Results per page, at most 50.
    #[arg(range(min = 1, max = 100), prose = "trial: compile error recorded")]
    page_size: Option<u8>,
    /// Restrict to documents in one language (en, de, fr, es or ja).
    language: Option<Lang>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Fetch one document's metadata and, optionally, its text.
#[tool_contract(effect = read_only, authority = "kb:read")]
pub fn get_document(
    /// Document id, doc_ plus 20 alphanumeric characters.
    #[arg(pattern = "^doc_[0-9A-Za-z]{20}$")]
    document_id: String,
    /// Truncate the body to this many bytes, from 1 KiB to 1 MiB.
    #[arg(range(min = 1024, max = 1048576))]
    max_body_bytes: Option<u32>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Add a document to the knowledge base. It becomes searchable within a minute.
#[tool_contract(effect = reversible, idempotency = natural, authority = "kb:write")]
pub fn upload_document(
    /// Document title, no longer than 200 characters.
    #[arg(length(min = 1, max = 200))]
    title: String,
    /// The file content, base64-encoded; the decoded file may be at most 25 MB.
    #[arg(length(min = 1), prose = "trial: compile error recorded")]
    content_base64: String,
    /// MIME type of the content: application/pdf, text/markdown or text/plain.
    mime_type: String,
    /// Up to 10 distinct tags, each 1–32 characters.
    #[arg(length(max = 10), unique, each(length(min = 1, max = 32)))]
    tags: Vec<String>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Delete a document from the knowledge base.
#[tool_contract(effect = destructive, idempotency = natural, approval = always, authority = "kb:admin")]
pub fn delete_document(
    /// The document to delete, doc_ followed by 16 alphanumerics.
    #[arg(pattern = "^doc_[0-9A-Za-z]{20}$")]
    document_id: String,
    /// true to erase it at once; false moves it to the trash for 30 days.
    hard_delete: bool,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Write a summary of one document.
#[tool_contract(effect = read_only, authority = "kb:read")]
pub fn summarize_document(
    /// Document to summarize.
    #[arg(pattern = "^doc_[0-9A-Za-z]{20}$")]
    document_id: String,
    /// Target summary length, 20 to 500 words.
    #[arg(range(min = 20, max = 400), prose = "trial: compile error recorded")]
    max_words: u16,
    /// Output style: bullets or paragraph.
    #[arg(prose = "trial: compile error recorded")]
    style: SummaryStyle,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Answer a question from the knowledge base with citations. Questions must be written in English.
#[tool_contract(effect = read_only, authority = "kb:read")]
pub fn ask_question(
    /// The question in natural language, 5 to 1,000 characters.
    #[arg(length(min = 5, max = 1000))]
    question: String,
    /// How many passages to retrieve before answering (1-20).
    #[arg(range(min = 1, max = 20))]
    top_k: Option<u8>,
    /// Only use documents updated on or after this date; dates before 2015-01-01 are not indexed.
    since: Option<chrono::NaiveDate>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}

/// Share a document with people by email.
#[tool_contract(effect = external, idempotency = natural, approval = always, authority = "kb:share")]
pub fn share_document(
    /// The document to share.
    #[arg(pattern = "^doc_[0-9A-Za-z]{20}$")]
    document_id: String,
    /// Email addresses of the people to share with; one to twenty-five, all within the company's domain.
    #[arg(length(min = 1, max = 25), each(format = "email"))]
    recipient_emails: Vec<String>,
    /// view, comment or edit.
    permission: Permission,
    /// Days until the link stops working; 1 to 365.
    #[arg(range(min = 1))]
    expires_in_days: Option<u16>,
) -> Result<Done, Oops> {
    Ok(Done { ok: true })
}
