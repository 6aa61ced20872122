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
#[non_exhaustive]
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

/// Render the calls themselves as the model's turn, for a host that rebuilds
/// the conversation history from [`ToolCall`]s instead of keeping the
/// response: the message the provider must see before the results.
///
/// - OpenAI Responses: an array of `function_call` items.
/// - OpenAI Chat: one `assistant` message with `tool_calls`.
/// - Anthropic: one `assistant` message with a `tool_use` block per call.
/// - Gemini: one `model` content with a `functionCall` part per call; each
///   part carries the call's `thoughtSignature` exactly as it came (Gemini 3
///   refuses a replayed call without it), and `id` only when the call had a
///   real one.
///
/// Arguments that are not JSON (a call the dispatcher refused) are replayed
/// as `{}` where the provider wants an object.
///
/// Only the calls are written: a response's text, Anthropic's `thinking`
/// blocks and OpenAI's reasoning items are not, and a model that reasons
/// needs them back (Anthropic refuses a replayed `tool_use` turn of
/// extended thinking without its `thinking` block). With reasoning on, keep
/// the response's own turn in the history instead.
///
/// ```
/// use contract_runtime::provider::{render_calls, Provider, ToolCall};
///
/// let call = ToolCall::new("gemini-call-0", "f", r#"{"a":1}"#).with_thought_signature("CiQB");
/// let turn = render_calls(Provider::Gemini, &[call]);
/// assert_eq!(turn["role"], "model");
/// assert_eq!(turn["parts"][0]["thoughtSignature"], "CiQB");
/// assert_eq!(turn["parts"][0]["functionCall"], serde_json::json!({"name": "f", "args": {"a": 1}}));
/// ```
pub fn render_calls(provider: Provider, calls: &[ToolCall]) -> Value {
    let args = |call: &ToolCall| -> Value {
        match serde_json::from_str::<Value>(&call.arguments) {
            Ok(v @ Value::Object(_)) => v,
            _ => json!({}),
        }
    };
    match provider {
        Provider::OpenAiResponses => Value::Array(
            calls
                .iter()
                .map(|c| json!({"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments}))
                .collect(),
        ),
        Provider::OpenAiChat => json!({
            "role": "assistant",
            "content": null,
            "tool_calls": calls
                .iter()
                .map(|c| json!({"id": c.id, "type": "function",
                                "function": {"name": c.name, "arguments": c.arguments}}))
                .collect::<Vec<_>>(),
        }),
        Provider::Anthropic => json!({
            "role": "assistant",
            "content": calls
                .iter()
                .map(|c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": args(c)}))
                .collect::<Vec<_>>(),
        }),
        Provider::Gemini => json!({
            "role": "model",
            "parts": calls
                .iter()
                .map(|c| {
                    let mut call = json!({"name": c.name, "args": args(c)});
                    if !c.has_synthetic_id() {
                        call["id"] = json!(c.id);
                    }
                    let mut part = json!({"functionCall": call});
                    if let Some(signature) = &c.thought_signature {
                        part["thoughtSignature"] = json!(signature);
                    }
                    part
                })
                .collect::<Vec<_>>(),
        }),
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
/// With no results there is nothing to answer: the OpenAI forms are empty
/// arrays, but Anthropic's and Gemini's are a message with empty content,
/// which both APIs refuse. Send results only for a turn that made calls.
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
    render_results_as(provider, results, Feedback::Json)
}

/// How an envelope is written into a tool result, chosen per host: small
/// local models act on a few lines of text far more often than on a JSON
/// object, while hosted models read either.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Feedback {
    /// The envelope's JSON (the default).
    #[default]
    Json,
    /// [`compact`] text: a status line, then one line per error.
    Compact,
}

/// [`render_results`] with the envelope written in the given [`Feedback`]
/// form. With [`Feedback::Compact`], the text takes the envelope's place:
/// the `output` or `content` string, and `{"output": text}` as Gemini's
/// `response` (which must be an object).
///
/// ```
/// use contract_runtime::provider::{render_results_as, CallResult, Feedback, Provider, ToolCall};
/// use serde_json::json;
///
/// let call = ToolCall::new("c1", "list_filings", "{}");
/// let envelope = json!({"call_id": "c1", "tool": "list_filings", "status": "invalid",
///     "retry_safe": true, "result": null, "errors": [{"code": "schema-violation",
///     "message": "must be at most 2026", "field": "/year",
///     "repair": {"hint": "send a number at least 2001 and at most 2026"}}]});
/// let items = render_results_as(Provider::OpenAiChat, &[CallResult::new(&call, &envelope)], Feedback::Compact);
/// assert_eq!(items[0]["content"], "invalid: list_filings call c1; retry_safe: true\n\
///     error /year: must be at most 2026 (schema-violation); repair: send a number at least 2001 and at most 2026");
/// ```
pub fn render_results_as(provider: Provider, results: &[CallResult], feedback: Feedback) -> Value {
    let text = |result: &CallResult| match feedback {
        Feedback::Json => result.envelope.to_string(),
        Feedback::Compact => compact(result.envelope),
    };
    match provider {
        Provider::OpenAiResponses => Value::Array(
            results
                .iter()
                .map(|result| {
                    json!({
                        "type": "function_call_output",
                        "call_id": result.call.id,
                        "output": text(result),
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
                        "content": text(result),
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
                        "content": text(result),
                        "is_error": result.is_error,
                    })
                })
                .collect();
            json!({"role": "user", "content": blocks})
        }
        Provider::Gemini => {
            let parts: Vec<Value> = results
                .iter()
                .map(|result| match feedback {
                    Feedback::Json => gemini_part(result, result.envelope.clone()),
                    Feedback::Compact => gemini_part(result, json!({"output": text(result)})),
                })
                .collect();
            json!({"role": "user", "parts": parts})
        }
    }
}

/// An envelope as a few lines of text that keep every fact it holds:
///
/// ```text
/// invalid: list_filings call c1; retry_safe: true
/// error /year: must be at most 2026 (schema-violation; maximum 2026, got 2030); repair: send a number at least 2001 and at most 2026
/// ```
///
/// The first line is the status, the tool, the call id and the envelope's
/// other scalar fields; then the result (as JSON) when there is one, the
/// approval request when there is one, and one line per error: where (the
/// field, else the item), the message, the code and the broken constraint,
/// then the repair and its call. A field this function does not know is
/// written as `name: json`, so nothing is dropped.
pub fn compact(envelope: &Value) -> String {
    let Some(m) = envelope.as_object() else {
        return envelope.to_string();
    };
    let mut head = format!(
        "{}: {}",
        plain(m.get("status").unwrap_or(&Value::Null)),
        plain(m.get("tool").unwrap_or(&Value::Null))
    );
    if let Some(id) = m.get("call_id") {
        head.push_str(&format!(" call {}", plain(id)));
    }
    const KNOWN: &[&str] = &["status", "tool", "call_id", "result", "errors", "approval"];
    for (k, v) in m.iter().filter(|(k, _)| !KNOWN.contains(&k.as_str())) {
        head.push_str(&format!("; {k}: {}", plain(v)));
    }
    let mut lines = vec![head];
    if let Some(r) = m.get("result").filter(|r| !r.is_null()) {
        lines.push(format!("result: {r}"));
    }
    if let Some(a) = m.get("approval").filter(|a| !a.is_null()) {
        lines.push(format!("approval: {}", facts(a, &["reason"], &[])));
    }
    if let Some(errors) = m.get("errors").and_then(Value::as_array) {
        lines.extend(errors.iter().map(error_line));
    }
    lines.join("\n")
}

/// `error <where>: <message> (<code>; <constraint>; <other facts>); repair: <hint>; call: <name> <arguments>`.
fn error_line(e: &Value) -> String {
    let Some(m) = e.as_object() else {
        return format!("error: {e}");
    };
    let at = m
        .get("field")
        .or_else(|| m.get("item"))
        .map(|v| format!(" {}", plain(v)))
        .unwrap_or_default();
    let message = m.get("message").map(plain).unwrap_or_default();
    let mut inner: Vec<String> = Vec::new();
    if let Some(code) = m.get("code") {
        inner.push(plain(code));
    }
    if let Some(c) = m.get("constraint").and_then(Value::as_object) {
        let mut s = c.get("keyword").map(plain).unwrap_or_default();
        if let Some(limit) = c.get("limit") {
            s.push_str(&format!(" {limit}"));
        }
        if let Some(actual) = c.get("actual") {
            s.push_str(&format!(", got {actual}"));
        }
        for (k, v) in c
            .iter()
            .filter(|(k, _)| !["keyword", "limit", "actual"].contains(&k.as_str()))
        {
            s.push_str(&format!(", {k}: {}", plain(v)));
        }
        inner.push(s);
    }
    // The item is named in the parentheses when the field took the place.
    let shown = if m.contains_key("field") {
        "field"
    } else {
        "item"
    };
    const KNOWN: &[&str] = &["field", "message", "code", "constraint", "repair"];
    for (k, v) in m
        .iter()
        .filter(|(k, _)| !KNOWN.contains(&k.as_str()) && *k != shown)
    {
        inner.push(format!("{k}: {}", plain(v)));
    }
    let mut line = format!("error{at}: {message}");
    if !inner.is_empty() {
        line.push_str(&format!(" ({})", inner.join("; ")));
    }
    if let Some(r) = m.get("repair") {
        line.push_str(&format!("; repair: {}", facts(r, &["hint"], &["call"])));
        if let Some(call) = r.get("call").and_then(Value::as_object) {
            let name = call.get("name").map(plain).unwrap_or_default();
            let args = call.get("arguments").cloned().unwrap_or(Value::Null);
            line.push_str(&format!("; call: {name} {args}"));
            for (k, v) in call
                .iter()
                .filter(|(k, _)| !["name", "arguments"].contains(&k.as_str()))
            {
                line.push_str(&format!(", {k}: {}", plain(v)));
            }
        }
    }
    line
}

/// The `lead` fields' text first, then every other field as `name: value`,
/// except those in `skip` (written by the caller).
fn facts(v: &Value, lead: &[&str], skip: &[&str]) -> String {
    let Some(m) = v.as_object() else {
        return plain(v);
    };
    let mut parts: Vec<String> = lead.iter().filter_map(|k| m.get(*k)).map(plain).collect();
    let rest: Vec<String> = m
        .iter()
        .filter(|(k, _)| !lead.contains(&k.as_str()) && !skip.contains(&k.as_str()))
        .map(|(k, v)| format!("{k}: {}", plain(v)))
        .collect();
    if !rest.is_empty() {
        parts.push(format!("({})", rest.join("; ")));
    }
    parts.join(" ")
}

/// A string without its quotes; any other value as JSON.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn gemini_part(result: &CallResult, payload: Value) -> Value {
    let mut response = Map::new();
    response.insert("name".into(), Value::String(result.call.name.clone()));
    // `response` is a protobuf Struct, so it must be an object; envelopes
    // always are, and anything else goes under `output`, the key Gemini's
    // documentation suggests for plain results.
    let payload = match payload {
        Value::Object(_) => payload,
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
            thought_signature: None,
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

    #[test]
    fn compact_states_status_then_one_line_per_error() {
        let (ok, invalid) = envelopes();
        assert_eq!(
            compact(&invalid),
            "invalid: write_file call c2; retry_safe: true\nerror /path: missing /path (schema-violation)"
        );
        assert_eq!(
            compact(&ok),
            "ok: read_file call c1; retry_safe: true\nresult: {\"text\":\"café 漢 😀 \\\"q\\\"\\n\"}"
        );
    }

    #[test]
    fn compact_keeps_every_fact() {
        let envelope = json!({
            "call_id": "c9", "tool": "tag_notes", "status": "partial", "retry_safe": false,
            "result": {"tagged": 2}, "completed": 2, "failed": 1, "artifact": "out/batch-9.json",
            "errors": [
                {"code": "not-found", "message": "no such note", "item": "/notes/1",
                 "retry_safe": true, "retry_after_ms": 250,
                 "repair": {"hint": "list the notes first", "call": {"name": "search_notes", "arguments": {"query": "kv"}}}},
                {"code": "schema-violation", "message": "must be at most 2026", "field": "/year", "item": "/items/3",
                 "constraint": {"keyword": "maximum", "limit": 2026, "actual": 2030},
                 "repair": {"hint": "the index serves 2001 to 2026: tell the user", "served": true}}
            ],
            "approval": {"rule": "always", "reason": "deletes a note", "digest": "sha256:ab12"},
            "trace": "t-77"
        });
        let text = compact(&envelope);
        assert_eq!(
            text,
            "partial: tag_notes call c9; retry_safe: false; completed: 2; failed: 1; artifact: out/batch-9.json; trace: t-77\n\
             result: {\"tagged\":2}\n\
             approval: deletes a note (rule: always; digest: sha256:ab12)\n\
             error /notes/1: no such note (not-found; retry_safe: true; retry_after_ms: 250); repair: list the notes first; call: search_notes {\"query\":\"kv\"}\n\
             error /year: must be at most 2026 (schema-violation; maximum 2026, got 2030; item: /items/3); repair: the index serves 2001 to 2026: tell the user (served: true)"
        );
        // Every leaf value of the envelope is in the text.
        fn leaves(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => m.values().for_each(|x| leaves(x, out)),
                Value::Array(a) => a.iter().for_each(|x| leaves(x, out)),
                Value::String(s) => out.push(s.clone()),
                other => out.push(other.to_string()),
            }
        }
        let mut all = Vec::new();
        leaves(&envelope, &mut all);
        for leaf in all {
            assert!(text.contains(&leaf), "{leaf} is missing from:\n{text}");
        }
    }

    #[test]
    fn compact_feedback_takes_the_envelopes_place() {
        let (_, invalid) = envelopes();
        let c = call("c2", "write_file");
        let r = [CallResult::new(&c, &invalid)];
        let line = compact(&invalid);
        let responses = render_results_as(Provider::OpenAiResponses, &r, Feedback::Compact);
        assert_eq!(responses[0]["output"], line.as_str());
        let anthropic = render_results_as(Provider::Anthropic, &r, Feedback::Compact);
        assert_eq!(anthropic["content"][0]["content"], line.as_str());
        assert_eq!(anthropic["content"][0]["is_error"], true);
        let gemini = render_results_as(Provider::Gemini, &r, Feedback::Compact);
        assert_eq!(
            gemini["parts"][0]["functionResponse"]["response"],
            json!({"output": line})
        );
        // The default form is unchanged.
        assert_eq!(
            render_results_as(Provider::OpenAiChat, &r, Feedback::Json),
            render_results(Provider::OpenAiChat, &r)
        );
    }
}
