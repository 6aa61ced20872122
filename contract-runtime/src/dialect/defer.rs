//! Deferred loading: tools the model sees by name until it searches for
//! them, in the form each provider with tool search takes.
//!
//! - OpenAI Responses: deferred functions carry `defer_loading: true` and sit
//!   in namespaces of fewer than ten (OpenAI's advice for tool search), in
//!   registry order; `{"type": "tool_search"}` is added.
//! - Anthropic: deferred tools carry `defer_loading: true`; the regex tool
//!   search tool is added.
//!
//! Other dialects have no tool search: asking them to defer is an error.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use super::{Dialect, ExportError, ExportedTool};

/// Which tools an export defers (see [`super::ExportOptions::defer`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Defer {
    /// Every tool is loaded up front.
    #[default]
    None,
    /// Every tool but these (the core set the model always sees). Each
    /// must name a tool of the export: one that does not is an
    /// [`ExportError`] naming it and the tools.
    AllBut(Vec<String>),
    /// The tools whose canonical definition says `"defer_loading": true`
    /// ([`Tool::deferred`](crate::Tool::deferred)).
    Marked,
}

/// The most functions in one namespace: OpenAI advises fewer than ten.
pub const NAMESPACE_SIZE: usize = 9;

/// The name of the tool search tool added to an Anthropic export.
pub const ANTHROPIC_SEARCH: &str = "tool_search_tool_regex";

impl Defer {
    /// Whether the tool `name` (canonical definition `def`) is deferred.
    pub(crate) fn defers(&self, name: &str, def: &Value) -> bool {
        match self {
            Defer::None => false,
            Defer::AllBut(core) => !core.iter().any(|c| c == name),
            Defer::Marked => def.get("defer_loading") == Some(&Value::Bool(true)),
        }
    }

    /// Refuses a name in [`Defer::AllBut`] that is no tool of the export
    /// (`names`, the definitions `defs` in order): it would keep nothing
    /// loaded, and defer the tool it meant to keep.
    pub(crate) fn check_names(
        &self,
        names: &HashSet<&str>,
        defs: &[Value],
        dialect: Dialect,
    ) -> Result<(), ExportError> {
        let Defer::AllBut(core) = self else {
            return Ok(());
        };
        let Some(unknown) = core.iter().find(|c| !names.contains(c.as_str())) else {
            return Ok(());
        };
        let listed: Vec<String> = defs
            .iter()
            .filter_map(|d| d.get("name").and_then(Value::as_str))
            .take(KNOWN_LISTED)
            .map(|n| format!("`{n}`"))
            .collect();
        let more = match defs.len().saturating_sub(listed.len()) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        let tools = if listed.is_empty() {
            "the export has no tools".to_owned()
        } else {
            format!("the tools are {}{more}", listed.join(", "))
        };
        Err(ExportError {
            tool: unknown.clone(),
            dialect,
            pointer: String::new(),
            reason: format!(
                "`Defer::AllBut` keeps `{unknown}` loaded, but no tool is named `{unknown}` ({tools}): name only tools of the export"
            ),
            limit: None,
            malformed: false,
        })
    }
}

/// How many tool names an error about a name in [`Defer::AllBut`] lists.
const KNOWN_LISTED: usize = 20;

/// Rewrites an export's tools into the request's `tools` array with the
/// deferred ones (`deferred[i]` for `tools[i]`) in the provider's form.
/// `first` names the first deferred tool, which an error names: an exported
/// tool's name sits where its dialect puts it (`function.name` in OpenAI
/// Chat), so it is not read back from `tools`.
pub(crate) fn apply(
    dialect: Dialect,
    tools: Vec<ExportedTool>,
    deferred: &[bool],
    first: Option<&str>,
) -> Result<Vec<ExportedTool>, ExportError> {
    let Some(first) = first else {
        return Ok(tools);
    };
    let refuse = |tool: &str, reason: String| ExportError {
        tool: tool.to_owned(),
        dialect,
        pointer: String::new(),
        reason,
        limit: None,
        malformed: false,
    };
    match dialect {
        Dialect::OpenAiResponses => Ok(openai(tools, deferred)),
        Dialect::Anthropic | Dialect::AnthropicStrict => {
            if tools.iter().any(|t| t["name"] == ANTHROPIC_SEARCH) {
                return Err(refuse(
                    ANTHROPIC_SEARCH,
                    format!(
                        "a tool is named `{ANTHROPIC_SEARCH}`, the name of the tool search tool deferred loading adds; rename it"
                    ),
                ));
            }
            Ok(anthropic(tools, deferred))
        }
        other => {
            let more = match deferred.iter().filter(|d| **d).count() - 1 {
                0 => String::new(),
                1 => " (nor can 1 other tool)".to_owned(),
                n => format!(" (nor can {n} other tools)"),
            };
            Err(refuse(
                first,
                format!(
                    "{other} has no tool search, so `{first}` cannot be deferred{more}: export for openai-responses, anthropic or anthropic-strict, or defer nothing"
                ),
            ))
        }
    }
}

fn mark(tool: ExportedTool) -> Value {
    let mut v = tool.into_value();
    if let Value::Object(m) = &mut v {
        m.insert("defer_loading".to_owned(), Value::Bool(true));
    }
    v
}

fn openai(tools: Vec<ExportedTool>, deferred: &[bool]) -> Vec<ExportedTool> {
    let mut out: Vec<ExportedTool> = Vec::new();
    let mut group: Vec<Value> = Vec::with_capacity(NAMESPACE_SIZE);
    let taken: std::collections::HashSet<String> = tools
        .iter()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    let mut n = 0;
    let mut flush = |group: &mut Vec<Value>, out: &mut Vec<ExportedTool>| {
        if group.is_empty() {
            return;
        }
        // A namespace name no tool has.
        let name = loop {
            n += 1;
            let name = format!("deferred_{n}");
            if !taken.contains(&name) {
                break name;
            }
        };
        let names: Vec<&str> = group.iter().filter_map(|f| f["name"].as_str()).collect();
        let description = format!(
            "Tools loaded on demand: {}. Search for one to load its parameters.",
            names.join(", ")
        );
        let mut ns = Map::with_capacity(4);
        ns.insert("type".to_owned(), json!("namespace"));
        ns.insert("name".to_owned(), json!(name));
        ns.insert("description".to_owned(), json!(description));
        ns.insert("tools".to_owned(), Value::Array(std::mem::take(group)));
        out.push(Value::Object(ns).into());
    };
    for (tool, deferred) in tools.into_iter().zip(deferred) {
        if !deferred {
            out.push(tool);
            continue;
        }
        group.push(mark(tool));
        if group.len() == NAMESPACE_SIZE {
            flush(&mut group, &mut out);
        }
    }
    flush(&mut group, &mut out);
    out.push(json!({"type": "tool_search"}).into());
    out
}

fn anthropic(tools: Vec<ExportedTool>, deferred: &[bool]) -> Vec<ExportedTool> {
    let mut out: Vec<ExportedTool> = Vec::with_capacity(tools.len() + 1);
    for (tool, deferred) in tools.into_iter().zip(deferred) {
        out.push(if *deferred { mark(tool).into() } else { tool });
    }
    out.push(json!({"type": "tool_search_tool_regex_20251119", "name": ANTHROPIC_SEARCH}).into());
    out
}
