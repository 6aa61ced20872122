//! Arguments as inline parameters or as a `#[derive(ToolArgs)]` struct, on
//! sync and async functions, with and without a `&CallContext`.
use contract_runtime::prelude::*;
use serde::Serialize;

/// The matching notes.
#[derive(Serialize, JsonSchema)]
pub struct Matches {
    /// Their names.
    pub notes: Vec<String>,
}

/// Why a search failed.
#[derive(Debug, ToolFailure)]
pub enum SearchError {
    /// The index is being rebuilt.
    #[failure(code = "index-busy", transient, retry_after_ms = 500)]
    Busy,
}

/// Words to look for in the note index.
#[derive(ToolArgs)]
pub struct SearchNotes {
    /// Text to search for; matched case-insensitively.
    #[arg(length(min = 1, max = 200))]
    pub query: String,
}

/// Search the note index (argument struct, sync).
#[tool_contract(effect = read_only, authority = "notes:read")]
pub fn search_notes(args: SearchNotes) -> Result<Matches, SearchError> {
    Ok(Matches { notes: vec![args.query] })
}

/// Search the note index (argument struct, async, with the call context).
#[tool_contract(effect = read_only, authority = ["notes:read", "index:read"])]
pub async fn search_notes_async(ctx: &CallContext, args: SearchNotes) -> Result<Matches, SearchError> {
    let _ = ctx;
    Ok(Matches { notes: vec![args.query] })
}

/// Search the note index (inline parameters, sync).
#[tool_contract(effect = read_only, timeout_ms = 2000)]
pub fn find_notes(
    /// Text to search for; matched case-insensitively.
    #[arg(length(min = 1, max = 200))]
    query: String,
    /// How many notes to return.
    #[arg(range(min = 1, max = 50))]
    limit: u32,
) -> Result<Matches, SearchError> {
    Ok(Matches { notes: vec![query; limit as usize] })
}

/// Search the note index (inline parameters, async, with the call context).
#[tool_contract(effect = read_only, name = "find-notes-async")]
pub async fn find_notes_async(
    ctx: &CallContext,
    /// Text to search for; matched case-insensitively.
    #[arg(length(min = 1, max = 200))]
    query: String,
) -> Result<Matches, SearchError> {
    let _ = ctx;
    Ok(Matches { notes: vec![query] })
}

fn main() {
    let registry = Registry::builder()
        .tool(search_notes::contract())
        .tool(search_notes_async::contract())
        .tool(find_notes::contract())
        .tool(find_notes_async::contract())
        .build()
        .expect("a valid registry");
    assert!(registry.get("find-notes-async").is_some());
    let schema = registry.get("find_notes").expect("registered").input_schema();
    assert_eq!(schema["properties"]["limit"]["maximum"], 50);
}
