//! What a contract tool says while it runs, over MCP, as the official Python
//! client (`mcp`, pinned in tests/mcp_client/venv.sh) receives it through
//! tests/mcp_client/notify.py: progress as `notifications/progress` for a
//! request with a `progressToken`, in order and before the result; log lines
//! only once the client chose a level with `logging/setLevel`, and only at or
//! above it; content blocks after the envelope's text; and the host's own
//! prompts served beside the tools (`McpServer::beside`).

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use contract_runtime::mcp::{http::HttpConfig, McpServer};
use contract_runtime::prelude::*;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};
use std::convert::Infallible;

/// Works in three steps, logging at two levels, and returns a picture.
#[tool_contract(effect = read_only)]
pub async fn work(ctx: &CallContext) -> Result<WithContent<u32>, Infallible> {
    for step in 1..=3 {
        ctx.progress(f64::from(step), Some(3.0), Some(&format!("step {step}")));
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    ctx.log(LogLevel::Info, "routine detail");
    ctx.log(LogLevel::Error, "something failed");
    Ok(WithContent::new(3).with(Content::image(&[1, 2, 3], "image/png")))
}

/// The host's prompts, beside the tools.
struct Prompts;

impl ServerHandler for Prompts {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        serde_json::from_value(
            json!({"prompts": [{"name": "greet", "description": "Greets",
            "arguments": [{"name": "name", "required": true}]}]}),
        )
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let name = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("you");
        let result: GetPromptResult = serde_json::from_value(json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": format!("Hello, {name}")}}]}))
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(result.into())
    }
}

#[test]
fn progress_logs_content_and_prompts_reach_the_official_client() {
    let registry = Registry::builder()
        .tool(work::contract())
        .build()
        .expect("registry");
    let server = McpServer::new(Dispatcher::new(registry), Arc::new(Caller::new()))
        .expect("server")
        .beside(Prompts);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let url = format!("http://{}/mcp", listener.local_addr().expect("addr"));
    rt.spawn(server.serve_http_on(listener, HttpConfig::default()));

    let out = Command::new(common::python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/notify.py"))
        .arg(&url)
        .stderr(Stdio::inherit())
        .output()
        .expect("run the MCP client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the MCP client failed: {stdout}");
    let out: Value = serde_json::from_str(&stdout).expect("JSON");

    let steps = json!([
        [1.0, 3.0, "step 1"],
        [2.0, 3.0, "step 2"],
        [3.0, 3.0, "step 3"]
    ]);
    // Before any logging/setLevel: progress (the SDK sends a token with a
    // callback), and no log line.
    assert_eq!(out["before"]["progress"], steps, "{out}");
    assert_eq!(out["before"]["logs"], json!([]), "{out}");
    // At `warning`: the error line, not the info one.
    assert_eq!(out["after"]["progress"], steps, "{out}");
    assert_eq!(
        out["after"]["logs"],
        json!([{"level": "error", "data": "something failed"}]),
        "{out}"
    );
    assert_eq!(out["content"], json!(["text", "image"]), "{out}");
    assert_eq!(out["prompts"], json!(["greet"]), "{out}");
    assert_eq!(out["prompt"], "Hello, Ada", "{out}");
    rt.shutdown_background();
}
