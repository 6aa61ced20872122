//! Export canonical tool definitions to each provider's dialect.
//!
//! The canonical schema is JSON Schema 2020-12 with `additionalProperties:
//! false` on every object. Each provider accepts a different subset: a
//! constraint a dialect cannot carry is moved into the description text (or
//! dropped), reported as a [`Loss`], and still enforced by the runtime; a
//! construct a dialect cannot carry at all makes the export fail with an
//! [`ExportError`]. What each dialect does with each keyword is one table,
//! [`rules()`], which the exporter consults.
//!
//! An [`Export`] holds one [`ExportedTool`] per definition, and every loss.
//! An exported tool serializes to the provider's JSON and reads like a
//! [`Value`] (`tool["inputSchema"]`, [`ExportedTool::to_value`]); an MCP
//! tool holds only what is its own, over one copy per process of the
//! envelope's schema that every `outputSchema` shares.
//!
//! ```
//! # use contract_runtime::dialect::*;
//! let tool = serde_json::json!({
//!     "name": "search_notes",
//!     "description": "Search the notes.",
//!     "input_schema": {"type": "object", "properties": {
//!         "query": {"type": "string", "minLength": 1, "maxLength": 200}},
//!         "required": ["query"], "additionalProperties": false},
//!     "output_schema": null, "effect": "read_only", "idempotency": "natural",
//!     "authority": ["notes:read"], "approval": "never"
//! });
//! let out = export(&[tool], Dialect::OpenAiResponses, &ExportOptions::default()).unwrap();
//! assert_eq!(out.tools[0]["parameters"]["properties"]["query"]["description"], "(1 to 200 characters)");
//! assert_eq!(out.losses.len(), 2);
//! ```

mod anthropic;
mod date_bounds;
mod defer;
mod exported;
pub mod gbnf;
mod gemini;
mod limits;
mod mcp;
mod names;
mod openai;
mod rules;
mod walk;
mod wellformed;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

pub use defer::{Defer, ANTHROPIC_SEARCH, NAMESPACE_SIZE};
pub use exported::ExportedTool;
pub use limits::{limits, limits_markdown, Limit, OverLimit, Scope};
pub use names::check_name;
pub use rules::{rules, rules_markdown, KeywordRule, Treatment};

/// A provider's tool-definition format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// The canonical definitions, unchanged.
    Canonical,
    /// OpenAI Responses API, strict function tools.
    OpenAiResponses,
    /// OpenAI Chat Completions API, strict function tools.
    OpenAiChat,
    /// Anthropic Messages tools, plain `input_schema`.
    Anthropic,
    /// Anthropic Messages tools with `strict: true`.
    AnthropicStrict,
    /// Gemini function declarations with `parameters` (OpenAPI 3.0 subset).
    Gemini,
    /// Gemini function declarations with `parametersJsonSchema`.
    GeminiJsonSchema,
    /// MCP `tools/list` entries.
    Mcp,
}

impl Dialect {
    /// Every dialect, in documentation order.
    pub const ALL: &'static [Dialect] = &[
        Dialect::Canonical,
        Dialect::OpenAiResponses,
        Dialect::OpenAiChat,
        Dialect::Anthropic,
        Dialect::AnthropicStrict,
        Dialect::Gemini,
        Dialect::GeminiJsonSchema,
        Dialect::Mcp,
    ];

    /// The dialect's id, as on the command line (`openai-responses`).
    pub fn id(&self) -> &'static str {
        match self {
            Dialect::Canonical => "canonical",
            Dialect::OpenAiResponses => "openai-responses",
            Dialect::OpenAiChat => "openai-chat",
            Dialect::Anthropic => "anthropic",
            Dialect::AnthropicStrict => "anthropic-strict",
            Dialect::Gemini => "gemini",
            Dialect::GeminiJsonSchema => "gemini-json-schema",
            Dialect::Mcp => "mcp",
        }
    }

    /// The dialect with this id, if any.
    pub fn from_id(s: &str) -> Option<Dialect> {
        Dialect::ALL.iter().copied().find(|d| d.id() == s)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::from_id(s).ok_or_else(|| {
            let ids: Vec<&str> = Dialect::ALL.iter().map(|d| d.id()).collect();
            format!("unknown dialect `{s}`: expected one of {}", ids.join(", "))
        })
    }
}

/// Options of [`export`].
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// Fail on the first [`Loss`] instead of reporting it.
    pub loss_is_error: bool,
    /// Which tools are loaded on demand through the provider's tool search
    /// (OpenAI Responses, Anthropic); the default defers none. With any
    /// deferred, [`Export::tools`] is the request's `tools` array: OpenAI's
    /// deferred functions inside namespaces of at most [`NAMESPACE_SIZE`],
    /// and each provider's tool search tool last.
    pub defer: Defer,
    /// Leave out the output schema: `output_schema` of `openai-responses`
    /// functions and `outputSchema` of MCP tools (no other dialect has one).
    /// For a host that sends compact feedback (`provider::Feedback::Compact`):
    /// its results are plain text, not the JSON value the schema describes.
    pub drop_output_schema: bool,
}

/// A constraint the dialect cannot carry as a keyword. It is still enforced
/// by the runtime.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Loss {
    /// The tool's name.
    pub tool: String,
    /// JSON pointer to the keyword in the tool's canonical input schema
    /// (`/properties/query/minLength`); for a property made nullable, to the
    /// property. Keywords reached through a `$ref` that was inlined point at
    /// the node holding the `$ref`. A loss about the output schema has the
    /// pointer `""` and the keyword `outputSchema`.
    pub pointer: String,
    /// The keyword (`minLength`).
    pub keyword: String,
    /// What the export did with it.
    pub action: LossAction,
    /// What the model now sees, in words (`moved to description: 1 to 200 characters`).
    pub note: String,
}

/// One line: the tool, where (the pointer, or `(root)`), the keyword, and
/// what the dialect does instead.
///
/// ```
/// # use contract_runtime::dialect::*;
/// let loss = Loss {
///     tool: "search_notes".into(),
///     pointer: "/properties/query/minLength".into(),
///     keyword: "minLength".into(),
///     action: LossAction::MovedToDescription,
///     note: "moved to description: 1 to 200 characters".into(),
/// };
/// assert_eq!(
///     loss.to_string(),
///     "search_notes /properties/query/minLength minLength: moved to description: 1 to 200 characters"
/// );
/// ```
impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        // The note is written on one line whatever it holds.
        let note = self.note.replace(['\n', '\r'], " ");
        write!(f, "{} {at} {}: {note}", self.tool, self.keyword)
    }
}

/// Losses grouped per tool, in the order the tools first appear: a table a
/// person can read (`23 losses in 5 tools`), not one line per loss.
///
/// ```
/// # use contract_runtime::dialect::*;
/// let loss = |tool: &str, keyword: &str| Loss {
///     tool: tool.into(), pointer: format!("/properties/a/{keyword}"), keyword: keyword.into(),
///     action: LossAction::MovedToDescription, note: "moved to description".into(),
/// };
/// let text = losses_by_tool(&[loss("a", "minLength"), loss("b", "format"), loss("a", "maxLength")]);
/// assert_eq!(text.lines().next(), Some("3 losses in 2 tools, each still enforced at run time:"));
/// assert_eq!(text.lines().nth(1), Some("  a: 2"));
/// ```
pub fn losses_by_tool(losses: &[Loss]) -> String {
    let mut tools: Vec<(&str, Vec<&Loss>)> = Vec::new();
    for loss in losses {
        match tools.iter_mut().find(|(t, _)| *t == loss.tool) {
            Some((_, list)) => list.push(loss),
            None => tools.push((&loss.tool, vec![loss])),
        }
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut out = format!(
        "{} in {}, each still enforced at run time:\n",
        plural(losses.len(), "loss", "losses"),
        plural(tools.len(), "tool", "tools")
    );
    for (tool, list) in tools {
        out.push_str(&format!("  {tool}: {}\n", list.len()));
        for loss in list {
            let line = loss.to_string();
            let rest = line.strip_prefix(tool).unwrap_or(&line).trim_start();
            out.push_str(&format!("    {rest}\n"));
        }
    }
    out
}

/// What an export did with a keyword it could not carry.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum LossAction {
    /// Removed and stated in words in the node's description.
    MovedToDescription,
    /// Removed.
    Dropped,
    /// Rewritten into a weaker form.
    Rewritten,
}

impl LossAction {
    /// The action as serialized (`moved-to-description`).
    pub fn id(&self) -> &'static str {
        match self {
            LossAction::MovedToDescription => "moved-to-description",
            LossAction::Dropped => "dropped",
            LossAction::Rewritten => "rewritten",
        }
    }
}

/// Why a tool cannot be exported to a dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportError {
    /// The tool's name (empty when the definition has none).
    pub tool: String,
    /// The dialect asked for.
    pub dialect: Dialect,
    /// JSON pointer to the offending node in the canonical input schema
    /// (`""` for the root or the definition itself; into the output schema
    /// when the reason names it).
    pub pointer: String,
    /// What is wrong and, where it helps, what to write instead.
    pub reason: String,
    /// The provider limit on the whole set that the export crossed, when
    /// that is what is wrong: `tool` is then the first tool over it.
    pub limit: Option<OverLimit>,
    /// Whether the definition itself is malformed, whatever the dialect: a
    /// field missing or of the wrong kind, an unknown effect, or a schema
    /// keyword whose value JSON Schema does not allow (`"type": 5`, a
    /// `$ref` that points nowhere). `false` when the dialect refuses a
    /// well-formed definition, or the set is over a provider's limit.
    pub malformed: bool,
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(over) = &self.limit {
            return write!(
                f,
                "cannot export for {}: {} are {}, over the provider's limit of {} ({}); the first tool over it is `{}`",
                self.dialect, over.limit.what, over.value, over.limit.max, over.limit.over, self.tool
            );
        }
        write!(
            f,
            "cannot export tool `{}` for {} at {}: {}",
            self.tool,
            self.dialect,
            place(&self.pointer),
            self.reason
        )
    }
}

/// How an error about a definition's output schema begins: pointers are
/// into the input schema, as every export error's, so the output schema's
/// are named in the reason.
const OUTPUT: &str = "`output_schema`: ";

/// [`wellformed::check`] of one of `tool`'s schemas, as an export error.
fn well_formed(
    tool: &str,
    dialect: Dialect,
    which: &str,
    schema: &Value,
) -> Result<(), ExportError> {
    wellformed::check(schema).map_err(|(pointer, reason)| ExportError {
        tool: tool.to_owned(),
        dialect,
        pointer,
        reason: format!("{which}{reason}"),
        limit: None,
        malformed: true,
    })
}

/// Where in a schema an error is, in words: its pointer, or "the root".
pub(crate) fn place(pointer: &str) -> &str {
    if pointer.is_empty() {
        "the root"
    } else {
        pointer
    }
}

impl std::error::Error for ExportError {}

/// The result of an export: one provider definition per tool, and every loss.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Export {
    /// The provider's tool definitions, in input order: each serializes to
    /// the provider's JSON and reads like a [`Value`] (see [`ExportedTool`]).
    pub tools: Vec<ExportedTool>,
    /// Every constraint that became description text, was dropped or was
    /// weakened, in tool order.
    pub losses: Vec<Loss>,
}

/// Exports canonical tool definitions (see the module docs for the shape) to
/// `dialect`.
///
/// `tools` is borrowed (`&defs`, `&[def]`) or given (`defs`, a
/// `Vec<Value>`): the canonical export of definitions given keeps them as
/// they are, and the MCP export moves their output schemas into its tools,
/// where borrowed ones must be copied (with 10,000 tools, that copy is the
/// whole of the canonical export's time and half of MCP's).
///
/// Fails on a definition without a name, description or object input schema,
/// on a name the dialect rejects or uses twice, and on any keyword the
/// dialect's [`rules()`] forbid. With [`ExportOptions::loss_is_error`], the
/// first loss is an error too.
pub fn export<'a>(
    tools: impl Into<Cow<'a, [Value]>>,
    dialect: Dialect,
    opts: &ExportOptions,
) -> Result<Export, ExportError> {
    // Generic only here: the export is compiled once, not per caller's type.
    export_cow(tools.into(), dialect, opts)
}

fn export_cow(
    mut tools: Cow<'_, [Value]>,
    dialect: Dialect,
    opts: &ExportOptions,
) -> Result<Export, ExportError> {
    let given = matches!(tools, Cow::Owned(_));
    // Definitions given are kept as the canonical export, after the checks.
    let keep = dialect == Dialect::Canonical && given;
    // The output schemas of definitions given are moved into the MCP tools
    // (left `null` in the definitions, which are dropped after): copied,
    // they were half of an MCP export's work and memory.
    let mut outputs: Vec<Option<Value>> = if dialect == Dialect::Mcp && given {
        tools
            .to_mut()
            .iter_mut()
            .map(|def| def.get_mut("output_schema").map(Value::take))
            .collect()
    } else {
        Vec::new()
    };
    let mut out = Export {
        tools: Vec::with_capacity(tools.len()),
        losses: Vec::new(),
    };
    // A set, not a list: with thousands of tools, scanning every earlier
    // name for each new one was most of the export's time.
    let mut seen: std::collections::HashSet<&str> =
        std::collections::HashSet::with_capacity(tools.len());
    let mut tally = limits::Tally::new(dialect);
    let mut deferred: Vec<bool> = Vec::new();
    // Owned: the definitions may be moved into the export below.
    let mut first_deferred: Option<String> = None;
    for (i, def) in tools.iter().enumerate() {
        let tool = ToolDef::read(def, dialect)?;
        // The output schemas an MCP export was given were taken out above.
        if let Some(output) = outputs
            .get(i)
            .and_then(Option::as_ref)
            .filter(|o| !o.is_null())
        {
            well_formed(tool.name, dialect, OUTPUT, output)?;
        }
        if !seen.insert(tool.name) {
            return Err(tool.error("", format!("the name `{}` is used twice", tool.name)));
        }
        check_name(tool.name, dialect).map_err(|reason| tool.error("", reason))?;
        let mut losses = Vec::new();
        let exported = match dialect {
            Dialect::Canonical if keep => None,
            Dialect::Canonical => Some(def.clone().into()),
            Dialect::OpenAiResponses | Dialect::OpenAiChat => {
                Some(openai::export(&tool, dialect, !opts.drop_output_schema, &mut losses)?.into())
            }
            Dialect::Anthropic | Dialect::AnthropicStrict => {
                Some(anthropic::export(&tool, dialect, &mut losses)?.into())
            }
            Dialect::Gemini | Dialect::GeminiJsonSchema => {
                Some(gemini::export(&tool, dialect, &mut losses)?.into())
            }
            Dialect::Mcp => {
                let given = outputs.get_mut(i).and_then(Option::take);
                let exported = mcp::export(&tool, given, &mut losses)?;
                Some(if opts.drop_output_schema {
                    let mut v = exported.into_value();
                    if let Value::Object(m) = &mut v {
                        m.shift_remove("outputSchema");
                    }
                    v.into()
                } else {
                    exported
                })
            }
        };
        tool.unpublished_rules(&mut losses);
        let exported = tool.examples(exported, &mut losses);
        dedup(&mut losses);
        if opts.loss_is_error {
            if let Some(loss) = losses.first() {
                return Err(tool.error(
                    &loss.pointer,
                    format!(
                        "{} would be {} and loss is an error: {}",
                        loss.keyword,
                        loss.action.id(),
                        loss.note
                    ),
                ));
            }
        }
        // A deferred tool is loaded on demand: the set that must fit the
        // provider's limits is the one loaded, which the export cannot know.
        let defers = opts.defer.defers(tool.name, def);
        deferred.push(defers);
        if defers && first_deferred.is_none() {
            first_deferred = Some(tool.name.to_owned());
        }
        if let Some(value) = exported.as_ref().and_then(ExportedTool::as_value) {
            if !defers {
                tally.add(tool.name, value);
            }
        }
        out.tools.extend(exported);
        out.losses.extend(losses);
    }
    // A core tool misnamed would defer every tool the model must see.
    opts.defer.check_names(&seen, &tools, dialect)?;
    if let Some((over, first)) = tally.over() {
        let reason = format!(
            "{} are {}, at most {}",
            over.limit.what, over.value, over.limit.max
        );
        return Err(ExportError {
            tool: first.to_owned(),
            dialect,
            pointer: String::new(),
            reason,
            limit: Some(over),
            malformed: false,
        });
    }
    if keep {
        out.tools = tools.into_owned().into_iter().map(Into::into).collect();
    }
    out.tools = defer::apply(dialect, out.tools, &deferred, first_deferred.as_deref())?;
    Ok(out)
}

/// Keeps the first of identical losses (a `$defs` entry inlined twice).
/// A branch `rules(...)` publishes under a root `allOf`: its words and one
/// presence combinator over `required` lists.
pub(crate) fn is_argument_rule(branch: &Value) -> bool {
    fn presence_only(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.iter().all(|(k, v)| match k.as_str() {
                "required" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
                "properties" => v.as_object().is_some_and(|p| p.values().all(presence_only)),
                "type" => v == "null",
                "not" | "anyOf" | "oneOf" | "if" | "then" => presence_only(v),
                _ => false,
            }),
            Value::Array(a) => a.iter().all(presence_only),
            _ => false,
        }
    }
    let Some(m) = branch.as_object() else {
        return false;
    };
    m.get("description").is_some_and(Value::is_string)
        && m.iter()
            .filter(|(k, _)| *k != "description")
            .all(|(k, v)| matches!(k.as_str(), "oneOf" | "not" | "if" | "then") && presence_only(v))
}

fn dedup(losses: &mut Vec<Loss>) {
    let mut kept: Vec<Loss> = Vec::with_capacity(losses.len());
    for loss in losses.drain(..) {
        if !kept.contains(&loss) {
            kept.push(loss);
        }
    }
    *losses = kept;
}

/// The definition's examples of arguments (`input_examples`), when it has any.
fn examples_of(def: &Value) -> Option<&[Value]> {
    def.get("input_examples")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .filter(|e| !e.is_empty())
}

/// Whether the dialect has a field for examples of arguments: Anthropic's
/// `input_examples`; the canonical export keeps them as they are.
fn takes_examples(d: Dialect) -> bool {
    matches!(
        d,
        Dialect::Anthropic | Dialect::AnthropicStrict | Dialect::Canonical
    )
}

/// The description with the examples after it, one compact JSON object a
/// line: where no field takes them, the model still reads them.
fn describe_examples(description: &str, examples: &[Value]) -> String {
    let mut out = String::with_capacity(description.len() + 32 + 64 * examples.len());
    out.push_str(description);
    out.push_str("\n\nExamples of arguments:");
    for e in examples {
        out.push('\n');
        out.push_str(&e.to_string());
    }
    out
}

/// The fields of a canonical definition that every dialect reads.
pub(crate) struct ToolDef<'a> {
    pub(crate) dialect: Dialect,
    pub(crate) name: &'a str,
    /// The description as exported: the definition's, followed by its
    /// examples of arguments where the dialect has no field for them.
    pub(crate) description: Cow<'a, str>,
    pub(crate) input: &'a Map<String, Value>,
    pub(crate) output: Option<&'a Value>,
    pub(crate) def: &'a Value,
}

impl<'a> ToolDef<'a> {
    fn read(def: &'a Value, dialect: Dialect) -> Result<Self, ExportError> {
        let err = |tool: &str, reason: &str| ExportError {
            tool: tool.to_owned(),
            dialect,
            pointer: String::new(),
            reason: reason.to_owned(),
            limit: None,
            malformed: true,
        };
        let Some(obj) = def.as_object() else {
            return Err(err("", "a tool definition must be a JSON object"));
        };
        let Some(name) = obj.get("name").and_then(Value::as_str) else {
            return Err(err("", "the definition has no string `name`"));
        };
        let Some(description) = obj.get("description").and_then(Value::as_str) else {
            return Err(err(name, "the definition has no string `description`"));
        };
        let Some(input) = obj.get("input_schema").and_then(Value::as_object) else {
            return Err(err(name, "the definition has no object `input_schema`"));
        };
        // A contract's effect is one of four in every dialect, not only in
        // the one that publishes it (MCP's hints): a definition that names
        // another is malformed whichever provider it is exported for.
        let effects = obj.get("effect").into_iter().chain(
            obj.get("effects")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        );
        for effect in effects {
            if let Some(reason) = effect_error(effect) {
                return Err(err(name, &reason));
            }
        }
        let output = obj.get("output_schema").filter(|v| !v.is_null());
        well_formed(name, dialect, "", &obj["input_schema"])?;
        if let Some(output) = output {
            well_formed(name, dialect, OUTPUT, output)?;
        }
        let description = match examples_of(def) {
            Some(examples) if !takes_examples(dialect) => {
                Cow::Owned(describe_examples(description, examples))
            }
            _ => Cow::Borrowed(description),
        };
        Ok(ToolDef {
            dialect,
            name,
            description,
            input,
            output,
            def,
        })
    }

    pub(crate) fn error(&self, pointer: &str, reason: String) -> ExportError {
        ExportError {
            tool: self.name.to_owned(),
            dialect: self.dialect,
            pointer: pointer.to_owned(),
            reason,
            limit: None,
            malformed: false,
        }
    }

    /// Fails when the rule for `keyword` forbids it.
    pub(crate) fn forbid(&self, pointer: &str, keyword: &str) -> ExportError {
        let rule = rules::lookup(self.dialect, &[keyword]);
        self.error(pointer, format!("{keyword} is forbidden: {}", rule.why))
    }

    /// The input schema without `$schema`, after the root checks every
    /// dialect but the canonical one makes.
    pub(crate) fn checked_root(
        &self,
        losses: &mut Vec<Loss>,
    ) -> Result<Map<String, Value>, ExportError> {
        if self.input.get("type").and_then(Value::as_str) != Some("object") {
            return Err(self.forbid("", rules::ROOT_NOT_OBJECT));
        }
        let mut root = self.input.clone();
        self.move_argument_rules(&mut root, losses);
        date_bounds::move_to_descriptions(self, &mut root, "", losses);
        for (kw, key) in [
            ("anyOf", rules::ANY_OF_ROOT),
            ("oneOf", rules::ONE_OF_ROOT),
            ("allOf", rules::ALL_OF_ROOT),
        ] {
            if root.contains_key(kw)
                && rules::lookup(self.dialect, &[key]).treatment == Treatment::Forbid
            {
                return Err(self.forbid("", key));
            }
        }
        if rules::lookup(self.dialect, &["$schema"]).treatment == Treatment::Strip {
            root.remove("$schema");
        }
        Ok(root)
    }

    /// Puts the definition's `input_examples` where the dialect takes
    /// examples (Anthropic), and reports them moved elsewhere: [`ToolDef::read`]
    /// wrote them into the description (the canonical definition keeps them
    /// as they are).
    fn examples(
        &self,
        exported: Option<ExportedTool>,
        losses: &mut Vec<Loss>,
    ) -> Option<ExportedTool> {
        let Some(examples) = examples_of(self.def) else {
            return exported;
        };
        match self.dialect {
            Dialect::Canonical => exported,
            d if takes_examples(d) => exported.map(|t| {
                let mut v = t.into_value();
                v["input_examples"] = Value::Array(examples.to_vec());
                v.into()
            }),
            _ => {
                losses.push(Loss {
                    tool: self.name.to_owned(),
                    pointer: String::new(),
                    keyword: "input_examples".to_owned(),
                    action: LossAction::MovedToDescription,
                    note: format!(
                        "moved to description: {} example(s) of arguments; {} has no field for them (Anthropic's input_examples has)",
                        examples.len(),
                        self.dialect
                    ),
                });
                exported
            }
        }
    }

    /// True when the input schema is a closed object without properties
    /// (and nothing else that could accept an argument).
    /// A root `allOf` whose branches are rules across arguments (presence
    /// rules, each with its words as `description`): where the dialect
    /// refuses a root `allOf` but its table moves these, the words join the
    /// root description and each rule is reported.
    fn move_argument_rules(&self, root: &mut Map<String, Value>, losses: &mut Vec<Loss>) {
        let Some(Value::Array(branches)) = root.get("allOf") else {
            return;
        };
        let moved = rules::lookup(
            self.dialect,
            &[rules::ALL_OF_ROOT_RULES, rules::ALL_OF_ROOT],
        );
        if moved.treatment != Treatment::MoveToDescription || !branches.iter().all(is_argument_rule)
        {
            return;
        }
        let words: Vec<String> = branches
            .iter()
            .filter_map(|b| b.get("description").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        for (i, text) in words.iter().enumerate() {
            losses.push(Loss {
                tool: self.name.to_owned(),
                pointer: format!("/allOf/{i}"),
                keyword: "allOf".to_owned(),
                action: LossAction::MovedToDescription,
                note: format!(
                    "moved to description: {text}; still enforced at run time ({})",
                    moved.why
                ),
            });
        }
        root.remove("allOf");
        walk::append_notes(root, &words);
    }

    /// Losses for the rules across arguments that no JSON Schema can carry
    /// (the definition's `rules` with `in_schema: false`): stated in words in
    /// every dialect, and enforced at run time.
    fn unpublished_rules(&self, losses: &mut Vec<Loss>) {
        let Some(Value::Array(list)) = self.def.get("rules") else {
            return;
        };
        for rule in list {
            if rule.get("in_schema") != Some(&Value::Bool(false)) {
                continue;
            }
            let text = rule.get("text").and_then(Value::as_str).unwrap_or_default();
            let keyword = rule
                .get("keyword")
                .and_then(Value::as_str)
                .unwrap_or_default();
            losses.push(Loss {
                tool: self.name.to_owned(),
                pointer: String::new(),
                keyword: keyword.to_owned(),
                action: LossAction::MovedToDescription,
                note: format!(
                    "JSON Schema cannot say it: stated in the description only, and enforced at run time: {text}"
                ),
            });
        }
    }

    pub(crate) fn has_no_arguments(&self) -> bool {
        let no_properties = self
            .input
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty);
        let closed = self.input.get("additionalProperties") == Some(&Value::Bool(false));
        let plain = self.input.keys().all(|k| {
            matches!(
                k.as_str(),
                "$schema"
                    | "type"
                    | "properties"
                    | "required"
                    | "additionalProperties"
                    | "description"
                    | "title"
            )
        });
        no_properties && closed && plain
    }
}

/// Why `effect` is not one of the four effects, if it is not.
fn effect_error(effect: &Value) -> Option<String> {
    match effect.as_str() {
        Some("read_only" | "reversible" | "external" | "destructive") => None,
        _ => Some(format!(
            "effect must be read_only, reversible, external or destructive, not {}",
            match effect.as_str() {
                Some(s) => format!("`{s}`"),
                None => effect.to_string(),
            }
        )),
    }
}
