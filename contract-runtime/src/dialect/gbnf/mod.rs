//! A GBNF grammar (the grammar format llama.cpp reads) derived from the
//! canonical definitions, for constrained decoding with local models.
//!
//! The grammar accepts exactly the argument objects the contract declares,
//! written as JSON text: the declared keys and no other (in declaration
//! order, optional ones omittable), string lengths, the contract's
//! patterns, formats, closed sets, integer and number ranges, lists and
//! their bounds, nested objects, and tagged enums (one alternative per
//! variant). Every string it accepts decodes and passes the runtime's
//! checks, except for what is reported as an [`Omission`]: `uniqueItems`
//! and date bounds (a grammar cannot compare values), rules across
//! arguments (named as written: "rule exactly_one_of(a, b) cannot be
//! expressed in GBNF; it is enforced at run time"), and bounds the schema
//! marks as limits of what the tool serves.
//!
//! A bound of service (the years an index holds) differs from a bound of
//! form (a ticker is one to five capitals): a request outside it must still
//! be expressible, so that the runtime can refuse it and the model can tell
//! the user, instead of the grammar forcing a well-formed substitute. A
//! schema node marks such bounds with the extension keyword
//! `"x-served": ["minimum", "maximum"]`; [`Served::Omit`] (the default)
//! leaves them out of the grammar, [`Served::Include`] keeps them (the
//! control in a benchmark).
//!
//! ```
//! use contract_runtime::dialect::gbnf::{arguments, GbnfOptions};
//! let tool = serde_json::json!({
//!     "name": "list_filings", "description": "List filings.",
//!     "input_schema": {"type": "object", "properties": {
//!         "company": {"type": "string", "pattern": "^[A-Z]{1,5}$"},
//!         "year": {"type": "integer", "minimum": 2001, "maximum": 2026,
//!                  "x-served": ["minimum", "maximum"]}},
//!         "required": ["company", "year"], "additionalProperties": false}
//! });
//! let g = arguments(&tool, &GbnfOptions::default()).unwrap();
//! assert!(g.text.starts_with("root ::= list-filings\n"));
//! assert!(g.text.contains(r#"list-filings-company ::= "\"" [A-Z]{1,5} "\"""#));
//! assert_eq!(g.omissions[0].keyword, "minimum");
//! ```

mod regex;

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use serde_json::{Map, Value};

use self::regex::{CharSet, Re, MAX_CHAR};

/// Whether bounds marked `x-served` go into the grammar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Served {
    /// Left out: a request outside what the tool serves can be written, and
    /// the runtime refuses it (the default).
    #[default]
    Omit,
    /// Kept like bounds of form. A model constrained this way cannot express
    /// an unserved request, and moves it into range instead.
    Include,
}

/// Options of [`arguments`] and [`calls`].
#[derive(Clone, Debug, Default)]
pub struct GbnfOptions {
    /// What to do with bounds marked `x-served`.
    pub served: Served,
}

/// A constraint the grammar does not carry. The runtime still enforces it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Omission {
    /// The tool's name.
    pub tool: String,
    /// JSON pointer to the node in the tool's canonical input schema.
    pub pointer: String,
    /// The keyword left out (`uniqueItems`, `minimum`).
    pub keyword: String,
    /// Why.
    pub why: String,
}

/// A grammar and what it leaves out.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Grammar {
    /// The GBNF text; its start rule is `root`.
    pub text: String,
    /// Constraints left to the runtime, in tool order.
    pub omissions: Vec<Omission>,
}

/// Why a tool's schema has no grammar.
#[derive(Clone, Debug, PartialEq)]
pub struct GbnfError {
    /// The tool's name (empty when the definition has none).
    pub tool: String,
    /// JSON pointer to the node in the canonical input schema.
    pub pointer: String,
    /// What cannot be translated, naming the keyword or pattern.
    pub reason: String,
}

impl fmt::Display for GbnfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no grammar for tool `{}` at {}: {}",
            self.tool,
            super::place(&self.pointer),
            self.reason
        )
    }
}

impl std::error::Error for GbnfError {}

type Res<T> = Result<T, GbnfError>;

/// A numeric bound: its value, and whether the value itself is allowed.
type Bound = (f64, bool);

/// The grammar of one tool's argument object (`root` is the object), from
/// its canonical definition.
pub fn arguments(def: &Value, opts: &GbnfOptions) -> Res<Grammar> {
    let mut b = Builder::new(opts);
    let args = b.start_tool(def)?;
    Ok(b.finish(args))
}

/// The grammar of one call to any of `defs`:
/// `{"name": "<tool>", "arguments": {...}}`, the arguments those of the named
/// tool.
pub fn calls(defs: &[Value], opts: &GbnfOptions) -> Res<Grammar> {
    let mut b = Builder::new(opts);
    let mut alts = Vec::with_capacity(defs.len());
    for def in defs {
        let args = b.start_tool(def)?;
        let name = json_literal(&Value::from(b.tool.as_str()));
        let body = format!(
            r#""{{" ws "\"name\"" ws ":" ws {name} ws "," ws "\"arguments\"" ws ":" ws {args} ws "}}""#
        );
        let call = b.rule(&format!("{}-call", rule_name(&b.tool)), body);
        alts.push(call);
    }
    if alts.is_empty() {
        return Err(GbnfError {
            tool: String::new(),
            pointer: String::new(),
            reason: "no tools to call".to_owned(),
        });
    }
    let root = alts.join(" | ");
    Ok(b.finish(root))
}

/// Keywords that say nothing about which values are valid.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$comment",
    "$defs",
    "definitions",
    "description",
    "title",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    SERVED,
];

/// The extension keyword listing a node's bounds of service.
pub use crate::schema::SERVED;

/// Bound keywords `x-served` may name.
const BOUNDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "formatMinimum",
    "formatMaximum",
];

/// Keywords the grammar leaves to the runtime, each an [`Omission`]: a date
/// or time bound compares values, which a grammar cannot.
const LEFT_TO_RUNTIME: &[(&str, &str)] = &[
    (
        "formatMinimum",
        "a date or time bound: a grammar cannot compare dates; it is enforced at run time",
    ),
    (
        "formatMaximum",
        "a date or time bound: a grammar cannot compare dates; it is enforced at run time",
    ),
];

/// Keywords the grammar translates.
const TRANSLATED: &[&str] = &[
    "type",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "discriminator",
    "allOf",
    "$ref",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

/// Rules every grammar has: JSON whitespace (a little, so a model cannot
/// loop on it) and one character of a JSON string, escapes included. A
/// `\u` escape never names a surrogate, so one escape is one character.
const SHARED: &str = r#"ws ::= | " " | "\n" [ \t]{0,20}
char ::= [^"\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" uhex)
uhex ::= [0-9a-cA-Ce-fE-F] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2}
"#;

/// The formats the runtime checks, as grammars over the JSON text. Each
/// accepts a subset of what the runtime accepts (an IPv6 address in full
/// form only, a bounded number of host labels, no leap second: the runtime
/// takes one only at 23:59:60 UTC, which a grammar cannot tell from the
/// offset); `date` counts leap years.
const FORMATS: &[(&str, &str, Option<u64>)] = &[
    (
        "date",
        "format-year \"-\" format-month-day | format-leap-year \"-02-29\"",
        Some(10),
    ),
    ("date-time", "format-date [Tt] format-time", None),
    (
        "time",
        r#"([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ("." [0-9]{1,9})? ("Z" | "z" | [+\-] ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9])"#,
        None,
    ),
    (
        "uuid",
        r#"[0-9a-fA-F]{8} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{12}"#,
        Some(36),
    ),
    (
        "email",
        r#"[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]{1,15} ("." [A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]{1,15}){0,3} "@" format-label ("." format-label){1,3}"#,
        None,
    ),
    ("hostname", r#"format-label ("." format-label){0,3}"#, None),
    (
        "uri",
        r#"[A-Za-z] [A-Za-z0-9+.\-]{0,15} ":" [\x21\x23-\x5B\x5D-\x7E]{0,200}"#,
        None,
    ),
    (
        "ipv4",
        r#"format-octet "." format-octet "." format-octet "." format-octet"#,
        None,
    ),
    (
        "ipv6",
        r#"[0-9a-fA-F]{1,4} (":" [0-9a-fA-F]{1,4}){7}"#,
        None,
    ),
];

/// Rules the formats share.
const FORMAT_PARTS: &[(&str, &str)] = &[
    ("year", "[0-9]{4}"),
    (
        "leap-year",
        r#"[0-9] [0-9] ("0" [48] | [2468] [048] | [13579] [26]) | ("0" [048] | [2468] [048] | [13579] [26]) "00""#,
    ),
    (
        "month-day",
        r#"("0" [13578] | "1" [02]) "-" ("0" [1-9] | [12] [0-9] | "3" [01]) | ("0" [469] | "11") "-" ("0" [1-9] | [12] [0-9] | "30") | "02-" ("0" [1-9] | "1" [0-9] | "2" [0-8])"#,
    ),
    ("label", "[A-Za-z0-9] ([A-Za-z0-9\\-]{0,20} [A-Za-z0-9])?"),
    (
        "octet",
        r#""25" [0-5] | "2" [0-4] [0-9] | "1" [0-9] [0-9] | [1-9] [0-9] | [0-9]"#,
    ),
];

struct Builder<'o> {
    opts: &'o GbnfOptions,
    /// The tool being translated.
    tool: String,
    /// Its input schema, for `$ref`.
    root: Value,
    rules: Vec<(String, String)>,
    by_body: HashMap<String, String>,
    /// `$ref` target → rule name, per tool.
    refs: HashMap<String, String>,
    formats: BTreeSet<&'static str>,
    omissions: Vec<Omission>,
}

impl<'o> Builder<'o> {
    fn new(opts: &'o GbnfOptions) -> Self {
        Builder {
            opts,
            tool: String::new(),
            root: Value::Null,
            rules: Vec::new(),
            by_body: HashMap::new(),
            refs: HashMap::new(),
            formats: BTreeSet::new(),
            omissions: Vec::new(),
        }
    }

    fn finish(self, root: String) -> Grammar {
        let mut text = format!("root ::= {root}\n");
        for (name, body) in &self.rules {
            text.push_str(&format!("{name} ::= {body}\n"));
        }
        text.push_str(SHARED);
        if !self.formats.is_empty() {
            let mut used: BTreeSet<&str> = self.formats.clone();
            if used.contains("date-time") {
                used.extend(["date", "time"]);
            }
            for (name, body, _) in FORMATS {
                if used.contains(name) {
                    text.push_str(&format!("format-{name} ::= {body}\n"));
                }
            }
            for (name, body) in FORMAT_PARTS {
                text.push_str(&format!("format-{name} ::= {body}\n"));
            }
        }
        Grammar {
            text,
            omissions: self.omissions,
        }
    }

    /// Starts a tool; returns the rule of its argument object.
    fn start_tool(&mut self, def: &Value) -> Res<String> {
        let err = |tool: &str, reason: &str| GbnfError {
            tool: tool.to_owned(),
            pointer: String::new(),
            reason: reason.to_owned(),
        };
        let name = def
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| err("", "the definition has no string `name`"))?;
        let input = def
            .get("input_schema")
            .filter(|v| v.is_object())
            .ok_or_else(|| err(name, "the definition has no object `input_schema`"))?;
        self.tool = name.to_owned();
        self.root = input.clone();
        self.refs.clear();
        let hint = rule_name(name);
        // Rules across arguments: a grammar writes one argument after the
        // other and cannot say "exactly one of these" or "this before
        // that", so it admits what they refuse. The presence rules' root
        // `allOf` is set aside; every rule is an omission, named as the
        // user wrote it.
        let mut input = input.clone();
        if let Some(m) = input.as_object_mut() {
            if let Some(Value::Array(branches)) = m.get("allOf") {
                if branches.iter().all(super::is_argument_rule) {
                    m.remove("allOf");
                }
            }
        }
        let expr = self.value(&input, "", &hint)?;
        let rules = def.get("rules").and_then(Value::as_array);
        for r in rules.into_iter().flatten() {
            let field = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default();
            let (rule, keyword) = (field("rule"), field("keyword"));
            let args: Vec<&str> = r
                .get("arguments")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let written = if args.is_empty() {
                format!("{rule}({keyword})")
            } else {
                format!("{rule}({})", args.join(", "))
            };
            self.omissions.push(Omission {
                tool: self.tool.clone(),
                pointer: String::new(),
                keyword: keyword.to_owned(),
                why: format!(
                    "rule {written} cannot be expressed in GBNF; it is enforced at run time"
                ),
            });
        }
        Ok(self.rule(&hint, expr))
    }

    fn error(&self, ptr: &str, reason: String) -> GbnfError {
        GbnfError {
            tool: self.tool.clone(),
            pointer: ptr.to_owned(),
            reason,
        }
    }

    fn omit(&mut self, ptr: &str, keyword: &str, why: &str) {
        self.omissions.push(Omission {
            tool: self.tool.clone(),
            pointer: join(ptr, keyword),
            keyword: keyword.to_owned(),
            why: why.to_owned(),
        });
    }

    /// A rule with this body, named after `hint`; a body seen before keeps
    /// its first name. A body that is already a single rule name is returned
    /// as is.
    fn rule(&mut self, hint: &str, body: String) -> String {
        if is_name(&body) {
            return body;
        }
        if let Some(name) = self.by_body.get(&body) {
            return name.clone();
        }
        // The shared rules' names stay free.
        let hint = if ["root", "ws", "char", "uhex"].contains(&hint) || hint.starts_with("format-")
        {
            format!("t-{hint}")
        } else {
            hint.to_owned()
        };
        let mut name = hint.clone();
        let mut n = 2;
        while self.rules.iter().any(|(r, _)| *r == name) {
            name = format!("{hint}-{n}");
            n += 1;
        }
        self.by_body.insert(body.clone(), name.clone());
        self.rules.push((name.clone(), body));
        name
    }

    /// The expression for one schema node.
    fn value(&mut self, node: &Value, ptr: &str, hint: &str) -> Res<String> {
        let Value::Object(m) = node else {
            return Err(self.error(
                ptr,
                "a boolean schema has no grammar: write the schema out".to_owned(),
            ));
        };
        for k in m.keys() {
            let k = k.as_str();
            if let Some((_, why)) = LEFT_TO_RUNTIME.iter().find(|(l, _)| *l == k) {
                self.omit(ptr, k, why);
            } else if !ANNOTATIONS.contains(&k) && !TRANSLATED.contains(&k) {
                return Err(self.error(ptr, format!("the keyword {k} has no grammar translation")));
            }
        }
        self.check_served(m, ptr)?;

        if let Some(r) = m.get("$ref") {
            let r = r
                .as_str()
                .ok_or_else(|| self.error(ptr, "$ref must be a string".to_owned()))?;
            if m.keys()
                .any(|k| k != "$ref" && !ANNOTATIONS.contains(&k.as_str()))
            {
                return Err(self.error(
                    ptr,
                    "keywords next to $ref: merge them into the target".to_owned(),
                ));
            }
            return self.reference(r, ptr);
        }
        if let Some(c) = m.get("const") {
            return Ok(json_literal(c));
        }
        if let Some(e) = m.get("enum") {
            let values = e
                .as_array()
                .filter(|a| !a.is_empty())
                .ok_or_else(|| self.error(ptr, "enum must be a non-empty list".to_owned()))?;
            let alts: Vec<String> = values.iter().map(json_literal).collect();
            return Ok(group(&alts));
        }
        // A union: one alternative per branch. `oneOf` only as a tagged
        // enum writes it (a `discriminator` beside it): its branches differ
        // in the tag's constant, so no text matches two of them and the
        // alternatives say exactly what `oneOf` says.
        let union = match (m.get("anyOf"), m.get("oneOf")) {
            (Some(any), None) => Some(("anyOf", any)),
            (None, Some(one)) if m.contains_key("discriminator") => Some(("oneOf", one)),
            (None, Some(_)) => {
                return Err(self.error(
                    ptr,
                    "oneOf has a grammar only as a tagged enum writes it (with a discriminator): use anyOf with disjoint branches".to_owned(),
                ))
            }
            (Some(_), Some(_)) => {
                return Err(self.error(ptr, "anyOf next to oneOf: use one of them".to_owned()))
            }
            (None, None) => None,
        };
        if let Some((kw, list)) = union {
            let branches = list
                .as_array()
                .filter(|a| !a.is_empty())
                .ok_or_else(|| self.error(ptr, format!("{kw} must be a non-empty list")))?;
            if m.keys().any(|k| {
                k != kw
                    && !(kw == "oneOf" && k == "discriminator")
                    && !ANNOTATIONS.contains(&k.as_str())
            }) {
                return Err(self.error(
                    ptr,
                    format!("keywords next to {kw}: state them in each branch"),
                ));
            }
            let mut alts = Vec::with_capacity(branches.len());
            for (i, b) in branches.iter().enumerate() {
                let here = join(&join(ptr, kw), &i.to_string());
                alts.push(self.value(b, &here, hint)?);
            }
            return Ok(group(&alts));
        }
        if let Some(all) = m.get("allOf") {
            let Some([Value::Object(branch)]) = all.as_array().map(Vec::as_slice) else {
                return Err(self.error(
                    ptr,
                    "allOf with several branches has no grammar (a grammar cannot say that a value matches two schemas at once): merge the branches into one".to_owned(),
                ));
            };
            let mut merged = m.clone();
            merged.remove("allOf");
            for (k, v) in branch {
                if merged.get(k).is_some_and(|old| old != v) {
                    return Err(self.error(ptr, format!("allOf repeats the keyword {k}")));
                }
                merged.insert(k.clone(), v.clone());
            }
            return self.value(&Value::Object(merged), ptr, hint);
        }
        let Some(types) = super::walk::types_of(m) else {
            return Err(self.error(ptr, "the node has no type".to_owned()));
        };
        let mut alts = Vec::with_capacity(types.len());
        for t in types {
            alts.push(match t {
                "null" => "\"null\"".to_owned(),
                "boolean" => "(\"true\" | \"false\")".to_owned(),
                "string" => self.string(m, ptr)?,
                "integer" => self.integer(m, ptr)?,
                "number" => self.number(m, ptr)?,
                "array" => self.array(m, ptr, hint)?,
                "object" => self.object(m, ptr, hint)?,
                other => return Err(self.error(ptr, format!("unknown type `{other}`"))),
            });
        }
        Ok(group(&alts))
    }

    fn reference(&mut self, r: &str, ptr: &str) -> Res<String> {
        if let Some(name) = self.refs.get(r) {
            return Ok(name.clone());
        }
        let target = r
            .strip_prefix('#')
            .and_then(|p| self.root.pointer(p))
            .cloned()
            .ok_or_else(|| {
                self.error(ptr, format!("$ref `{r}` does not resolve in this schema"))
            })?;
        // Named before it is built, so that a recursive reference finds it.
        let base = format!(
            "{}-{}",
            rule_name(&self.tool),
            rule_name(r.rsplit('/').next().unwrap_or("ref"))
        );
        let mut name = base.clone();
        let mut n = 2;
        while self.rules.iter().any(|(x, _)| *x == name) || self.refs.values().any(|x| *x == name) {
            name = format!("{base}-{n}");
            n += 1;
        }
        self.refs.insert(r.to_owned(), name.clone());
        let here = r.strip_prefix('#').unwrap_or(r).to_owned();
        let body = self.value(&target, &here, &name)?;
        self.rules.push((name.clone(), body));
        Ok(name)
    }

    /// Fails unless `x-served` lists bound keywords the node has.
    fn check_served(&self, m: &Map<String, Value>, ptr: &str) -> Res<()> {
        let Some(v) = m.get(SERVED) else {
            return Ok(());
        };
        let Some(list) = v.as_array() else {
            return Err(self.error(ptr, format!("{SERVED} must be a list of bound keywords")));
        };
        for k in list {
            let ok = k
                .as_str()
                .is_some_and(|k| BOUNDS.contains(&k) && m.contains_key(k));
            if !ok {
                return Err(self.error(
                    ptr,
                    format!("{SERVED} names {k}, which is not a bound keyword of this node"),
                ));
            }
        }
        Ok(())
    }

    /// A bound keyword's value, unless it is a bound of service left out.
    fn bound<'v>(&mut self, m: &'v Map<String, Value>, key: &str, ptr: &str) -> Option<&'v Value> {
        let v = m.get(key)?;
        let served = m
            .get(SERVED)
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(|k| k == key));
        if served && self.opts.served == Served::Omit {
            self.omit(
                ptr,
                key,
                "a bound of what the tool serves: left out so that a request outside it can be written and refused",
            );
            return None;
        }
        Some(v)
    }

    fn count(&mut self, m: &Map<String, Value>, key: &str, ptr: &str) -> Res<Option<u64>> {
        match self.bound(m, key, ptr) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| self.error(ptr, format!("{key} must be a non-negative integer"))),
        }
    }

    fn string(&mut self, m: &Map<String, Value>, ptr: &str) -> Res<String> {
        let min = self.count(m, "minLength", ptr)?.unwrap_or(0);
        let max = self.count(m, "maxLength", ptr)?;
        let limited = min > 0 || max.is_some();
        let fits = |lo: u64, hi: Option<u64>| {
            lo >= min && max.is_none_or(|mx| hi.is_some_and(|h| h <= mx))
        };
        match (m.get("pattern"), m.get("format")) {
            (Some(_), Some(_)) => Err(self.error(
                ptr,
                "pattern and format on one string have no grammar: keep one".to_owned(),
            )),
            (None, Some(f)) => {
                let f = f.as_str().unwrap_or_default();
                let Some(&(name, _, len)) = FORMATS.iter().find(|(n, _, _)| *n == f) else {
                    return Err(self.error(ptr, format!("the format `{f}` has no grammar")));
                };
                if limited && !len.is_some_and(|l| fits(l, Some(l))) {
                    return Err(self.error(
                        ptr,
                        format!("format `{f}` with minLength/maxLength has no grammar"),
                    ));
                }
                self.formats.insert(name);
                Ok(format!("\"\\\"\" format-{name} \"\\\"\""))
            }
            (Some(p), None) => {
                let p = p.as_str().unwrap_or_default();
                let re = regex::parse(p).map_err(|why| {
                    self.error(ptr, format!("the pattern {p} has no grammar: {why}"))
                })?;
                let (lo, hi) = re.lengths();
                let re = if !limited || fits(lo, hi) {
                    re
                } else {
                    fit_lengths(re, min, max).ok_or_else(|| {
                        self.error(
                            ptr,
                            format!("the pattern {p} together with minLength/maxLength has no grammar: fold the lengths into the pattern"),
                        )
                    })?
                };
                Ok(format!("\"\\\"\" {} \"\\\"\"", render(&re)))
            }
            (None, None) => Ok(format!("\"\\\"\" char{} \"\\\"\"", quantifier(min, max))),
        }
    }

    /// The lower and upper bounds.
    fn limits(&mut self, m: &Map<String, Value>, ptr: &str) -> Res<(Option<Bound>, Option<Bound>)> {
        let num = |b: &mut Self, key: &str| -> Res<Option<f64>> {
            match b.bound(m, key, ptr) {
                None => Ok(None),
                Some(v) => v
                    .as_f64()
                    .map(Some)
                    .ok_or_else(|| b.error(ptr, format!("{key} must be a number"))),
            }
        };
        let tighter = |a: Option<Bound>, b: Option<Bound>, lower: bool| match (a, b) {
            (Some(x), Some(y)) => {
                let pick_x = if x.0 == y.0 {
                    !x.1
                } else if lower {
                    x.0 > y.0
                } else {
                    x.0 < y.0
                };
                Some(if pick_x { x } else { y })
            }
            (x, y) => x.or(y),
        };
        let lo = tighter(
            num(self, "minimum")?.map(|v| (v, true)),
            num(self, "exclusiveMinimum")?.map(|v| (v, false)),
            true,
        );
        let hi = tighter(
            num(self, "maximum")?.map(|v| (v, true)),
            num(self, "exclusiveMaximum")?.map(|v| (v, false)),
            false,
        );
        Ok((lo, hi))
    }

    fn integer(&mut self, m: &Map<String, Value>, ptr: &str) -> Res<String> {
        let (lo, hi) = self.limits(m, ptr)?;
        let lo = lo.map(|(v, incl)| {
            if incl {
                v.ceil() as i128
            } else {
                v.floor() as i128 + 1
            }
        });
        let hi = hi.map(|(v, incl)| {
            if incl {
                v.floor() as i128
            } else {
                v.ceil() as i128 - 1
            }
        });
        if let (Some(a), Some(b)) = (lo, hi) {
            if a > b {
                return Err(self.error(ptr, "the range holds no integer".to_owned()));
            }
        }
        Ok(group(&int_range(lo, hi)))
    }

    fn number(&mut self, m: &Map<String, Value>, ptr: &str) -> Res<String> {
        let (lo, hi) = self.limits(m, ptr)?;
        let whole = |b: Option<Bound>| -> Result<Option<(i128, bool)>, f64> {
            match b {
                Some((v, incl)) if v.fract() == 0.0 && v.abs() < 1e18 => {
                    Ok(Some((v as i128, incl)))
                }
                Some((v, _)) => Err(v),
                None => Ok(None),
            }
        };
        let (lo, hi) = match (whole(lo), whole(hi)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(v), _) | (_, Err(v)) => {
                return Err(self.error(
                    ptr,
                    format!("the number bound {v} is not a whole number, which the grammar cannot state exactly"),
                ))
            }
        };
        let alts = number_range(lo, hi);
        if alts.is_empty() {
            return Err(self.error(ptr, "the range holds no number".to_owned()));
        }
        Ok(group(&alts))
    }

    fn array(&mut self, m: &Map<String, Value>, ptr: &str, hint: &str) -> Res<String> {
        let item = match m.get("items") {
            Some(items @ Value::Object(_)) => {
                let here = join(ptr, "items");
                let expr = self.value(items, &here, &format!("{hint}-item"))?;
                self.rule(&format!("{hint}-item"), expr)
            }
            _ => {
                return Err(self.error(
                    ptr,
                    "a list without one `items` schema has no grammar".to_owned(),
                ))
            }
        };
        if m.get("uniqueItems") == Some(&Value::Bool(true)) {
            self.omit(ptr, "uniqueItems", "a grammar cannot compare items");
        }
        let min = self.count(m, "minItems", ptr)?.unwrap_or(0);
        let max = self.count(m, "maxItems", ptr)?;
        if max.is_some_and(|mx| mx < min) {
            return Err(self.error(ptr, "maxItems is below minItems".to_owned()));
        }
        let more = format!("(\",\" ws {item})");
        let body = match max {
            Some(0) => String::new(),
            _ if min == 0 => format!("({item} {more}{})?", quantifier(0, max.map(|m| m - 1))),
            _ => format!("{item} {more}{}", quantifier(min - 1, max.map(|m| m - 1))),
        };
        Ok(format!("\"[\" ws {body} ws \"]\""))
    }

    fn object(&mut self, m: &Map<String, Value>, ptr: &str, hint: &str) -> Res<String> {
        match m.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            Some(_) => {
                return Err(self.error(
                    ptr,
                    "an object open to other properties has no grammar: set additionalProperties to false".to_owned(),
                ))
            }
        }
        let empty = Map::new();
        let props = match m.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => return Err(self.error(ptr, "properties must be an object".to_owned())),
        };
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for r in &required {
            if !props.contains_key(*r) {
                return Err(self.error(ptr, format!("`{r}` is required but not a property")));
            }
        }
        let mut members = Vec::with_capacity(props.len());
        for (name, schema) in props {
            let here = join(&join(ptr, "properties"), name);
            let rule_hint = format!("{hint}-{}", rule_name(name));
            let expr = self.value(schema, &here, &rule_hint)?;
            let value = self.rule(&rule_hint, expr);
            let key = json_literal(&Value::from(name.as_str()));
            members.push((
                format!("{key} ws \":\" ws {value}"),
                required.contains(&name.as_str()),
            ));
        }
        // Members in declaration order; an optional one may be left out,
        // and a comma goes before every member but the first written.
        let after = |i: usize| -> String {
            members[i..]
                .iter()
                .map(|(kv, req)| {
                    if *req {
                        format!(" \",\" ws {kv}")
                    } else {
                        format!(" (\",\" ws {kv})?")
                    }
                })
                .collect()
        };
        let mut first = String::new();
        for i in (0..members.len()).rev() {
            let (kv, req) = &members[i];
            let this = format!("{kv}{}", after(i + 1));
            first = if *req {
                this
            } else if first.is_empty() {
                format!("({this})?")
            } else {
                format!("({this} | {first})")
            };
        }
        Ok(if first.is_empty() {
            "\"{\" ws \"}\"".to_owned()
        } else {
            format!("\"{{\" ws {first} ws \"}}\"")
        })
    }
}

/// A tool or property name as a GBNF rule name (letters, digits, `-`).
fn rule_name(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if out.is_empty() {
        out.push('x');
    }
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

fn join(ptr: &str, token: &str) -> String {
    format!("{ptr}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// Alternatives, parenthesized when there are several.
fn group(alts: &[String]) -> String {
    match alts {
        [one] => one.clone(),
        _ => format!("({})", alts.join(" | ")),
    }
}

/// `{min,max}` in GBNF, in its shortest form.
fn quantifier(min: u64, max: Option<u64>) -> String {
    match (min, max) {
        (0, None) => "*".to_owned(),
        (1, None) => "+".to_owned(),
        (0, Some(1)) => "?".to_owned(),
        (1, Some(1)) => String::new(),
        (a, None) => format!("{{{a},}}"),
        (a, Some(b)) if a == b => format!("{{{a}}}"),
        (a, Some(b)) => format!("{{{a},{b}}}"),
    }
}

/// A GBNF string literal matching `text` exactly.
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7F => {
                out.push_str(&format!("\\x{:02X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The JSON text of a value, as a GBNF literal.
fn json_literal(v: &Value) -> String {
    literal(&v.to_string())
}

/// The literal for `text` as it appears inside a JSON string (escaped,
/// without the quotes).
fn string_content(text: &str) -> String {
    let json = Value::from(text).to_string();
    literal(&json[1..json.len() - 1])
}

/// One code point inside a GBNF character class.
fn class_char(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => ch.to_string(),
        _ if c < 0x100 => format!("\\x{c:02X}"),
        _ if c < 0x10000 => format!("\\u{c:04X}"),
        _ => format!("\\U{c:08X}"),
    }
}

/// One character of `set`, as it appears inside a JSON string: itself, or
/// its escape where JSON requires one.
fn json_char(set: &CharSet) -> String {
    if let [(a, b)] = set.0.as_slice() {
        if a == b {
            if let Some(c) = char::from_u32(*a) {
                return string_content(&c.to_string());
            }
        }
    }
    let raw = set.intersect(&CharSet(vec![(0x20, 0x21), (0x23, 0x5B), (0x5D, MAX_CHAR)]));
    let mut alts = Vec::new();
    if !raw.is_empty() {
        let body: String = raw
            .0
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    class_char(a)
                } else {
                    format!("{}-{}", class_char(a), class_char(b))
                }
            })
            .collect();
        alts.push(format!("[{body}]"));
    }
    for c in [0x22u32, 0x5C].into_iter().chain(0..0x20) {
        if set.contains(c) {
            let escaped = match c {
                0x22 => "\\\"".to_owned(),
                0x5C => "\\\\".to_owned(),
                0x08 => "\\b".to_owned(),
                0x09 => "\\t".to_owned(),
                0x0A => "\\n".to_owned(),
                0x0C => "\\f".to_owned(),
                0x0D => "\\r".to_owned(),
                c => format!("\\u{c:04x}"),
            };
            alts.push(literal(&escaped));
        }
    }
    group(&alts)
}

/// A pattern's tree as GBNF over the JSON text of the string.
fn render(r: &Re) -> String {
    match r {
        Re::Set(s) => json_char(s),
        Re::Seq(items) if items.is_empty() => "\"\"".to_owned(),
        Re::Seq(items) => {
            // Runs of single characters read as one literal.
            let mut parts: Vec<String> = Vec::with_capacity(items.len());
            let mut run = String::new();
            for item in items {
                match item {
                    Re::Set(CharSet(r)) if r.len() == 1 && r[0].0 == r[0].1 => {
                        if let Some(c) = char::from_u32(r[0].0) {
                            run.push(c);
                            continue;
                        }
                    }
                    _ => {}
                }
                if !run.is_empty() {
                    parts.push(string_content(&std::mem::take(&mut run)));
                }
                parts.push(render(item));
            }
            if !run.is_empty() {
                parts.push(string_content(&run));
            }
            if parts.len() == 1 {
                parts[0].clone()
            } else {
                format!("({})", parts.join(" "))
            }
        }
        Re::Alt(items) => {
            let parts: Vec<String> = items.iter().map(render).collect();
            group(&parts)
        }
        Re::Rep(inner, min, max) => {
            if *max == Some(0) {
                return "\"\"".to_owned();
            }
            let q = quantifier(u64::from(*min), max.map(u64::from));
            let body = render(inner);
            let atomic = body.starts_with('(') && body.ends_with(')')
                || body.starts_with('[') && body.ends_with(']') && !body.contains(" | ");
            if atomic || is_name(&body) {
                format!("{body}{q}")
            } else {
                format!("({body}){q}")
            }
        }
    }
}

/// Narrows the one variable-length repetition of a pattern so that every
/// match has `min` to `max` characters; `None` when the pattern has no such
/// single place.
fn fit_lengths(re: Re, min: u64, max: Option<u64>) -> Option<Re> {
    let items = match re {
        Re::Seq(items) => items,
        other => vec![other],
    };
    let mut fixed = 0u64;
    let mut var = None;
    for (i, r) in items.iter().enumerate() {
        match r.lengths() {
            (a, Some(b)) if a == b => fixed += a,
            _ => {
                if var.is_some() {
                    return None;
                }
                var = Some(i);
            }
        }
    }
    let i = var?;
    let Re::Rep(inner, a, b) = items[i].clone() else {
        return None;
    };
    if inner.lengths() != (1, Some(1)) {
        return None;
    }
    let lo = u64::from(a).max(min.saturating_sub(fixed));
    let hi = match (b.map(u64::from), max.map(|m| m.checked_sub(fixed))) {
        (_, Some(None)) => return None,
        (Some(x), Some(Some(y))) => Some(x.min(y)),
        (x, Some(Some(y))) => Some(x.map_or(y, |x| x.min(y))),
        (x, None) => x,
    };
    if hi.is_some_and(|h| h < lo) {
        return None;
    }
    let mut items = items;
    items[i] = Re::Rep(
        inner,
        u32::try_from(lo).ok()?,
        match hi {
            Some(h) => Some(u32::try_from(h).ok()?),
            None => None,
        },
    );
    Some(if items.len() == 1 {
        items.remove(0)
    } else {
        Re::Seq(items)
    })
}

/// The most digits an integer without an upper bound is written with.
const MAX_DIGITS: u32 = 19;

/// The JSON texts of the integers from `lo` to `hi` (either side open).
fn int_range(lo: Option<i128>, hi: Option<i128>) -> Vec<String> {
    let mut alts = Vec::new();
    if lo.is_none_or(|l| l < 0) {
        // v < 0 is "-" and x = -v, from max(1, -hi) to -lo.
        let xlo = hi.map_or(1, |h| (-h).max(1));
        let xhi = lo.map(|l| -l);
        if xhi.is_none_or(|x| x >= xlo) {
            for s in pos_range(xlo as u128, xhi.map(|x| x as u128)) {
                alts.push(format!("\"-\" {s}"));
            }
        }
    }
    if hi.is_none_or(|h| h >= 0) {
        let a = lo.map_or(0, |l| l.max(0)) as u128;
        alts.extend(pos_range(a, hi.map(|h| h as u128)));
    }
    alts
}

/// The decimal texts of `a..=b` (`b` open: up to [`MAX_DIGITS`] digits).
fn pos_range(a: u128, b: Option<u128>) -> Vec<String> {
    let digits = |n: u128| n.to_string().len() as u32;
    let open = b.is_none();
    let b = b.unwrap_or(10u128.pow(MAX_DIGITS) - 1);
    if a > b {
        return Vec::new();
    }
    let mut alts = Vec::new();
    let mut full: Option<(u32, u32)> = None;
    for len in digits(a)..=digits(b) {
        let floor = if len == 1 { 0 } else { 10u128.pow(len - 1) };
        let ceil = 10u128.pow(len) - 1;
        let (lo, hi) = (a.max(floor), b.min(ceil));
        if lo > hi {
            continue;
        }
        if len > 1 && lo == floor && hi == ceil && open {
            full = Some(full.map_or((len, len), |(f, _)| (f, len)));
            continue;
        }
        alts.extend(same_length(
            lo.to_string().as_bytes(),
            hi.to_string().as_bytes(),
        ));
    }
    if let Some((f, t)) = full {
        alts.push(format!(
            "[1-9] [0-9]{}",
            quantifier(u64::from(f - 1), Some(u64::from(t - 1)))
        ));
    }
    alts
}

fn digit_class(a: u8, b: u8) -> String {
    if a == b {
        format!("\"{}\"", a as char)
    } else {
        format!("[{}-{}]", a as char, b as char)
    }
}

fn any_digits(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => " [0-9]".to_owned(),
        n => format!(" [0-9]{{{n}}}"),
    }
}

/// The texts from `lo` to `hi`, both with the same number of digits.
fn same_length(lo: &[u8], hi: &[u8]) -> Vec<String> {
    if lo.is_empty() {
        return vec![String::new()];
    }
    let rest = lo.len() - 1;
    let (l, h) = (lo[0], hi[0]);
    if lo[1..].iter().all(|&c| c == b'0') && hi[1..].iter().all(|&c| c == b'9') {
        return vec![format!("{}{}", digit_class(l, h), any_digits(rest))];
    }
    let prefixed = |d: u8, tails: Vec<String>| -> Vec<String> {
        tails
            .into_iter()
            .map(|t| {
                let d = d as char;
                // A literal digit run absorbs the next one: "20" [0-9].
                match t.strip_prefix('"') {
                    _ if t.is_empty() => format!("\"{d}\""),
                    Some(rest) => format!("\"{d}{rest}"),
                    None => format!("\"{d}\" {t}"),
                }
            })
            .collect()
    };
    if l == h {
        return prefixed(l, same_length(&lo[1..], &hi[1..]));
    }
    let nines = vec![b'9'; rest];
    let zeros = vec![b'0'; rest];
    let mut out = prefixed(l, same_length(&lo[1..], &nines));
    if h - l > 1 {
        out.push(format!("{}{}", digit_class(l + 1, h - 1), any_digits(rest)));
    }
    out.extend(prefixed(h, same_length(&zeros, &hi[1..])));
    out
}

/// The JSON texts (no exponent) of the numbers between whole bounds
/// `(value, inclusive)`.
fn number_range(lo: Option<(i128, bool)>, hi: Option<(i128, bool)>) -> Vec<String> {
    let mut alts = Vec::new();
    // v >= 0.
    if hi.is_none_or(|(h, incl)| h > 0 || (h == 0 && incl)) {
        let mlo = match lo {
            Some((l, incl)) if l >= 0 => (l as u128, incl),
            _ => (0, true),
        };
        alts.extend(magnitude(mlo, hi.map(|(h, i)| (h as u128, i))));
    }
    // v < 0: "-" and x = -v > 0.
    if lo.is_none_or(|(l, _)| l < 0) {
        let xlo = match hi {
            Some((h, incl)) if h < 0 => ((-h) as u128, incl),
            _ => (0, false),
        };
        for s in magnitude(xlo, lo.map(|(l, i)| ((-l) as u128, i))) {
            alts.push(format!("\"-\" {s}"));
        }
    }
    alts
}

/// The texts of the numbers x >= 0 between `lo` and `hi` (`(value, inclusive)`).
fn magnitude(lo: (u128, bool), hi: Option<(u128, bool)>) -> Vec<String> {
    const FRACTION: &str = "(\".\" [0-9]{1,15})?";
    const NONZERO_FRACTION: &str = "\".\" [0-9]{0,14} [1-9]";
    const ZERO_FRACTION: &str = "(\".\" \"0\"{1,15})?";
    let (l, l_incl) = lo;
    let mut alts = Vec::new();
    // Whole parts k whose every fraction k.f is in range.
    let k_lo = if l_incl { l } else { l + 1 };
    let k_hi = match hi {
        None => None,
        Some((0, _)) => {
            // Only x == 0 can remain.
            if l == 0 && l_incl && hi == Some((0, true)) {
                alts.push(format!("\"0\" {ZERO_FRACTION}"));
            }
            return alts;
        }
        Some((h, _)) => Some(h - 1),
    };
    if k_hi.is_none_or(|h| h >= k_lo) {
        for s in pos_range(k_lo, k_hi) {
            alts.push(format!("{s} {FRACTION}"));
        }
    }
    if !l_incl && hi.is_none_or(|(h, _)| h > l) {
        alts.push(format!("{} {NONZERO_FRACTION}", literal(&l.to_string())));
    }
    if let Some((h, true)) = hi {
        if h > l || (h == l && l_incl) {
            alts.push(format!("{} {ZERO_FRACTION}", literal(&h.to_string())));
        }
    }
    alts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ranges_split_by_digits() {
        assert_eq!(
            int_range(Some(2001), Some(2026)),
            ["\"200\" [1-9]", "\"201\" [0-9]", "\"202\" [0-6]"]
        );
        assert_eq!(
            int_range(Some(1), Some(100)),
            ["[1-9]", "[1-9] [0-9]", "\"100\""]
        );
        assert_eq!(int_range(Some(-5), Some(-2)), ["\"-\" [2-5]"]);
        assert_eq!(int_range(Some(-1), Some(1)), ["\"-\" \"1\"", "[0-1]"]);
        assert_eq!(int_range(Some(0), None), ["[0-9]", "[1-9] [0-9]{1,18}"]);
    }

    #[test]
    fn numbers_between_whole_bounds() {
        let alts = number_range(Some((0, true)), Some((1, true)));
        assert_eq!(
            alts,
            vec!["\"0\" (\".\" [0-9]{1,15})?", "\"1\" (\".\" \"0\"{1,15})?"]
        );
        let alts = number_range(Some((0, false)), None);
        assert!(alts.contains(&"\"0\" \".\" [0-9]{0,14} [1-9]".to_owned()));
    }

    #[test]
    fn pattern_lengths_fold_into_the_repetition() {
        let re = regex::parse("^[^\\x00]*$").unwrap();
        let fitted = fit_lengths(re, 1, None).unwrap();
        assert_eq!(fitted.lengths(), (1, None));
        let re = regex::parse("^a[a-z]*b$").unwrap();
        assert_eq!(fit_lengths(re, 0, Some(5)).unwrap().lengths(), (2, Some(5)));
        let re = regex::parse("^(ab)+$").unwrap();
        assert!(fit_lengths(re, 3, None).is_none());
    }

    #[test]
    fn json_escapes_in_classes() {
        assert_eq!(json_char(&CharSet::one('"' as u32)), "\"\\\\\\\"\"");
        assert_eq!(json_char(&CharSet::range('a' as u32, 'z' as u32)), "[a-z]");
        assert_eq!(json_char(&CharSet::one('\n' as u32)), "\"\\\\n\"");
    }
}
