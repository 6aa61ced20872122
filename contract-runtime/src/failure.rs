//! The result side of a contract: typed failures, batch outcomes, and how a
//! handler's return value becomes an outcome the envelope stage can wrap.

use std::borrow::Cow;
use std::convert::Infallible;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::envelope::{ErrorEntry, Repair, RepairCall};

/// How a failure bears on what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureKind {
    /// The tool refused or could not act, and nothing took effect (`failed`).
    Domain,
    /// A passing failure with no effect: retry-safe, retried automatically when the policy allows (`failed`).
    Transient,
    /// The effect may have happened (`unknown`): never retried automatically.
    Unknown,
    /// The tool refused a value outside its authority before acting (`denied`):
    /// a flag where a positional belongs, a URL scheme off the allowlist.
    Denied,
}

/// One failure as the envelope stage needs it. Built by `#[derive(ToolFailure)]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Kebab-case code.
    pub code: Cow<'static, str>,
    /// One line for people and models; never a secret.
    pub message: String,
    /// JSON pointer of the argument at fault.
    pub field: Option<Cow<'static, str>>,
    /// What to do about it.
    pub hint: Option<Cow<'static, str>>,
    /// A call that would fix it, made as it is.
    pub call: Option<RepairCall>,
    /// Replaying the call after this failure cannot duplicate an effect.
    pub retry_safe: Option<bool>,
    /// Wait this long before trying again.
    pub retry_after_ms: Option<u64>,
    /// Domain, transient or unknown outcome.
    pub kind: FailureKind,
}

impl Failure {
    /// A domain failure with a code and a message.
    pub fn new(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Failure {
        Failure {
            code: code.into(),
            message: message.into(),
            field: None,
            hint: None,
            call: None,
            retry_safe: None,
            retry_after_ms: None,
            kind: FailureKind::Domain,
        }
    }

    /// The failure as an envelope's error entry (of a batch `item`, if any):
    /// one mapping for the handler's failures and the precheck's. A transient
    /// failure that says nothing of replaying is retry-safe.
    pub(crate) fn into_entry(self, item: Option<String>) -> ErrorEntry {
        ErrorEntry {
            code: self.code.into_owned(),
            message: self.message,
            field: self.field.map(|c| c.into_owned()),
            item,
            constraint: None,
            repair: match (self.hint, self.call) {
                (None, None) => None,
                (hint, call) => Some(Repair {
                    hint: hint.map(|h| h.into_owned()).unwrap_or_default(),
                    call,
                }),
            },
            retry_safe: self
                .retry_safe
                .or((self.kind == FailureKind::Transient).then_some(true)),
            retry_after_ms: self.retry_after_ms,
        }
    }
}

/// A failure type with a contract: every variant has a code, and may name the
/// field at fault, a repair and whether replaying is safe.
///
/// Derive it: `#[derive(ToolFailure)]` with `#[failure(code = "...", ...)]` on each variant.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a typed tool failure",
    label = "this failure type has no contract",
    note = "define an enum with #[derive(ToolFailure)] and a #[failure(code = \"...\")] on each variant; a bool, String, () or boxed error tells the model nothing it can act on"
)]
pub trait ToolFailure: Send + 'static {
    /// The failure as the envelope reports it.
    fn failure(&self) -> Failure;
}

/// A tool that cannot fail returns `Result<T, Infallible>`: the standard
/// library's empty type, so no value of it exists and no failure is ever
/// reported.
impl ToolFailure for Infallible {
    fn failure(&self) -> Failure {
        match *self {}
    }
}

/// The empty failure type this crate had before it used the standard
/// library's.
#[deprecated(note = "use std::convert::Infallible")]
pub type Never = Infallible;

/// What a handler produced, before it is wrapped in an envelope.
#[derive(Debug)]
#[non_exhaustive]
pub enum Outcome {
    /// Completed: the serialized output.
    Done(Value),
    /// Completed: the serialized output, and content beside it
    /// ([`crate::content::WithContent`]).
    Rich(Value, Vec<crate::content::Content>),
    /// Failed as a whole.
    Failed(Failure),
    /// A batch: one outcome per item.
    Batch(Vec<ItemOutcome>),
    /// The output could not be serialized as its schema says.
    OutputBroken(String),
}

/// One item of a batch.
#[derive(Debug)]
pub struct ItemOutcome {
    /// The item's name as the model knows it (e.g. the note name).
    pub item: String,
    /// Its output or its failure.
    pub result: Result<Value, Failure>,
}

/// A handler's return type: `Result<T, E>` or [`Batch<T, E>`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool result type",
    note = "return Result<T, E> or Batch<T, E> where T: Serialize + JsonSchema and E: ToolFailure"
)]
pub trait ToolOutput: Send + 'static {
    /// The output schema (JSON Schema 2020-12), if it can be stated.
    fn output_schema() -> Option<Value>;
    /// The outcome for the envelope stage.
    fn into_outcome(self) -> Outcome;
}

fn to_value<T: Serialize>(v: &T) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| format!("the output could not be serialized: {e}"))
}

fn schema_of<T: JsonSchema>() -> Value {
    let gen = schemars::generate::SchemaSettings::draft2020_12()
        .with_transform(|s: &mut schemars::Schema| close_objects(s, true))
        .into_generator();
    let mut schema = gen.into_root_schema_for::<T>().to_value();
    crate::schema::standard_number_formats(&mut schema);
    schema
}

/// Every object of an output schema gets `additionalProperties: false`, as
/// every object of an input schema has: the canonical schema closes every
/// object, and a Rust type serializes exactly its fields. An object that
/// states `additionalProperties` (a map) keeps it, and the branches of an
/// `allOf` stay open, since closing each would refuse the others' fields.
fn close_objects(schema: &mut schemars::Schema, close_here: bool) {
    let Some(node) = schema.as_object_mut() else {
        return;
    };
    let is_object = node.contains_key("properties")
        || match node.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
            _ => false,
        };
    if close_here && is_object && !node.contains_key("additionalProperties") {
        node.insert("additionalProperties".into(), Value::Bool(false));
    }
    let all_of = node.remove("allOf");
    schemars::transform::transform_subschemas(
        &mut |s: &mut schemars::Schema| close_objects(s, true),
        schema,
    );
    if let Some(mut branches) = all_of {
        if let Value::Array(items) = &mut branches {
            for item in items.iter_mut() {
                if let Ok(s) = <&mut schemars::Schema>::try_from(item) {
                    close_objects(s, false);
                }
            }
        }
        if let Some(node) = schema.as_object_mut() {
            node.insert("allOf".into(), branches);
        }
    }
}

impl<T, E> ToolOutput for Result<T, E>
where
    T: Serialize + JsonSchema + Send + 'static,
    E: ToolFailure,
{
    fn output_schema() -> Option<Value> {
        Some(schema_of::<T>())
    }
    fn into_outcome(self) -> Outcome {
        match self {
            Ok(v) => match to_value(&v) {
                Ok(v) => Outcome::Done(v),
                Err(e) => Outcome::OutputBroken(e),
            },
            Err(e) => Outcome::Failed(e.failure()),
        }
    }
}

/// Content beside the result: the schema and the `result` are `T`'s.
impl<T, E> ToolOutput for Result<crate::content::WithContent<T>, E>
where
    T: Serialize + JsonSchema + Send + 'static,
    E: ToolFailure,
{
    fn output_schema() -> Option<Value> {
        Some(schema_of::<T>())
    }
    fn into_outcome(self) -> Outcome {
        match self {
            Ok(out) => match to_value(&out.result) {
                Ok(v) if out.content.is_empty() => Outcome::Done(v),
                Ok(v) => Outcome::Rich(v, out.content),
                Err(e) => Outcome::OutputBroken(e),
            },
            Err(e) => Outcome::Failed(e.failure()),
        }
    }
}

/// The per-item outcomes of a batch tool. The envelope's status is derived
/// from them: `ok` only when every item completed, `partial` when some did,
/// `failed` when none did.
#[derive(Debug)]
pub struct Batch<T, E> {
    items: Vec<(String, Result<T, E>)>,
}

impl<T, E> Default for Batch<T, E> {
    fn default() -> Self {
        Batch { items: Vec::new() }
    }
}

impl<T, E> Batch<T, E> {
    /// An empty batch.
    pub fn new() -> Self {
        Batch::default()
    }

    /// Records one item's outcome.
    pub fn push(&mut self, item: impl Into<String>, result: Result<T, E>) {
        self.items.push((item.into(), result));
    }

    /// The outcomes so far.
    pub fn items(&self) -> &[(String, Result<T, E>)] {
        &self.items
    }
}

impl<T, E, S: Into<String>> FromIterator<(S, Result<T, E>)> for Batch<T, E> {
    fn from_iter<I: IntoIterator<Item = (S, Result<T, E>)>>(iter: I) -> Self {
        Batch {
            items: iter.into_iter().map(|(s, r)| (s.into(), r)).collect(),
        }
    }
}

impl<T, E> ToolOutput for Batch<T, E>
where
    T: Serialize + JsonSchema + Send + 'static,
    E: ToolFailure,
{
    fn output_schema() -> Option<Value> {
        let mut item = schema_of::<T>();
        let defs = item.as_object_mut().and_then(|o| {
            o.remove("$schema");
            o.remove("$defs")
        });
        let schema = serde_json::json!({
            "$schema": crate::schema::DRAFT_2020_12,
            "type": "object",
            "properties": {
                "items": {
                    "description": "The items that completed; failed items are reported in the envelope's errors.",
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"item": {"type": "string"}, "result": item},
                        "required": ["item", "result"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["items"],
            "additionalProperties": false
        });
        let mut schema = schema;
        if let (Some(defs), Some(o)) = (defs, schema.as_object_mut()) {
            o.insert("$defs".into(), defs);
        }
        Some(schema)
    }

    fn into_outcome(self) -> Outcome {
        let mut out = Vec::with_capacity(self.items.len());
        for (item, r) in self.items {
            let result = match r {
                Ok(v) => to_value(&v)
                    .map_err(|e| Failure::new(crate::codes::OUTPUT_CONTRACT_VIOLATION, e)),
                Err(e) => Err(e.failure()),
            };
            out.push(ItemOutcome { item, result });
        }
        Outcome::Batch(out)
    }
}

/// The `result` of a batch envelope: the completed items.
pub(crate) fn batch_result(items: &[ItemOutcome]) -> Value {
    let done: Vec<Value> = items
        .iter()
        .filter_map(|i| {
            i.result.as_ref().ok().map(|v| {
                let mut m = Map::new();
                m.insert("item".into(), Value::from(i.item.clone()));
                m.insert("result".into(), v.clone());
                Value::Object(m)
            })
        })
        .collect();
    serde_json::json!({ "items": done })
}
