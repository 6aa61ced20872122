//! The schema walker shared by the strict dialects (OpenAI, Anthropic strict,
//! Gemini): every keyword of every node is looked up in the rules table and
//! kept, rewritten, moved into the description, dropped or refused.
//!
//! What differs per dialect beyond the table (reshaping a node before its
//! keywords are looked up, finishing an object) is a [`Hooks`] value that
//! each dialect's module implements and hands to [`Walker::new`]; the walker
//! itself knows no dialect module, so the dialects depend on it and never
//! the reverse.

use serde_json::{json, Map, Value};

use super::rules::{self, KeywordRule, Treatment};
use super::{Dialect, ExportError, Loss, LossAction, ToolDef};

pub(crate) type Res<T> = Result<T, ExportError>;

/// An exported node and the description notes not yet appended to it.
pub(crate) type Done = (Map<String, Value>, Vec<String>);

/// What one dialect adds to the shared walk. Both steps default to doing
/// nothing.
pub(crate) trait Hooks {
    /// Reshapes a node before the keyword pass (type lists, literals,
    /// nullability). Returns the finished node when the hook rebuilt it whole.
    fn before_keywords(&self, _w: &mut Walker<'_>, _n: &mut Node<'_>) -> Res<Option<Done>> {
        Ok(None)
    }

    /// Finishes a node that is an object, after its keywords were exported.
    fn finish_object(&self, _w: &mut Walker<'_>, _n: &mut Node<'_>) -> Res<()> {
        Ok(())
    }
}

/// One schema node while it is being exported.
pub(crate) struct Node<'p> {
    /// JSON pointer to the node in the canonical input schema.
    pub(crate) ptr: &'p str,
    /// Object nesting depth (the root object is 1).
    pub(crate) depth: usize,
    /// Whether this is the input schema's root.
    pub(crate) root: bool,
    /// The node's keywords that still go through the keyword pass.
    pub(crate) rest: Map<String, Value>,
    /// The keywords exported so far.
    pub(crate) out: Map<String, Value>,
    /// Phrases for the node's description, not yet appended.
    pub(crate) notes: Vec<String>,
}

/// One walk over one tool's input schema.
pub(crate) struct Walker<'a> {
    pub(crate) tool: &'a ToolDef<'a>,
    pub(crate) d: Dialect,
    hooks: &'a dyn Hooks,
    /// The exported root, for a `$ref` outside `$defs`/`definitions` (which
    /// resolve in the tool's input schema itself, unchanged by the root
    /// checks): copied only when the schema has such a reference.
    root: Option<Value>,
    pub(crate) losses: Vec<Loss>,
    /// The `$ref`s being inlined, outermost first (recursion check).
    refs: Vec<String>,
}

/// Keywords whose value is one sub-schema.
const SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
];
/// Keywords whose value is a list of sub-schemas.
const LIST_KEYWORDS: &[&str] = &["anyOf", "allOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to sub-schemas.
const MAP_KEYWORDS: &[&str] = &[
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

/// Keywords that apply to one instance type only, for splitting type lists.
fn keyword_type(k: &str) -> Option<&'static str> {
    Some(match k {
        "minLength" | "maxLength" | "pattern" | "format" | "contentEncoding"
        | "contentMediaType" => "string",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" | "contains"
        | "minContains" | "maxContains" | "unevaluatedItems" => "array",
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "propertyNames"
        | "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "unevaluatedProperties" => "object",
        _ => return None,
    })
}

/// Where a node is: its JSON pointer, spelled out only when it is needed
/// (a node with a bound to move, a keyword to refuse). Spelling it for
/// every node was most of the date-bounds pass.
#[derive(Clone, Copy)]
pub(crate) enum At<'a> {
    Root(&'a str),
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    pub(crate) fn pointer(&self) -> String {
        match self {
            At::Root(p) => (*p).to_owned(),
            At::Key(parent, k) => join(&parent.pointer(), k),
            At::Index(parent, i) => join(&parent.pointer(), &i.to_string()),
        }
    }
}

/// Appends one JSON-pointer token, escaped.
pub(crate) fn join(ptr: &str, token: &str) -> String {
    let mut out = String::with_capacity(ptr.len() + 1 + token.len());
    out.push_str(ptr);
    out.push('/');
    if token.contains(['~', '/']) {
        out.push_str(&token.replace('~', "~0").replace('/', "~1"));
    } else {
        out.push_str(token);
    }
    out
}

/// `m.get(k)`, found by comparing keys when the map is small. A schema node
/// has a handful of keywords, and comparing them costs a fraction of hashing
/// `k` with the map's SipHash, which was most of an export's lookups.
pub(crate) fn get<'m>(m: &'m Map<String, Value>, k: &str) -> Option<&'m Value> {
    if m.len() <= 8 {
        m.iter().find(|(key, _)| *key == k).map(|(_, v)| v)
    } else {
        m.get(k)
    }
}

/// `m.contains_key(k)`, as [`get`] finds keys.
pub(crate) fn has(m: &Map<String, Value>, k: &str) -> bool {
    get(m, k).is_some()
}

/// The `type` keyword as a list of type names.
pub(crate) fn types_of(m: &Map<String, Value>) -> Option<Vec<&str>> {
    match get(m, "type")? {
        Value::String(s) => Some(vec![s.as_str()]),
        Value::Array(a) => Some(a.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Whether the node's `type` names `t`.
pub(crate) fn has_type(m: &Map<String, Value>, t: &str) -> bool {
    match get(m, "type") {
        Some(Value::String(s)) => s == t,
        Some(Value::Array(a)) => a.iter().any(|x| x.as_str() == Some(t)),
        _ => false,
    }
}

/// What the keyword pass does with one keyword.
enum Pass {
    /// Kept, with its value exported.
    Keep(Value),
    /// Kept under another name (`examples` becomes `example`).
    Rename(&'static str, Value),
    /// Moved into the description.
    Move(Value),
    /// Removed (dropped with a loss, or stripped).
    Gone,
}

impl<'a> Walker<'a> {
    pub(crate) fn new(
        tool: &'a ToolDef<'a>,
        root: &Map<String, Value>,
        hooks: &'a dyn Hooks,
    ) -> Self {
        Walker {
            tool,
            d: tool.dialect,
            hooks,
            root: has_other_ref(root).then(|| Value::Object(root.clone())),
            losses: Vec::new(),
            refs: Vec::new(),
        }
    }

    pub(crate) fn rule(&self, keys: &[&str]) -> &'static KeywordRule {
        rules::lookup(self.d, keys)
    }

    pub(crate) fn treat(&self, keys: &[&str]) -> Treatment {
        self.rule(keys).treatment
    }

    /// Fails unless the table lets this dialect rewrite `key`.
    pub(crate) fn rewrite(&self, ptr: &str, key: &str) -> Res<()> {
        match self.treat(&[key]) {
            Treatment::Rewrite => Ok(()),
            _ => Err(self.forbid(ptr, key)),
        }
    }

    /// An error naming the rule that forbids `key`.
    pub(crate) fn forbid(&self, ptr: &str, key: &str) -> ExportError {
        self.tool.forbid(ptr, key)
    }

    pub(crate) fn error(&self, ptr: &str, reason: String) -> ExportError {
        self.tool.error(ptr, reason)
    }

    pub(crate) fn loss(&mut self, ptr: &str, keyword: &str, action: LossAction, note: String) {
        self.losses.push(Loss {
            tool: self.tool.name.to_owned(),
            pointer: ptr.to_owned(),
            keyword: keyword.to_owned(),
            action,
            note,
        });
    }

    /// Resolves a local `$ref` (`#`, `#/$defs/X`) in the input schema.
    pub(crate) fn resolve(&self, r: &str) -> Option<&Value> {
        let pointer = r.strip_prefix('#')?;
        for defs in ["$defs", "definitions"] {
            if let Some(rest) = pointer.strip_prefix('/').and_then(|p| p.strip_prefix(defs)) {
                if rest.starts_with('/') {
                    return self.tool.input.get(defs)?.pointer(rest);
                }
            }
        }
        self.root.as_ref()?.pointer(pointer)
    }

    /// Exports one schema node, its description notes appended.
    pub(crate) fn schema(
        &mut self,
        node: Value,
        ptr: &str,
        depth: usize,
        root: bool,
    ) -> Res<Value> {
        let (mut map, notes) = self.node(node, ptr, depth, root)?;
        append_notes(&mut map, &notes);
        Ok(Value::Object(map))
    }

    /// Exports one schema node; its description notes are returned, not yet
    /// appended, so that a caller that built the node can hoist them.
    ///
    /// The node is taken by value and its keywords moved into the export:
    /// copying each node before walking it copied every subtree once per
    /// level above it, which was most of an export's time.
    pub(crate) fn node(&mut self, node: Value, ptr: &str, depth: usize, root: bool) -> Res<Done> {
        let Value::Object(mut m) = node else {
            return Err(self.forbid(ptr, rules::BOOLEAN_SCHEMA));
        };

        // $ref: kept bare where the dialect keeps it, else inlined with the
        // node's own keywords winning (as the OpenAI SDK does).
        if let Some(r) = get(&m, "$ref").and_then(Value::as_str).map(str::to_owned) {
            let inline = match self.treat(&["$ref"]) {
                Treatment::Keep => m.len() > 1,
                _ => true,
            };
            let Some(target) = self.resolve(&r).cloned() else {
                return Err(self.error(ptr, format!("$ref `{r}` does not resolve in this schema")));
            };
            if !inline {
                return Ok((m, Vec::new()));
            }
            if self.refs.contains(&r) {
                return Err(self.forbid(ptr, rules::REF_RECURSIVE));
            }
            let Value::Object(mut merged) = target else {
                return Err(self.error(ptr, format!("$ref `{r}` does not name a schema object")));
            };
            m.remove("$ref");
            merged.extend(m);
            self.refs.push(r);
            let out = self.node(Value::Object(merged), ptr, depth, root);
            self.refs.pop();
            return out;
        }

        // allOf with one branch: merged into the node, as the OpenAI SDK does.
        if let Some(all) = get(&m, "allOf") {
            let single = all
                .as_array()
                .filter(|a| a.len() == 1)
                .and_then(|a| a[0].as_object());
            let keys: &[&str] = if single.is_some() {
                &["allOf"]
            } else {
                &[rules::ALL_OF_SEVERAL, "allOf"]
            };
            match (self.treat(keys), single.is_some()) {
                (Treatment::Rewrite, true) => {
                    let Some(Value::Array(mut all)) = m.remove("allOf") else {
                        unreachable!("allOf was checked to be a list of one object")
                    };
                    let Some(Value::Object(branch)) = all.pop() else {
                        unreachable!("allOf was checked to be a list of one object")
                    };
                    for (k, v) in branch {
                        if m.get(&k).is_some_and(|old| *old != v) {
                            return Err(self.error(
                                ptr,
                                format!(
                                    "allOf repeats the keyword {k} of its node: merge them by hand"
                                ),
                            ));
                        }
                        m.insert(k, v);
                    }
                    return self.node(Value::Object(m), ptr, depth, root);
                }
                (Treatment::Keep, _) => {}
                _ => return Err(self.forbid(ptr, keys[0])),
            }
        }

        // oneOf: anyOf when the branches are disjoint (same meaning). Losses
        // below it still point at `oneOf`, as the canonical schema has it.
        let one_of = has(&m, "oneOf");
        if let Some(one) = one_of.then(|| m.remove("oneOf")).flatten() {
            let Some(branches) = one.as_array() else {
                return Err(self.error(ptr, "oneOf must be a list of schemas".to_owned()));
            };
            let disjoint = self.disjoint(branches);
            let key = if disjoint {
                "oneOf"
            } else {
                rules::ONE_OF_OVERLAPPING
            };
            match self.treat(&[key, "oneOf"]) {
                Treatment::Keep => {
                    m.insert("oneOf".to_owned(), one);
                }
                t @ (Treatment::Rewrite | Treatment::Loosen) => {
                    if has(&m, "anyOf") {
                        return Err(self.error(
                            ptr,
                            "oneOf next to anyOf cannot be rewritten: use one of them".to_owned(),
                        ));
                    }
                    if t == Treatment::Loosen {
                        let why = self.rule(&[key]).why;
                        self.loss(
                            &join(ptr, "oneOf"),
                            "oneOf",
                            LossAction::Rewritten,
                            format!("rewritten to anyOf: {why}"),
                        );
                    }
                    m.insert("anyOf".to_owned(), one);
                }
                _ => return Err(self.forbid(ptr, key)),
            }
        }

        let mut n = Node {
            ptr,
            depth,
            root,
            // Empty until a hook or a renamed keyword needs it: the keyword
            // pass rewrites `rest` in place and that becomes the export.
            out: Map::new(),
            rest: m,
            notes: Vec::new(),
        };
        let hooks = self.hooks;
        if let Some(done) = hooks.before_keywords(self, &mut n)? {
            return Ok(done);
        }
        if !["type", "anyOf", "allOf", "enum", "const", "$ref"]
            .iter()
            .any(|k| has(&n.rest, k) || has(&n.out, k))
        {
            return Err(self.forbid(ptr, rules::TYPE_MISSING));
        }

        // The keyword pass. The node's map is rewritten where it stands (its
        // keys keep their order and their hashes: building a new map re-hashed
        // every key); only a renamed keyword needs a new map, to keep its place.
        let mut moved: Vec<(String, Value)> = Vec::new();
        // Which bounds are of service: a moved one is said as such, since the
        // `x-served` mark itself does not survive into a strict dialect.
        let served: Vec<String> = get(&n.rest, crate::schema::SERVED)
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if has(&n.rest, "examples") {
            for (k, v) in std::mem::take(&mut n.rest) {
                match self.keyword(&k, v, ptr, depth, root, one_of)? {
                    Pass::Keep(v) => {
                        n.out.insert(k, v);
                    }
                    Pass::Rename(name, v) => {
                        n.out.insert(name.to_owned(), v);
                    }
                    Pass::Move(v) => moved.push((k, v)),
                    Pass::Gone => {}
                }
            }
        } else {
            let mut map = std::mem::take(&mut n.rest);
            let mut failed = None;
            map.retain(|k, v| {
                if failed.is_some() {
                    return true;
                }
                match self.keyword(k, std::mem::take(v), ptr, depth, root, one_of) {
                    Ok(Pass::Keep(done)) => {
                        *v = done;
                        true
                    }
                    Ok(Pass::Move(value)) => {
                        moved.push((k.clone(), value));
                        false
                    }
                    Ok(Pass::Gone | Pass::Rename(..)) => false,
                    Err(e) => {
                        failed = Some(e);
                        true
                    }
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            // What a hook exported before the pass comes first, as when the
            // pass appended to it; a keyword the pass kept under the same
            // name keeps the hook's place and the pass's value.
            for (i, (k, v)) in std::mem::take(&mut n.out).into_iter().enumerate() {
                let v = map.shift_remove(&k).unwrap_or(v);
                map.shift_insert(i, k, v);
            }
            n.out = map;
        }

        // Objects.
        let is_object = has_type(&n.out, "object") || has(&n.out, "properties");
        if is_object {
            if !has(&n.out, "additionalProperties")
                && self.treat(&[rules::ADDITIONAL_MISSING]) == Treatment::Rewrite
            {
                n.out
                    .insert("additionalProperties".to_owned(), Value::Bool(false));
            }
            hooks.finish_object(self, &mut n)?;
        }

        let (of_service, of_form): (Vec<_>, Vec<_>) =
            moved.into_iter().partition(|(k, _)| served.contains(k));
        let said = phrases(&of_form).into_iter().chain(
            phrases(&of_service)
                .into_iter()
                .map(|(keys, phrase)| (keys, format!("the tool serves {phrase}"))),
        );
        for (keys, phrase) in said {
            for k in keys {
                self.loss(
                    &join(ptr, &k),
                    &k,
                    LossAction::MovedToDescription,
                    format!("moved to description: {phrase}"),
                );
            }
            n.notes.push(phrase);
        }
        Ok((n.out, n.notes))
    }

    /// What the keyword pass does with keyword `k` of the node at `ptr`.
    fn keyword(
        &mut self,
        k: &str,
        v: Value,
        ptr: &str,
        depth: usize,
        root: bool,
        one_of: bool,
    ) -> Res<Pass> {
        let rule = self.keyword_rule(k, &v, root);
        Ok(match rule.treatment {
            Treatment::Keep | Treatment::Rewrite | Treatment::Loosen => {
                if k == "examples" && rule.treatment == Treatment::Rewrite {
                    return Ok(match v {
                        Value::Array(mut all) if !all.is_empty() => {
                            Pass::Rename("example", all.swap_remove(0))
                        }
                        _ => Pass::Gone,
                    });
                }
                let at = if one_of && k == "anyOf" { "oneOf" } else { k };
                Pass::Keep(self.child(k, at, v, ptr, depth)?)
            }
            Treatment::MoveToDescription => {
                // Neither states a constraint: nothing to say.
                let says_nothing = match k {
                    "uniqueItems" => v == Value::Bool(false),
                    "additionalProperties" => v == Value::Bool(true),
                    _ => false,
                };
                if says_nothing {
                    return Ok(Pass::Gone);
                }
                Pass::Move(v)
            }
            Treatment::Drop => {
                let note = format!("dropped: {}; still enforced at run time", rule.why);
                self.loss(&join(ptr, k), k, LossAction::Dropped, note);
                Pass::Gone
            }
            Treatment::Strip => Pass::Gone,
            Treatment::Forbid => {
                let shown = if rule.keyword == rules::ANY {
                    k
                } else {
                    rule.keyword
                };
                return Err(self.error(ptr, format!("{shown} is forbidden: {}", rule.why)));
            }
        })
    }

    /// The rule for keyword `k` with value `v`: the first the dialect's
    /// table names of `k (root)` (at the root), the special cases of `items`
    /// and `pattern`, `k: v` (a scalar value), and `k`.
    fn keyword_rule(&self, k: &str, v: &Value, root: bool) -> &'static KeywordRule {
        let d = self.d;
        if root && rules::names_root_of(d, k) {
            if let Some(rule) = rules::named(d, &format!("{k} (root)")) {
                return rule;
            }
        }
        let special = if k == "items" && v.is_array() {
            Some(rules::ITEMS_TUPLE)
        } else if k == "pattern" && v.as_str().is_some_and(pattern_unsupported) {
            Some(rules::PATTERN_UNSUPPORTED)
        } else {
            None
        };
        if let Some(rule) = special.and_then(|s| rules::named(d, s)) {
            return rule;
        }
        rules::valued(d, k, v)
            .or_else(|| rules::named(d, k))
            .unwrap_or_else(|| rules::any(d))
    }

    /// Exports the value of keyword `k`, walking it when it holds sub-schemas.
    /// `at` is the keyword as the canonical schema names it (for pointers).
    fn child(&mut self, k: &str, at: &str, v: Value, ptr: &str, depth: usize) -> Res<Value> {
        if SCHEMA_KEYWORDS.contains(&k) && v.is_object() {
            return self.schema(v, &join(ptr, at), depth, false);
        }
        let v = match v {
            Value::Array(list) if LIST_KEYWORDS.contains(&k) || k == "items" => {
                let here = join(ptr, at);
                let mut done = Vec::with_capacity(list.len());
                for (i, s) in list.into_iter().enumerate() {
                    done.push(self.schema(s, &join(&here, &i.to_string()), depth, false)?);
                }
                return Ok(Value::Array(done));
            }
            v => v,
        };
        match v {
            Value::Object(mut map) if MAP_KEYWORDS.contains(&k) => {
                let here = join(ptr, at);
                let inner = if k == "properties" { depth + 1 } else { depth };
                // Each sub-schema is replaced where it stands: the names keep
                // their order and the map its hashes.
                for (name, s) in map.iter_mut() {
                    *s = self.schema(std::mem::take(s), &join(&here, name), inner, false)?;
                }
                Ok(Value::Object(map))
            }
            v => Ok(v),
        }
    }

    /// Splits a node whose `type` lists several non-null types into `anyOf`
    /// branches, each with the keywords of its type; the shared keywords stay
    /// in the node's `rest`. The branches become the node's `anyOf` and their
    /// description notes are hoisted into the node's.
    pub(crate) fn split_types(&mut self, n: &mut Node<'_>, types: &[String]) -> Res<()> {
        if n.rest.contains_key("anyOf") {
            return Err(self.error(
                n.ptr,
                "a type list next to anyOf cannot be rewritten: use anyOf alone".to_owned(),
            ));
        }
        n.rest.remove("type");
        let mut branches = Vec::new();
        for t in types {
            let mut b = Map::new();
            b.insert("type".to_owned(), Value::String(t.clone()));
            for (k, v) in n.rest.iter() {
                let applies = match keyword_type(k) {
                    Some("number") => t == "number" || t == "integer",
                    Some(kt) => kt == t,
                    None => false,
                };
                if applies {
                    b.insert(k.clone(), v.clone());
                }
            }
            // The marks of service of the keywords the branch took go with
            // them, so that a moved bound is said as one there too.
            let served: Vec<Value> = get(&n.rest, crate::schema::SERVED)
                .and_then(Value::as_array)
                .map(|l| {
                    l.iter()
                        .filter(|k| k.as_str().is_some_and(|k| b.contains_key(k)))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            if !served.is_empty() {
                b.insert(crate::schema::SERVED.to_owned(), Value::Array(served));
            }
            let (b, notes) = self.node(Value::Object(b), n.ptr, n.depth, false)?;
            branches.push(Value::Object(b));
            n.notes.extend(notes);
        }
        n.rest.retain(|k, _| keyword_type(k).is_none());
        n.out.insert("anyOf".to_owned(), Value::Array(branches));
        Ok(())
    }

    /// Whether no value can match two of `branches` (so oneOf = anyOf).
    fn disjoint(&self, branches: &[Value]) -> bool {
        let resolved: Vec<Option<&Map<String, Value>>> = branches
            .iter()
            .map(|b| {
                let b = b.as_object()?;
                match b.get("$ref").and_then(Value::as_str) {
                    Some(r) => self.resolve(r)?.as_object(),
                    None => Some(b),
                }
            })
            .collect();
        for (i, a) in resolved.iter().enumerate() {
            for b in &resolved[i + 1..] {
                match (a, b) {
                    (Some(a), Some(b)) if pair_disjoint(a, b) => {}
                    _ => return false,
                }
            }
        }
        true
    }
}

/// The literal values a node allows, when it lists them.
fn literals(m: &Map<String, Value>) -> Option<Vec<&Value>> {
    if let Some(c) = m.get("const") {
        return Some(vec![c]);
    }
    m.get("enum")?.as_array().map(|a| a.iter().collect())
}

fn pair_disjoint(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    // Different instance types (integer is a number).
    if let (Some(ta), Some(tb)) = (types_of(a), types_of(b)) {
        let widen = |t: &str| if t == "integer" { "number" } else { t }.to_owned();
        let ta: Vec<String> = ta.into_iter().map(widen).collect();
        if !ta.is_empty() && !tb.is_empty() && !tb.into_iter().map(widen).any(|t| ta.contains(&t)) {
            return true;
        }
    }
    // Different literal values.
    if let (Some(la), Some(lb)) = (literals(a), literals(b)) {
        if !la.iter().any(|v| lb.contains(v)) {
            return true;
        }
    }
    // A required tag property with different literal values.
    let (Some(pa), Some(pb)) = (
        a.get("properties").and_then(Value::as_object),
        b.get("properties").and_then(Value::as_object),
    ) else {
        return false;
    };
    let required = |m: &Map<String, Value>, p: &str| {
        m.get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(p)))
    };
    pa.iter().any(|(p, sa)| {
        let (Some(sa), Some(sb)) = (sa.as_object(), pb.get(p).and_then(Value::as_object)) else {
            return false;
        };
        match (literals(sa), literals(sb)) {
            (Some(la), Some(lb)) => {
                required(a, p) && required(b, p) && !la.iter().any(|v| lb.contains(v))
            }
            _ => false,
        }
    })
}

/// Whether a pattern uses a backreference, lookaround or a word boundary.
pub(crate) fn pattern_unsupported(p: &str) -> bool {
    let chars: Vec<char> = p.chars().collect();
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                let next = chars.get(i + 1).copied().unwrap_or(' ');
                if !in_class
                    && (next.is_ascii_digit() && next != '0' || matches!(next, 'k' | 'b' | 'B'))
                {
                    return true;
                }
                i += 1;
            }
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => {
                let rest: String = chars[i + 2..].iter().take(2).collect();
                if rest.starts_with('=') || rest.starts_with('!') || rest == "<=" || rest == "<!" {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Appends `(note; note)` to the node's description, creating it if missing.
pub(crate) fn append_notes(m: &mut Map<String, Value>, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    // Written into the description's own string, grown once: `format!`
    // grew a new string step by step, and the map was searched twice.
    let extra = notes.iter().map(|n| n.len() + 2).sum::<usize>() + 1;
    let push = |text: &mut String| {
        text.reserve_exact(extra);
        text.push('(');
        for (i, note) in notes.iter().enumerate() {
            if i > 0 {
                text.push_str("; ");
            }
            text.push_str(note);
        }
        text.push(')');
    };
    if let Some(Value::String(d)) = m.get_mut("description") {
        if !d.is_empty() {
            d.push(' ');
        }
        push(d);
        return;
    }
    let mut text = String::new();
    push(&mut text);
    m.insert("description".to_owned(), Value::String(text));
}

/// Keyword pairs stated together in words.
const PAIRS: &[(&str, &str)] = &[
    ("minLength", "maxLength"),
    ("minimum", "maximum"),
    ("exclusiveMinimum", "exclusiveMaximum"),
    ("minItems", "maxItems"),
    ("minProperties", "maxProperties"),
    ("minContains", "maxContains"),
];

/// The moved keywords in words, each phrase with the keywords it states, in
/// the order the keywords came.
pub(crate) fn phrases(moved: &[(String, Value)]) -> Vec<(Vec<String>, String)> {
    let get = |k: &str| moved.iter().find(|(m, _)| m == k).map(|(_, v)| v);
    let mut done: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for (k, v) in moved {
        if done.contains(&k.as_str()) {
            continue;
        }
        if let Some(&(lo, hi)) = PAIRS.iter().find(|(lo, hi)| k == lo || k == hi) {
            done.extend([lo, hi]);
            let (min, max) = (get(lo), get(hi));
            let keys: Vec<String> = [(lo, min), (hi, max)]
                .iter()
                .filter(|(_, v)| v.is_some())
                .map(|(k, _)| (*k).to_owned())
                .collect();
            out.push((keys, range_phrase(lo, min, max)));
            continue;
        }
        done.push(k);
        let text = match k.as_str() {
            "multipleOf" => format!("a multiple of {}", Shown(v)),
            "uniqueItems" => "items must be unique".to_owned(),
            "additionalProperties" if *v == Value::Bool(false) => "no other properties".to_owned(),
            "additionalProperties" => format!("other properties must match {v}"),
            "format" | "pattern" => format!(
                "{k}: {}",
                v.as_str().map_or_else(|| v.to_string(), str::to_owned)
            ),
            "default" => format!("default: {}", Shown(v)),
            "propertyNames" => format!("property names: {v}"),
            "patternProperties" => format!("properties matching a pattern: {v}"),
            "contains" => format!("must contain an item matching {v}"),
            _ => format!("{k}: {v}"),
        };
        out.push((vec![k.clone()], text));
    }
    out
}

fn range_phrase(lo: &str, min: Option<&Value>, max: Option<&Value>) -> String {
    let (min, max) = (min.map(Shown), max.map(Shown));
    let unit = match lo {
        "minLength" => Some(("character", "characters")),
        "minItems" => Some(("item", "items")),
        "minProperties" => Some(("property", "properties")),
        "minContains" => Some(("matching item", "matching items")),
        _ => None,
    };
    let with_unit = |n: Shown<'_>| match unit {
        Some((one, many)) => format!("{n} {}", if n.0.as_u64() == Some(1) { one } else { many }),
        None => n.to_string(),
    };
    if lo == "exclusiveMinimum" {
        return match (min, max) {
            (Some(a), Some(b)) => format!("greater than {a} and less than {b}"),
            (Some(a), None) => format!("greater than {a}"),
            (None, Some(b)) => format!("less than {b}"),
            (None, None) => String::new(),
        };
    }
    match (min, max) {
        (Some(a), Some(b)) if a.0 == b.0 => format!("exactly {}", with_unit(a)),
        (Some(a), Some(b)) => match unit {
            Some((_, many)) => format!("{a} to {b} {many}"),
            None => format!("from {a} to {b}"),
        },
        (Some(a), None) => format!("at least {}", with_unit(a)),
        (None, Some(b)) => format!("at most {}", with_unit(b)),
        (None, None) => String::new(),
    }
}

/// A bound as the words show it. A number is written as `Number` writes
/// it, which is what `Value`'s `Display` writes too, without running the
/// serializer that `Display` goes through.
#[derive(Clone, Copy)]
struct Shown<'a>(&'a Value);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Value::Number(n) => n.fmt(f),
            v => v.fmt(f),
        }
    }
}

/// `{"type":"null"}`-like branches (a null type and nothing else but notes).
pub(crate) fn is_null_branch(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.get("type") == Some(&json!("null"))
            && m.keys()
                .all(|k| matches!(k.as_str(), "type" | "description" | "title"))
    })
}

/// Whether a `$ref` in `m` points anywhere but into `$defs` or `definitions`.
fn has_other_ref(m: &Map<String, Value>) -> bool {
    fn within(v: &Value) -> bool {
        match v {
            Value::Object(m) => has_other_ref(m),
            Value::Array(a) => a.iter().any(within),
            _ => false,
        }
    }
    m.iter().any(|(k, v)| {
        if k == "$ref" {
            !v.as_str()
                .is_some_and(|r| r.starts_with("#/$defs/") || r.starts_with("#/definitions/"))
        } else {
            within(v)
        }
    })
}
