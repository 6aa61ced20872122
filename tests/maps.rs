//! Maps with string keys as arguments: `length` bounds the entries,
//! `pattern` the keys, `each(...)` the values; the schema and the runtime
//! agree (checked against the `jsonschema` crate).

use std::collections::{BTreeMap, HashMap};

use contract_runtime::decode::{decode_args, DecodeError, Limits};
use contract_runtime::envelope::ErrorEntry;
use contract_runtime::prelude::*;
use serde_json::{json, Value};

/// Labels for an event.
#[derive(ToolArgs, Debug)]
pub struct Labels {
    /// Label values by label name.
    #[arg(
        length(min = 1, max = 3),
        pattern = "^[a-z][a-z0-9_]*$",
        each(length(max = 10))
    )]
    pub labels: BTreeMap<String, String>,
    /// Weights by name.
    pub weights: Option<HashMap<String, u8>>,
}

fn decode(v: &Value) -> Result<Labels, Vec<ErrorEntry>> {
    decode_args::<Labels>(&v.to_string(), &Limits::default()).map_err(DecodeError::into_errors)
}

#[test]
fn the_schema_of_a_map() {
    let s = Labels::input_schema();
    assert_eq!(
        s["properties"]["labels"],
        json!({
            "description": "Label values by label name.",
            "type": "object",
            "additionalProperties": {"type": "string", "maxLength": 10},
            "minProperties": 1,
            "maxProperties": 3,
            "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"}
        })
    );
    assert_eq!(
        s["properties"]["weights"]["additionalProperties"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
}

#[test]
fn violations_point_at_the_map_or_the_entry() {
    let errs = decode(&json!({"labels": {}})).unwrap_err();
    assert_eq!(errs[0].field.as_deref(), Some("/labels"));
    assert_eq!(
        errs[0].constraint.as_ref().unwrap().keyword,
        "minProperties"
    );
    assert_eq!(
        errs[0].message,
        "`/labels` must have at least 1 entry, got 0"
    );

    let errs = decode(&json!({"labels": {"Bad Key": "x", "ok": "much too long"}})).unwrap_err();
    let got: Vec<(String, String)> = errs
        .iter()
        .map(|e| {
            (
                e.field.clone().unwrap(),
                e.constraint.as_ref().unwrap().keyword.clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("/labels/ok".to_owned(), "maxLength".to_owned()),
            ("/labels/Bad Key".to_owned(), "propertyNames".to_owned()),
        ]
    );
}

#[test]
fn the_runtime_and_the_schema_agree() {
    let schema = Labels::input_schema();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles");
    let cases = [
        json!({"labels": {"a": "x"}}),
        json!({"labels": {"a": "x", "b": "y", "c": "z"}}),
        json!({"labels": {"a": "x", "b": "y", "c": "z", "d": "w"}}),
        json!({"labels": {}}),
        json!({"labels": {"A": "x"}}),
        json!({"labels": {"a": "01234567890"}}),
        json!({"labels": {"a": 1}}),
        json!({"labels": ["a"]}),
        json!({"labels": {"a": "x"}, "weights": {"w": 3}}),
        json!({"labels": {"a": "x"}, "weights": {"w": 300}}),
        json!({"labels": {"a": "x"}, "weights": {"w": -1}}),
        json!({"labels": {"a": "x"}, "weights": null}),
        json!({"labels": {"a": "x"}, "weights": {}}),
    ];
    for case in cases {
        assert_eq!(
            decode(&case).is_ok(),
            validator.is_valid(&case),
            "runtime and schema disagree on {case}"
        );
    }
}
