//! The conformance suite's tools, each a contract.

use contract_runtime::mcp::McpClient;
use contract_runtime::prelude::*;
use rmcp::model::{ClientResult, ElicitRequest, ServerRequest};
use serde::Serialize;
use serde_json::{json, Value};
use std::convert::Infallible;

/// The suite's image: a 1x1 red PNG, base64.
pub const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// The suite's sound: a minimal WAV file, base64.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// What a tool of this server says.
#[derive(Serialize, JsonSchema)]
pub struct Said {
    /// The text.
    pub text: String,
}

fn said(text: impl Into<String>) -> Said {
    Said { text: text.into() }
}

/// Why a tool that needs the client could not use it.
#[derive(Debug, ToolFailure)]
pub enum ClientFailure {
    /// The call did not come over MCP, so there is no client to ask.
    #[failure(code = "no-mcp-client")]
    NoClient,
    /// The client refused or could not answer the request.
    #[failure(code = "client-request-failed", transient)]
    Refused,
}

/// A tool that fails on purpose.
#[derive(Debug, ToolFailure)]
pub enum Intentional {
    /// This tool intentionally returns an error for testing.
    #[failure(code = "intentional-error")]
    Always,
}

/// Returns a fixed line of text, for testing simple text content.
#[tool_contract(effect = read_only)]
pub fn test_simple_text() -> Result<WithContent<Said>, Infallible> {
    let text = "This is a simple text response for testing.";
    Ok(WithContent::new(said(text)).with(Content::text(text)))
}

/// Returns a one-pixel PNG image beside its result, for testing image content.
#[tool_contract(effect = read_only)]
pub fn test_image_content() -> Result<WithContent<Said>, Infallible> {
    Ok(WithContent::new(said("an image")).with(Content::image_base64(PNG, "image/png")))
}

/// Returns a short WAV sound beside its result, for testing audio content.
#[tool_contract(effect = read_only)]
pub fn test_audio_content() -> Result<WithContent<Said>, Infallible> {
    Ok(WithContent::new(said("a sound")).with(Content::audio_base64(WAV, "audio/wav")))
}

/// Returns an embedded text resource beside its result.
#[tool_contract(effect = read_only)]
pub fn test_embedded_resource() -> Result<WithContent<Said>, Infallible> {
    Ok(
        WithContent::new(said("an embedded resource")).with(Content::resource_text(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )),
    )
}

/// Returns text, an image and an embedded resource beside its result.
#[tool_contract(effect = read_only)]
pub fn test_multiple_content_types() -> Result<WithContent<Said>, Infallible> {
    Ok(WithContent::new(said("several kinds of content"))
        .with(Content::text("Multiple content types test:"))
        .with(Content::image_base64(PNG, "image/png"))
        .with(Content::resource_text(
            "test://mixed-content-resource",
            "application/json",
            json!({"test": "data", "value": 123}).to_string(),
        )))
}

/// Writes three log lines while it runs, 50 ms apart.
#[tool_contract(effect = read_only)]
pub async fn test_tool_with_logging(ctx: &CallContext) -> Result<Said, Infallible> {
    ctx.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed");
    Ok(said("Tool with logging executed successfully"))
}

/// Reports progress three times while it runs (0, 50 and 100 of 100), 50 ms apart.
#[tool_contract(effect = read_only)]
pub async fn test_tool_with_progress(ctx: &CallContext) -> Result<Said, Infallible> {
    for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        ctx.progress(
            done,
            Some(100.0),
            Some(&format!("Completed step {done} of 100")),
        );
    }
    Ok(said("done"))
}

/// Always fails, for testing how a failure is reported.
#[tool_contract(effect = read_only)]
pub fn test_error_handling() -> Result<Said, Intentional> {
    Err(Intentional::Always)
}

/// Waits 100 ms and answers; the suite uses it to test reconnecting clients.
#[tool_contract(effect = read_only)]
pub async fn test_reconnection() -> Result<Said, Infallible> {
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    Ok(said("Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."))
}

/// Asks the client's model to answer a prompt (MCP sampling) and returns its answer.
#[tool_contract(effect = read_only)]
pub async fn test_sampling(
    ctx: &CallContext,
    /// The prompt to send to the model.
    #[arg(length(min = 1, max = 4000))]
    prompt: String,
) -> Result<Said, ClientFailure> {
    let client = ctx.extra::<McpClient>().ok_or(ClientFailure::NoClient)?;
    let params = serde_json::from_value(json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": 100
    }))
    .map_err(|_| ClientFailure::Refused)?;
    #[allow(deprecated)] // sampling in a call: the 2025 revisions' way
    let answer = client
        .0
        .create_message(params)
        .await
        .map_err(|_| ClientFailure::Refused)?;
    let answer = serde_json::to_value(&answer).unwrap_or(Value::Null);
    let text = answer
        .pointer("/content/text")
        .and_then(Value::as_str)
        .unwrap_or("No response");
    Ok(said(format!("LLM response: {text}")))
}

/// Asks the person at the client for a response (MCP elicitation) and returns what they did.
#[tool_contract(effect = read_only)]
pub async fn test_elicitation(
    ctx: &CallContext,
    /// The message to show the person.
    #[arg(length(min = 1, max = 4000))]
    message: String,
) -> Result<Said, ClientFailure> {
    let schema = json!({
        "type": "object",
        "properties": {"response": {"type": "string", "description": "User's response"}},
        "required": ["response"]
    });
    let (action, content) = elicit(ctx, &message, schema).await?;
    Ok(said(format!(
        "User response: action={action}, content={content}"
    )))
}

/// Asks the person to review a form whose fields have defaults of every primitive type.
#[tool_contract(effect = read_only)]
pub async fn test_elicitation_sep1034_defaults(ctx: &CallContext) -> Result<Said, ClientFailure> {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {"type": "string", "description": "User status",
                       "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "description": "Verification status", "default": true}
        },
        "required": []
    });
    let (action, content) = elicit(
        ctx,
        "Please review and update the form fields with defaults",
        schema,
    )
    .await?;
    Ok(said(format!(
        "Elicitation completed: action={action}, content={content}"
    )))
}

/// Asks the person to choose from each kind of enumeration a form may hold.
#[tool_contract(effect = read_only)]
pub async fn test_elicitation_sep1330_enums(ctx: &CallContext) -> Result<Said, ClientFailure> {
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "description": "Select one option",
                               "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "description": "Select one option with titles",
                             "oneOf": [{"const": "value1", "title": "First Option"},
                                       {"const": "value2", "title": "Second Option"},
                                       {"const": "value3", "title": "Third Option"}]},
            "legacyEnum": {"type": "string", "description": "Select one option (legacy)",
                           "enum": ["opt1", "opt2", "opt3"],
                           "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array", "description": "Select multiple options",
                              "minItems": 1, "maxItems": 3,
                              "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "description": "Select multiple options with titles",
                            "minItems": 1, "maxItems": 3,
                            "items": {"anyOf": [{"const": "value1", "title": "First Choice"},
                                                {"const": "value2", "title": "Second Choice"},
                                                {"const": "value3", "title": "Third Choice"}]}}
        },
        "required": []
    });
    let (action, content) =
        elicit(ctx, "Please select options from the enum fields", schema).await?;
    Ok(said(format!(
        "Elicitation completed: action={action}, content={content}"
    )))
}

/// One `elicitation/create` to the client of this call: the action the
/// person took and what they entered.
async fn elicit(
    ctx: &CallContext,
    message: &str,
    schema: Value,
) -> Result<(String, Value), ClientFailure> {
    let client = ctx.extra::<McpClient>().ok_or(ClientFailure::NoClient)?;
    let params = serde_json::from_value(json!({
        "mode": "form",
        "message": message,
        "requestedSchema": schema
    }))
    .map_err(|_| ClientFailure::Refused)?;
    let answer = client
        .0
        .send_request(ServerRequest::ElicitRequest(ElicitRequest::new(params)))
        .await
        .map_err(|_| ClientFailure::Refused)?;
    let ClientResult::ElicitResult(answer) = answer else {
        return Err(ClientFailure::Refused);
    };
    let answer = serde_json::to_value(&answer).unwrap_or(Value::Null);
    let action = answer["action"].as_str().unwrap_or("unknown").to_owned();
    let content = answer.get("content").cloned().unwrap_or(json!({}));
    Ok((action, content))
}

/// A street address.
#[derive(Debug, serde::Deserialize, ToolArgs)]
pub struct Address {
    /// The street and number.
    #[arg(length(max = 200))]
    pub street: Option<String>,
    /// The city.
    #[arg(length(max = 200))]
    pub city: Option<String>,
}

/// Echoes a name and an address; its input schema is JSON Schema 2020-12 with `$defs`.
#[tool_contract(effect = read_only)]
pub fn json_schema_2020_12_tool(
    /// A name.
    #[arg(length(max = 200))]
    name: Option<String>,
    /// An address.
    address: Option<Address>,
) -> Result<Said, Infallible> {
    Ok(said(format!(
        "JSON Schema 2020-12 tool called with: name={name:?}, address={address:?}"
    )))
}

/// Where `test_task_write` records its effect: one JSON line per run,
/// naming its request key (`--effects FILE`; without it, nowhere).
pub struct Effects(pub Option<std::path::PathBuf>);

/// What `test_task_write` did.
#[derive(Serialize, JsonSchema)]
pub struct Written {
    /// The request key its line names.
    pub request_key: String,
}

/// Why `test_task_write` did nothing.
#[derive(Debug, ToolFailure)]
pub enum WriteFailure {
    /// The effects file could not be written.
    #[failure(code = "effects-file-unwritable")]
    Unwritable,
}

/// Writes one line naming its request key to the server's effects file, then
/// keeps working for a while: a long write that runs only as a task.
#[tool_contract(
    effect = external,
    approval = never,
    idempotency = key(request_key),
    task = required,
    state(Effects)
)]
pub async fn test_task_write(
    effects: &Effects,
    /// A fresh key per write; a resend with the same key is answered from the first write.
    #[arg(length(min = 1, max = 100))]
    request_key: String,
    /// How long it keeps working after writing its line, in seconds.
    #[arg(range(max = 60))]
    seconds: u32,
) -> Result<Written, WriteFailure> {
    if let Some(path) = &effects.0 {
        use std::io::Write;
        // One write of the whole line: a reader never sees half of it
        // from this process.
        let line = format!(
            "{}\n",
            json!({ "request_key": request_key, "pid": std::process::id() })
        );
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(line.as_bytes()))
            .map_err(|_| WriteFailure::Unwritable)?;
    }
    tokio::time::sleep(std::time::Duration::from_secs(u64::from(seconds))).await;
    Ok(Written { request_key })
}

/// Every tool of this server, its effects recorded in `effects`.
pub fn registry_with(effects: Effects) -> Registry {
    Registry::builder()
        .state(effects)
        .tool(test_task_write::contract())
        .tool(test_simple_text::contract())
        .tool(test_image_content::contract())
        .tool(test_audio_content::contract())
        .tool(test_embedded_resource::contract())
        .tool(test_multiple_content_types::contract())
        .tool(test_tool_with_logging::contract())
        .tool(test_tool_with_progress::contract())
        .tool(test_error_handling::contract())
        .tool(test_reconnection::contract())
        .tool(test_sampling::contract())
        .tool(test_elicitation::contract())
        .tool(test_elicitation_sep1034_defaults::contract())
        .tool(test_elicitation_sep1330_enums::contract())
        .tool(json_schema_2020_12_tool::contract())
        .build()
        .unwrap_or_else(|e| panic!("the conformance tools do not build a registry: {e}"))
}
