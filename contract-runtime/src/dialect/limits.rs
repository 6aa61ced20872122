//! What a provider allows per request, measured over the whole exported set.
//!
//! Providers bound the tool list of one request, not one tool: OpenAI's
//! strict schemas share one budget of properties, nesting, enum values and
//! characters, and Anthropic's strict tool use compiles every strict tool of
//! a request into one grammar. A set over a limit exports cleanly one tool at
//! a time and is refused at request time, so the export measures the set it
//! produced and fails with the limit, the value and the first tool over it.
//!
//! [`limits`] is the one table (with each number's source and the date it
//! was checked); `docs/dialects.md` shows it, and a test keeps the two equal.

use serde_json::{Map, Value};

use super::Dialect;

/// One provider limit on the tools of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What is measured, in words (`object properties, all tools together`).
    pub what: &'static str,
    /// The most the provider accepts.
    pub max: usize,
    /// Whether the value sums over the tools of the request or is the
    /// largest of any one schema (nesting, one enum's characters).
    pub scope: Scope,
    /// Where the number comes from.
    pub source: &'static str,
    /// When the source was last read for this number (`2026-12-06`).
    pub checked: &'static str,
    /// What the provider does over the limit.
    pub over: &'static str,
    quantity: Quantity,
}

/// Which value of a [`Measure`] a limit bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quantity {
    Tools,
    Properties,
    Depth,
    EnumValues,
    Chars,
    LargeEnumChars,
    StrictTools,
    Optional,
    Unions,
}

impl Limit {
    fn of(&self, m: &Measure) -> usize {
        match self.quantity {
            Quantity::Tools => m.tools,
            Quantity::Properties => m.properties,
            Quantity::Depth => m.depth,
            Quantity::EnumValues => m.enum_values,
            Quantity::Chars => m.chars,
            Quantity::LargeEnumChars => m.large_enum_chars,
            Quantity::StrictTools => m.strict_tools,
            Quantity::Optional => m.optional,
            Quantity::Unions => m.unions,
        }
    }
}

/// How a [`Limit`]'s value is taken over the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// Summed over every tool of the request.
    Request,
    /// The largest value of any one tool's schema.
    Schema,
}

/// A set over a [`Limit`]: the value measured and the first tool that
/// crossed it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct OverLimit {
    /// The limit crossed.
    pub limit: &'static Limit,
    /// The value measured over the whole set; for a [`Scope::Schema`]
    /// limit, the value of the first tool over it (the one named).
    pub value: usize,
}

/// What one exported tool adds to each measured value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Measure {
    tools: usize,
    properties: usize,
    depth: usize,
    enum_values: usize,
    chars: usize,
    /// The most characters of one string enum of more than 250 values.
    large_enum_chars: usize,
    optional: usize,
    unions: usize,
    strict_tools: usize,
}

const OPENAI_STRICT: &str = "OpenAI, Structured Outputs guide, \"Supported schemas\" (developers.openai.com/api/docs/guides/structured-outputs#supported-schemas), as quoted with its link by artifactize-core 0.14.2 (docs.rs); the 5-level figure older copies give is an API error text reported in tidyverse/ellmer#671";
const ANTHROPIC_STRICT: &str = "Anthropic, Structured outputs, \"Schema complexity limits\", table \"Explicit limits\" (platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits), read in a copy of the page fetched 2026-09-20: at most 20 tools with `strict: true` (non-strict tools do not count), 24 parameters not listed in `required` and 16 parameters using `anyOf` or a type array, each across all strict schemas of a request";
const OPENAI_OVER: &str = "refused at request time (400)";
const OPENAI_TOOLS: &str = "OpenAI, API reference, Chat Completions `tools` (\"A max of 128 functions are supported\", as the `openai` Python SDK 3.63 still quotes it for completions-style requests); the API's 400 names it for Chat and Responses alike: \"Invalid 'tools': array too long. Expected an array with maximum length 128\" (`array_above_max_length`, reported in Upsonic/Upsonic#176 and zed-industries/zed#42393)";
const GEMINI_TOOLS: &str = "Google, Gemini API `Tool.function_declarations` (\"Maximum 512 function declarations can be provided\", as the `google-genai` Python SDK 3.6.1 quotes it)";
// The page gives the 400 and its text ("Schema is too complex for
// compilation") for the internal limits on the compiled grammar; users
// report a 400 over the explicit ones as well, with texts of their own.
const ANTHROPIC_OVER: &str = "refused at request time (400)";

static OPENAI: &[Limit] = &[
    Limit {
        what: "tools in one request",
        max: 128,
        scope: Scope::Request,
        source: OPENAI_TOOLS,
        checked: "2026-12-07",
        over: OPENAI_OVER,
        quantity: Quantity::Tools,
    },
    Limit {
        what: "object properties, all tools together",
        max: 5000,
        scope: Scope::Request,
        source: OPENAI_STRICT,
        checked: "2026-12-06",
        over: OPENAI_OVER,
        quantity: Quantity::Properties,
    },
    Limit {
        what: "levels of object nesting in one schema",
        max: 10,
        scope: Scope::Schema,
        source: OPENAI_STRICT,
        checked: "2026-12-06",
        over: OPENAI_OVER,
        quantity: Quantity::Depth,
    },
    Limit {
        what: "enum values, all tools together",
        max: 1000,
        scope: Scope::Request,
        source: OPENAI_STRICT,
        checked: "2026-12-06",
        over: OPENAI_OVER,
        quantity: Quantity::EnumValues,
    },
    Limit {
        what: "characters of property names, definition names, enum values and consts, all tools together",
        max: 120_000,
        scope: Scope::Request,
        source: OPENAI_STRICT,
        checked: "2026-12-06",
        over: OPENAI_OVER,
        quantity: Quantity::Chars,
    },
    Limit {
        what: "characters of one string enum of more than 250 values",
        max: 15_000,
        scope: Scope::Schema,
        source: OPENAI_STRICT,
        checked: "2026-12-06",
        over: OPENAI_OVER,
        quantity: Quantity::LargeEnumChars,
    },
];

static GEMINI: &[Limit] = &[Limit {
    what: "function declarations in one request",
    max: 512,
    scope: Scope::Request,
    source: GEMINI_TOOLS,
    checked: "2026-12-07",
    over: "refused at request time (400)",
    quantity: Quantity::Tools,
}];

static ANTHROPIC: &[Limit] = &[
    Limit {
        what: "strict tools in one request",
        max: 20,
        scope: Scope::Request,
        source: ANTHROPIC_STRICT,
        checked: "2026-12-06",
        over: ANTHROPIC_OVER,
        quantity: Quantity::StrictTools,
    },
    Limit {
        what: "optional parameters, all strict tools together",
        max: 24,
        scope: Scope::Request,
        source: ANTHROPIC_STRICT,
        checked: "2026-12-06",
        over: ANTHROPIC_OVER,
        quantity: Quantity::Optional,
    },
    Limit {
        what: "parameters with union types (anyOf or a type list), all strict tools together",
        max: 16,
        scope: Scope::Request,
        source: ANTHROPIC_STRICT,
        checked: "2026-12-06",
        over: ANTHROPIC_OVER,
        quantity: Quantity::Unions,
    },
];

/// The per-request limits of a dialect's provider, as the export checks
/// them. Dialects without documented limits on the set have none.
///
/// ```
/// use contract_runtime::dialect::{limits, Dialect};
/// assert!(limits(Dialect::AnthropicStrict).iter().any(|l| l.max == 20));
/// assert!(limits(Dialect::OpenAiChat).iter().any(|l| l.max == 128));
/// assert!(limits(Dialect::Mcp).is_empty());
/// ```
pub fn limits(d: Dialect) -> &'static [Limit] {
    match d {
        Dialect::OpenAiResponses | Dialect::OpenAiChat => OPENAI,
        Dialect::AnthropicStrict => ANTHROPIC,
        Dialect::Gemini | Dialect::GeminiJsonSchema => GEMINI,
        _ => &[],
    }
}

/// The limits as the Markdown table `docs/dialects.md` shows.
pub fn limits_markdown() -> String {
    let mut out = String::from(
        "| dialect | limit | at most | over it | source | checked |\n|---|---|---|---|---|---|\n",
    );
    for d in Dialect::ALL {
        for l in limits(*d) {
            out.push_str(&format!(
                "| `{d}` | {} | {} | {} | {} | {} |\n",
                l.what, l.max, l.over, l.source, l.checked
            ));
        }
    }
    out
}

/// Running totals over a set, and the first tool over each limit.
pub(crate) struct Tally {
    dialect: Dialect,
    total: Measure,
    /// For each limit of the dialect, in table order: the first tool over
    /// it, with the value measured when it crossed.
    first_over: Vec<Option<(String, usize)>>,
}

impl Tally {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Tally {
            dialect,
            total: Measure::default(),
            first_over: vec![None; limits(dialect).len()],
        }
    }

    /// Whether the dialect has limits to measure.
    pub(crate) fn active(&self) -> bool {
        !self.first_over.is_empty()
    }

    /// Adds one exported tool (the provider's JSON).
    pub(crate) fn add(&mut self, name: &str, exported: &Value) {
        if !self.active() {
            return;
        }
        let m = measure(self.dialect, exported);
        let t = &mut self.total;
        t.tools += 1;
        t.properties += m.properties;
        t.depth = t.depth.max(m.depth);
        t.enum_values += m.enum_values;
        t.chars += m.chars;
        t.large_enum_chars = t.large_enum_chars.max(m.large_enum_chars);
        t.optional += m.optional;
        t.unions += m.unions;
        t.strict_tools += m.strict_tools;
        for (l, first) in limits(self.dialect).iter().zip(&mut self.first_over) {
            if first.is_none() && l.of(t) > l.max {
                *first = Some((name.to_owned(), l.of(t)));
            }
        }
    }

    /// The first limit the set is over (in table order), with the value
    /// measured over the whole set and the first tool over it.
    pub(crate) fn over(&self) -> Option<(OverLimit, &str)> {
        limits(self.dialect)
            .iter()
            .zip(&self.first_over)
            .find_map(|(l, first)| {
                let (tool, crossed) = first.as_ref()?;
                // a sum is the set's; a largest value is the named tool's,
                // not another tool's deeper still
                let value = match l.scope {
                    Scope::Request => l.of(&self.total),
                    Scope::Schema => *crossed,
                };
                Some((OverLimit { limit: l, value }, tool.as_str()))
            })
    }
}

/// What one exported tool adds, read from the provider's JSON.
fn measure(d: Dialect, exported: &Value) -> Measure {
    let (schema, strict) = match d {
        Dialect::OpenAiChat => {
            let f = exported.get("function").unwrap_or(&Value::Null);
            (f.get("parameters"), f.get("strict"))
        }
        Dialect::AnthropicStrict => (exported.get("input_schema"), exported.get("strict")),
        _ => (exported.get("parameters"), exported.get("strict")),
    };
    let mut m = Measure {
        strict_tools: usize::from(strict == Some(&Value::Bool(true))),
        ..Measure::default()
    };
    if let Some(schema) = schema {
        walk(schema, 1, &mut m);
    }
    m
}

/// Counts one schema node and everything below it; `depth` is the object
/// nesting level of the node (the root object is 1).
fn walk(v: &Value, depth: usize, m: &mut Measure) {
    let Some(node) = v.as_object() else {
        if let Value::Array(list) = v {
            for s in list {
                walk(s, depth, m);
            }
        }
        return;
    };
    if let Some(Value::Object(props)) = node.get("properties") {
        m.depth = m.depth.max(depth);
        m.properties += props.len();
        m.chars += props.keys().map(|k| k.chars().count()).sum::<usize>();
        let required = |name: &str| {
            node.get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(name)))
        };
        m.optional += props.keys().filter(|k| !required(k)).count();
        for s in props.values() {
            walk(s, depth + 1, m);
        }
    } else if node.get("type").and_then(Value::as_str) == Some("object") {
        m.depth = m.depth.max(depth);
    }
    if let Some(Value::Array(values)) = node.get("enum") {
        m.enum_values += values.len();
        let chars: usize = values
            .iter()
            .filter_map(Value::as_str)
            .map(|s| s.chars().count())
            .sum();
        m.chars += chars;
        if values.len() > 250 && values.iter().all(Value::is_string) {
            m.large_enum_chars = m.large_enum_chars.max(chars);
        }
    }
    if let Some(Value::String(c)) = node.get("const") {
        m.chars += c.chars().count();
    }
    let type_list = matches!(node.get("type"), Some(Value::Array(t)) if t.len() > 1);
    if type_list || node.contains_key("anyOf") {
        m.unions += 1;
    }
    for (k, sub) in node {
        match k.as_str() {
            "items" | "anyOf" | "allOf" | "oneOf" | "prefixItems" | "not" | "if" | "then"
            | "else" | "contains" => walk(sub, depth, m),
            "$defs" | "definitions" => {
                if let Value::Object(defs) = sub {
                    m.chars += defs.keys().map(|k| k.chars().count()).sum::<usize>();
                    walk_map(defs, depth, m);
                }
            }
            _ => {}
        }
    }
}

fn walk_map(defs: &Map<String, Value>, depth: usize, m: &mut Measure) {
    for s in defs.values() {
        walk(s, depth, m);
    }
}
