//! The result envelope: the one shape every dispatched call ends in.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Status {
    /// Completed in full.
    Ok,
    /// A batch where some items completed and some failed.
    Partial,
    /// Malformed or broke the contract; nothing ran.
    Invalid,
    /// The caller lacks authority or the target is out of scope; nothing ran.
    Denied,
    /// A person must approve these exact arguments first; nothing ran.
    NeedsApproval,
    /// Ran (or tried to) and is known to have had no effect beyond what the errors say.
    Failed,
    /// May or may not have taken effect.
    Unknown,
}

impl Status {
    /// The status as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Partial => "partial",
            Status::Invalid => "invalid",
            Status::Denied => "denied",
            Status::NeedsApproval => "needs-approval",
            Status::Failed => "failed",
            Status::Unknown => "unknown",
        }
    }

    /// Providers that carry an error flag (Anthropic `is_error`, MCP `isError`) set it
    /// for every status but `ok` and `partial`.
    pub fn is_error(self) -> bool {
        !matches!(self, Status::Ok | Status::Partial)
    }

    /// Whether the tool's code ran (or may have run) for this status.
    pub fn ran(self) -> bool {
        matches!(
            self,
            Status::Ok | Status::Partial | Status::Failed | Status::Unknown
        )
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The one answer to one call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct Envelope {
    /// The provider's call id, unchanged.
    pub call_id: String,
    /// The requested tool name, even when unknown.
    pub tool: String,
    /// How the call ended.
    pub status: Status,
    /// Replaying this exact call cannot duplicate an effect.
    pub retry_safe: bool,
    /// The tool's typed output with `ok` and `partial`; `null` otherwise.
    pub result: Value,
    /// Batch tools: items that completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed: Option<u64>,
    /// Batch tools: items that failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<u64>,
    /// Where the tool wrote its full result, relative to the tool's root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact: Option<String>,
    /// Every status but `ok` carries at least one error.
    pub errors: Vec<ErrorEntry>,
    /// With `needs-approval`: what to approve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalRequest>,
    /// Answered from an idempotency record: a repeat of a request key whose
    /// first call completed; nothing ran this time.
    #[serde(default, skip_serializing_if = "is_false")]
    pub replayed: bool,
    /// Content beside the result (images, audio, resources), from a tool
    /// that returns [`crate::content::WithContent`]; never part of the
    /// envelope's JSON, and so never journaled or replayed. Transports that
    /// can carry it do (MCP); see [`crate::content`].
    #[serde(skip)]
    #[schemars(skip)]
    pub content: Vec<crate::content::Content>,
}

/// An envelope, or its value, as compact JSON text. Written into a buffer
/// sized for a small answer: serde_json starts at 128 bytes and doubles,
/// and the envelope's own keys take about 100 of them, so most envelopes
/// were written twice over (0.67 allocations and a copy per call in
/// `mcp-bench`, measured with DHAT). Serializing plain data with string
/// keys cannot fail, and serde_json writes UTF-8 (checked rather than
/// assumed).
pub(crate) fn compact_text(value: &impl Serialize) -> String {
    let mut out = Vec::with_capacity(256);
    match serde_json::to_writer(&mut out, value) {
        Ok(()) => String::from_utf8(out).unwrap_or_else(|_| String::from("{}")),
        Err(_) => String::from("{}"),
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Envelope {
    /// An envelope that carries errors and no result.
    pub fn failure(
        call_id: &str,
        tool: &str,
        status: Status,
        retry_safe: bool,
        errors: Vec<ErrorEntry>,
    ) -> Envelope {
        Envelope {
            call_id: call_id.to_owned(),
            tool: tool.to_owned(),
            status,
            retry_safe,
            result: Value::Null,
            completed: None,
            failed: None,
            artifact: None,
            errors,
            approval: None,
            replayed: false,
            content: Vec::new(),
        }
    }

    /// The envelope as compact JSON text, as it travels inside a provider's tool result.
    pub fn to_json_string(&self) -> String {
        compact_text(self)
    }

    /// The envelope as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// [`Envelope::to_value`] of an envelope the caller is done with: its
    /// strings and `result` are moved, not copied. An envelope with none
    /// of the optional parts (no errors, counts, artifact, approval or
    /// replay: every successful call of a plain tool) is written as its
    /// six keys directly, in `Serialize`'s order; serde's way to a value
    /// ran its map writer field by field, code every call served over MCP
    /// ran cold (`docs/performance.md`). Every other envelope goes
    /// through `Serialize`. A test holds the two ways to one value.
    #[cfg(feature = "mcp")]
    pub(crate) fn into_value(mut self) -> Value {
        let plain = self.errors.is_empty()
            && self.completed.is_none()
            && self.failed.is_none()
            && self.artifact.is_none()
            && self.approval.is_none()
            && !self.replayed;
        if !plain {
            let result = std::mem::take(&mut self.result);
            let mut value = self.to_value();
            // The key is there (as `null`): its place is kept.
            if let Some(slot) = value.get_mut("result") {
                *slot = result;
            }
            return value;
        }
        // A part added to the envelope later and missing from `plain`
        // would be dropped here: every debug build (the tests) checks.
        #[cfg(debug_assertions)]
        let expected = self.to_value();
        let fields = [
            ("call_id", Value::String(self.call_id)),
            ("tool", Value::String(self.tool)),
            ("status", Value::from(self.status.as_str())),
            ("retry_safe", Value::Bool(self.retry_safe)),
            ("result", self.result),
            ("errors", Value::Array(Vec::new())),
        ];
        // One loop, so that the map's insert is one piece of code, not six.
        let mut map = Map::with_capacity(fields.len());
        for (key, value) in fields {
            map.insert(key.to_owned(), value);
        }
        let value = Value::Object(map);
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            value, expected,
            "the envelope's plain shape is not its Serialize"
        );
        value
    }

    /// The codes of the errors, in order: handy in tests and logs.
    pub fn codes(&self) -> Vec<&str> {
        self.errors.iter().map(|e| e.code.as_str()).collect()
    }

    /// Puts every error message and repair hint on one line: text that came
    /// from elsewhere (a tool's failure, a person's reason for a denial) may
    /// carry line breaks, and a message is one line, for logs that are read
    /// line by line and for a model that must not take a second line for an
    /// instruction of its own.
    pub(crate) fn keep_messages_on_one_line(&mut self) {
        for e in &mut self.errors {
            for s in [Some(&mut e.message), e.repair.as_mut().map(|r| &mut r.hint)]
                .into_iter()
                .flatten()
            {
                if s.contains(|c: char| c.is_control()) {
                    *s = one_line(s);
                }
            }
        }
    }
}

/// `s` with each run of control characters (line breaks, tabs) made one space.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut gap = false;
    for c in s.chars() {
        if c.is_control() {
            gap = true;
            continue;
        }
        if gap && !out.is_empty() && !out.ends_with(' ') && c != ' ' {
            out.push(' ');
        }
        gap = false;
        out.push(c);
    }
    out
}

/// One error inside an envelope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct ErrorEntry {
    // The doc comments of the envelope's types are the published schema's
    // descriptions, read by models: plain prose, no intra-doc links. The
    // standard codes are `crate::codes`.
    /// Kebab-case code: a standard one (such as `schema-violation`) or the tool's own.
    pub code: String,
    /// One line for people and models; never contains a secret.
    pub message: String,
    /// JSON pointer into the arguments, e.g. `/year`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The batch item at fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// The violated schema keyword, its limit and the value seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<ConstraintInfo>,
    /// What the model can do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repair: Option<Repair>,
    /// Replaying the call after this error cannot duplicate an effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_safe: Option<bool>,
    /// Wait this long before trying again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
}

impl ErrorEntry {
    /// An error with only a code and a message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> ErrorEntry {
        ErrorEntry {
            code: code.into(),
            message: message.into(),
            field: None,
            item: None,
            constraint: None,
            repair: None,
            retry_safe: None,
            retry_after_ms: None,
        }
    }

    /// Sets the JSON pointer of the field at fault.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Sets a repair hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.repair = Some(Repair {
            hint: hint.into(),
            call: None,
        });
        self
    }
}

/// The JSON Schema keyword a value broke, as the published schema carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct ConstraintInfo {
    /// e.g. `minimum`, `maxLength`, `pattern`, `additionalProperties`.
    pub keyword: String,
    /// The keyword's value in the schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Value>,
    /// What the call sent (omitted for secret arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// The bound is one of service (`x-served` in the schema), not of form:
    /// the request is outside what the tool serves and must be reported to
    /// the user as such, never moved into range. Omitted when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub served: bool,
}

/// A repair the model can act on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct Repair {
    /// What to do, in words.
    pub hint: String,
    /// A call that, made as it is, would fix the problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<RepairCall>,
}

/// A call the model can make as it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct RepairCall {
    /// The tool to call.
    pub name: String,
    /// Its arguments.
    pub arguments: Value,
}

impl RepairCall {
    /// A repair call to `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Value) -> RepairCall {
        RepairCall {
            name: name.into(),
            arguments,
        }
    }
}

/// What a person must approve, sent with `needs-approval`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[non_exhaustive]
pub struct ApprovalRequest {
    /// The rule that asked: `always` or the predicate's name.
    pub rule: String,
    /// Why, in words.
    pub reason: String,
    /// `sha256:` + hex of the canonical arguments; an approval is bound to it.
    pub digest: String,
    /// The approval request waiting for a person: grant or deny it by this id, then send the call again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// The JSON Schema of an envelope whose `result` follows `output` (a tool's
/// output schema; anything when it has none). Derived from [`Envelope`]
/// itself, so the published shape cannot drift from the one serialized.
/// MCP publishes this as a tool's `outputSchema`, because a result's
/// `structuredContent` is the envelope.
pub fn envelope_schema(output: Option<&Value>) -> Value {
    EnvelopeSchema::new(output).to_value()
}

/// The envelope's schema generated from [`Envelope`], once per process: the
/// part every tool's envelope schema shares.
fn template() -> &'static Map<String, Value> {
    // Generated once: with thousands of tools (MCP `tools/list`), running
    // the generator per tool was most of the export's time.
    static TEMPLATE: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    TEMPLATE.get_or_init(|| {
        let gen = schemars::generate::SchemaSettings::draft2020_12().into_generator();
        let mut schema = gen.into_root_schema_for::<Envelope>().to_value();
        crate::schema::standard_number_formats(&mut schema);
        match schema {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    })
}

/// One tool's envelope schema ([`envelope_schema`]) held as what is its own,
/// the `result` schema and the output's `$defs`, over the shared
/// [`template`]: with thousands of tools, a whole copy per tool (45 KB of
/// `Value`) was most of an MCP export's time and memory. Serializing it
/// writes the template with the tool's parts in place, as the whole schema
/// would be written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EnvelopeSchema {
    /// The output schema as the `result` property holds it (without
    /// `$schema` and `$defs`), when it can be (see [`usable`]); the
    /// property's `anyOf` with `null` and its description are written
    /// around it ([`ResultSchema`]), not held per tool.
    output: Option<Map<String, Value>>,
    /// The output's own `$defs`: merged into the template's, where one with
    /// the same name takes that one's place and the others follow.
    defs: Map<String, Value>,
}

/// The `result` property's description, with or without an output schema.
const RESULT_DESCRIPTION: &str =
    "The tool's output when `status` is ok or partial; null otherwise.";

impl EnvelopeSchema {
    /// The envelope schema of an output schema borrowed: the parts used are copied.
    pub(crate) fn new(output: Option<&Value>) -> EnvelopeSchema {
        EnvelopeSchema::of(
            output
                .filter(|v| usable(v))
                .and_then(Value::as_object)
                .cloned(),
        )
    }

    /// The envelope schema of an output schema given: its parts are moved in.
    #[cfg(feature = "providers")]
    pub(crate) fn given(output: Value) -> EnvelopeSchema {
        let usable = usable(&output);
        EnvelopeSchema::of(match output {
            Value::Object(o) if usable => Some(o),
            _ => None,
        })
    }

    /// From an output schema that can be the `result` (see [`usable`]).
    fn of(mut output: Option<Map<String, Value>>) -> EnvelopeSchema {
        let mut defs = Map::new();
        if let Some(o) = &mut output {
            o.remove("$schema");
            if let Some(Value::Object(d)) = o.remove("$defs") {
                defs = d;
            }
        }
        EnvelopeSchema { output, defs }
    }

    /// The `result` property's schema as a value.
    fn result_value(output: Option<Map<String, Value>>) -> Value {
        let mut result = Map::new();
        if let Some(o) = output {
            result.insert(
                "anyOf".to_owned(),
                Value::Array(vec![Value::Object(o), serde_json::json!({"type": "null"})]),
            );
        }
        result.insert("description".to_owned(), RESULT_DESCRIPTION.into());
        Value::Object(result)
    }

    /// The whole schema as one value: the template copied, the parts put in.
    pub(crate) fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    /// The whole schema as one value: the template copied, the parts moved in.
    pub(crate) fn into_value(self) -> Value {
        let mut schema = template().clone();
        // Taken, not removed: `$defs` keeps its place among the keys.
        let mut defs = match schema.get_mut("$defs") {
            Some(Value::Object(d)) => std::mem::take(d),
            _ => Map::new(),
        };
        defs.extend(self.defs);
        if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            props.insert("result".into(), EnvelopeSchema::result_value(self.output));
        }
        if defs.is_empty() {
            schema.remove("$defs");
        } else {
            schema.insert("$defs".into(), Value::Object(defs));
        }
        Value::Object(schema)
    }

    /// The tool's parts as text: two tools with the same key have the same
    /// schema.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn own_key(&self) -> String {
        serde_json::to_string(&(&self.output, &self.defs)).unwrap_or_default()
    }

    /// Whether the template's `$defs` and the output's together are empty
    /// (then the schema has no `$defs` at all).
    fn no_defs(&self) -> bool {
        self.defs.is_empty()
            && template()
                .get("$defs")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty)
    }
}

/// Written as [`EnvelopeSchema::to_value`]'s value would be, key for key,
/// without building it.
impl Serialize for EnvelopeSchema {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let template = template();
        let has_defs = template.contains_key("$defs");
        let len = match (has_defs, self.no_defs()) {
            (true, true) => template.len() - 1,
            (false, false) => template.len() + 1,
            _ => template.len(),
        };
        let mut map = s.serialize_map(Some(len))?;
        for (k, v) in template {
            match (k.as_str(), v) {
                ("properties", Value::Object(props)) => map.serialize_entry(
                    k,
                    &Replaced {
                        base: props,
                        key: "result",
                        value: &ResultSchema(self.output.as_ref()),
                    },
                )?,
                ("$defs", _) if self.no_defs() => {}
                ("$defs", Value::Object(base)) => map.serialize_entry(
                    k,
                    &Merged {
                        base,
                        own: &self.defs,
                    },
                )?,
                // A template `$defs` that is not a map is replaced by the output's.
                ("$defs", _) => map.serialize_entry(k, &self.defs)?,
                _ => map.serialize_entry(k, v)?,
            }
        }
        if !has_defs && !self.no_defs() {
            map.serialize_entry("$defs", &self.defs)?;
        }
        map.end()
    }
}

/// The `result` property's schema, written as
/// [`EnvelopeSchema::result_value`] would build it.
struct ResultSchema<'a>(Option<&'a Map<String, Value>>);

impl Serialize for ResultSchema<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(1 + usize::from(self.0.is_some())))?;
        if let Some(o) = self.0 {
            map.serialize_entry("anyOf", &(o, NullType))?;
        }
        map.serialize_entry("description", RESULT_DESCRIPTION)?;
        map.end()
    }
}

/// `{"type": "null"}`.
struct NullType;

impl Serialize for NullType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("type", "null")?;
        map.end()
    }
}

/// A map written with one key's value replaced (or appended when absent),
/// as `Map::insert` would leave it.
struct Replaced<'a, V> {
    base: &'a Map<String, Value>,
    key: &'a str,
    value: &'a V,
}

impl<V: Serialize> Serialize for Replaced<'_, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let present = self.base.contains_key(self.key);
        let mut map = s.serialize_map(Some(self.base.len() + usize::from(!present)))?;
        for (k, v) in self.base {
            if k == self.key {
                map.serialize_entry(k, self.value)?;
            } else {
                map.serialize_entry(k, v)?;
            }
        }
        if !present {
            map.serialize_entry(self.key, self.value)?;
        }
        map.end()
    }
}

/// Two maps written as `base.extend(own)` would leave them: an own entry
/// takes the place of the base's of the same name, the others follow.
struct Merged<'a> {
    base: &'a Map<String, Value>,
    own: &'a Map<String, Value>,
}

impl Serialize for Merged<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let added = self.own.keys().filter(|k| !self.base.contains_key(*k));
        let mut map = s.serialize_map(Some(self.base.len() + added.clone().count()))?;
        for (k, v) in self.base {
            map.serialize_entry(k, self.own.get(k).unwrap_or(v))?;
        }
        for k in added {
            map.serialize_entry(k, &self.own[k])?;
        }
        map.end()
    }
}

/// Whether an output schema can be the envelope's `result`: an object whose
/// every `$ref` points into its own `$defs` (anything else leaves `result`
/// open).
fn usable(output: &Value) -> bool {
    output.is_object() && refs_are_local_defs(output)
}

/// Whether every `$ref` in `schema` points into its root `$defs`, so that
/// moving those to the envelope's root keeps every reference resolving.
fn refs_are_local_defs(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => m.iter().all(|(k, v)| {
            if k == "$ref" {
                v.as_str().is_some_and(|r| r.starts_with("#/$defs/"))
            } else {
                refs_are_local_defs(v)
            }
        }),
        Value::Array(a) => a.iter().all(refs_are_local_defs),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The envelope moved into a value reads as `Serialize` writes it: the
    /// plain shape written directly under three statuses, and each optional
    /// part, which goes through `Serialize`; the same keys in the same
    /// order.
    #[test]
    #[cfg(feature = "mcp")]
    fn an_envelope_moved_into_a_value_is_its_serialized_value() {
        // `status` is written by `as_str` in the plain shape and by serde's
        // renaming otherwise: a one-word status, the two-word one, an error.
        let mut envelopes: Vec<Envelope> = [Status::Ok, Status::NeedsApproval, Status::Unknown]
            .into_iter()
            .map(|s| {
                let mut e = Envelope::failure("c\"1", "t", s, s == Status::Ok, vec![]);
                e.result = serde_json::json!({"n": [1, 2.5, "é"], "z": null, "a": true});
                e
            })
            .collect();
        let base = envelopes[0].clone();
        let mut with = |f: &dyn Fn(&mut Envelope)| {
            let mut e = base.clone();
            f(&mut e);
            envelopes.push(e);
        };
        with(&|e| e.errors.push(ErrorEntry::new("no-match", "none")));
        with(&|e| e.completed = Some(2));
        with(&|e| e.failed = Some(0));
        with(&|e| e.artifact = Some("a.json".into()));
        with(&|e| e.replayed = true);
        with(&|e| {
            e.approval = Some(ApprovalRequest {
                rule: "always".into(),
                reason: "moves money".into(),
                digest: "sha256:00".into(),
                id: Some("apr_1".into()),
            })
        });
        for e in envelopes {
            let expected = serde_json::to_string(&e).unwrap();
            let got = serde_json::to_string(&e.clone().into_value()).unwrap();
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn messages_and_hints_become_one_line() {
        let mut env = Envelope::failure(
            "c",
            "t",
            Status::Denied,
            true,
            vec![
                ErrorEntry::new("x", "dana denied this call: line1\nline2\r\n\tend")
                    .with_hint("first\nsecond"),
            ],
        );
        env.keep_messages_on_one_line();
        assert_eq!(
            env.errors[0].message,
            "dana denied this call: line1 line2 end"
        );
        assert_eq!(env.errors[0].repair.as_ref().unwrap().hint, "first second");
    }
}
