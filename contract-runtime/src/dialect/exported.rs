//! One exported tool definition, as [`super::Export::tools`] holds it.

use std::fmt;
use std::sync::OnceLock;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::envelope::EnvelopeSchema;

/// One tool definition in a provider's dialect: the JSON the provider reads.
///
/// For every dialect but MCP it is that JSON, a [`Value`]. An MCP tool's
/// `outputSchema` is the envelope's schema with the tool's output as its
/// `result` (`structuredContent` is the envelope), about 45 KB as a `Value`
/// and the same for every tool but that `result` and the output's `$defs`:
/// an MCP tool holds only those, over one copy of the envelope's schema per
/// process (10,000 tools held 451 MiB as values, and hold 88 MiB so).
///
/// Either way, serializing it (serde) writes exactly the provider's JSON,
/// streamed from the parts; [`get`](Self::get) and indexing read it as JSON
/// (`tool["inputSchema"]["properties"]`), like a [`Value`], and
/// [`to_value`](Self::to_value) / [`into_value`](Self::into_value) build the
/// whole value. MCP's `outputSchema` is built, once, only when it is read.
///
/// ```
/// # use contract_runtime::dialect::*;
/// let tool = serde_json::json!({
///     "name": "ping", "description": "Answer pong.",
///     "input_schema": {"type": "object", "properties": {}, "additionalProperties": false},
///     "output_schema": null, "effect": "read_only", "idempotency": "natural",
///     "authority": [], "approval": "never"
/// });
/// let out = export(&[tool], Dialect::Mcp, &ExportOptions::default()).unwrap();
/// let ping = &out.tools[0];
/// assert_eq!(ping["name"], "ping");
/// assert_eq!(ping["outputSchema"]["title"], "Envelope");
/// // The JSON written is the value's, byte for byte.
/// assert_eq!(serde_json::to_string(ping).unwrap(), ping.to_value().to_string());
/// ```
#[derive(Clone)]
pub struct ExportedTool(Repr);

#[derive(Clone)]
enum Repr {
    Value(Value),
    // Boxed: most exports are values, and a vector of tools is as wide as
    // its widest kind.
    Mcp(Box<McpTool>),
}

/// An MCP `tools/list` entry held in parts: `{"name","title"?,
/// "description","inputSchema","outputSchema","annotations"}`.
pub(crate) struct McpTool {
    /// `name`, `title` (when there is one), `description`, `inputSchema`,
    /// in that order.
    head: Map<String, Value>,
    /// `outputSchema`, in parts.
    output: EnvelopeSchema,
    /// `annotations`.
    annotations: Value,
    /// `outputSchema` as a value, built on the first read.
    output_value: OnceLock<Value>,
}

impl McpTool {
    pub(crate) fn new(
        head: Map<String, Value>,
        output: EnvelopeSchema,
        annotations: Value,
    ) -> Self {
        McpTool {
            head,
            output,
            annotations,
            output_value: OnceLock::new(),
        }
    }

    fn output_value(&self) -> &Value {
        self.output_value.get_or_init(|| self.output.to_value())
    }
}

/// A copy leaves out the `outputSchema` built for reading: the copy builds
/// its own when it is read.
impl Clone for McpTool {
    fn clone(&self) -> Self {
        McpTool::new(
            self.head.clone(),
            self.output.clone(),
            self.annotations.clone(),
        )
    }
}

impl PartialEq for McpTool {
    fn eq(&self, other: &Self) -> bool {
        self.head == other.head
            && self.annotations == other.annotations
            // Different parts can still make the same schema (an output's
            // `$defs` entry equal to the envelope's of the same name).
            && (self.output == other.output || self.output_value() == other.output_value())
    }
}

impl ExportedTool {
    pub(crate) fn mcp(tool: McpTool) -> Self {
        ExportedTool(Repr::Mcp(Box::new(tool)))
    }

    /// The definition as the value it is held as, for every dialect but MCP.
    pub(crate) fn as_value(&self) -> Option<&Value> {
        match &self.0 {
            Repr::Value(v) => Some(v),
            Repr::Mcp(_) => None,
        }
    }

    /// The value of one key of the definition (`"name"`, `"inputSchema"`),
    /// or `None` when it has no such key or is not a JSON object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match &self.0 {
            Repr::Value(v) => v.get(key),
            Repr::Mcp(t) => match key {
                "outputSchema" => Some(t.output_value()),
                "annotations" => Some(&t.annotations),
                _ => t.head.get(key),
            },
        }
    }

    /// The definition's keys, in the order they are written.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        let (value, mcp) = match &self.0 {
            Repr::Value(v) => (v.as_object(), None),
            Repr::Mcp(t) => (Some(&t.head), Some(["outputSchema", "annotations"])),
        };
        value
            .into_iter()
            .flat_map(Map::keys)
            .map(String::as_str)
            .chain(mcp.into_iter().flatten())
    }

    /// The whole definition as one JSON value (for MCP, `outputSchema`
    /// included: a copy of the envelope's schema per call).
    pub fn to_value(&self) -> Value {
        match &self.0 {
            Repr::Value(v) => v.clone(),
            Repr::Mcp(t) => {
                let mut m = t.head.clone();
                m.insert("outputSchema".to_owned(), t.output_value().clone());
                m.insert("annotations".to_owned(), t.annotations.clone());
                Value::Object(m)
            }
        }
    }

    /// The whole definition as one JSON value, taken apart to build it.
    pub fn into_value(self) -> Value {
        match self.0 {
            Repr::Value(v) => v,
            Repr::Mcp(t) => {
                let McpTool {
                    mut head,
                    output,
                    annotations,
                    output_value,
                } = *t;
                let output = output_value
                    .into_inner()
                    .unwrap_or_else(|| output.into_value());
                head.insert("outputSchema".to_owned(), output);
                head.insert("annotations".to_owned(), annotations);
                Value::Object(head)
            }
        }
    }

    /// An MCP tool's parts: the definition without `outputSchema`, and
    /// `outputSchema` in parts; the tool itself back for every other dialect.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn into_mcp_parts(self) -> Result<(Value, EnvelopeSchema), Self> {
        match self.0 {
            Repr::Mcp(t) => {
                let McpTool {
                    mut head,
                    output,
                    annotations,
                    ..
                } = *t;
                head.insert("annotations".to_owned(), annotations);
                Ok((Value::Object(head), output))
            }
            repr => Err(ExportedTool(repr)),
        }
    }
}

impl From<Value> for ExportedTool {
    fn from(value: Value) -> Self {
        ExportedTool(Repr::Value(value))
    }
}

impl From<ExportedTool> for Value {
    fn from(tool: ExportedTool) -> Self {
        tool.into_value()
    }
}

/// The definition's JSON, written from its parts without building it.
impl Serialize for ExportedTool {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Value(v) => v.serialize(s),
            Repr::Mcp(t) => {
                let mut map = s.serialize_map(Some(t.head.len() + 2))?;
                for (k, v) in &t.head {
                    map.serialize_entry(k, v)?;
                }
                map.serialize_entry("outputSchema", &t.output)?;
                map.serialize_entry("annotations", &t.annotations)?;
                map.end()
            }
        }
    }
}

static NULL: Value = Value::Null;

/// `tool["key"]`, as on a [`Value`]: `null` for a key it does not have.
impl std::ops::Index<&str> for ExportedTool {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

/// Equal when the JSON is.
impl PartialEq for ExportedTool {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Repr::Value(a), Repr::Value(b)) => a == b,
            (Repr::Mcp(a), Repr::Mcp(b)) => a == b,
            (Repr::Value(v), _) => other == v,
            (_, Repr::Value(v)) => self == v,
        }
    }
}

/// Equal when the JSON is.
impl PartialEq<Value> for ExportedTool {
    fn eq(&self, other: &Value) -> bool {
        match &self.0 {
            Repr::Value(v) => v == other,
            Repr::Mcp(_) => other.as_object().is_some_and(|o| {
                o.len() == self.keys().count() && o.iter().all(|(k, v)| self.get(k) == Some(v))
            }),
        }
    }
}

impl PartialEq<ExportedTool> for Value {
    fn eq(&self, other: &ExportedTool) -> bool {
        other == self
    }
}

/// The JSON, as [`Value`]'s `Debug` shows it.
impl fmt::Debug for ExportedTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Value(v) => fmt::Debug::fmt(v, f),
            Repr::Mcp(_) => fmt::Debug::fmt(&self.to_value(), f),
        }
    }
}

/// The JSON text, compact; `{:#}` writes it indented, as [`Value`] does.
impl fmt::Display for ExportedTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        };
        f.write_str(&text.map_err(|_| fmt::Error)?)
    }
}
