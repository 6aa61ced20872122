//! Result envelopes to the provider's tool-result message (placement per provider: `docs/envelope.md`).

use serde_json::{json, Map, Value};

use super::{Provider, ToolCall};

/// One answer: the call it answers, the envelope JSON (see `docs/envelope.md`), and
/// whether the status is an error (every status but `ok` and `partial`).
///
/// ```
/// use contract_runtime::provider::{CallResult, ToolCall};
/// use serde_json::json;
///
/// let call = ToolCall::new("c1", "f", "{}");
/// let envelope = json!({"call_id": "c1", "tool": "f", "status": "denied",
///                       "retry_safe": true, "errors": []});
/// assert!(CallResult::new(&call, &envelope).is_error);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallResult<'a> {
    /// The call this result answers; its id and name are echoed back.
    pub call: &'a ToolCall,
    /// The result envelope, sent as the tool-result payload.
    pub envelope: &'a Value,
    /// Whether the provider should be told the call failed (Anthropic `is_error`).
    pub is_error: bool,
}

impl<'a> CallResult<'a> {
    /// A result whose `is_error` follows the envelope's `status`: false for
    /// `ok` and `partial`, true for every other status, and true when the
    /// status is missing, since an envelope that cannot say it succeeded did not.
    ///
    /// ```
    /// use contract_runtime::provider::{CallResult, ToolCall};
    /// use serde_json::json;
    ///
    /// let call = ToolCall::new("c1", "f", "{}");
    /// let envelope = json!({"status": "partial", "completed": 2, "failed": 1});
    /// assert!(!CallResult::new(&call, &envelope).is_error);
    /// ```
    pub fn new(call: &'a ToolCall, envelope: &'a Value) -> Self {
        // One rule for every provider flag: `Status::is_error`. A missing or
        // unknown status reads as an error.
        let is_error = envelope
            .get("status")
            .cloned()
            .and_then(|s| serde_json::from_value::<crate::envelope::Status>(s).ok())
            .is_none_or(crate::envelope::Status::is_error);
        CallResult {
            call,
            envelope,
            is_error,
        }
    }
}

/// Render results (one per call, in call order) as the provider's next input.
///
/// - OpenAI Responses: an array of `function_call_output` items, `output` being
///   the envelope as a JSON string.
/// - OpenAI Chat: an array of `role: tool` messages, `content` being the
///   envelope as a JSON string.
/// - Anthropic: one user message whose content is a `tool_result` block per
///   result, with `is_error`; Anthropic wants them all in the same message.
/// - Gemini: one `user` content with a `functionResponse` part per result, the
///   envelope object as `response`; `id` only when the call had a real one.
///
/// ```
/// use contract_runtime::provider::{render_results, CallResult, Provider, ToolCall};
/// use serde_json::json;
///
/// let call = ToolCall::new("toolu_1", "f", "{}");
/// let envelope = json!({"call_id": "toolu_1", "tool": "f", "status": "ok",
///                       "retry_safe": true, "result": 1});
/// let message = render_results(Provider::Anthropic, &[CallResult::new(&call, &envelope)]);
/// assert_eq!(message["content"][0]["tool_use_id"], "toolu_1");
/// assert_eq!(message["content"][0]["is_error"], false);
/// ```
pub fn render_results(provider: Provider, results: &[CallResult]) -> Value {
    match provider {
        Provider::OpenAiResponses => Value::Array(
            results
                .iter()
                .map(|result| {
                    json!({
                        "type": "function_call_output",
                        "call_id": result.call.id,
                        "output": result.envelope.to_string(),
                    })
                })
                .collect(),
        ),
        Provider::OpenAiChat => Value::Array(
            results
                .iter()
                .map(|result| {
                    json!({
                        "role": "tool",
                        "tool_call_id": result.call.id,
                        "content": result.envelope.to_string(),
                    })
                })
                .collect(),
        ),
        Provider::Anthropic => {
            let blocks: Vec<Value> = results
                .iter()
                .map(|result| {
                    json!({
                        "type": "tool_result",
                        "tool_use_id": result.call.id,
                        "content": result.envelope.to_string(),
                        "is_error": result.is_error,
                    })
                })
                .collect();
            json!({"role": "user", "content": blocks})
        }
        Provider::Gemini => {
            let parts: Vec<Value> = results.iter().map(gemini_part).collect();
            json!({"role": "user", "parts": parts})
        }
    }
}

fn gemini_part(result: &CallResult) -> Value {
    let mut response = Map::new();
    response.insert("name".into(), Value::String(result.call.name.clone()));
    // `response` is a protobuf Struct, so it must be an object; envelopes
    // always are, and anything else goes under `output`, the key Gemini's
    // documentation suggests for plain results.
    let payload = match result.envelope {
        Value::Object(_) => result.envelope.clone(),
        other => json!({"output": other}),
    };
    response.insert("response".into(), payload);
    // A synthetic id was never sent by Gemini; echoing it would make Gemini
    // look for a call that does not exist.
    if !result.call.has_synthetic_id() {
        response.insert("id".into(), Value::String(result.call.id.clone()));
    }
    json!({"functionResponse": response})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: &str, name: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: "{}".into(),
        }
    }

    fn envelopes() -> (Value, Value) {
        let ok = json!({"call_id": "c1", "tool": "read_file", "status": "ok", "retry_safe": true,
                        "result": {"text": "café 漢 😀 \"q\"\n"}});
        let invalid = json!({"call_id": "c2", "tool": "write_file", "status": "invalid", "retry_safe": true,
                             "result": null,
                             "errors": [{"code": "schema-violation", "message": "missing /path", "field": "/path"}]});
        (ok, invalid)
    }

    #[test]
    fn is_error_follows_status() {
        let c = call("c", "f");
        let cases = [
            ("ok", false),
            ("partial", false),
            ("invalid", true),
            ("denied", true),
            ("needs-approval", true),
            ("failed", true),
            ("unknown", true),
        ];
        for (status, expected) in cases {
            let envelope = json!({ "status": status });
            assert_eq!(
                CallResult::new(&c, &envelope).is_error,
                expected,
                "{status}"
            );
        }
        let no_status = json!({});
        assert!(CallResult::new(&c, &no_status).is_error);
    }

    #[test]
    fn responses_renders_function_call_outputs_with_envelope_strings() {
        let (ok, invalid) = envelopes();
        let (a, b) = (call("call_1", "read_file"), call("call_2", "write_file"));
        let rendered = render_results(
            Provider::OpenAiResponses,
            &[CallResult::new(&a, &ok), CallResult::new(&b, &invalid)],
        );
        assert_eq!(
            rendered,
            json!([
                {"type": "function_call_output", "call_id": "call_1", "output": ok.to_string()},
                {"type": "function_call_output", "call_id": "call_2", "output": invalid.to_string()},
            ])
        );
        // The string round-trips to the same envelope, unicode and escapes included.
        let back: Value =
            serde_json::from_str(rendered[0]["output"].as_str().expect("a string")).expect("JSON");
        assert_eq!(back, ok);
    }

    #[test]
    fn chat_renders_tool_messages() {
        let (ok, invalid) = envelopes();
        let (a, b) = (call("call_1", "read_file"), call("call_2", "write_file"));
        let rendered = render_results(
            Provider::OpenAiChat,
            &[CallResult::new(&a, &ok), CallResult::new(&b, &invalid)],
        );
        assert_eq!(
            rendered,
            json!([
                {"role": "tool", "tool_call_id": "call_1", "content": ok.to_string()},
                {"role": "tool", "tool_call_id": "call_2", "content": invalid.to_string()},
            ])
        );
    }

    #[test]
    fn anthropic_renders_one_user_message_with_is_error() {
        let (ok, invalid) = envelopes();
        let (a, b) = (call("toolu_1", "read_file"), call("toolu_2", "write_file"));
        let rendered = render_results(
            Provider::Anthropic,
            &[CallResult::new(&a, &ok), CallResult::new(&b, &invalid)],
        );
        assert_eq!(
            rendered,
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": ok.to_string(), "is_error": false},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": invalid.to_string(), "is_error": true},
            ]})
        );
    }

    #[test]
    fn anthropic_uses_the_given_is_error_flag() {
        let (ok, _) = envelopes();
        let a = call("toolu_1", "read_file");
        let result = CallResult {
            call: &a,
            envelope: &ok,
            is_error: true,
        };
        let rendered = render_results(Provider::Anthropic, &[result]);
        assert_eq!(rendered["content"][0]["is_error"], true);
    }

    #[test]
    fn gemini_renders_function_responses_and_omits_synthetic_ids() {
        let (ok, invalid) = envelopes();
        let (a, b) = (
            call("gemini-call-0", "read_file"),
            call("fc-real-7", "write_file"),
        );
        let rendered = render_results(
            Provider::Gemini,
            &[CallResult::new(&a, &ok), CallResult::new(&b, &invalid)],
        );
        assert_eq!(
            rendered,
            json!({"role": "user", "parts": [
                {"functionResponse": {"name": "read_file", "response": ok}},
                {"functionResponse": {"name": "write_file", "response": invalid, "id": "fc-real-7"}},
            ]})
        );
    }

    #[test]
    fn gemini_wraps_a_non_object_payload() {
        let a = call("gemini-call-0", "f");
        let envelope = json!("text");
        let rendered = render_results(Provider::Gemini, &[CallResult::new(&a, &envelope)]);
        assert_eq!(
            rendered["parts"][0]["functionResponse"]["response"],
            json!({"output": "text"})
        );
    }

    #[test]
    fn no_results_render_empty() {
        assert_eq!(render_results(Provider::OpenAiResponses, &[]), json!([]));
        assert_eq!(render_results(Provider::OpenAiChat, &[]), json!([]));
        assert_eq!(
            render_results(Provider::Anthropic, &[]),
            json!({"role": "user", "content": []})
        );
        assert_eq!(
            render_results(Provider::Gemini, &[]),
            json!({"role": "user", "parts": []})
        );
    }
}
