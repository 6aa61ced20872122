//! Every published schema (each dialect's snapshot, which `tests/dialects.rs`
//! holds equal to the export) uses only formats JSON Schema 2020-12 defines:
//! the widths schemars writes for Rust's number types (`uint64`, `int32`,
//! `double`) are `minimum` and `maximum` instead, so strict validators read
//! every `tools/list` without a warning. Their descriptions (the envelope's
//! among them, from its doc comments) are plain prose, without rustdoc links.

use serde_json::Value;

/// The `format` values of JSON Schema 2020-12 (Validation, section 7.3).
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

fn formats<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                if k == "format" {
                    if let Value::String(f) = child {
                        out.push((at.clone(), f));
                    }
                }
                formats(child, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                formats(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_published_format_is_json_schema_2020_12_vocabulary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let snapshot: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut found = Vec::new();
        formats(&snapshot, String::new(), &mut found);
        seen += found.len();
        let foreign: Vec<_> = found.iter().filter(|(_, f)| !FORMATS.contains(f)).collect();
        assert!(foreign.is_empty(), "{}: {foreign:?}", path.display());
    }
    // The toolbox publishes dates and UUIDs: the walk found formats at all.
    assert!(seen > 0);
}

/// Every `description` under `v`, with its pointer.
fn descriptions<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                if let (true, Value::String(d)) = (k == "description", child) {
                    out.push((at.clone(), d));
                }
                descriptions(child, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                descriptions(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The doc comments that become published descriptions (the envelope's, in
/// every tool's output schema) read as plain prose: no rustdoc link syntax
/// such as "(see [`crate::codes`])".
#[test]
fn no_published_description_carries_rustdoc_links() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut schemas = vec![(
        "envelope_schema(None)".to_owned(),
        contract_runtime::envelope::envelope_schema(None),
    )];
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) == Some("json") {
            let text = std::fs::read_to_string(&path).unwrap();
            schemas.push((
                path.display().to_string(),
                serde_json::from_str(&text).unwrap(),
            ));
        }
    }
    for (name, schema) in &schemas {
        let mut found = Vec::new();
        descriptions(schema, String::new(), &mut found);
        assert!(!found.is_empty(), "{name}");
        let linked: Vec<_> = found
            .iter()
            .filter(|(_, d)| d.contains("[`") || d.contains("]("))
            .collect();
        assert!(linked.is_empty(), "{name}: {linked:?}");
    }
}
