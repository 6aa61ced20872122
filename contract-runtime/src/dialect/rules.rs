//! The one table of what each dialect does with each schema keyword.
//!
//! Every treatment the exporter applies is looked up here, so the guide's
//! dialect pages can be generated from [`rules`] and never drift from the code.
//! A `keyword` is either a JSON Schema keyword (`minLength`), a keyword with
//! its value (`format: uri`, `minItems: 1`), or a keyword in a situation
//! written in parentheses (`anyOf (root)`). The exporter tries the most
//! specific form first, then the bare keyword, then `*` (any other keyword).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::Dialect;

/// What an export does with one schema keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Treatment {
    /// Copied as is (sub-schemas are exported in turn).
    Keep,
    /// Rewritten into an equivalent form the dialect accepts; no loss.
    Rewrite,
    /// Rewritten into a weaker form the dialect accepts; reported as a
    /// [`LossAction::Rewritten`](super::LossAction::Rewritten) loss.
    Loosen,
    /// Removed from the schema and stated in words in the node's description;
    /// reported as a loss and still enforced at run time.
    MoveToDescription,
    /// Removed; reported as a loss and still enforced at run time.
    Drop,
    /// Removed silently: it carries no constraint (`$schema`, `$comment`).
    Strip,
    /// The dialect cannot carry it: the export fails.
    Forbid,
}

/// How one dialect treats one keyword, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeywordRule {
    /// The keyword, a `keyword: value` pair or a `keyword (situation)`.
    pub keyword: &'static str,
    /// What the export does with it.
    pub treatment: Treatment,
    /// Why, in one line (the source: provider docs, SDK or reported errors).
    pub why: &'static str,
}

/// The rules of one dialect, most specific first; the last is `*`.
pub fn rules(d: Dialect) -> &'static [KeywordRule] {
    match d {
        Dialect::Canonical => CANONICAL,
        Dialect::OpenAiResponses | Dialect::OpenAiChat => OPENAI,
        Dialect::Anthropic => ANTHROPIC,
        Dialect::AnthropicStrict => ANTHROPIC_STRICT,
        Dialect::Gemini => GEMINI,
        Dialect::GeminiJsonSchema => GEMINI_JSON_SCHEMA,
        Dialect::Mcp => MCP,
    }
}

/// The dialect's rules as a Markdown table (`| keyword | treatment | why |`),
/// for the guide's dialect pages.
///
/// ```
/// use contract_runtime::dialect::{rules_markdown, Dialect};
/// let table = rules_markdown(Dialect::OpenAiChat);
/// assert!(table.contains("| `minLength` | moved to description | not accepted in strict mode |"));
/// ```
pub fn rules_markdown(d: Dialect) -> String {
    let mut out = String::from("| keyword | treatment | why |\n|---|---|---|\n");
    for rule in rules(d) {
        let keyword = if rule.keyword == ANY {
            "any other keyword".to_owned()
        } else {
            format!("`{}`", rule.keyword.replace('|', "\\|"))
        };
        out.push_str(&format!(
            "| {keyword} | {} | {} |\n",
            rule.treatment.label(),
            rule.why.replace('|', "\\|")
        ));
    }
    out
}

impl Treatment {
    /// The treatment in words, as the guide shows it.
    pub fn label(self) -> &'static str {
        match self {
            Treatment::Keep => "kept",
            Treatment::Rewrite => "rewritten (same meaning)",
            Treatment::Loosen => "rewritten, weaker (reported)",
            Treatment::MoveToDescription => "moved to description",
            Treatment::Drop => "dropped (reported)",
            Treatment::Strip => "removed (no constraint)",
            Treatment::Forbid => "export fails",
        }
    }
}

/// One dialect's table, indexed: an export looks up several forms of every
/// keyword of every node, and scanning the table for each was a large part
/// of exporting thousands of tools.
struct Index {
    /// The first rule for each keyword, as [`lookup`] finds it.
    first: Table<&'static KeywordRule>,
    /// For each keyword the table names with a value (`format` for `format:
    /// date`), the first rule of each value, in table order: a scalar value
    /// is compared with these as it is, without spelling out `k: v`.
    valued: Table<Vec<(&'static str, &'static KeywordRule)>>,
    /// Keywords the table names at the root (`anyOf` for `anyOf (root)`).
    rooted: Table<()>,
    /// The rule for any other keyword.
    any: &'static KeywordRule,
}

/// A map from the table's fixed keywords. The keys are the table's own, so
/// no input can choose colliding ones: a plain multiplicative hash is safe
/// here, and is several times cheaper than the SipHash a `HashMap` uses by
/// default (hashing was a quarter of an export's instructions).
type Table<V> = HashMap<&'static str, V, BuildHasherDefault<WordHasher>>;

/// FxHash's word-at-a-time mix (as in rustc), over the key's bytes.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn index(d: Dialect) -> &'static Index {
    const N: usize = Dialect::ALL.len();
    static INDEXES: [std::sync::OnceLock<Index>; N] = [const { std::sync::OnceLock::new() }; N];
    let slot = Dialect::ALL.iter().position(|x| *x == d).unwrap_or(0);
    INDEXES[slot].get_or_init(|| {
        let table = rules(d);
        let mut first = Table::default();
        let mut valued: Table<Vec<(&'static str, &'static KeywordRule)>> = Table::default();
        let mut rooted = Table::default();
        for rule in table {
            first.entry(rule.keyword).or_insert(rule);
            if let Some((k, v)) = rule.keyword.split_once(": ") {
                let values = valued.entry(k).or_default();
                if !values.iter().any(|(seen, _)| *seen == v) {
                    values.push((v, rule));
                }
            }
            if let Some(k) = rule.keyword.strip_suffix(" (root)") {
                rooted.insert(k, ());
            }
        }
        Index {
            first,
            valued,
            rooted,
            any: table
                .iter()
                .find(|r| r.keyword == ANY)
                .unwrap_or(&DEFAULT_KEEP),
        }
    })
}

/// The rule the dialect's table names for keyword `k` with the scalar value
/// `v` (`format: date`), if any.
pub(crate) fn valued(d: Dialect, k: &str, v: &serde_json::Value) -> Option<&'static KeywordRule> {
    use serde_json::Value;
    let values = index(d).valued.get(k)?;
    let same = |text: &str| match v {
        Value::String(s) => s == text,
        Value::Bool(b) => text == if *b { "true" } else { "false" },
        Value::Number(n) => n.to_string() == text,
        _ => false,
    };
    values.iter().find(|(text, _)| same(text)).map(|(_, r)| *r)
}

/// Whether the dialect's table names keyword `k` at the root (`anyOf (root)`).
pub(crate) fn names_root_of(d: Dialect, k: &str) -> bool {
    index(d).rooted.contains_key(k)
}

/// The rule for the first of `keys` that the dialect's table names, else `*`.
pub(crate) fn lookup(d: Dialect, keys: &[&str]) -> &'static KeywordRule {
    let index = index(d);
    keys.iter()
        .find_map(|k| index.first.get(k).copied())
        .unwrap_or(index.any)
}

/// The rule the table names for `k` itself, if any (not `*`).
pub(crate) fn named(d: Dialect, k: &str) -> Option<&'static KeywordRule> {
    index(d).first.get(k).copied()
}

/// The rule for `*`, any keyword the table does not name.
pub(crate) fn any(d: Dialect) -> &'static KeywordRule {
    index(d).any
}

static DEFAULT_KEEP: KeywordRule = r(ANY, Treatment::Keep, "no rule");

/// Any keyword the dialect's table does not name.
pub(crate) const ANY: &str = "*";
pub(crate) const ROOT_NOT_OBJECT: &str = "type (root not object)";
pub(crate) const TYPE_MISSING: &str = "type (missing)";
pub(crate) const TYPE_LIST: &str = "type (list)";
pub(crate) const TYPE_WITH_LITERALS: &str = "type (with enum or const)";
pub(crate) const ANY_OF_ROOT: &str = "anyOf (root)";
pub(crate) const ONE_OF_ROOT: &str = "oneOf (root)";
pub(crate) const ALL_OF_ROOT: &str = "allOf (root)";
pub(crate) const ALL_OF_ROOT_RULES: &str = "allOf (root, rules across arguments)";
pub(crate) const ANY_OF_NULL: &str = "anyOf (null branch)";
pub(crate) const ONE_OF_OVERLAPPING: &str = "oneOf (overlapping)";
pub(crate) const ALL_OF_SEVERAL: &str = "allOf (several)";
pub(crate) const ADDITIONAL_MISSING: &str = "additionalProperties (missing)";
pub(crate) const REQUIRED_OPTIONAL: &str = "required (optional property)";
pub(crate) const REQUIRED_NOT_NULLABLE: &str = "required (optional, not nullable)";
pub(crate) const ITEMS_TUPLE: &str = "items (tuple)";
pub(crate) const REF_RECURSIVE: &str = "$ref (recursive)";
pub(crate) const ENUM_NOT_STRINGS: &str = "enum (not strings)";
pub(crate) const ENUM_NULL: &str = "enum (null)";
pub(crate) const CONST_NOT_STRING: &str = "const (not a string)";
pub(crate) const PROPERTIES_EMPTY: &str = "properties (empty)";
pub(crate) const PROPERTY_ORDERING: &str = "propertyOrdering (added)";
pub(crate) const PATTERN_UNSUPPORTED: &str = "pattern (backreference, lookaround, \\b)";
pub(crate) const BOOLEAN_SCHEMA: &str = "true/false (boolean schema)";
pub(crate) const OUTPUT_ENVELOPE: &str = "outputSchema";
pub(crate) const FORMAT_MINIMUM: &str = "formatMinimum";
pub(crate) const FORMAT_MAXIMUM: &str = "formatMaximum";
/// Why every provider dialect moves a date bound into words.
const DATE_BOUND: &str =
    "no provider has a keyword for a date or time bound: stated in words, enforced at run time";

const fn r(keyword: &'static str, treatment: Treatment, why: &'static str) -> KeywordRule {
    KeywordRule {
        keyword,
        treatment,
        why,
    }
}

use Treatment::{Drop, Forbid, Keep, Loosen, MoveToDescription as Move, Rewrite, Strip};

const NO_CONSTRAINT: &str = "carries no constraint";
const ROOT_OBJECT: &str = "the root must be a plain `type: object`";

static CANONICAL: &[KeywordRule] = &[r(ANY, Keep, "the canonical schema is the source")];

static OPENAI: &[KeywordRule] = &[
    r(FORMAT_MINIMUM, Move, DATE_BOUND),
    r(FORMAT_MAXIMUM, Move, DATE_BOUND),
    r(ROOT_NOT_OBJECT, Forbid, ROOT_OBJECT),
    r(ANY_OF_ROOT, Forbid, "strict mode rejects anyOf at the root"),
    r(ONE_OF_ROOT, Forbid, "strict mode rejects oneOf at the root"),
    r(ALL_OF_ROOT_RULES, Move, "presence rules across arguments (`exactly_one_of`, `at_most_one_of`, `requires`) cannot sit at the root: stated in words"),
    r(ALL_OF_ROOT, Forbid, "strict mode rejects allOf at the root"),
    r(
        BOOLEAN_SCHEMA,
        Forbid,
        "strict mode needs an object for every schema",
    ),
    r("$schema", Strip, NO_CONSTRAINT),
    r("$id", Strip, NO_CONSTRAINT),
    r("$comment", Strip, NO_CONSTRAINT),
    r("$anchor", Strip, NO_CONSTRAINT),
    r(
        "x-served",
        Strip,
        "names which bounds limit what the tool serves; the bounds themselves are kept",
    ),
    r("type", Keep, "supported, type lists included"),
    r(
        TYPE_MISSING,
        Forbid,
        "strict mode needs a type (or anyOf, enum, const, $ref) on every node",
    ),
    r("properties", Keep, "supported"),
    r("required", Keep, "supported"),
    r(
        REQUIRED_OPTIONAL,
        Rewrite,
        "strict mode lists every property in required; an optional one is already nullable",
    ),
    r(
        REQUIRED_NOT_NULLABLE,
        Loosen,
        "an optional property that rejects null is made nullable to be listed in required",
    ),
    r(
        "additionalProperties: false",
        Keep,
        "required on every object",
    ),
    r(
        ADDITIONAL_MISSING,
        Rewrite,
        "strict mode needs additionalProperties: false on every object",
    ),
    r(
        "additionalProperties: true",
        Forbid,
        "strict mode rejects open objects",
    ),
    r(
        "additionalProperties",
        Forbid,
        "strict mode rejects maps (additionalProperties with a schema)",
    ),
    r("items", Keep, "supported"),
    r(ITEMS_TUPLE, Forbid, "strict mode has no tuples"),
    r("prefixItems", Forbid, "strict mode has no tuples"),
    r("enum", Keep, "supported"),
    r("const", Keep, "supported"),
    r("anyOf", Keep, "supported below the root"),
    r(
        "oneOf",
        Rewrite,
        "rewritten to anyOf when its branches are disjoint (same meaning)",
    ),
    r(
        ONE_OF_OVERLAPPING,
        Forbid,
        "oneOf is forbidden; anyOf would accept a value that matches several branches",
    ),
    r(
        "allOf",
        Rewrite,
        "a single branch is merged into its node, as the SDK does",
    ),
    r(ALL_OF_SEVERAL, Forbid, "allOf is forbidden in strict mode"),
    r("not", Forbid, "not is forbidden in strict mode"),
    r("if", Forbid, "if/then/else is forbidden in strict mode"),
    r("then", Forbid, "if/then/else is forbidden in strict mode"),
    r("else", Forbid, "if/then/else is forbidden in strict mode"),
    r("discriminator", Drop, "no discriminator keyword; the tag's `const` in each branch still tells the variants apart"),
    r("$defs", Keep, "supported"),
    r("definitions", Keep, "supported"),
    r(
        "$ref",
        Keep,
        "supported, recursion included; a $ref with sibling keywords is inlined, as the SDK does",
    ),
    r("pattern", Keep, "supported"),
    r("format: date-time", Keep, "supported format"),
    r("format: time", Keep, "supported format"),
    r("format: date", Keep, "supported format"),
    r("format: duration", Keep, "supported format"),
    r("format: email", Keep, "supported format"),
    r("format: hostname", Keep, "supported format"),
    r("format: ipv4", Keep, "supported format"),
    r("format: ipv6", Keep, "supported format"),
    r("format: uuid", Keep, "supported format"),
    r(
        "format",
        Move,
        "formats outside the supported list (uri...) are not accepted",
    ),
    r("minimum", Keep, "supported"),
    r("maximum", Keep, "supported"),
    r("exclusiveMinimum", Keep, "supported"),
    r("exclusiveMaximum", Keep, "supported"),
    r("multipleOf", Keep, "supported"),
    r("minItems", Keep, "supported"),
    r("maxItems", Keep, "supported"),
    r("description", Keep, "supported"),
    r("title", Keep, "supported"),
    r("minLength", Move, "not accepted in strict mode"),
    r("maxLength", Move, "not accepted in strict mode"),
    r("uniqueItems: false", Strip, NO_CONSTRAINT),
    r("uniqueItems", Move, "not accepted in strict mode"),
    r("default", Move, "not accepted in strict mode"),
    r("propertyNames", Move, "not accepted in strict mode"),
    r("patternProperties", Move, "not accepted in strict mode"),
    r("minProperties", Move, "not accepted in strict mode"),
    r("maxProperties", Move, "not accepted in strict mode"),
    r("contains", Move, "not accepted in strict mode"),
    r(
        ANY,
        Move,
        "keywords strict mode does not list are stated in words",
    ),
];

static ANTHROPIC: &[KeywordRule] = &[
    r(FORMAT_MINIMUM, Move, DATE_BOUND),
    r(FORMAT_MAXIMUM, Move, DATE_BOUND),
    r(ROOT_NOT_OBJECT, Forbid, ROOT_OBJECT),
    r(
        ANY_OF_ROOT,
        Forbid,
        "no anyOf at the top level of input_schema",
    ),
    r(
        ONE_OF_ROOT,
        Forbid,
        "no oneOf at the top level of input_schema",
    ),
    r(ALL_OF_ROOT_RULES, Move, "presence rules across arguments (`exactly_one_of`, `at_most_one_of`, `requires`) cannot sit at the top level: stated in words"),
    r(
        ALL_OF_ROOT,
        Forbid,
        "no allOf at the top level of input_schema",
    ),
    r("$schema", Strip, NO_CONSTRAINT),
    r(ANY, Keep, "input_schema is plain JSON Schema 2020-12"),
];

static ANTHROPIC_STRICT: &[KeywordRule] = &[
    r(FORMAT_MINIMUM, Move, DATE_BOUND),
    r(FORMAT_MAXIMUM, Move, DATE_BOUND),
    r(ROOT_NOT_OBJECT, Forbid, ROOT_OBJECT),
    r(ANY_OF_ROOT, Forbid, "no anyOf at the top level of input_schema"),
    r(ONE_OF_ROOT, Forbid, "no oneOf at the top level of input_schema"),
    r(ALL_OF_ROOT_RULES, Move, "presence rules across arguments (`exactly_one_of`, `at_most_one_of`, `requires`) cannot sit at the top level: stated in words"),
    r(ALL_OF_ROOT, Forbid, "no allOf at the top level of input_schema"),
    r(BOOLEAN_SCHEMA, Forbid, "strict tool use needs an object for every schema"),
    r("$schema", Strip, NO_CONSTRAINT),
    r("$id", Strip, NO_CONSTRAINT),
    r("$comment", Strip, NO_CONSTRAINT),
    r("$anchor", Strip, NO_CONSTRAINT),
    r(
        "x-served",
        Strip,
        "names which bounds limit what the tool serves; the bounds themselves are kept",
    ),
    r("type", Keep, "supported"),
    r(TYPE_LIST, Rewrite, "a type list becomes anyOf of single types (the SDK's transform cannot read type lists)"),
    r(TYPE_WITH_LITERALS, Rewrite, "dropped next to enum or const, whose values carry the type (as the SDK's transform does)"),
    r(TYPE_MISSING, Forbid, "strict tool use needs a type, anyOf, allOf, enum or const on every node"),
    r("properties", Keep, "supported"),
    r("required", Keep, "supported; need not list every property"),
    r("additionalProperties: false", Keep, "required on every object"),
    r(ADDITIONAL_MISSING, Rewrite, "strict tool use needs additionalProperties: false on every object"),
    r("additionalProperties: true", Forbid, "strict tool use needs additionalProperties: false everywhere"),
    r("additionalProperties", Forbid, "strict tool use needs additionalProperties: false everywhere (no maps)"),
    r("items", Keep, "supported"),
    r(ITEMS_TUPLE, Forbid, "strict tool use has no tuples"),
    r("prefixItems", Forbid, "strict tool use has no tuples"),
    r("enum", Keep, "supported (scalars)"),
    r("const", Keep, "supported"),
    r("anyOf", Keep, "supported below the top level"),
    r("allOf", Keep, "supported below the top level (never meets a $ref: refs are inlined)"),
    r("oneOf", Rewrite, "rewritten to anyOf when its branches are disjoint (same meaning)"),
    r(ONE_OF_OVERLAPPING, Loosen, "rewritten to anyOf, as the SDK does; the runtime still rejects a value matching several branches"),
    r("discriminator", Drop, "no discriminator keyword; the tag's `const` in each branch still tells the variants apart"),
    r("$ref", Rewrite, "inlined, so recursion is caught and allOf never meets a $ref"),
    r(REF_RECURSIVE, Forbid, "strict tool use does not support recursive schemas"),
    r("$defs", Strip, "inlined at each use"),
    r("definitions", Strip, "inlined at each use"),
    r("format: date-time", Keep, "supported format"),
    r("format: time", Keep, "supported format"),
    r("format: date", Keep, "supported format"),
    r("format: duration", Keep, "supported format"),
    r("format: email", Keep, "supported format"),
    r("format: hostname", Keep, "supported format"),
    r("format: uri", Keep, "supported format"),
    r("format: ipv4", Keep, "supported format"),
    r("format: ipv6", Keep, "supported format"),
    r("format: uuid", Keep, "supported format"),
    r("format", Move, "formats outside the supported list are not accepted"),
    r("minItems: 0", Keep, "supported"),
    r("minItems: 1", Keep, "supported"),
    r("minItems", Move, "only minItems 0 or 1 is supported"),
    r("description", Keep, "supported"),
    r("title", Keep, "supported"),
    r(PATTERN_UNSUPPORTED, Forbid, "backreferences, lookaround and \\b are not supported"),
    r("pattern", Move, "the official SDK's transform_schema states patterns in the description"),
    r("default", Move, "the official SDK's transform_schema states defaults in the description"),
    r("minimum", Move, "not supported in strict tool use"),
    r("maximum", Move, "not supported in strict tool use"),
    r("exclusiveMinimum", Move, "not supported in strict tool use"),
    r("exclusiveMaximum", Move, "not supported in strict tool use"),
    r("multipleOf", Move, "not supported in strict tool use"),
    r("minLength", Move, "not supported in strict tool use"),
    r("maxLength", Move, "not supported in strict tool use"),
    r("maxItems", Move, "only minItems 0 or 1 is supported among array bounds"),
    r("uniqueItems: false", Strip, NO_CONSTRAINT),
    r("uniqueItems", Move, "not supported in strict tool use"),
    r(ANY, Move, "keywords strict tool use does not list are stated in words"),
];

static GEMINI: &[KeywordRule] = &[
    r(FORMAT_MINIMUM, Move, DATE_BOUND),
    r(FORMAT_MAXIMUM, Move, DATE_BOUND),
    r(ROOT_NOT_OBJECT, Forbid, ROOT_OBJECT),
    r(ANY_OF_ROOT, Forbid, ROOT_OBJECT),
    r(ONE_OF_ROOT, Forbid, ROOT_OBJECT),
    r(ALL_OF_ROOT_RULES, Move, "presence rules across arguments (`exactly_one_of`, `at_most_one_of`, `requires`) cannot sit at the root: stated in words"),
    r(ALL_OF_ROOT, Forbid, ROOT_OBJECT),
    r(
        BOOLEAN_SCHEMA,
        Forbid,
        "parameters needs an object for every schema",
    ),
    r("$schema", Strip, "not accepted; carries no constraint"),
    r("$id", Strip, NO_CONSTRAINT),
    r("$comment", Strip, NO_CONSTRAINT),
    r("$anchor", Strip, NO_CONSTRAINT),
    r(
        "x-served",
        Strip,
        "names which bounds limit what the tool serves; the bounds themselves are kept",
    ),
    r("type", Keep, "one type per node"),
    r(
        TYPE_LIST,
        Rewrite,
        "no type lists: null becomes nullable: true, several types become anyOf",
    ),
    r(
        TYPE_MISSING,
        Forbid,
        "parameters needs a type (or anyOf) on every node",
    ),
    r("nullable", Keep, "OpenAPI 3.0 nullability"),
    r("properties", Keep, "supported"),
    r(
        PROPERTIES_EMPTY,
        Forbid,
        "an object needs at least one property: a map (any keys, `additionalProperties` a schema) cannot be written in parameters (`gemini-json-schema` can), and a tool without arguments omits parameters",
    ),
    r(
        PROPERTY_ORDERING,
        Rewrite,
        "added in property order, so the model writes fields in declaration order",
    ),
    r("propertyOrdering", Keep, "supported"),
    r("required", Keep, "supported"),
    r(
        "additionalProperties",
        Move,
        "not accepted by the Gemini Developer API",
    ),
    r("items", Keep, "supported"),
    r(ITEMS_TUPLE, Forbid, "parameters has no tuples"),
    r("prefixItems", Forbid, "parameters has no tuples"),
    r("enum", Keep, "supported for strings"),
    r(ENUM_NULL, Rewrite, "a null value becomes nullable: true"),
    r(ENUM_NOT_STRINGS, Forbid, "enum accepts strings only"),
    r("const", Rewrite, "becomes a one-value enum"),
    r(
        CONST_NOT_STRING,
        Forbid,
        "const becomes an enum, which accepts strings only",
    ),
    r("anyOf", Keep, "supported below the root"),
    r(ANY_OF_NULL, Rewrite, "a null branch becomes nullable: true"),
    r(
        "oneOf",
        Rewrite,
        "rewritten to anyOf when its branches are disjoint (same meaning)",
    ),
    r(
        ONE_OF_OVERLAPPING,
        Forbid,
        "oneOf is not accepted; anyOf would accept a value that matches several branches",
    ),
    r("allOf", Rewrite, "a single branch is merged into its node"),
    r(ALL_OF_SEVERAL, Forbid, "allOf is not accepted"),
    r("not", Forbid, "not is not accepted"),
    r("if", Forbid, "if/then/else is not accepted"),
    r("then", Forbid, "if/then/else is not accepted"),
    r("else", Forbid, "if/then/else is not accepted"),
    r("discriminator", Drop, "no discriminator keyword; the tag's `const` in each branch still tells the variants apart"),
    r("$ref", Rewrite, "not accepted: inlined"),
    r(
        REF_RECURSIVE,
        Forbid,
        "a recursive schema cannot be inlined",
    ),
    r("$defs", Strip, "not accepted: inlined at each use"),
    r("definitions", Strip, "not accepted: inlined at each use"),
    r("format: date-time", Keep, "supported string format"),
    r("format: enum", Keep, "supported string format"),
    r("format: float", Keep, "supported number format"),
    r("format: double", Keep, "supported number format"),
    r("format: int32", Keep, "supported integer format"),
    r("format: int64", Keep, "supported integer format"),
    r(
        "format",
        Move,
        "the API rejects formats other than enum and date-time on strings (reported errors)",
    ),
    r("minItems", Keep, "supported"),
    r("maxItems", Keep, "supported"),
    r("minLength", Keep, "supported"),
    r("maxLength", Keep, "supported"),
    r("minProperties", Keep, "supported"),
    r("maxProperties", Keep, "supported"),
    r("pattern", Keep, "supported"),
    r("minimum", Keep, "supported"),
    r("maximum", Keep, "supported"),
    r("description", Keep, "supported"),
    r("title", Keep, "supported"),
    r("default", Keep, "supported"),
    r("example", Keep, "supported"),
    r("examples", Rewrite, "the first example becomes example"),
    r("exclusiveMinimum", Move, "not accepted"),
    r("exclusiveMaximum", Move, "not accepted"),
    r("multipleOf", Move, "not accepted"),
    r("uniqueItems: false", Strip, NO_CONSTRAINT),
    r("uniqueItems", Move, "not accepted"),
    r("propertyNames", Move, "not accepted"),
    r(
        ANY,
        Move,
        "keywords google-genai's types.Schema does not know are stated in words",
    ),
];

static GEMINI_JSON_SCHEMA: &[KeywordRule] = &[
    r(FORMAT_MINIMUM, Move, DATE_BOUND),
    r(FORMAT_MAXIMUM, Move, DATE_BOUND),
    r(ROOT_NOT_OBJECT, Forbid, ROOT_OBJECT),
    r("$schema", Strip, NO_CONSTRAINT),
    r(ANY, Keep, "parametersJsonSchema takes plain JSON Schema"),
];

static MCP: &[KeywordRule] = &[
    r(FORMAT_MINIMUM, Move, DATE_BOUND),
    r(FORMAT_MAXIMUM, Move, DATE_BOUND),
    r(
        ROOT_NOT_OBJECT,
        Forbid,
        "inputSchema must have type: object at its root",
    ),
    r(
        OUTPUT_ENVELOPE,
        Rewrite,
        "structuredContent carries the envelope, so outputSchema is the envelope's schema with the tool's output as `result`",
    ),
    r(
        ANY,
        Keep,
        "inputSchema and outputSchema are JSON Schema 2020-12",
    ),
];
