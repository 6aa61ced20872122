//! The prose audit: what each description states in prose, read by
//! `contract-prose` (the reader of rule C12) and checked against the
//! declaration the argument's JSON Schema carries.
//!
//! The macro stops a build only where the reader is measured right at
//! least 97 times in 100 (the error level, `docs/rule-c12.md`): a
//! contradiction whose check is at that level for the recognizer that read
//! the prose (`CheckRow::level_for`), or a constraint stated only in prose
//! whose recognizer is; everything else it reads is an audit finding, which
//! [`Registry::audit`](crate::Registry::audit) returns and `toolbox lint`
//! prints for any MCP server's tools. A property's JSON Schema keywords
//! (`enum`, `const`, `pattern`, `format`, `minLength`, `maximum`,
//! `maxItems`, ...) are its declaration, so prose that says the same agrees.
//! Properties nested in an argument (an object's members, a list's items,
//! through local `$ref`s) are read against their own keywords and named by
//! their path (`filter.status`, `edits[].line`, `tags[]`).

use contract_prose::{
    attribute, states_a_declared_span, unmatched, Change, Claim, ClaimKind, Declared, Limits,
    Scalar, SpanRule,
};
use serde_json::{json, Map, Value};

pub use contract_prose::Level;

/// One thing a description states that its declaration does not carry, or
/// contradicts.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Finding {
    /// The tool whose description (or whose argument's) states it.
    pub tool: String,
    /// The argument it speaks of; `None` for a sentence of the tool's
    /// description that names no single argument.
    pub argument: Option<String>,
    /// What kind of constraint: `length`, `range`, `items`, `closed-set`,
    /// `format` or `pattern`.
    pub family: &'static str,
    /// The recognizer that read it (a row of `contract_prose::TABLE`).
    pub recognizer: &'static str,
    /// For a contradiction (prose and declaration disagree), the check that
    /// found it (a row of `contract_prose::CHECKS`); `None` for a
    /// constraint stated only in prose.
    pub check: Option<&'static str>,
    /// The words, as written.
    pub phrase: String,
    /// What to declare, or which side to change.
    pub help: String,
    /// Measured: for a contradiction, its check's level for the recognizer
    /// that read the prose; for a constraint stated only in prose, the
    /// recognizer's (`Error` only where it is
    /// right at least 97 times in 100); `Audit` otherwise.
    pub level: Level,
    /// The author's reason, when the finding was acknowledged.
    pub acknowledged: Option<&'static str>,
}

impl Finding {
    /// The finding as one JSON object: `{"tool", "argument", "family",
    /// "phrase", "level", "help", "recognizer"}`, with `"check"` for a
    /// contradiction and `"acknowledged"` for an acknowledged finding.
    pub fn to_json(&self) -> Value {
        let mut line = json!({
            "tool": self.tool,
            "argument": self.argument,
            "family": self.family,
            "phrase": self.phrase,
            "level": self.level.as_str(),
            "help": self.help,
            "recognizer": self.recognizer,
        });
        if let Some(check) = self.check {
            line["check"] = json!(check);
        }
        if let Some(why) = self.acknowledged {
            line["acknowledged"] = json!(why);
        }
        line
    }
}

/// Input the linter cannot read as a tool list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAToolList(pub String);

impl std::fmt::Display for NotAToolList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not an MCP tool list: {}", self.0)
    }
}

impl std::error::Error for NotAToolList {}

fn family(kind: ClaimKind) -> &'static str {
    match kind {
        ClaimKind::Length => "length",
        ClaimKind::Range => "range",
        ClaimKind::Items => "items",
        ClaimKind::ClosedSet => "closed-set",
        ClaimKind::Format => "format",
        ClaimKind::Pattern => "pattern",
    }
}

/// The tools of an MCP `tools/list` result, of its `tools` array, or of a
/// JSON-RPC answer holding one.
pub fn tools_of(list: &Value) -> Result<&Vec<Value>, NotAToolList> {
    match list {
        Value::Array(tools) => Ok(tools),
        Value::Object(o) => match (o.get("tools"), o.get("result")) {
            (Some(Value::Array(tools)), _) => Ok(tools),
            (_, Some(result)) => tools_of(result),
            _ => Err(NotAToolList("an object without a `tools` array".into())),
        },
        _ => Err(NotAToolList("neither an array nor an object".into())),
    }
}

/// Every finding of an MCP tool list (see [`tools_of`]), each tool's
/// `inputSchema` (or the canonical `input_schema`) its declaration. Help is
/// written as JSON Schema keywords.
pub fn lint_tools(list: &Value) -> Result<Vec<Finding>, NotAToolList> {
    let mut out = Vec::new();
    for tool in tools_of(list)? {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            return Err(NotAToolList("a tool without a `name`".into()));
        };
        let schema = tool
            .get("inputSchema")
            .or_else(|| tool.get("input_schema"))
            .unwrap_or(&Value::Null);
        // (absent, only the description is read; present, it must be one)
        if !schema.is_null() && !schema.is_object() {
            return Err(NotAToolList(format!(
                "tool `{name}`: its `inputSchema` is not a JSON Schema object"
            )));
        }
        let doc = tool
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("");
        // A line that is a JSON object or list is data, not prose: example
        // arguments, as MCP exports (this library's too) append them to the
        // description, would read as claims ("2019-10-01": a date format).
        let is_data = |line: &str| {
            let t = line.trim();
            (t.starts_with('{') || t.starts_with('[')) && serde_json::from_str::<Value>(t).is_ok()
        };
        let prose: String = if doc.lines().any(is_data) {
            let kept: Vec<&str> = doc.lines().filter(|l| !is_data(l)).collect();
            kept.join("\n")
        } else {
            doc.to_owned()
        };
        out.extend(audit_tool(name, &prose, schema, Help::Schema, &[], &[]));
    }
    Ok(out)
}

/// How a finding's help is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Help {
    /// As the `#[arg(..)]` attribute to write (the library's own tools).
    Attribute,
    /// As JSON Schema keywords (any MCP server's tools).
    Schema,
}

/// The findings of one tool: its description (each sentence given to the
/// argument it names) and each property's. `acknowledged` names the
/// arguments (`""` for the tool) whose prose the author took out of the
/// audit with a reason.
pub(crate) fn audit_tool(
    name: &str,
    doc: &str,
    schema: &Value,
    help: Help,
    acknowledged: &[(&str, &'static str)],
    spans: &[SpanRule],
) -> Vec<Finding> {
    let why = |arg: &str| {
        acknowledged
            .iter()
            .find(|(a, _)| *a == arg)
            .map(|(_, w)| *w)
    };
    let empty = Map::new();
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let names: Vec<&str> = props.keys().map(String::as_str).collect();
    let split = attribute(doc, &names);
    let mut out = Vec::new();
    for ((arg, prop), about) in props.iter().zip(&split.about) {
        // (an optional argument may carry its description on its one
        // non-null branch: `anyOf: [{type: string, description}, {type: null}]`)
        // (and through a local `$ref` to its definition, as below)
        let target = resolved(non_null(prop), schema);
        let own = prop
            .get("description")
            .or_else(|| non_null(prop).get("description"))
            .or_else(|| target.get("description"))
            .and_then(Value::as_str);
        let decl = Decl::of(target);
        let values: Vec<&str> = decl.values.iter().map(String::as_str).collect();
        // the tool's `max_span` rules this argument is an end of
        let its_spans: Vec<SpanRule> = (spans.iter())
            .filter(|s| s.from == arg.as_str() || s.to == arg.as_str())
            .copied()
            .collect();
        let declared = Declared {
            spans: &its_spans,
            name: Some(arg.as_str()),
            ..decl.declared(&values)
        };
        let texts = (own.map(|t| (t, false))).into_iter();
        for (text, from_tool) in texts.chain(about.as_deref().map(|t| (t, true))) {
            for claim in unmatched(text, declared) {
                let mut f = finding(name, Some(arg), claim, help, declared.is_list);
                // the tool's own acknowledgement covers its sentences too
                f.acknowledged = why(arg).or_else(|| if from_tool { why("") } else { None });
                out.push(f);
            }
        }
    }
    // the properties inside each argument: objects within objects, a list's items
    for (arg, prop) in props {
        let ack = why(arg);
        walk(
            name,
            arg,
            prop,
            schema,
            help,
            (ack, acknowledged),
            0,
            &mut out,
        );
    }
    // ("The range may cover at most 90 days" beside `max_span(.., 90 days)`)
    let unattributed =
        (split.unattributed.into_iter()).filter(|(claim, _)| !states_a_declared_span(claim, spans));
    for (claim, named) in unattributed {
        let mut f = finding(name, None, claim, help, false);
        f.acknowledged = named.iter().find_map(|n| why(n)).or_else(|| why(""));
        out.push(f);
    }
    out
}

/// How deep [`walk`] follows nested schemas and `$ref`s: deeper than any
/// tool's arguments nest, and a bound on a schema that refers to itself.
const NESTING: usize = 8;

/// The schema `s` points to when it is a local `$ref` (`#/$defs/X`,
/// `#/definitions/X`) into `root`, or one wrapped alone in `allOf` (how
/// generators attach a description to a reference), else `s` itself.
fn resolved<'a>(s: &'a Value, root: &'a Value) -> &'a Value {
    let mut s = s;
    for _ in 0..NESTING {
        if let Some([only]) = s.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
            if s.get("$ref").is_none() {
                s = only;
                continue;
            }
        }
        match s.get("$ref").and_then(Value::as_str) {
            Some(r) if r.starts_with("#/") => match root.pointer(&r[1..]) {
                Some(target) => s = target,
                None => break,
            },
            _ => break,
        }
    }
    s
}

/// The findings of the properties nested in `prop` (the argument or
/// property at `path`): each property of an object, and a list's items,
/// read against its own keywords and named by its path (`filter.status`,
/// `edits[].old_text`, `tags[]`). `ack` is the argument's acknowledgement.
#[allow(clippy::too_many_arguments)]
fn walk(
    tool: &str,
    path: &str,
    prop: &Value,
    root: &Value,
    help: Help,
    // the acknowledgement of `path` or a field above it, and every field's
    (ack, acknowledged): (Option<&'static str>, &[(&str, &'static str)]),
    depth: usize,
    out: &mut Vec<Finding>,
) {
    if depth >= NESTING {
        return;
    }
    let s = non_null(resolved(non_null(prop), root));
    let mut children: Vec<(String, &Value)> = Vec::new();
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        children.extend(props.iter().map(|(k, p)| (format!("{path}.{k}"), p)));
    }
    if let Some(items) = s.get("items").filter(|i| i.is_object()) {
        children.push((format!("{path}[]"), items));
    }
    for (at, child) in children {
        let ack = ack.or_else(|| acknowledged.iter().find(|(a, _)| *a == at).map(|(_, w)| *w));
        let target = non_null(resolved(non_null(child), root));
        let own = child
            .get("description")
            .or_else(|| target.get("description"))
            .and_then(Value::as_str);
        // a list's items whose description is the list's own say nothing new
        if let Some(text) = own.filter(|t| {
            !(at.ends_with("[]") && prop.get("description").and_then(Value::as_str) == Some(*t))
        }) {
            let decl = Decl::of(target);
            let values: Vec<&str> = decl.values.iter().map(String::as_str).collect();
            // (the member's own name: `timeout_ms` of `options.timeout_ms`)
            let name = at.rsplit(['.', '[']).find(|p| !p.is_empty() && *p != "]");
            let declared = Declared {
                name,
                ..decl.declared(&values)
            };
            for claim in unmatched(text, declared) {
                let mut f = finding(tool, Some(&at), claim, help, declared.is_list);
                f.acknowledged = ack;
                out.push(f);
            }
        }
        walk(
            tool,
            &at,
            child,
            root,
            help,
            (ack, acknowledged),
            depth + 1,
            out,
        );
    }
}

fn finding(tool: &str, argument: Option<&str>, claim: Claim, help: Help, list: bool) -> Finding {
    let level = claim.level();
    let check = claim.conflict.as_ref().map(|c| c.check.row().name);
    let text = match &claim.conflict {
        None => match help {
            Help::Attribute => claim.help.clone(),
            Help::Schema => schema_help(&claim.help, list),
        },
        Some(c) => {
            let declared = match help {
                // (an attribute in backticks; "an enum of `a`, `b`" has its own)
                Help::Attribute if c.declared.contains('`') => c.declared.clone(),
                Help::Attribute => format!("`{}`", c.declared),
                Help::Schema => "its schema".to_string(),
            };
            match &c.change {
                Change::Declaration(attr) => {
                    let attr = match help {
                        Help::Attribute => attr.clone(),
                        Help::Schema => schema_help(attr, list),
                    };
                    format!("the prose is stricter than {declared}: {attr}")
                }
                Change::Both(attr, says) => {
                    let attr = match help {
                        Help::Attribute => attr.clone(),
                        Help::Schema => schema_help(attr, list),
                    };
                    format!("the prose is stricter than {declared} on one side and looser on the other: {attr}, and change the prose to say {says}")
                }
                Change::Prose(says) => match help {
                    Help::Attribute => format!(
                        "{declared} is what the schema publishes and the server enforces; change the prose to say {says}"
                    ),
                    // the keywords the schema holds, as the help for a
                    // missing declaration writes them
                    Help::Schema => {
                        let keys = schema_help(&format!("#[arg({})]", c.declared), list);
                        match keys.strip_prefix("declare ").filter(|k| k.starts_with('"')) {
                            Some(keys) => format!(
                                "the schema declares {keys}, which the server enforces; change the prose to say {says}"
                            ),
                            None => format!(
                                "the schema's declaration is what the server enforces; change the prose to say {says}"
                            ),
                        }
                    }
                },
            }
        }
    };
    Finding {
        tool: tool.to_string(),
        argument: argument.map(str::to_string),
        family: family(claim.kind),
        recognizer: claim.by.row().name,
        check,
        phrase: claim.phrase,
        help: text,
        level,
        acknowledged: None,
    }
}

/// The reader's help (`#[arg(length(max = 200))]`) as JSON Schema keywords
/// (`declare "maxLength": 200`); a sentence stays as it is.
fn schema_help(help: &str, list: bool) -> String {
    // (a rule no argument holds: another server has no `rules(..)`)
    if let Some(rule) = help.strip_suffix(contract_prose::RULES_HINT) {
        return rule.to_string();
    }
    // (a bound whose sentence names no property: the keywords, and where)
    if help.starts_with(contract_prose::NO_ARGUMENT_NAMED) {
        if let Some((_, attr)) = help.split_once('`') {
            let keys = schema_help(attr.trim_end_matches("` there"), list);
            return format!(
                "the sentence names no property: name the one it bounds and {keys} there"
            );
        }
    }
    // the attribute as the help writes it: `#[arg(..)]`, or for a day's
    // bound, which only a date type declares, "declare `range(..)`"
    let attr = match (help.find("#[arg("), help.find("declare `range(")) {
        (Some(start), _) => help[start + 6..].split_once(")]").map(|(attr, _)| attr),
        (None, Some(start)) => help[start + 9..].split_once('`').map(|(attr, _)| attr),
        (None, None) => None,
    };
    let Some(attr) = attr else {
        return help.to_string();
    };
    let mut keys: Vec<String> = Vec::new();
    let mut each = false;
    let mut body = attr;
    if let Some(inner) = body.strip_prefix("each(").and_then(|b| b.strip_suffix(')')) {
        each = true;
        body = inner;
    }
    if let Some(inner) = body
        .strip_prefix("served(")
        .and_then(|b| b.strip_suffix(')'))
    {
        body = inner;
    }
    let (what, args) = match body.split_once('(') {
        Some((w, a)) => (w, a.trim_end_matches(')')),
        None => (body, ""),
    };
    let pairs = |a: &str| -> Vec<(String, String)> {
        a.split(", ")
            .filter_map(|p| p.split_once(" = "))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect()
    };
    match what {
        "length" => {
            for (k, v) in pairs(args) {
                let key = match (k.as_str(), list && !each) {
                    ("min", true) => "minItems",
                    ("max", true) => "maxItems",
                    ("min", false) => "minLength",
                    ("max", false) => "maxLength",
                    _ => continue,
                };
                keys.push(format!("\"{key}\": {v}"));
            }
        }
        "range" => {
            for (k, v) in pairs(args) {
                // a day (`"2015-01-01"`) is a date's bound: JSON Schema's
                // format-specific keywords, as a date argument publishes it
                let day = v.starts_with('"');
                let key = match k.as_str() {
                    "min" if day => "formatMinimum",
                    "max" if day => "formatMaximum",
                    "min" => "minimum",
                    "max" => "maximum",
                    "exclusive_min" => "exclusiveMinimum",
                    "exclusive_max" => "exclusiveMaximum",
                    _ => continue,
                };
                keys.push(format!("\"{key}\": {v}"));
            }
        }
        _ => {
            for (k, v) in pairs(body) {
                if matches!(k.as_str(), "format" | "pattern") {
                    keys.push(format!("\"{k}\": {v}"));
                }
            }
        }
    }
    if keys.is_empty() {
        // an enum: the help names the type to write; in a schema, `enum`
        return match help.contains("enum") {
            true => "declare the values as `enum` in the schema".to_string(),
            false => help.to_string(),
        };
    }
    let keys = keys.join(", ");
    if each {
        format!("declare {{{keys}}} on `items`")
    } else {
        format!("declare {keys}")
    }
}

/// What a property's JSON Schema declares, owned, for [`Declared`] to borrow.
#[derive(Default)]
struct Decl {
    scalar: Scalar,
    is_list: bool,
    length: Option<Limits>,
    each_length: Option<Limits>,
    range: Option<Limits>,
    /// The days of `formatMinimum` and `formatMaximum`: the range of a
    /// date or date-time, as a date argument's `range(..)` publishes it.
    range_text: (Option<String>, Option<String>),
    format: Option<String>,
    pattern: Option<String>,
    values: Vec<String>,
    /// Keywords a branch declares whose value the branches do not share
    /// (`maxItems` on the list branch of `string | string[]`): declared, so
    /// prose stating them is no missing constraint, but with no one value
    /// to compare prose with.
    by_branch: Has,
}

/// Which keywords a declaration has, whatever their values.
#[derive(Default, Clone, Copy)]
struct Has {
    length: bool,
    range: bool,
    format: bool,
    pattern: bool,
}

fn limits(s: &Value, min: &str, max: &str) -> Option<Limits> {
    let l = Limits {
        min: s.get(min).and_then(Value::as_f64),
        max: s.get(max).and_then(Value::as_f64),
        ..Limits::default()
    };
    (l.min.is_some() || l.max.is_some()).then_some(l)
}

/// The bounds an integer type publishes by itself (`u16`: 0 to 65535): no
/// declaration of the author's, so a stricter bound in the prose is a
/// constraint the argument does not declare, not a contradiction. A side
/// of 32 bits or wider is the type's on its own (see [`range`]); these are
/// the pairs that name a narrower type, or an unsigned one's 0.
const TYPE_LIMITS: &[(f64, Option<f64>)] = &[
    (0.0, Some(255.0)),
    (0.0, Some(65_535.0)),
    (0.0, Some(4_294_967_295.0)),
    (0.0, Some(18_446_744_073_709_551_615.0)),
    (-128.0, Some(127.0)),
    (-32_768.0, Some(32_767.0)),
];

fn range(s: &Value) -> Option<Limits> {
    let mut l = Limits {
        min: s.get("minimum").and_then(Value::as_f64),
        max: s.get("maximum").and_then(Value::as_f64),
        exclusive_min: s.get("exclusiveMinimum").and_then(Value::as_f64),
        exclusive_max: s.get("exclusiveMaximum").and_then(Value::as_f64),
    };
    if type_of(s) == Some("integer") {
        // `minimum: 0` alone is the type's only beside a `format` naming an
        // unsigned width (schemars' `uint32`); written by itself it is an
        // author's (zod's `.nonnegative()`), and prose saying the same agrees
        let unsigned = s
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| f.starts_with("uint"));
        let pair =
            (l.min.zip(Some(l.max))).is_some_and(|(min, max)| TYPE_LIMITS.contains(&(min, max)));
        if pair || (unsigned && l.min == Some(0.0) && l.max.is_none()) {
            (l.min, l.max) = (None, None);
        }
        // one side declared, the other the type's (`range(min = 50)` on a
        // `u32` publishes `maximum: 4294967295`): a side no narrower than
        // 32 bits is the type's, never an author's
        l.min = l.min.filter(|&min| min > -2_147_483_648.0);
        l.max = l.max.filter(|&max| max < 2_147_483_647.0);
    }
    (l != Limits::default()).then_some(l)
}

/// The branches of the schema's `anyOf` / `oneOf` that are not `null`.
fn real_branches(s: &Value) -> Option<Vec<&Value>> {
    ["anyOf", "oneOf"].iter().find_map(|key| {
        let branches = s.get(*key)?.as_array()?;
        Some(
            branches
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
                .collect(),
        )
    })
}

/// The schema itself, or the one branch of an `anyOf` / `oneOf` that is not
/// `null` (an optional argument).
fn non_null(s: &Value) -> &Value {
    match real_branches(s).as_deref() {
        Some([one]) => one,
        _ => s,
    }
}

fn type_of(s: &Value) -> Option<&str> {
    match s.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

fn scalar(s: &Value) -> Scalar {
    if s.get("enum").is_some() || s.get("const").is_some() {
        return Scalar::Other;
    }
    match type_of(s) {
        Some("string") => Scalar::String,
        Some("integer") => Scalar::Integer,
        Some("number") => Scalar::Float,
        Some("boolean") => Scalar::Bool,
        Some(_) => Scalar::Other,
        None => Scalar::Unknown,
    }
}

fn values(s: &Value) -> Vec<String> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match (s.get("enum"), s.get("const")) {
        (Some(Value::Array(vs)), _) => vs.iter().filter(|v| !v.is_null()).map(text).collect(),
        (_, Some(c)) => vec![text(c)],
        _ => Vec::new(),
    }
}

/// The value every branch gives, when all give the same one; `None` when
/// none gives one. `Err` when they differ, or only some give one.
fn shared<T: PartialEq>(all: impl Iterator<Item = Option<T>>) -> Result<Option<T>, ()> {
    let mut out: Option<Option<T>> = None;
    for v in all {
        match &out {
            None => out = Some(v),
            Some(first) if *first == v => {}
            Some(_) => return Err(()),
        }
    }
    Ok(out.flatten())
}

impl Decl {
    fn of(prop: &Value) -> Decl {
        // two or more: a value of either form (`string | string[]`, a
        // number or a numeric string)
        match real_branches(non_null(prop)).filter(|b| b.len() > 1) {
            Some(each) => Decl::either(each.into_iter().map(Decl::of).collect()),
            None => Decl::one(prop),
        }
    }

    /// A value that is any of `each` (at least two): what all declare
    /// alike is declared with its value; what only some declare, or
    /// declare differently, is declared with no value to compare; a closed
    /// set only when every branch is one (their union).
    fn either(each: Vec<Decl>) -> Decl {
        let mut d = Decl {
            is_list: each.iter().all(|b| b.is_list),
            // branches of different types: the bools decide
            scalar: match shared(each.iter().map(|b| Some(b.scalar))) {
                Ok(Some(s)) => s,
                _ => Scalar::Unknown,
            },
            ..Decl::default()
        };
        if each.iter().all(|b| !b.values.is_empty()) {
            for v in each.iter().flat_map(|b| &b.values) {
                if !d.values.contains(v) {
                    d.values.push(v.clone());
                }
            }
        }
        macro_rules! merge {
            ($field:ident, $has:ident) => {
                d.by_branch.$has = each.iter().any(|b| b.by_branch.$has);
                match shared(each.iter().map(|b| b.$field.clone())) {
                    Ok(v) => d.$field = v,
                    Err(()) => d.by_branch.$has = true,
                }
            };
        }
        merge!(length, length);
        merge!(range, range);
        // (days: one range for all branches, or declared with no value)
        let days = shared(each.iter().map(|b| Some(b.range_text.clone())));
        match days {
            Ok(Some(both)) => d.range_text = both,
            _ => d.by_branch.range = true,
        }
        merge!(format, format);
        merge!(pattern, pattern);
        d.each_length = shared(each.iter().map(|b| b.each_length)).unwrap_or(None);
        d
    }

    fn one(prop: &Value) -> Decl {
        let s = non_null(prop);
        let mut d = Decl::default();
        // a list's items, or a map's values (`additionalProperties`), which
        // `each(..)` declares and characters in the prose count
        let map = (type_of(s) == Some("object"))
            .then(|| s.get("additionalProperties").filter(|v| v.is_object()))
            .flatten();
        let item = match type_of(s) {
            Some("array") => Some(non_null(s.get("items").unwrap_or(&Value::Null))),
            _ => map.map(non_null),
        };
        let one = item.unwrap_or(s);
        d.is_list = item.is_some();
        d.scalar = scalar(one);
        d.values = values(one);
        d.format = one
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_string);
        d.pattern = one
            .get("pattern")
            .and_then(Value::as_str)
            .map(str::to_string);
        d.range = range(one);
        let day = |key: &str| one.get(key).and_then(Value::as_str).map(str::to_string);
        d.range_text = (day("formatMinimum"), day("formatMaximum"));
        // A string of days is what a date type publishes, and what a
        // `String` with `format = "date"` publishes too: the schema does not
        // tell them apart, so help for a day's bound names both (a date
        // type declares it, a string cannot).
        if d.scalar == Scalar::String && matches!(d.format.as_deref(), Some("date" | "date-time")) {
            d.scalar = Scalar::Unknown;
        }
        match item {
            Some(item) => {
                d.length = match map {
                    Some(_) => limits(s, "minProperties", "maxProperties"),
                    None => limits(s, "minItems", "maxItems"),
                };
                d.each_length = limits(item, "minLength", "maxLength");
            }
            None => d.length = limits(s, "minLength", "maxLength"),
        }
        d
    }

    fn declared<'a>(&'a self, values: &'a [&'a str]) -> Declared<'a> {
        Declared {
            length: self.length.is_some() || self.by_branch.length,
            range: self.range.is_some() || self.by_branch.range,
            pattern: self.pattern.is_some() || self.by_branch.pattern,
            format: self.format.is_some() || self.by_branch.format,
            closed_set: !self.values.is_empty(),
            is_list: self.is_list,
            is_number: !self.is_list && matches!(self.scalar, Scalar::Integer | Scalar::Float),
            is_string: !self.is_list && self.scalar == Scalar::String,
            scalar: self.scalar,
            length_limits: self.length,
            each_length_limits: self.each_length,
            range_limits: self.range,
            format_name: self.format.as_deref(),
            pattern_source: self.pattern.as_deref(),
            enum_values: values,
            range_text: (self.range_text.0.as_deref(), self.range_text.1.as_deref()),
            served: (false, false),
            spans: &[],
            name: None,
        }
    }
}

impl crate::Registry {
    /// Every prose finding of the registry's tools, either level: what each
    /// description states that the tool's input schema does not declare, or
    /// contradicts (see [the module](crate::audit)). A finding the author
    /// acknowledged (`#[arg(prose = "why")]`, `#[tool_contract(prose =
    /// "why")]`) carries the reason in [`Finding::acknowledged`].
    pub fn audit(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        for tool in self.tools() {
            let spec = tool.spec();
            let within = tool.acknowledged_within();
            let mut acknowledged: Vec<(&str, &str)> =
                within.iter().map(|(at, why)| (at.as_str(), *why)).collect();
            if let Some(why) = spec.prose {
                acknowledged.push(("", why));
            }
            let schema = crate::args::constraint::authored(|| tool.input_schema());
            let spans: Vec<SpanRule> = (tool.inner.rules().iter())
                .filter_map(|rule| match rule {
                    crate::args::rules::Rule::MaxSpan {
                        from,
                        to,
                        limit,
                        unit,
                    } => Some(SpanRule {
                        from,
                        to,
                        limit: limit.as_f64(),
                        unit: unit.name(),
                    }),
                    _ => None,
                })
                .collect();
            out.extend(audit_tool(
                spec.name,
                spec.description,
                &schema,
                Help::Attribute,
                &acknowledged,
                &spans,
            ));
        }
        out
    }
}

/// Fails with every finding of `registry` that its author has not
/// acknowledged: one line in a test suite keeps the prose and the contracts
/// agreeing as both change.
///
/// ```ignore
/// #[test]
/// fn prose_agrees_with_the_contracts() {
///     contract_runtime::audit::assert_acknowledged(&my_tools::registry());
/// }
/// ```
#[track_caller]
pub fn assert_acknowledged(registry: &crate::Registry) {
    let open: Vec<String> = registry
        .audit()
        .into_iter()
        .filter(|f| f.acknowledged.is_none())
        .map(|f| {
            let at = match &f.argument {
                Some(a) => format!("`{}`, argument `{a}`", f.tool),
                None => format!("`{}`", f.tool),
            };
            format!(
                "{at}: {} \"{}\" ({}, {}): {}",
                f.family,
                f.phrase,
                f.level.as_str(),
                f.recognizer,
                f.help
            )
        })
        .collect();
    assert!(
        open.is_empty(),
        "{} prose finding(s) not acknowledged; declare the constraint, reword the prose, or acknowledge it: `#[arg(prose = \"why\")]` on the argument, `#[tool_contract(prose = \"why\")]` for a finding on the tool's own description:\n{}",
        open.len(),
        open.join("\n")
    );
}
