//! Provider call adapters: the edge where a provider's wire format becomes
//! [`ToolCall`]s and envelopes go back out as the provider's tool-result
//! messages.
//!
//! Three stages, one file each, in the order a turn walks through them:
//!
//! - [`parse_calls`] (`calls.rs`): a complete response body to tool calls;
//! - [`ResponsesAssembler`], [`ChatAssembler`], [`AnthropicAssembler`],
//!   [`GeminiAssembler`] (`stream.rs`): streamed events to complete tool
//!   calls, so that nothing is ever executed from a fragment;
//! - [`render_results`] (`render.rs`): result envelopes to the message the
//!   provider expects next; [`render_calls`]: the calls themselves, as the
//!   model's turn to replay in the history (Gemini's thought signatures
//!   included).
//!
//! Only protocol-level calls count: text that merely looks like a call
//! (`{"type":"function_call",...}` inside an assistant message) is never
//! parsed, because executing model prose would let anything quoted into the
//! conversation trigger a tool.
//!
//! ```
//! use contract_runtime::provider::{parse_calls, render_results, CallResult, Provider};
//! use serde_json::json;
//!
//! let body = json!({"output": [
//!     {"type": "function_call", "id": "fc_1", "call_id": "call_1",
//!      "name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}
//! ]});
//! let calls = parse_calls(Provider::OpenAiResponses, &body)?;
//! assert_eq!(calls[0].id, "call_1");
//!
//! let envelope = json!({"call_id": "call_1", "tool": "read_file", "status": "ok",
//!                       "retry_safe": true, "result": "hello"});
//! let reply = render_results(
//!     Provider::OpenAiResponses,
//!     &[CallResult::new(&calls[0], &envelope)],
//! );
//! assert_eq!(reply[0]["call_id"], "call_1");
//! # Ok::<(), contract_runtime::provider::AdapterError>(())
//! ```

use std::fmt;

mod calls;
mod content;
mod render;
mod stream;

pub use calls::{parse_calls, parse_calls_slice};
pub use content::{content_losses, ContentLoss};
pub use render::{compact, render_calls, render_results, render_results_as, CallResult, Feedback};
pub use stream::{
    AnthropicAssembler, Assembled, ChatAssembler, GeminiAssembler, ResponsesAssembler, StreamError,
};

pub use crate::call::{ToolCall, GEMINI_SYNTHETIC_ID_PREFIX};

/// The provider APIs whose tool-call wire formats this module speaks. More
/// will come, so the enum is `#[non_exhaustive]`.
///
/// ```
/// use contract_runtime::provider::Provider;
///
/// assert_eq!(Provider::OpenAiChat.name(), "openai-chat");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Responses API: `function_call` output items, `function_call_output` results.
    OpenAiResponses,
    /// OpenAI Chat Completions: `message.tool_calls`, `role: tool` results.
    OpenAiChat,
    /// Anthropic Messages: `tool_use` content blocks, `tool_result` blocks in a user message.
    Anthropic,
    /// Gemini `generateContent`: `functionCall` parts, `functionResponse` parts.
    Gemini,
}

impl Provider {
    /// A short, stable name used in error messages and logs.
    ///
    /// ```
    /// use contract_runtime::provider::Provider;
    ///
    /// assert_eq!(Provider::Gemini.name(), "gemini");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiResponses => "openai-responses",
            Provider::OpenAiChat => "openai-chat",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A response body that does not have the shape its provider documents; the
/// message names the provider, the item (by index) and the field.
///
/// ```
/// use contract_runtime::provider::{parse_calls, Provider};
/// use serde_json::json;
///
/// let body = json!({"content": [{"type": "tool_use", "name": "f", "input": {}}]});
/// let err = parse_calls(Provider::Anthropic, &body).unwrap_err();
/// assert_eq!(err.to_string(), "anthropic response: content[0].id: missing field");
/// assert!(matches!(err, AdapterError::Shape { provider: Provider::Anthropic, .. }));
/// # use contract_runtime::provider::AdapterError;
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AdapterError {
    /// The body is not JSON.
    NotJson {
        /// Whose response it was meant to be.
        provider: Provider,
        /// The parser's error.
        error: String,
    },
    /// A field the provider documents is missing or has another type.
    Shape {
        /// Whose response it was meant to be.
        provider: Provider,
        /// Where: `content[0].id`, `choices[1].message`; empty for the body itself.
        path: String,
        /// What is wrong: `missing field`, `expected an array, found a string`.
        problem: String,
    },
}

impl fmt::Display for AdapterError {
    /// One line, for people: `<provider> response: <path>: <what is wrong>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdapterError::NotJson { provider, error } => {
                write!(f, "{provider} response: not JSON: {error}")
            }
            AdapterError::Shape {
                provider,
                path,
                problem,
            } => {
                let path = if path.is_empty() { "body" } else { path };
                write!(f, "{provider} response: {path}: {problem}")
            }
        }
    }
}

impl std::error::Error for AdapterError {}

/// How a JSON value's type reads in an error message ("found a number").
fn kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
