//! One in-memory tool, `search_notes`, served two ways that do the same work:
//! a case-insensitive substring search over three notes held in memory.
//!
//! - [`Bare`]: rmcp's own `#[tool]` macros, arguments a serde + schemars
//!   struct whose schema says `minLength: 1`, which rmcp publishes but does
//!   not check;
//! - [`contract_server`]: the same tool as a contract, through
//!   `contract_runtime::mcp` (strict decode, every constraint, authority,
//!   the envelope). Its handler is an `async fn`, so it runs on the
//!   request's task, as rmcp runs its `#[tool]` function: the like-for-like
//!   comparison;
//! - [`contract_sync_server`]: the same contract with a plain `fn` handler,
//!   which the runtime runs on tokio's blocking pool (so that a handler that
//!   blocks never holds an executor thread): what that hand-off costs per
//!   call.

use std::sync::Arc;

use contract_runtime::mcp::McpServer;
use contract_runtime::prelude::*;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use serde::{Deserialize, Serialize};
use std::convert::Infallible;

const NOTES: [(&str, &str); 3] = [
    (
        "kv-cache.md",
        "# KV cache\nThe KV cache trades memory for speed.\nEvict by recency.\n",
    ),
    (
        "agents.md",
        "# Agents\nA tool is an authority boundary.\nModels call tools.\n",
    ),
    (
        "rust.md",
        "# Rust\nOwnership makes sharing explicit.\nThe cache is a map.\n",
    ),
];

/// One line of a note that matched.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Match {
    /// The note's file name.
    pub note: String,
    /// 1-based line number.
    pub line: usize,
    /// The line's text.
    pub text: String,
}

/// The lines that matched, in note order.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Matches {
    /// Every matching line; empty when nothing matched.
    pub matches: Vec<Match>,
}

/// The work both servers do.
fn search(query: &str) -> Matches {
    let needle = query.to_lowercase();
    let mut matches = Vec::new();
    for (note, text) in NOTES {
        for (i, line) in text.lines().enumerate() {
            if line.to_lowercase().contains(&needle) {
                matches.push(Match {
                    note: note.to_owned(),
                    line: i + 1,
                    text: line.to_owned(),
                });
            }
        }
    }
    Matches { matches }
}

// ------------------------------------------------------------------ bare rmcp

/// Arguments of the bare tool: the same schema as the contract's.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    /// Text to search for; matched case-insensitively as a substring.
    #[schemars(length(min = 1, max = 200))]
    pub query: String,
}

/// The bare rmcp server.
#[derive(Clone)]
pub struct Bare;

#[tool_router(server_handler)]
impl Bare {
    /// Search the approved public-note index.
    #[tool(description = "Search the approved public-note index.")]
    fn search_notes(&self, Parameters(args): Parameters<SearchArgs>) -> Json<Matches> {
        Json(search(&args.query))
    }
}

// ------------------------------------------------------------------ contract

/// Search the approved public-note index.
#[tool_contract(effect = read_only, authority = "notes:read", name = "search_notes")]
pub async fn search_notes_contract(
    /// Text to search for; matched case-insensitively as a substring.
    #[arg(length(min = 1, max = 200))]
    query: String,
) -> Result<Matches, Infallible> {
    Ok(search(&query))
}

/// Search the approved public-note index.
#[tool_contract(effect = read_only, authority = "notes:read", name = "search_notes")]
pub fn search_notes_sync(
    /// Text to search for; matched case-insensitively as a substring.
    #[arg(length(min = 1, max = 200))]
    query: String,
) -> Result<Matches, Infallible> {
    Ok(search(&query))
}

/// The contract server: one tool (its handler `async`), a caller holding
/// its scope.
pub fn contract_server() -> McpServer {
    server(search_notes_contract::contract())
}

/// The same contract server with the tool's handler a plain `fn`, run on
/// the blocking pool.
pub fn contract_sync_server() -> McpServer {
    server(search_notes_sync::contract())
}

fn server(tool: contract_runtime::Tool) -> McpServer {
    let registry = Registry::builder()
        .tool(tool)
        .build()
        .expect("one valid tool");
    McpServer::new(
        Dispatcher::new(registry),
        Arc::new(Caller::new().grant("notes:read")),
    )
    .expect("exports for MCP")
}

// ------------------------------------------------------------------ floor

/// The floor the other HTTP servers are read against: rmcp's transport
/// and session with a handler that does no work (every `tools/call`
/// answered at once with the same one-line result, its arguments not
/// read, no tool router). What is left of a call's time is the
/// transport's, the session's and the client's; the rest of each server's
/// is its handler's (docs/performance.md, "The one-client gap").
#[derive(Clone)]
pub struct Floor;

impl rmcp::ServerHandler for Floor {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .build(),
        )
    }

    async fn call_tool(
        &self,
        _request: rmcp::model::CallToolRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        let mut result =
            rmcp::model::CallToolResult::success(vec![rmcp::model::ContentBlock::text(
                r#"{"matches":[]}"#,
            )]);
        result.structured_content = Some(serde_json::json!({"matches": []}));
        Ok(result.into())
    }
}
