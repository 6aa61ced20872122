//! The first thing an export does with a definition's schemas: check that
//! each keyword it reads has the kind of value JSON Schema 2020-12 gives it
//! (`type` a type name or a list of them, `required` a list of names,
//! `properties` a map of schemas, a bound a number, a `$ref` into the
//! schema one that resolves there). A saved canonical array can hold anything;
//! without this check, `"type": 5` or `"properties": [1, 2]` passed through
//! the exporters, which read only the values they expect, and the result
//! was an export every provider's SDK refuses, or a tool whose arguments
//! silently disappeared. A definition the registry builds always passes.
//!
//! A pointer is spelled out only for the keyword refused ([`At`]): a walk
//! that spelled one per keyword allocated for every keyword of every
//! export.
//!
//! Only the shape of values is checked, as the 2020-12 meta-schema checks
//! it, not what a dialect can carry (the rules table decides that) and not
//! whether a `pattern` compiles (ECMA-262 patterns are not this crate's
//! regular expressions, and each provider reads them in its own engine).

use serde_json::{Map, Value};

use super::walk::At;

/// Where a malformed keyword is (a JSON pointer into the schema) and why.
pub(crate) type Malformed = (String, String);

/// The type names of JSON Schema.
const TYPES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Schemas nest at most this deep; past it the schema is refused rather
/// than walked (a definition built in process has no parser's bound).
const MAX_DEPTH: usize = 256;

/// Checks `schema` (an input or output schema, its own root).
pub(crate) fn check(schema: &Value) -> Result<(), Malformed> {
    Check { root: schema }.node(schema, At::Root(""), 0)
}

struct Check<'a> {
    root: &'a Value,
}

impl Check<'_> {
    fn node(&self, node: &Value, at: At<'_>, depth: usize) -> Result<(), Malformed> {
        let m = match node {
            Value::Object(m) => m,
            Value::Bool(_) => return Ok(()),
            other => {
                return Err((
                    at.pointer(),
                    format!(
                        "a schema is an object (or true or false), not {}",
                        shown(other)
                    ),
                ))
            }
        };
        if depth > MAX_DEPTH {
            return Err((
                at.pointer(),
                format!("schemas nest more than {MAX_DEPTH} levels deep"),
            ));
        }
        for (k, v) in m {
            self.keyword(k, v, At::Key(&at, k), depth)?;
        }
        Ok(())
    }

    fn keyword(&self, k: &str, v: &Value, at: At<'_>, depth: usize) -> Result<(), Malformed> {
        // What the value must be, when it is not.
        let expected = match k {
            "type" if !is_type(v) => {
                "one of array, boolean, integer, null, number, object and string, or a list of them without repeats"
            }
            "required" if !unique_strings(v) => "a list of property names without repeats",
            "dependentRequired" if !v.as_object().is_some_and(|m| m.values().all(unique_strings)) => {
                "a map from property names to lists of property names"
            }
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                return match v.as_object() {
                    Some(m) => self.map(m, at, depth),
                    None => wrong(k, v, at, "a map from names to schemas"),
                };
            }
            "additionalProperties" | "not" | "if" | "then" | "else" | "contains"
            | "propertyNames" | "unevaluatedItems" | "unevaluatedProperties"
            | "additionalItems" | "contentSchema" => return self.node(v, at, depth + 1),
            // A list of schemas is the tuple form of drafts before 2020-12.
            "items" => {
                return match v {
                    Value::Array(items) => self.list(items, at, depth),
                    _ => self.node(v, at, depth + 1),
                };
            }
            "prefixItems" | "allOf" | "anyOf" | "oneOf" => {
                return match v {
                    Value::Array(items) if !items.is_empty() => self.list(items, at, depth),
                    _ => wrong(k, v, at, "a list of one or more schemas"),
                };
            }
            "enum" if v.as_array().is_none_or(Vec::is_empty) => "a list of one or more values",
            "$ref" => return self.reference(v, at),
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
            | "maxProperties" | "minContains" | "maxContains"
                if !(v.as_u64().is_some()
                    || v.as_f64().is_some_and(|n| n >= 0.0 && n.fract() == 0.0)) =>
            {
                "a whole number, 0 or more"
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" if !v.is_number() => {
                "a number"
            }
            "multipleOf" if !v.as_f64().is_some_and(|n| n > 0.0) => "a number greater than 0",
            "pattern" | "format" | "title" | "description" | "$comment" | "$anchor"
            | "$schema" | "$id" | "contentEncoding" | "contentMediaType"
                if !v.is_string() =>
            {
                "a string"
            }
            "uniqueItems" | "readOnly" | "writeOnly" | "deprecated" if !v.is_boolean() => {
                "true or false"
            }
            // Well formed, or `const`, `default`, `examples` and
            // annotations, of any value.
            _ => return Ok(()),
        };
        wrong(k, v, at, expected)
    }

    /// A `$ref`: a reference into another document is that document's
    /// business (an output schema may name one); one into this schema must
    /// land somewhere.
    fn reference(&self, v: &Value, at: At<'_>) -> Result<(), Malformed> {
        let Some(r) = v.as_str() else {
            return wrong("$ref", v, at, "a reference (a string)");
        };
        let dangling = r
            .strip_prefix('#')
            .is_some_and(|pointer| self.root.pointer(pointer).is_none());
        if dangling {
            return Err((
                at.pointer(),
                format!(
                    "`$ref` `{r}` points nowhere in this schema (a reference into it is `#` and a JSON pointer, such as `#/$defs/name`)"
                ),
            ));
        }
        Ok(())
    }

    fn map(&self, m: &Map<String, Value>, at: At<'_>, depth: usize) -> Result<(), Malformed> {
        m.iter()
            .try_for_each(|(name, s)| self.node(s, At::Key(&at, name), depth + 1))
    }

    fn list(&self, items: &[Value], at: At<'_>, depth: usize) -> Result<(), Malformed> {
        items
            .iter()
            .enumerate()
            .try_for_each(|(i, s)| self.node(s, At::Index(&at, i), depth + 1))
    }
}

fn wrong(k: &str, v: &Value, at: At<'_>, expected: &str) -> Result<(), Malformed> {
    Err((
        at.pointer(),
        format!("`{k}` is {expected}, not {}", shown(v)),
    ))
}

fn is_type(v: &Value) -> bool {
    match v {
        Value::String(t) => TYPES.contains(&t.as_str()),
        Value::Array(ts) => {
            !ts.is_empty()
                && ts.iter().enumerate().all(|(i, t)| {
                    t.as_str().is_some_and(|t| TYPES.contains(&t)) && !ts[..i].contains(t)
                })
        }
        _ => false,
    }
}

fn unique_strings(v: &Value) -> bool {
    v.as_array().is_some_and(|names| {
        names
            .iter()
            .enumerate()
            .all(|(i, n)| n.is_string() && !names[..i].contains(n))
    })
}

/// A value as an error shows it: short, whatever its size.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(schema: Value) -> Malformed {
        check(&schema).expect_err("a malformed schema passed")
    }

    #[test]
    fn well_formed_schemas_pass() {
        for s in [
            json!({"type": "object", "properties": {"a": {"type": ["string", "null"], "minLength": 1}},
                   "required": ["a"], "additionalProperties": false}),
            json!({"$defs": {"n": {"type": "integer", "minimum": 1, "multipleOf": 2}},
                   "properties": {"x": {"$ref": "#/$defs/n"}, "y": {"$ref": "#"}, "z": true,
                                  "w": {"$ref": "https://example.com/s.json"}}}),
            json!({"items": [{"type": "string"}], "prefixItems": [{}], "maxItems": 3.0,
                   "enum": [1, "a", null], "const": {"any": "value"}, "x-vendor": 5}),
        ] {
            assert_eq!(check(&s), Ok(()), "{s}");
        }
    }

    #[test]
    fn each_malformed_keyword_is_named_with_its_place() {
        let cases = [
            (
                json!({"properties": {"q": {"type": 5}}}),
                "/properties/q/type",
                "`type` is one of",
            ),
            (
                json!({"properties": {"q": {"type": "strng"}}}),
                "/properties/q/type",
                "not \"strng\"",
            ),
            (
                json!({"type": ["string", "string"]}),
                "/type",
                "without repeats",
            ),
            (
                json!({"required": "q"}),
                "/required",
                "a list of property names",
            ),
            (
                json!({"properties": [1, 2]}),
                "/properties",
                "a map from names to schemas",
            ),
            (
                json!({"properties": {"a/b": 3}}),
                "/properties/a~1b",
                "a schema is an object",
            ),
            (
                json!({"properties": {"q": {"$ref": 5}}}),
                "/properties/q/$ref",
                "a reference",
            ),
            (
                json!({"properties": {"q": {"$ref": "#/$defs/gone"}}}),
                "/properties/q/$ref",
                "points nowhere",
            ),
            (json!({"$ref": "#anchor"}), "/$ref", "points nowhere"),
            (json!({"minLength": -1}), "/minLength", "a whole number"),
            (json!({"maxLength": "9"}), "/maxLength", "a whole number"),
            (json!({"maximum": "9"}), "/maximum", "a number"),
            (json!({"multipleOf": 0}), "/multipleOf", "greater than 0"),
            (
                json!({"enum": "a"}),
                "/enum",
                "a list of one or more values",
            ),
            (json!({"enum": []}), "/enum", "a list of one or more values"),
            (json!({"anyOf": []}), "/anyOf", "one or more schemas"),
            (
                json!({"anyOf": [{}, 7]}),
                "/anyOf/1",
                "a schema is an object",
            ),
            (json!({"pattern": 7}), "/pattern", "a string"),
            (
                json!({"uniqueItems": "yes"}),
                "/uniqueItems",
                "true or false",
            ),
            (
                json!({"items": {"items": {"type": 1}}}),
                "/items/items/type",
                "`type`",
            ),
        ];
        for (schema, at, says) in cases {
            let (ptr, why) = refused(schema.clone());
            assert_eq!(ptr, at, "{schema}: {why}");
            assert!(why.contains(says), "{schema}: {why}");
        }
    }

    #[test]
    fn a_schema_nested_past_the_bound_is_refused_not_walked() {
        let mut s = json!({"type": "string"});
        for _ in 0..300 {
            s = json!({ "items": s });
        }
        let (_, why) = refused(s);
        assert!(why.contains("more than 256 levels"), "{why}");
    }
}
