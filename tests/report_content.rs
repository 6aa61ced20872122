//! What a contract tool can say beside its result, on any transport: progress
//! and log lines (`CallContext::progress`, `CallContext::log`) reach the
//! reporter the transport set in the call's `CallScope`, scrubbed of the
//! caller's secrets; content (`WithContent`) rides beside the envelope,
//! never in its JSON, and becomes MCP content blocks after the envelope's
//! text.

use std::sync::{Arc, Mutex};

use contract_runtime::content::{Content, WithContent};
use contract_runtime::mcp::call_tool_result;
use contract_runtime::prelude::*;
use contract_runtime::report::{CallScope, LogLevel, Reporter};
use contract_runtime::ToolOutput;
use serde_json::json;
use std::convert::Infallible;

/// The pixel count.
#[derive(serde::Serialize, JsonSchema)]
pub struct Shot {
    /// Pixels in the image.
    pub pixels: u32,
}

/// Takes a screenshot of the page.
#[tool_contract(effect = read_only)]
pub fn screenshot() -> Result<WithContent<Shot>, Infallible> {
    Ok(WithContent::new(Shot { pixels: 1 })
        .with(Content::image(&[1, 2, 3], "image/png"))
        .with(Content::resource_text(
            "test://page",
            "text/html",
            "<p>hi</p>",
        )))
}

/// Reads a note, which quotes a password.
#[tool_contract(effect = read_only)]
pub fn leaky() -> Result<WithContent<u32>, Infallible> {
    Ok(WithContent::new(1)
        .with(Content::text("the password is hunter2"))
        .with(Content::resource_text(
            "test://note",
            "text/plain",
            "hunter2!",
        )))
}

/// Counts to three, reporting each step.
#[tool_contract(effect = read_only)]
pub async fn count(ctx: &CallContext) -> Result<u32, Infallible> {
    for i in 1..=3 {
        ctx.progress(f64::from(i), Some(3.0), Some("counting with hunter2"));
    }
    ctx.log(LogLevel::Warning, "the password is hunter2");
    Ok(3)
}

#[derive(Default)]
struct Recorder(Mutex<Vec<String>>);

impl Reporter for Recorder {
    fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        self.0
            .lock()
            .unwrap()
            .push(format!("{done}/{total:?} {message:?}"));
    }
    fn log(&self, level: LogLevel, message: &str) {
        self.0
            .lock()
            .unwrap()
            .push(format!("{}: {message}", level.as_str()));
    }
}

fn dispatcher() -> Dispatcher {
    Dispatcher::new(
        Registry::builder()
            .tool(screenshot::contract())
            .tool(count::contract())
            .tool(leaky::contract())
            .build()
            .unwrap(),
    )
}

#[tokio::test]
async fn content_rides_beside_the_envelope_and_becomes_mcp_blocks_after_its_text() {
    let caller = Arc::new(Caller::new());
    let env = dispatcher()
        .dispatch(&caller, &ToolCall::new("1", "screenshot", "{}"))
        .await;
    assert_eq!(env.status, Status::Ok);
    assert_eq!(env.result, json!({"pixels": 1}));
    assert_eq!(env.content.len(), 2);
    // Never in the envelope's JSON (journal, idempotency records, providers).
    assert!(
        !env.to_json_string().contains("image"),
        "{}",
        env.to_json_string()
    );

    let result = serde_json::to_value(call_tool_result(&env)).unwrap();
    let kinds: Vec<&str> = result["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "image", "resource"]);
    assert_eq!(result["content"][1]["data"], "AQID");
    assert_eq!(result["content"][1]["mimeType"], "image/png");
    assert_eq!(result["content"][2]["resource"]["uri"], "test://page");
    assert_eq!(result["content"][2]["resource"]["text"], "<p>hi</p>");
    assert_eq!(result["structuredContent"]["result"], json!({"pixels": 1}));
}

#[test]
fn a_result_with_content_publishes_the_schema_of_its_result_alone() {
    assert_eq!(
        <Result<WithContent<Shot>, Infallible> as ToolOutput>::output_schema(),
        <Result<Shot, Infallible> as ToolOutput>::output_schema()
    );
}

#[tokio::test]
async fn progress_and_logs_reach_the_scopes_reporter_scrubbed_of_secrets() {
    let caller = Arc::new(Caller::new().secret("hunter2"));
    let recorder = Arc::new(Recorder::default());
    let env = CallScope::new()
        .reporter(recorder.clone())
        .run(dispatcher().dispatch(&caller, &ToolCall::new("2", "count", "{}")))
        .await;
    assert_eq!(env.status, Status::Ok);
    assert_eq!(
        *recorder.0.lock().unwrap(),
        [
            "1/Some(3.0) Some(\"counting with [redacted]\")",
            "2/Some(3.0) Some(\"counting with [redacted]\")",
            "3/Some(3.0) Some(\"counting with [redacted]\")",
            "warning: the password is [redacted]",
        ]
    );
}

#[tokio::test]
async fn without_a_scope_reports_go_to_tracing_only_and_the_call_is_unchanged() {
    let caller = Arc::new(Caller::new());
    let env = dispatcher()
        .dispatch(&caller, &ToolCall::new("3", "count", "{}"))
        .await;
    assert_eq!(env.status, Status::Ok);
    assert_eq!(env.result, json!(3));
}

#[tokio::test]
async fn the_callers_secrets_are_scrubbed_from_the_text_of_content() {
    let caller = Arc::new(Caller::new().secret("hunter2"));
    let env = dispatcher()
        .dispatch(&caller, &ToolCall::new("4", "leaky", "{}"))
        .await;
    let result = serde_json::to_value(call_tool_result(&env)).unwrap();
    assert_eq!(result["content"][1]["text"], "the password is [redacted]");
    assert_eq!(result["content"][2]["resource"]["text"], "[redacted]!");
}
