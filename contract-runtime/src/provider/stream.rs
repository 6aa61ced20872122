//! Streaming assemblers: decoded stream events to complete tool calls.
//!
//! Each assembler is a pure state machine: the caller decodes the provider's
//! server-sent events into JSON values and feeds them in order with `push`,
//! then calls `finish` when the stream ends. A call comes out only once it is
//! complete and its arguments parse as a JSON object; a cut or broken call
//! comes out as an [`Assembled::Error`] naming it, so the caller can answer it
//! without running anything ([`StreamError::answer`] is that answer). Fragments never come out, because a tool run on
//! half its arguments is a tool run on arguments nobody wrote.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use super::{kind, ToolCall};

/// A call that could not be assembled: cut off by the end of the stream, or
/// complete but with arguments that are not a JSON object. It was not executed.
///
/// ```
/// use contract_runtime::provider::{AnthropicAssembler, Assembled};
/// use serde_json::json;
///
/// let mut assembler = AnthropicAssembler::new();
/// assembler.push(&json!({"type": "content_block_start", "index": 0,
///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}));
/// let out = assembler.finish();
/// let Assembled::Error(error) = &out[0] else { panic!("expected an error") };
/// assert_eq!(error.call_id(), Some("toolu_1"));
/// assert_eq!(
///     error.to_string(),
///     "call f (toolu_1): the stream ended before the call was complete; it was not executed"
/// );
/// ```
///
/// Every variant carries the provider's call id and the requested tool name,
/// each when the stream got as far as sending it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StreamError {
    /// The stream ended, or moved on, before the call was complete.
    Cut {
        /// The provider's call id.
        call_id: Option<String>,
        /// The requested tool name.
        name: Option<String>,
        /// What happened first: `the stream ended`, `the choice finished with `length``.
        why: String,
        /// The call as far as the stream sent it, for a provider that sends
        /// a call in one part (Gemini: the `functionCall` part, with its
        /// arguments and `thoughtSignature`, whose candidate then finished
        /// short). [`StreamError::answer`] replays this call, since Gemini 3
        /// refuses a history whose call lost its signature. `None` where the
        /// arguments come in pieces (OpenAI, Anthropic): the answer replays
        /// the call with `{}`.
        sent: Option<Box<ToolCall>>,
    },
    /// The stream sent two different ids, or names, for one call.
    Conflict {
        /// The provider's call id (the first one sent).
        call_id: Option<String>,
        /// The requested tool name (the first one sent).
        name: Option<String>,
        /// Which field, and both values.
        conflict: String,
    },
    /// The call completed without an id or a name.
    Unnamed {
        /// The provider's call id.
        call_id: Option<String>,
        /// The requested tool name.
        name: Option<String>,
    },
    /// The call completed, but its arguments are not a JSON object.
    Arguments {
        /// The provider's call id.
        call_id: Option<String>,
        /// The requested tool name.
        name: Option<String>,
        /// Not JSON (with the parser's error), or which JSON type they are.
        problem: String,
    },
    /// A call finished that the stream never added.
    NeverAdded {
        /// The provider's call id.
        call_id: Option<String>,
        /// The requested tool name.
        name: Option<String>,
    },
}

impl StreamError {
    /// The provider's call id, when the stream got as far as sending it.
    pub fn call_id(&self) -> Option<&str> {
        self.parts().0
    }

    /// The requested tool name, when the stream got as far as sending it.
    pub fn name(&self) -> Option<&str> {
        self.parts().1
    }

    fn parts(&self) -> (Option<&str>, Option<&str>) {
        let (StreamError::Cut { call_id, name, .. }
        | StreamError::Conflict { call_id, name, .. }
        | StreamError::Unnamed { call_id, name }
        | StreamError::Arguments { call_id, name, .. }
        | StreamError::NeverAdded { call_id, name }) = self;
        (call_id.as_deref(), name.as_deref())
    }

    /// What to answer the model for this call, with the call to render it
    /// against ([`super::render_results`] takes the pair): `invalid /
    /// malformed-arguments` with this error's message and a hint to send the
    /// call again whole, as the dispatcher answers arguments it cannot read.
    /// Nothing ran, so sending it again is safe. Providers that keep a call
    /// in the history ask for a result for each one; `None` when the stream
    /// never sent the call's id, since no result can be matched to it.
    ///
    /// ```
    /// use contract_runtime::provider::{render_results, AnthropicAssembler, Assembled, CallResult, Provider};
    /// use serde_json::json;
    ///
    /// let mut assembler = AnthropicAssembler::new();
    /// assembler.push(&json!({"type": "content_block_start", "index": 0,
    ///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}));
    /// let Assembled::Error(error) = &assembler.finish()[0] else { panic!("expected an error") };
    /// let (call, envelope) = error.answer().expect("the stream sent the call's id");
    /// assert_eq!(envelope.errors[0].code, "malformed-arguments");
    /// let envelope = envelope.to_value();
    /// let message = render_results(Provider::Anthropic, &[CallResult::new(&call, &envelope)]);
    /// assert_eq!(message["content"][0]["tool_use_id"], "toolu_1");
    /// assert_eq!(message["content"][0]["is_error"], true);
    /// ```
    pub fn answer(&self) -> Option<(ToolCall, crate::Envelope)> {
        let id = self.call_id()?;
        let name = self.name().unwrap_or_default();
        let error = crate::ErrorEntry::new(crate::codes::MALFORMED_ARGUMENTS, self.message())
            .with_hint("send the call again, with its arguments whole");
        let envelope =
            crate::Envelope::failure(id, name, crate::Status::Invalid, true, vec![error]);
        let call = match self {
            StreamError::Cut {
                sent: Some(call), ..
            } => (**call).clone(),
            _ => ToolCall::new(id, name, "{}"),
        };
        Some((call, envelope))
    }

    /// One line saying what went wrong and that the call was not executed.
    pub fn message(&self) -> String {
        let what = match self {
            StreamError::Cut { why, .. } => format!("{why} before the call was complete"),
            StreamError::Conflict { conflict, .. } => conflict.clone(),
            StreamError::Unnamed { call_id, name } => match (call_id, name) {
                (None, None) => "the stream never sent the call's id and name",
                (None, Some(_)) => "the stream never sent the call's id",
                _ => "the stream never sent the call's name",
            }
            .to_string(),
            StreamError::Arguments { problem, .. } => problem.clone(),
            StreamError::NeverAdded { .. } => {
                "the call finished without ever being added to the stream".to_string()
            }
        };
        format!("{what}; it was not executed")
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name().unwrap_or("<unnamed>");
        let id = self.call_id().unwrap_or("<no id>");
        write!(f, "call {name} ({id}): {}", self.message())
    }
}

impl std::error::Error for StreamError {}

/// What an assembler yields: a complete call to dispatch, or an error for a
/// call that must be answered without running.
///
/// ```
/// use contract_runtime::provider::{Assembled, ToolCall};
///
/// let out = Assembled::Call(ToolCall::new("c", "f", "{}"));
/// assert!(matches!(out, Assembled::Call(_)));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Assembled {
    /// Complete, with arguments that parse as a JSON object (kept as raw text).
    Call(ToolCall),
    /// Cut off or unparseable; never executed.
    Error(StreamError),
}

/// A call being assembled; id and name stay optional until completion so a
/// cut call can be reported with whatever the stream did send.
#[derive(Debug, Default)]
struct Pending {
    id: Option<String>,
    name: Option<String>,
    arguments: String,
    /// Set when the stream contradicted itself about this call (two ids, two
    /// names); such a call is reported, never executed.
    conflict: Option<String>,
    /// The arguments came from `response.function_call_arguments.done`,
    /// which is authoritative: a finished item saying otherwise is a conflict.
    final_arguments: bool,
}

impl Pending {
    /// Keep the first non-empty value and note a contradiction, since a
    /// second, different id or name means two calls' fragments were mixed.
    fn set_once(
        slot: &mut Option<String>,
        conflict: &mut Option<String>,
        field: &str,
        value: Option<&str>,
    ) {
        let Some(value) = value.filter(|value| !value.is_empty()) else {
            return;
        };
        match slot {
            None => *slot = Some(value.to_string()),
            Some(old) if old != value => {
                conflict.get_or_insert_with(|| {
                    format!("the stream sent two {field}s, `{old}` and `{value}`")
                });
            }
            Some(_) => {}
        }
    }

    fn set_id(&mut self, id: Option<&str>) {
        Self::set_once(&mut self.id, &mut self.conflict, "id", id);
    }

    fn set_name(&mut self, name: Option<&str>) {
        Self::set_once(&mut self.name, &mut self.conflict, "name", name);
    }

    /// The stream ended (or moved on) before this call was complete.
    fn cut(self, why: &str) -> Assembled {
        Assembled::Error(StreamError::Cut {
            call_id: self.id,
            name: self.name,
            why: why.to_string(),
            sent: None,
        })
    }

    /// The call is complete: yield it if everything is there and the
    /// arguments parse as a JSON object.
    fn complete(self) -> Assembled {
        if let Some(conflict) = self.conflict {
            return Assembled::Error(StreamError::Conflict {
                call_id: self.id,
                name: self.name,
                conflict,
            });
        }
        let problem = match serde_json::from_str::<Value>(&self.arguments) {
            Err(err) => Some(format!("arguments are not valid JSON ({err})")),
            Ok(Value::Object(_)) => None,
            Ok(other) => Some(format!("arguments are {}, not a JSON object", kind(&other))),
        };
        match (self.id, self.name, problem) {
            (Some(id), Some(name), None) => Assembled::Call(ToolCall {
                id,
                name,
                arguments: self.arguments,
                thought_signature: None,
            }),
            (call_id @ Some(_), name @ Some(_), Some(problem)) => {
                Assembled::Error(StreamError::Arguments {
                    call_id,
                    name,
                    problem,
                })
            }
            (call_id, name, _) => Assembled::Error(StreamError::Unnamed { call_id, name }),
        }
    }
}

fn str_at<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

fn u64_at(value: &Value, key: &str) -> Option<u64> {
    value.get(key).and_then(Value::as_u64)
}

const ENDED: &str = "the stream ended";

/// Assembles OpenAI Responses stream events into calls.
///
/// Reads `response.output_item.added` (a `function_call` item),
/// `response.function_call_arguments.delta` (by `item_id`, else
/// `output_index`), `response.function_call_arguments.done` (its `arguments`
/// replace the buffer) and `response.output_item.done`, which completes the
/// call. Deltas for items never added are ignored; other events are ignored.
///
/// ```
/// use contract_runtime::provider::{Assembled, ResponsesAssembler};
/// use serde_json::json;
///
/// let mut assembler = ResponsesAssembler::new();
/// let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
///                   "name": "f", "arguments": ""});
/// assembler.push(&json!({"type": "response.output_item.added", "output_index": 0, "item": item}));
/// assembler.push(&json!({"type": "response.function_call_arguments.delta",
///                        "item_id": "fc_1", "output_index": 0, "delta": "{\"a\":1}"}));
/// let out = assembler.push(&json!({"type": "response.output_item.done", "output_index": 0,
///                                  "item": {"type": "function_call", "id": "fc_1"}}));
/// let Assembled::Call(call) = &out[0] else { panic!("expected a call") };
/// assert_eq!(call.arguments, r#"{"a":1}"#);
/// assert!(assembler.finish().is_empty());
/// ```
#[derive(Debug, Default)]
pub struct ResponsesAssembler {
    /// Calls in the order they were added, so `finish` reports them in order.
    pending: Vec<ResponsesPending>,
    /// The call ids of items already finished: a repeated `done` (a
    /// replayed or resumed stream) answered nothing twice.
    finished: std::collections::HashSet<String>,
}

#[derive(Debug)]
struct ResponsesPending {
    item_id: Option<String>,
    output_index: Option<u64>,
    call: Pending,
}

impl ResponsesAssembler {
    /// An assembler with no call in progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed one decoded event; returns the calls (or errors) it completed.
    pub fn push(&mut self, event: &Value) -> Vec<Assembled> {
        let mut out = Vec::new();
        match str_at(event, "type") {
            Some("response.output_item.added") => {
                let Some(item) = event.get("item").filter(|item| is_function_call(item)) else {
                    return out;
                };
                let item_id = str_at(item, "id").map(str::to_string);
                let output_index = u64_at(event, "output_index");
                // The same item added twice: the first copy can no longer be
                // told apart from the second, so it is reported as cut.
                if let Some(pos) = self.find(item_id.as_deref(), output_index) {
                    let old = self.pending.remove(pos);
                    out.push(old.call.cut("the item was added again"));
                }
                let mut call = Pending::default();
                call.set_id(str_at(item, "call_id"));
                call.set_name(str_at(item, "name"));
                call.arguments = str_at(item, "arguments").unwrap_or_default().to_string();
                self.pending.push(ResponsesPending {
                    item_id,
                    output_index,
                    call,
                });
            }
            Some("response.function_call_arguments.delta") => {
                if let (Some(pos), Some(delta)) = (self.find_for(event), str_at(event, "delta")) {
                    self.pending[pos].call.arguments.push_str(delta);
                }
            }
            Some("response.function_call_arguments.done") => {
                if let (Some(pos), Some(arguments)) =
                    (self.find_for(event), str_at(event, "arguments"))
                {
                    let call = &mut self.pending[pos].call;
                    call.arguments = arguments.to_string();
                    call.final_arguments = true;
                }
            }
            Some("response.output_item.done") => {
                let Some(item) = event.get("item").filter(|item| is_function_call(item)) else {
                    return out;
                };
                match self.find(str_at(item, "id"), u64_at(event, "output_index")) {
                    Some(pos) => {
                        let mut call = self.pending.remove(pos).call;
                        call.set_id(str_at(item, "call_id"));
                        call.set_name(str_at(item, "name"));
                        self.finished.extend(call.id.clone());
                        // A finished item that says it is not complete
                        // (`incomplete`: the response was cut) is never run,
                        // as `parse_calls` refuses the same item.
                        let status = str_at(item, "status");
                        if let Some(status) = status.filter(|s| !super::calls::is_complete(Some(s)))
                        {
                            out.push(
                                call.cut(&format!("the item finished with status `{status}`")),
                            );
                            return out;
                        }
                        match str_at(item, "arguments") {
                            // `function_call_arguments.done` is authoritative
                            Some(a) if call.final_arguments && a != call.arguments => {
                                call.conflict.get_or_insert_with(|| {
                                    "the stream sent two different final argument texts".to_string()
                                });
                            }
                            // otherwise the finished item carries the final arguments
                            Some(a) => call.arguments = a.to_string(),
                            None => {}
                        }
                        out.push(call.complete());
                    }
                    // The same item finished again: it has its answer.
                    None if str_at(item, "call_id")
                        .is_some_and(|id| self.finished.contains(id)) => {}
                    // Without its `added` event the stream is not the one
                    // described; say so rather than run or drop the call.
                    None => out.push(Assembled::Error(StreamError::NeverAdded {
                        call_id: str_at(item, "call_id").map(str::to_string),
                        name: str_at(item, "name").map(str::to_string),
                    })),
                }
            }
            _ => {}
        }
        out
    }

    /// The stream has ended: every call still in progress is reported as cut.
    pub fn finish(self) -> Vec<Assembled> {
        self.pending
            .into_iter()
            .map(|pending| pending.call.cut(ENDED))
            .collect()
    }

    fn find_for(&self, event: &Value) -> Option<usize> {
        self.find(str_at(event, "item_id"), u64_at(event, "output_index"))
    }

    /// The item id is the key; `output_index` is used only when an event
    /// carries no item id, so interleaved calls never share a buffer.
    fn find(&self, item_id: Option<&str>, output_index: Option<u64>) -> Option<usize> {
        match (item_id, output_index) {
            (Some(id), _) => self
                .pending
                .iter()
                .position(|p| p.item_id.as_deref() == Some(id)),
            (None, Some(index)) => self
                .pending
                .iter()
                .position(|p| p.output_index == Some(index)),
            (None, None) => None,
        }
    }
}

fn is_function_call(item: &Value) -> bool {
    str_at(item, "type") == Some("function_call")
}

/// Assembles OpenAI Chat Completions stream chunks into calls.
///
/// Reads `choices[].delta.tool_calls[]`, keyed by (choice `index`, tool call
/// `index`); `id` and `function.name` are taken from the first delta that has
/// them, `function.arguments` is concatenated. A choice's calls complete, in
/// index order, at `finish_reason: "tool_calls"`; any other finish reason with
/// calls in progress reports them as cut. Content deltas are ignored.
///
/// ```
/// use contract_runtime::provider::{Assembled, ChatAssembler};
/// use serde_json::json;
///
/// let mut assembler = ChatAssembler::new();
/// assembler.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
///     {"index": 0, "id": "call_1", "type": "function",
///      "function": {"name": "f", "arguments": "{\"a\""}}]}}]}));
/// assembler.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
///     {"index": 0, "function": {"arguments": ":1}"}}]}}]}));
/// let out = assembler.push(&json!({"choices": [{"index": 0, "delta": {},
///                                               "finish_reason": "tool_calls"}]}));
/// let Assembled::Call(call) = &out[0] else { panic!("expected a call") };
/// assert_eq!(call.arguments, r#"{"a":1}"#);
/// ```
#[derive(Debug, Default)]
pub struct ChatAssembler {
    /// Keyed by (choice index, tool call index); the order is the yield order.
    pending: BTreeMap<(u64, u64), Pending>,
}

impl ChatAssembler {
    /// An assembler with no call in progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed one decoded chunk; returns the calls (or errors) it completed.
    pub fn push(&mut self, chunk: &Value) -> Vec<Assembled> {
        let mut out = Vec::new();
        let Some(choices) = chunk.get("choices").and_then(Value::as_array) else {
            return out;
        };
        for (position, choice) in choices.iter().enumerate() {
            // Positions stand in for missing indices, as some compatible
            // servers leave `index` out when there is a single choice.
            let choice_index = u64_at(choice, "index").unwrap_or(position as u64);
            let tool_calls = choice
                .get("delta")
                .and_then(|delta| delta.get("tool_calls"))
                .and_then(Value::as_array);
            for (position, delta) in tool_calls.into_iter().flatten().enumerate() {
                let index = u64_at(delta, "index").unwrap_or(position as u64);
                let call = self.pending.entry((choice_index, index)).or_default();
                call.set_id(str_at(delta, "id"));
                let function = delta.get("function");
                call.set_name(function.and_then(|f| str_at(f, "name")));
                if let Some(arguments) = function.and_then(|f| str_at(f, "arguments")) {
                    call.arguments.push_str(arguments);
                }
            }
            if let Some(reason) = str_at(choice, "finish_reason") {
                let keys: Vec<(u64, u64)> = self
                    .pending
                    .range((choice_index, 0)..=(choice_index, u64::MAX))
                    .map(|(key, _)| *key)
                    .collect();
                for key in keys {
                    if let Some(call) = self.pending.remove(&key) {
                        out.push(if reason == "tool_calls" {
                            call.complete()
                        } else {
                            call.cut(&format!("the choice finished with `{reason}`"))
                        });
                    }
                }
            }
        }
        out
    }

    /// The stream has ended: every call without its `finish_reason` is
    /// reported as cut, in (choice, index) order.
    pub fn finish(self) -> Vec<Assembled> {
        self.pending
            .into_values()
            .map(|call| call.cut(ENDED))
            .collect()
    }
}

/// Assembles Anthropic Messages stream events into calls.
///
/// Reads `content_block_start` with a `tool_use` block, `content_block_delta`
/// with an `input_json_delta` (its `partial_json` appended to that index's
/// buffer) and `content_block_stop`, which completes the call. A block that
/// streamed no argument at all (a tool without parameters) is `{}`, but only
/// once the message says it stopped for the call: `message_delta`'s
/// `stop_reason` `tool_use` (or `end_turn`) yields it, any other reason
/// (`max_tokens`) or the end of the stream reports it cut, since a model cut
/// before its first argument token sends the same empty block. Calls that
/// complete after it wait behind it, so calls are yielded in stream order.
/// Text, thinking and server tool blocks are ignored.
///
/// ```
/// use contract_runtime::provider::{AnthropicAssembler, Assembled};
/// use serde_json::json;
///
/// let mut assembler = AnthropicAssembler::new();
/// assembler.push(&json!({"type": "content_block_start", "index": 1,
///     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}}));
/// assert!(assembler.push(&json!({"type": "content_block_stop", "index": 1})).is_empty());
/// let out = assembler.push(&json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}));
/// let Assembled::Call(call) = &out[0] else { panic!("expected a call") };
/// assert_eq!(call.arguments, "{}");
/// ```
#[derive(Debug, Default)]
pub struct AnthropicAssembler {
    /// Keyed by content block index; the order is the `finish` order.
    pending: BTreeMap<u64, Pending>,
    /// Stopped blocks from the first that streamed no argument on, held
    /// for the stop reason, in stream order.
    held: Vec<Pending>,
}

impl AnthropicAssembler {
    /// An assembler with no call in progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed one decoded event; returns the calls (or errors) it completed.
    pub fn push(&mut self, event: &Value) -> Vec<Assembled> {
        let mut out = Vec::new();
        if str_at(event, "type") == Some("message_delta") {
            let reason = event.get("delta").and_then(|d| str_at(d, "stop_reason"));
            if let Some(reason) = reason {
                for mut call in self.held.drain(..) {
                    out.push(if !call.arguments.is_empty() {
                        call.complete()
                    } else if matches!(reason, "tool_use" | "end_turn") {
                        call.arguments = "{}".to_string();
                        call.complete()
                    } else {
                        call.cut(&format!("the message stopped with `{reason}`"))
                    });
                }
            }
            return out;
        }
        let Some(index) = u64_at(event, "index") else {
            return out;
        };
        match str_at(event, "type") {
            Some("content_block_start") => {
                let Some(block) = event
                    .get("content_block")
                    .filter(|block| str_at(block, "type") == Some("tool_use"))
                else {
                    return out;
                };
                let mut call = Pending::default();
                call.set_id(str_at(block, "id"));
                call.set_name(str_at(block, "name"));
                if let Some(old) = self.pending.insert(index, call) {
                    out.push(old.cut("another block started at the same index"));
                }
            }
            Some("content_block_delta") => {
                let Some(delta) = event
                    .get("delta")
                    .filter(|delta| str_at(delta, "type") == Some("input_json_delta"))
                else {
                    return out;
                };
                if let (Some(call), Some(part)) =
                    (self.pending.get_mut(&index), str_at(delta, "partial_json"))
                {
                    call.arguments.push_str(part);
                }
            }
            Some("content_block_stop") => {
                if let Some(call) = self.pending.remove(&index) {
                    if call.arguments.is_empty() || !self.held.is_empty() {
                        self.held.push(call);
                    } else {
                        out.push(call.complete());
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// The stream has ended: every tool_use block without its
    /// `content_block_stop` is reported as cut, in index order, after the
    /// calls held for a stop reason that never came: complete ones yielded,
    /// ones without arguments cut.
    pub fn finish(self) -> Vec<Assembled> {
        let held = self.held.into_iter().map(|call| {
            if call.arguments.is_empty() {
                call.cut(ENDED)
            } else {
                call.complete()
            }
        });
        held.chain(self.pending.into_values().map(|call| call.cut(ENDED)))
            .collect()
    }
}

/// Assembles Gemini `streamGenerateContent` chunks into calls.
///
/// Each chunk is a `GenerateContentResponse`; a `functionCall` part comes
/// whole in one chunk (Vertex AI's opt-in streamed arguments, a part with
/// `willContinue` and then pieces of `partialArgs`, are not put together:
/// such a call is reported cut, and its pieces with it), with its
/// `thoughtSignature` beside it on the same part
/// (kept on the call as [`ToolCall::thought_signature`], which Gemini 3
/// requires back when the call is replayed). Calls are held until their
/// candidate's `finishReason`: `STOP` yields them in order, any other reason
/// (`MAX_TOKENS`, `SAFETY`) reports them cut, and so does a stream that ends
/// without one. A call without `id` gets `gemini-call-<n>`, `n` counting the
/// stream's calls, as [`parse_calls`](super::parse_calls) does for a body.
///
/// ```
/// use contract_runtime::provider::{Assembled, GeminiAssembler};
/// use serde_json::json;
///
/// let mut assembler = GeminiAssembler::new();
/// assembler.push(&json!({"candidates": [{"index": 0, "content": {"role": "model", "parts": [
///     {"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": "CiQB"}]}}]}));
/// let out = assembler.push(&json!({"candidates": [{"index": 0, "finishReason": "STOP"}]}));
/// let Assembled::Call(call) = &out[0] else { panic!("expected a call") };
/// assert_eq!((call.arguments.as_str(), call.thought_signature.as_deref()), (r#"{"a":1}"#, Some("CiQB")));
/// ```
#[derive(Debug, Default)]
pub struct GeminiAssembler {
    /// Calls seen, per candidate index, in stream order.
    pending: BTreeMap<u64, Vec<ToolCall>>,
    /// Calls seen in the whole stream, for synthetic ids.
    seen: usize,
    /// The ids of calls whose arguments came in pieces (below).
    streamed: std::collections::HashSet<String>,
}

/// Why a call whose arguments came in pieces is not run: Vertex AI's
/// streamed function-call arguments (`streamFunctionCallArguments`) send a
/// part with the name and `willContinue`, then parts of `partialArgs`. Run
/// as it came, the first part was a call with no arguments (`{}`), and
/// each later part an unnamed call.
const STREAMED_ARGUMENTS: &str = "its arguments came in pieces (`partialArgs`, `willContinue`: Vertex AI's streamed function-call arguments), which are not put together here: turn `streamFunctionCallArguments` off";

impl GeminiAssembler {
    /// An assembler with no call in progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed one decoded chunk; returns the calls (or errors) it completed.
    pub fn push(&mut self, chunk: &Value) -> Vec<Assembled> {
        let mut out = Vec::new();
        let Some(candidates) = chunk.get("candidates").and_then(Value::as_array) else {
            return out;
        };
        for (position, candidate) in candidates.iter().enumerate() {
            let index = u64_at(candidate, "index").unwrap_or(position as u64);
            let parts = candidate
                .get("content")
                .and_then(|c| c.get("parts"))
                .and_then(Value::as_array);
            for part in parts.into_iter().flatten() {
                let Some(call) = part.get("functionCall") else {
                    continue;
                };
                let pieces = call.get("willContinue") == Some(&Value::Bool(true))
                    || call
                        .get("partialArgs")
                        .and_then(Value::as_array)
                        .is_some_and(|a| !a.is_empty());
                // A nameless part after a call in pieces is a later piece
                // of it (the last one may say nothing more).
                let after_pieces = self
                    .pending
                    .get(&index)
                    .and_then(|calls| calls.last())
                    .is_some_and(|last| self.streamed.contains(&last.id));
                if (pieces || after_pieces) && str_at(call, "name").is_none_or(str::is_empty) {
                    continue;
                }
                let id = match str_at(call, "id") {
                    Some(id) if !id.is_empty() => id.to_owned(),
                    _ => format!("{}{}", super::GEMINI_SYNTHETIC_ID_PREFIX, self.seen),
                };
                self.seen += 1;
                let arguments = match call.get("args") {
                    None | Some(Value::Null) => "{}".to_owned(),
                    Some(args) => args.to_string(),
                };
                let mut pending = ToolCall::new(id, str_at(call, "name").unwrap_or(""), arguments);
                pending.thought_signature = str_at(part, "thoughtSignature").map(str::to_owned);
                if pieces {
                    self.streamed.insert(pending.id.clone());
                }
                self.pending.entry(index).or_default().push(pending);
            }
            if let Some(reason) = str_at(candidate, "finishReason") {
                for call in self.pending.remove(&index).into_iter().flatten() {
                    out.push(if self.streamed.remove(&call.id) {
                        gemini_cut(call, STREAMED_ARGUMENTS)
                    } else if reason == "STOP" {
                        gemini_complete(call)
                    } else {
                        gemini_cut(call, &format!("the candidate finished with `{reason}`"))
                    });
                }
            }
        }
        out
    }

    /// The stream has ended: every call whose candidate never finished is
    /// reported as cut, in (candidate, stream) order.
    pub fn finish(self) -> Vec<Assembled> {
        self.pending
            .into_values()
            .flatten()
            .map(|call| gemini_cut(call, ENDED))
            .collect()
    }
}

fn gemini_cut(call: ToolCall, why: &str) -> Assembled {
    Assembled::Error(StreamError::Cut {
        call_id: Some(call.id.clone()),
        name: Some(call.name.clone()).filter(|n| !n.is_empty()),
        why: why.to_owned(),
        sent: Some(Box::new(call)),
    })
}

fn gemini_complete(call: ToolCall) -> Assembled {
    if call.name.is_empty() {
        return Assembled::Error(StreamError::Unnamed {
            call_id: Some(call.id),
            name: None,
        });
    }
    match serde_json::from_str::<Value>(&call.arguments) {
        Ok(Value::Object(_)) => Assembled::Call(call),
        Ok(other) => Assembled::Error(StreamError::Arguments {
            problem: format!("arguments are {}, not a JSON object", kind(&other)),
            call_id: Some(call.id),
            name: Some(call.name),
        }),
        Err(err) => Assembled::Error(StreamError::Arguments {
            problem: format!("arguments are not valid JSON ({err})"),
            call_id: Some(call.id),
            name: Some(call.name),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three assemblers behind one interface, so one helper replays a
    /// recorded stream through any of them.
    trait Assembler {
        fn push_event(&mut self, event: &Value) -> Vec<Assembled>;
        fn finish_stream(self) -> Vec<Assembled>;
    }

    macro_rules! assembler {
        ($($ty:ty),*) => {$(
            impl Assembler for $ty {
                fn push_event(&mut self, event: &Value) -> Vec<Assembled> {
                    self.push(event)
                }
                fn finish_stream(self) -> Vec<Assembled> {
                    self.finish()
                }
            }
        )*};
    }
    assembler!(
        ResponsesAssembler,
        ChatAssembler,
        AnthropicAssembler,
        GeminiAssembler
    );

    /// Replays a recorded stream (a JSON array of decoded events); returns
    /// what `push` yielded and what `finish` yielded, separately.
    fn replay<A: Assembler>(mut assembler: A, recorded: &str) -> (Vec<Assembled>, Vec<Assembled>) {
        let events: Vec<Value> = serde_json::from_str(recorded).expect("recorded stream is JSON");
        let pushed = events
            .iter()
            .flat_map(|event| assembler.push_event(event))
            .collect();
        (pushed, assembler.finish_stream())
    }

    fn call(out: &Assembled) -> &ToolCall {
        match out {
            Assembled::Call(call) => call,
            Assembled::Error(error) => panic!("expected a call, got {error}"),
        }
    }

    fn error(out: &Assembled) -> &StreamError {
        match out {
            Assembled::Error(error) => error,
            Assembled::Call(call) => panic!("expected an error, got {call:?}"),
        }
    }

    fn args(call: &ToolCall) -> Value {
        serde_json::from_str(&call.arguments).expect("yielded arguments parse")
    }

    // ---- OpenAI Responses ----

    /// Gemini 3 over SSE: thought text, two parallel calls (the signature on
    /// the first call's part), then the finish in a chunk of its own.
    const GEMINI_STREAM: &str = r#"[
      {"candidates": [{"index": 0, "content": {"role": "model", "parts": [{"text": "Let me look.", "thought": true}]}}]},
      {"candidates": [{"index": 0, "content": {"role": "model", "parts": [
        {"functionCall": {"name": "read_file", "args": {"path": "a.txt"}}, "thoughtSignature": "EoYCCoMCAdHtim9"}]}}]},
      {"candidates": [{"index": 0, "content": {"role": "model", "parts": [
        {"functionCall": {"name": "read_file", "args": {"path": "b.txt"}, "id": "fc-9"}}]}}]},
      {"candidates": [{"index": 0, "content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP"}],
       "usageMetadata": {"totalTokenCount": 80}}
    ]"#;

    #[test]
    fn gemini_assembles_a_recorded_stream_keeping_thought_signatures() {
        let (pushed, finished) = replay(GeminiAssembler::new(), GEMINI_STREAM);
        assert!(finished.is_empty());
        assert_eq!(pushed.len(), 2, "{pushed:?}");
        let (a, b) = (call(&pushed[0]), call(&pushed[1]));
        assert_eq!(
            (a.id.as_str(), a.name.as_str()),
            ("gemini-call-0", "read_file")
        );
        assert_eq!(args(a), serde_json::json!({"path": "a.txt"}));
        assert_eq!(a.thought_signature.as_deref(), Some("EoYCCoMCAdHtim9"));
        assert_eq!(
            (b.id.as_str(), b.thought_signature.as_deref()),
            ("fc-9", None)
        );
        // Replayed, each signature is back on its own part.
        let turn =
            super::super::render_calls(super::super::Provider::Gemini, &[a.clone(), b.clone()]);
        assert_eq!(turn["parts"][0]["thoughtSignature"], "EoYCCoMCAdHtim9");
        assert!(turn["parts"][1].get("thoughtSignature").is_none());
        assert!(
            turn["parts"][0]["functionCall"].get("id").is_none(),
            "a synthetic id is not sent"
        );
        assert_eq!(turn["parts"][1]["functionCall"]["id"], "fc-9");
    }

    #[test]
    fn gemini_calls_of_an_unfinished_or_cut_candidate_never_run() {
        // The stream ends before the finish: both calls are cut.
        let events: Vec<Value> = serde_json::from_str(GEMINI_STREAM).unwrap();
        let mut assembler = GeminiAssembler::new();
        let pushed: Vec<Assembled> = events[..3].iter().flat_map(|e| assembler.push(e)).collect();
        assert!(pushed.is_empty());
        let finished = assembler.finish();
        assert_eq!(finished.len(), 2);
        assert_eq!(
            error(&finished[0]).to_string(),
            "call read_file (gemini-call-0): the stream ended before the call was complete; it was not executed"
        );
        // A candidate stopped by MAX_TOKENS: cut, not run.
        let mut assembler = GeminiAssembler::new();
        assembler.push(&events[1]);
        let out = assembler
            .push(&serde_json::json!({"candidates": [{"index": 0, "finishReason": "MAX_TOKENS"}]}));
        assert_eq!(
            error(&out[0]).message(),
            "the candidate finished with `MAX_TOKENS` before the call was complete; it was not executed"
        );
        // Its answer replays the call as it came, signature and arguments
        // kept: Gemini 3 refuses a history whose call lost its signature.
        let (call, envelope) = error(&out[0]).answer().unwrap();
        assert_eq!(envelope.errors[0].code, "malformed-arguments");
        let turn = super::super::render_calls(super::super::Provider::Gemini, &[call]);
        assert_eq!(
            turn["parts"][0],
            serde_json::json!({"functionCall": {"name": "read_file", "args": {"path": "a.txt"}}, "thoughtSignature": "EoYCCoMCAdHtim9"})
        );
        // Arguments that are not an object are reported, not run.
        let mut assembler = GeminiAssembler::new();
        assembler
            .push(&serde_json::json!({"candidates": [{"content": {"parts": [
            {"functionCall": {"name": "f", "args": [1]}}]}, "finishReason": "STOP"}]}))
            .into_iter()
            .for_each(|out| {
                assert_eq!(
                    error(&out).message(),
                    "arguments are an array, not a JSON object; it was not executed"
                )
            });
    }

    #[test]
    fn responses_assembles_a_recorded_stream() {
        let (pushed, finished) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress","output":[]}},
              {"type":"response.output_item.added","sequence_number":1,"output_index":0,
               "item":{"type":"function_call","id":"fc_1","call_id":"call_Wx1","name":"get_weather","arguments":"","status":"in_progress"}},
              {"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":"{\"loc"},
              {"type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_1","output_index":0,"delta":"ation\":\"Paris"},
              {"type":"response.function_call_arguments.delta","sequence_number":4,"item_id":"fc_1","output_index":0,"delta":", France\"}"},
              {"type":"response.function_call_arguments.done","sequence_number":5,"item_id":"fc_1","output_index":0,"arguments":"{\"location\":\"Paris, France\"}"},
              {"type":"response.output_item.done","sequence_number":6,"output_index":0,
               "item":{"type":"function_call","id":"fc_1","call_id":"call_Wx1","name":"get_weather","arguments":"{\"location\":\"Paris, France\"}","status":"completed"}},
              {"type":"response.completed","sequence_number":7,"response":{"id":"resp_1","status":"completed"}}
            ]"#,
        );
        assert_eq!(
            pushed,
            vec![Assembled::Call(ToolCall {
                id: "call_Wx1".into(),
                name: "get_weather".into(),
                arguments: r#"{"location":"Paris, France"}"#.into(),
                thought_signature: None,
            })]
        );
        assert!(finished.is_empty());
    }

    #[test]
    fn responses_keeps_interleaved_calls_apart() {
        let (pushed, finished) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_a","call_id":"call_a","name":"f","arguments":""}},
              {"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_b","call_id":"call_b","name":"g","arguments":""}},
              {"type":"response.function_call_arguments.delta","item_id":"fc_b","output_index":1,"delta":"{\"b\":"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_a","output_index":0,"delta":"{\"a\":"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_a","output_index":0,"delta":"1}"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_b","output_index":1,"delta":"2}"},
              {"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_b"}},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_a"}}
            ]"#,
        );
        assert_eq!(pushed.len(), 2);
        assert_eq!(
            (
                call(&pushed[0]).id.as_str(),
                call(&pushed[0]).arguments.as_str()
            ),
            ("call_b", r#"{"b":2}"#)
        );
        assert_eq!(
            (
                call(&pushed[1]).id.as_str(),
                call(&pushed[1]).arguments.as_str()
            ),
            ("call_a", r#"{"a":1}"#)
        );
        assert!(finished.is_empty());
    }

    #[test]
    fn responses_joins_escapes_and_multibyte_text_split_across_deltas() {
        // Argument text: {"q":"say \"hi\" caf\u00e9\nend","w":"é漢😀","e":"\ud83d\ude00"}
        // cut inside every escape sequence and between multi-byte characters.
        let (pushed, _) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"q\":\"say \\"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"\"hi\\"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"\" caf\\u00"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"e9\\"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"nend\",\"w\":\"\u00e9"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"漢"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"\ud83d\ude00\",\"e\":\"\\ud83d"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"\\ude00\"}"},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1"}}
            ]"#,
        );
        let call = call(&pushed[0]);
        assert_eq!(
            call.arguments,
            r#"{"q":"say \"hi\" caf\u00e9\nend","w":"é漢😀","e":"\ud83d\ude00"}"#
        );
        assert_eq!(
            args(call),
            serde_json::json!({"q": "say \"hi\" café\nend", "w": "é漢😀", "e": "😀"})
        );
    }

    #[test]
    fn responses_arguments_done_is_authoritative() {
        let (pushed, _) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"a\":1"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"a\":1"},
              {"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"a\":1}"},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1"}}
            ]"#,
        );
        assert_eq!(call(&pushed[0]).arguments, r#"{"a":1}"#);
    }

    /// A finished item that contradicts `arguments.done` is a conflict, not
    /// a silent switch to the other text.
    #[test]
    fn responses_a_finished_item_that_contradicts_arguments_done_is_a_conflict() {
        let (pushed, _) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}},
              {"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"a\":1}"},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","arguments":"{\"a\":2}"}}
            ]"#,
        );
        assert!(
            matches!(&pushed[0], Assembled::Error(StreamError::Conflict { conflict, .. }) if conflict.contains("two different final argument texts")),
            "{pushed:?}"
        );
    }

    /// A finished item whose status is not `completed` (the response was
    /// cut at its token limit) is never run, as `parse_calls` refuses it.
    #[test]
    fn responses_an_item_that_finished_incomplete_is_cut() {
        for status in ["incomplete", "in_progress", "failed"] {
            let events = format!(
                r#"[
                  {{"type":"response.output_item.added","output_index":0,"item":{{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"","status":"in_progress"}}}},
                  {{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{{\"a\":1}}"}},
                  {{"type":"response.output_item.done","output_index":0,"item":{{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{{\"a\":1}}","status":"{status}"}}}}
                ]"#
            );
            let (pushed, finished) = replay(ResponsesAssembler::new(), &events);
            assert_eq!(pushed.len(), 1, "{pushed:?}");
            let Assembled::Error(e) = &pushed[0] else {
                panic!("{status}: a call ran: {pushed:?}")
            };
            assert_eq!(
                e.to_string(),
                format!("call f (call_1): the item finished with status `{status}` before the call was complete; it was not executed")
            );
            assert!(finished.is_empty());
        }
    }

    #[test]
    fn responses_early_end_names_the_cut_call_and_never_yields_it() {
        let (pushed, finished) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"delete_file","arguments":""}},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"path\":\"/tmp/a\"}"},
              {"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"path\":\"/tmp/a\"}"}
            ]"#,
        );
        assert!(pushed.is_empty());
        assert_eq!(
            finished,
            vec![Assembled::Error(StreamError::Cut {
                call_id: Some("call_1".into()),
                name: Some("delete_file".into()),
                why: "the stream ended".into(),
                sent: None,
            })]
        );
    }

    #[test]
    fn responses_unparseable_arguments_are_errors() {
        let (pushed, _) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"a\":"},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1"}},
              {"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","id":"fc_2","call_id":"call_2","name":"g","arguments":""}},
              {"type":"response.function_call_arguments.delta","item_id":"fc_2","output_index":1,"delta":"[1,2]"},
              {"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc_2"}}
            ]"#,
        );
        let first = error(&pushed[0]);
        assert_eq!(first.call_id(), Some("call_1"));
        assert!(
            first
                .message()
                .starts_with("arguments are not valid JSON ("),
            "{}",
            first.message()
        );
        assert!(
            first.message().ends_with("; it was not executed"),
            "{}",
            first.message()
        );
        let second = error(&pushed[1]);
        assert_eq!(second.name(), Some("g"));
        assert_eq!(
            second.message(),
            "arguments are an array, not a JSON object; it was not executed"
        );
    }

    #[test]
    fn responses_ignores_deltas_for_unknown_items() {
        let (pushed, finished) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.function_call_arguments.delta","item_id":"fc_ghost","output_index":5,"delta":"{\"evil\":true}"},
              {"type":"response.function_call_arguments.done","item_id":"fc_ghost","output_index":5,"arguments":"{\"evil\":true}"},
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}},
              {"type":"response.function_call_arguments.delta","item_id":"fc_ghost","output_index":0,"delta":"{\"evil\":"},
              {"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{}"},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1"}}
            ]"#,
        );
        assert_eq!(pushed.len(), 1);
        assert_eq!(call(&pushed[0]).arguments, "{}");
        assert!(finished.is_empty());
    }

    #[test]
    fn responses_done_without_added_is_reported_not_run() {
        let (pushed, _) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.done","output_index":0,
               "item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{}"}}
            ]"#,
        );
        let err = error(&pushed[0]);
        assert_eq!((err.call_id(), err.name()), (Some("call_1"), Some("f")));
    }

    #[test]
    fn responses_message_text_that_looks_like_a_call_is_never_a_call() {
        let (pushed, finished) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","status":"in_progress","content":[]}},
              {"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":""}},
              {"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"{\"type\":\"function_call\",\"call_id\":\"call_x\","},
              {"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"\"name\":\"delete_all\",\"arguments\":\"{}\"}"},
              {"type":"response.function_call_arguments.delta","item_id":"msg_1","output_index":0,"delta":"{}"},
              {"type":"response.output_text.done","item_id":"msg_1","output_index":0,"content_index":0,"text":"{\"type\":\"function_call\",\"call_id\":\"call_x\",\"name\":\"delete_all\",\"arguments\":\"{}\"}"},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","status":"completed",
               "content":[{"type":"output_text","annotations":[],"text":"{\"type\":\"function_call\",\"call_id\":\"call_x\",\"name\":\"delete_all\",\"arguments\":\"{}\"}"}]}}
            ]"#,
        );
        assert!(pushed.is_empty());
        assert!(finished.is_empty());
    }

    // ---- OpenAI Chat ----

    #[test]
    fn chat_assembles_a_recorded_stream_with_two_calls() {
        let (pushed, finished) = replay(
            ChatAssembler::new(),
            r#"[
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}]},
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]},
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]},"finish_reason":null}]},
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":""}}]},"finish_reason":null}]},
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"tz\":\"UTC\"}"}}]},"finish_reason":null}]},
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Oslo\"}"}}]},"finish_reason":null}]},
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]},
              {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30}}
            ]"#,
        );
        assert_eq!(
            pushed,
            vec![
                Assembled::Call(ToolCall {
                    id: "call_a".into(),
                    name: "get_weather".into(),
                    arguments: r#"{"city":"Oslo"}"#.into(),
                    thought_signature: None,
                }),
                Assembled::Call(ToolCall {
                    id: "call_b".into(),
                    name: "get_time".into(),
                    arguments: r#"{"tz":"UTC"}"#.into(),
                    thought_signature: None,
                }),
            ]
        );
        assert!(finished.is_empty());
    }

    #[test]
    fn chat_nothing_is_yielded_before_finish_reason() {
        let mut assembler = ChatAssembler::new();
        let chunk: Value = serde_json::from_str(
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}"#,
        )
        .expect("JSON");
        // The arguments already parse, but the call is not complete yet.
        assert!(assembler.push(&chunk).is_empty());
        let end: Value = serde_json::from_str(
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        )
        .expect("JSON");
        assert_eq!(assembler.push(&end).len(), 1);
    }

    #[test]
    fn chat_joins_escapes_and_multibyte_text_split_across_deltas() {
        let (pushed, _) = replay(
            ChatAssembler::new(),
            r#"[
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"q\":\"a\\"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"b\\u"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"00e9\\"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"n\",\"w\":\"caf"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"é"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\u6f22"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"😀\"}"}}]}}]},
              {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
            ]"#,
        );
        let call = call(&pushed[0]);
        assert_eq!(call.arguments, r#"{"q":"a\"b\u00e9\n","w":"café漢😀"}"#);
        assert_eq!(
            args(call),
            serde_json::json!({"q": "a\"bé\n", "w": "café漢😀"})
        );
    }

    #[test]
    fn chat_early_end_names_every_cut_call() {
        let (pushed, finished) = replay(
            ChatAssembler::new(),
            r#"[
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"g","arguments":"{\"b\""}}]}}]}
            ]"#,
        );
        assert!(pushed.is_empty());
        let cut: Vec<(Option<&str>, Option<&str>)> = finished
            .iter()
            .map(|out| {
                let err = error(out);
                (err.call_id(), err.name())
            })
            .collect();
        assert_eq!(
            cut,
            [(Some("call_a"), Some("f")), (Some("call_b"), Some("g"))]
        );
    }

    #[test]
    fn chat_other_finish_reason_cuts_the_calls() {
        let (pushed, finished) = replay(
            ChatAssembler::new(),
            r#"[
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"text\":\"lo"}}]}}]},
              {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}
            ]"#,
        );
        assert_eq!(
            pushed,
            vec![Assembled::Error(StreamError::Cut {
                call_id: Some("call_a".into()),
                name: Some("f".into()),
                why: "the choice finished with `length`".into(),
                sent: None,
            })]
        );
        assert!(finished.is_empty());
    }

    #[test]
    fn chat_unparseable_arguments_are_errors_and_others_still_complete() {
        let (pushed, _) = replay(
            ChatAssembler::new(),
            r#"[
              {"choices":[{"index":0,"delta":{"tool_calls":[
                {"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"a\":1,}"}},
                {"index":1,"id":"call_b","type":"function","function":{"name":"g","arguments":"{\"b\":2}"}},
                {"index":2,"id":"call_c","type":"function","function":{"name":"h","arguments":""}}
              ]}}]},
              {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
            ]"#,
        );
        assert_eq!(pushed.len(), 3);
        assert!(error(&pushed[0])
            .message()
            .starts_with("arguments are not valid JSON"));
        assert_eq!(call(&pushed[1]).id, "call_b");
        // Unlike Anthropic, an empty Chat buffer is not `{}`: OpenAI sends `{}`.
        assert_eq!(error(&pushed[2]).call_id(), Some("call_c"));
    }

    #[test]
    fn chat_keys_calls_by_choice_and_index() {
        let (pushed, finished) = replay(
            ChatAssembler::new(),
            r#"[
              {"choices":[
                {"index":0,"delta":{"tool_calls":[{"index":0,"id":"c0","type":"function","function":{"name":"f","arguments":"{\"choice\":"}}]}},
                {"index":1,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{\"choice\":"}}]}}
              ]},
              {"choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"0}"}}]}}]},
              {"choices":[{"index":1,"delta":{},"finish_reason":"tool_calls"}]}
            ]"#,
        );
        assert_eq!(pushed.len(), 1);
        assert_eq!(
            (
                call(&pushed[0]).id.as_str(),
                call(&pushed[0]).arguments.as_str()
            ),
            ("c1", r#"{"choice":1}"#)
        );
        // Choice 0 never finished.
        assert_eq!(error(&finished[0]).call_id(), Some("c0"));
    }

    #[test]
    fn chat_content_that_looks_like_a_call_is_never_a_call() {
        let (pushed, finished) = replay(
            ChatAssembler::new(),
            r#"[
              {"choices":[{"index":0,"delta":{"role":"assistant","content":"{\"tool_calls\":[{\"id\":\"call_x\",\"type\":\"function\","}}]},
              {"choices":[{"index":0,"delta":{"content":"\"function\":{\"name\":\"rm\",\"arguments\":\"{}\"}}]}"}}]},
              {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
            ]"#,
        );
        assert!(pushed.is_empty());
        assert!(finished.is_empty());
    }

    #[test]
    fn chat_contradicting_ids_or_missing_name_are_errors() {
        let (pushed, _) = replay(
            ChatAssembler::new(),
            r#"[
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_z","function":{"arguments":"}"}}]}}]},
              {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]},
              {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
            ]"#,
        );
        assert_eq!(
            error(&pushed[0]).message(),
            "the stream sent two ids, `call_a` and `call_z`; it was not executed"
        );
        assert_eq!(
            error(&pushed[1]).message(),
            "the stream never sent the call's id and name; it was not executed"
        );
    }

    // ---- Anthropic ----

    #[test]
    fn anthropic_assembles_a_recorded_stream() {
        let (pushed, finished) = replay(
            AnthropicAssembler::new(),
            r#"[
              {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":472,"output_tokens":2}}},
              {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},
              {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Okay, let's check: {\"type\":\"tool_use\",\"id\":\"toolu_x\","}},
              {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\"name\":\"rm\",\"input\":{}}"}},
              {"type":"content_block_stop","index":0},
              {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{}}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"location\": \"San Fra"}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ncisco, CA\"}"}},
              {"type":"ping"},
              {"type":"content_block_stop","index":1},
              {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_02","name":"list_files","input":{}}},
              {"type":"content_block_stop","index":2},
              {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}},
              {"type":"message_stop"}
            ]"#,
        );
        assert_eq!(
            pushed,
            vec![
                Assembled::Call(ToolCall {
                    id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6".into(),
                    name: "get_weather".into(),
                    arguments: r#"{"location": "San Francisco, CA"}"#.into(),
                    thought_signature: None,
                }),
                Assembled::Call(ToolCall {
                    id: "toolu_02".into(),
                    name: "list_files".into(),
                    arguments: "{}".into(),
                    thought_signature: None,
                }),
            ]
        );
        assert!(finished.is_empty());
    }

    #[test]
    fn anthropic_block_without_arguments_waits_for_the_stop_reason() {
        let events = |stop: &str| {
            format!(
                r#"[
              {{"type":"content_block_start","index":0,"content_block":{{"type":"tool_use","id":"toolu_1","name":"purge_cache","input":{{}}}}}},
              {{"type":"content_block_stop","index":0}},
              {{"type":"content_block_start","index":1,"content_block":{{"type":"tool_use","id":"toolu_2","name":"read","input":{{}}}}}},
              {{"type":"content_block_delta","index":1,"delta":{{"type":"input_json_delta","partial_json":"{{\"a\":1}}"}}}},
              {{"type":"content_block_stop","index":1}}{stop}
            ]"#
            )
        };
        let call = |id: &str, name: &str, arguments: &str| {
            Assembled::Call(ToolCall::new(id, name, arguments))
        };
        // Stopped for the calls: both run, in stream order.
        let stop = r#",{"type":"message_delta","delta":{"stop_reason":"tool_use"}}"#;
        let (pushed, finished) = replay(AnthropicAssembler::new(), &events(stop));
        assert_eq!(
            pushed,
            vec![
                call("toolu_1", "purge_cache", "{}"),
                call("toolu_2", "read", r#"{"a":1}"#)
            ]
        );
        assert!(finished.is_empty());
        // Cut by max_tokens before its first argument token: the empty
        // block is not a call without arguments; the complete one runs.
        let stop = r#",{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}"#;
        let (pushed, _) = replay(AnthropicAssembler::new(), &events(stop));
        assert_eq!(
            pushed[0],
            Assembled::Error(StreamError::Cut {
                call_id: Some("toolu_1".into()),
                name: Some("purge_cache".into()),
                why: "the message stopped with `max_tokens`".into(),
                sent: None,
            })
        );
        assert_eq!(pushed[1], call("toolu_2", "read", r#"{"a":1}"#));
        // The stream ends with no stop reason: cut too.
        let (pushed, finished) = replay(AnthropicAssembler::new(), &events(""));
        assert!(pushed.is_empty());
        assert_eq!(
            error(&finished[0]).message(),
            "the stream ended before the call was complete; it was not executed"
        );
        assert_eq!(finished[1], call("toolu_2", "read", r#"{"a":1}"#));
    }

    #[test]
    fn anthropic_keeps_interleaved_blocks_apart() {
        let (pushed, _) = replay(
            AnthropicAssembler::new(),
            r#"[
              {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"f","input":{}}},
              {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"g","input":{}}},
              {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"b\""}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":":1}"}},
              {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":":2}"}},
              {"type":"content_block_stop","index":1},
              {"type":"content_block_stop","index":2}
            ]"#,
        );
        assert_eq!(
            (
                call(&pushed[0]).id.as_str(),
                call(&pushed[0]).arguments.as_str()
            ),
            ("toolu_a", r#"{"a":1}"#)
        );
        assert_eq!(
            (
                call(&pushed[1]).id.as_str(),
                call(&pushed[1]).arguments.as_str()
            ),
            ("toolu_b", r#"{"b":2}"#)
        );
    }

    #[test]
    fn anthropic_joins_escapes_and_multibyte_text_split_across_deltas() {
        let (pushed, _) = replay(
            AnthropicAssembler::new(),
            r#"[
              {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"C:\\"}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\\dir\\"}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"x\\u0"}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"0e9\", \"t\": \"\u00e9"}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"漢"}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\ud83d\ude00\\n\"}"}},
              {"type":"content_block_stop","index":0}
            ]"#,
        );
        let call = call(&pushed[0]);
        assert_eq!(
            call.arguments,
            r#"{"path": "C:\\dir\"x\u00e9", "t": "é漢😀\n"}"#
        );
        assert_eq!(
            args(call),
            serde_json::json!({"path": "C:\\dir\"xé", "t": "é漢😀\n"})
        );
    }

    #[test]
    fn anthropic_early_end_names_the_cut_call() {
        let (pushed, finished) = replay(
            AnthropicAssembler::new(),
            r#"[
              {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},
              {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"write_file","input":{}}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\":\"a.txt\",\"text\":\"hel"}}
            ]"#,
        );
        assert!(pushed.is_empty());
        assert_eq!(
            finished,
            vec![Assembled::Error(StreamError::Cut {
                call_id: Some("toolu_1".into()),
                name: Some("write_file".into()),
                why: "the stream ended".into(),
                sent: None,
            })]
        );
    }

    #[test]
    fn anthropic_unparseable_arguments_are_errors() {
        let (pushed, _) = replay(
            AnthropicAssembler::new(),
            r#"[
              {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": tru"}},
              {"type":"content_block_stop","index":0},
              {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_2","name":"g","input":{}}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"just text\""}},
              {"type":"content_block_stop","index":1}
            ]"#,
        );
        assert!(error(&pushed[0])
            .message()
            .starts_with("arguments are not valid JSON"));
        assert_eq!(
            error(&pushed[1]).message(),
            "arguments are a string, not a JSON object; it was not executed"
        );
    }

    #[test]
    fn anthropic_ignores_deltas_for_unknown_indices_and_text_blocks() {
        let (pushed, finished) = replay(
            AnthropicAssembler::new(),
            r#"[
              {"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{\"evil\":true}"}},
              {"type":"content_block_stop","index":4},
              {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},
              {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"evil\":true}"}},
              {"type":"content_block_stop","index":0},
              {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}},
              {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"x\"}"}},
              {"type":"content_block_stop","index":1}
            ]"#,
        );
        assert!(pushed.is_empty());
        assert!(finished.is_empty());
    }

    /// A repeated `output_item.done` (a replayed or resumed stream) gives
    /// the call one answer, not a second one naming it "never added".
    #[test]
    fn responses_a_repeated_done_answers_nothing_twice() {
        let (pushed, finished) = replay(
            ResponsesAssembler::new(),
            r#"[
              {"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"f","arguments":""}},
              {"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{}"},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"f","arguments":"{}"}},
              {"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"f","arguments":"{}"}}
            ]"#,
        );
        assert_eq!(pushed.len(), 1, "{pushed:?}");
        assert!(matches!(&pushed[0], Assembled::Call(c) if c.id == "call_a"));
        assert!(finished.is_empty());
    }

    /// Vertex AI's streamed function-call arguments: a part with the name
    /// and `willContinue`, then pieces without a name. Nothing runs (the
    /// first part ran with `{}`, and each piece was an unnamed call): one
    /// error names the call and says why.
    #[test]
    fn gemini_arguments_in_pieces_are_one_call_not_run() {
        let (pushed, finished) = replay(
            GeminiAssembler::new(),
            r#"[
              {"candidates":[{"index":0,"content":{"role":"model","parts":[{"functionCall":{"name":"purge","willContinue":true},"thoughtSignature":"CiQB"}]}}]},
              {"candidates":[{"index":0,"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.prefix","stringValue":"sec","willContinue":true}],"willContinue":true}}]}}]},
              {"candidates":[{"index":0,"content":{"role":"model","parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.prefix","stringValue":"ret"}]}}]}}]},
              {"candidates":[{"index":0,"content":{"role":"model","parts":[{"functionCall":{}}]},"finishReason":"STOP"}]}
            ]"#,
        );
        assert_eq!(pushed.len(), 1, "{pushed:?}");
        let Assembled::Error(e) = &pushed[0] else {
            panic!("a call in pieces ran: {pushed:?}")
        };
        assert!(e.message().contains("came in pieces"), "{}", e.message());
        assert!(finished.is_empty());
    }
}
