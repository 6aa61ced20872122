//! The false-alarm set: the tool lists of three real MCP code bases,
//! descriptions and schemas exactly as their servers publish them
//! (`tests/false_alarms/*.json`, each tool with its `source`): every tool
//! of github/github-mcp-server (its tool snapshots), of getsentry/sentry-mcp
//! (its generated tool definitions) and of the three reference servers from
//! npm. Their descriptions are correct (the servers ship them), so an
//! error-level finding on them is a false alarm: the check must raise none.
//! Audit-level findings are each labelled by hand in
//! `tests/false_alarms/audit_labels.jsonl` (`right`: the description does
//! state a constraint its schema does not declare); a finding without a
//! label fails the test until it is labelled. `docs/rule-c12.md` reports
//! the rates this prints (`--nocapture`).

use contract_runtime::audit::{lint_tools, Level};
use serde_json::Value;

const SETS: &[(&str, &str)] = &[
    (
        "github-mcp-server",
        include_str!("false_alarms/github-mcp-server.json"),
    ),
    ("sentry-mcp", include_str!("false_alarms/sentry-mcp.json")),
    (
        "reference-servers",
        include_str!("false_alarms/reference-servers.json"),
    ),
];

/// The JSON Schema keywords that declare a constraint.
const KEYWORDS: &[&str] = &[
    "enum",
    "const",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
];

/// Descriptions under `schema` (properties at every depth, list items,
/// optional branches), and how many of them sit on a schema that declares
/// a constraint.
fn described(schema: &Value, root: &Value, depth: usize, count: &mut (usize, usize)) {
    if depth > 8 {
        return;
    }
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) if r.starts_with("#/") => root.pointer(&r[1..]).unwrap_or(schema),
        _ => schema,
    };
    let mut children: Vec<&Value> = Vec::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        children.extend(props.values());
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        children.push(items);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(key) {
            for b in branches {
                described(b, root, depth + 1, count);
            }
        }
    }
    for child in children {
        let branches: Vec<&Value> = ["anyOf", "oneOf"]
            .iter()
            .filter_map(|k| child.get(*k).and_then(Value::as_array))
            .flatten()
            .chain(std::iter::once(child))
            .collect();
        let has_text = branches.iter().any(|b| {
            b.get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.is_empty())
        });
        let declares = branches.iter().any(|b| {
            KEYWORDS.iter().any(|k| b.get(*k).is_some())
                || b.get("items")
                    .is_some_and(|i| KEYWORDS.iter().any(|k| i.get(*k).is_some()))
        });
        if has_text {
            count.0 += 1;
            count.1 += usize::from(declares);
        }
        let inner = if child.get("anyOf").is_some() || child.get("oneOf").is_some() {
            // (the optional branches were counted above; walk inside them)
            None
        } else {
            Some(child)
        };
        if let Some(c) = inner {
            let mut sub = (0, 0);
            described_inside(c, root, depth + 1, &mut sub);
            count.0 += sub.0;
            count.1 += sub.1;
        } else {
            for b in branches.iter().filter(|b| !std::ptr::eq(**b, child)) {
                described_inside(b, root, depth + 1, count);
            }
        }
    }
}

/// The descriptions strictly inside `schema` (its members and items).
fn described_inside(schema: &Value, root: &Value, depth: usize, count: &mut (usize, usize)) {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) if r.starts_with("#/") => root.pointer(&r[1..]).unwrap_or(schema),
        _ => schema,
    };
    if schema.get("properties").is_some() || schema.get("items").is_some() {
        described(schema, root, depth, count);
    }
}

#[test]
fn correct_descriptions_raise_no_error() {
    let labels: Vec<Value> = include_str!("false_alarms/audit_labels.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let key = |tool: &str, arg: Option<&str>, rec: &str, phrase: &str| {
        format!("{tool}\u{1}{arg:?}\u{1}{rec}\u{1}{phrase}")
    };
    let label = |k: &str| {
        labels.iter().find_map(|l| {
            let lk = key(
                l["tool"].as_str().unwrap_or(""),
                l["argument"].as_str(),
                l["recognizer"].as_str().unwrap_or(""),
                l["phrase"].as_str().unwrap_or(""),
            );
            (lk == k).then(|| l["right"].as_bool().unwrap_or(false))
        })
    };
    let (mut texts, mut declared, mut tools_n) = (0, 0, 0);
    let (mut errors, mut audit_right, mut audit_wrong) = (Vec::new(), 0, 0);
    let mut unlabelled = Vec::new();
    for (name, text) in SETS {
        let set: Value = serde_json::from_str(text).expect("a tool list");
        let tools = set["tools"].as_array().expect("tools");
        let (mut t, mut d) = (0, 0);
        for tool in tools {
            assert!(
                tool["source"].as_str().is_some_and(|s| !s.is_empty()),
                "{name}: every tool records its source"
            );
            t += usize::from(tool["description"].as_str().is_some_and(|s| !s.is_empty()));
            let mut count = (0, 0);
            described(&tool["inputSchema"], &tool["inputSchema"], 0, &mut count);
            t += count.0;
            d += count.1;
        }
        let found = lint_tools(&set).expect("a tool list");
        let errs = found.iter().filter(|f| f.level == Level::Error).count();
        println!(
            "{name}: {} tools, {t} descriptions ({d} on a schema that declares a constraint): {errs} errors, {} audit findings",
            tools.len(),
            found.len() - errs
        );
        for f in found {
            if f.level == Level::Error {
                errors.push(format!("{name}: {}", f.to_json()));
                continue;
            }
            match label(&key(
                &f.tool,
                f.argument.as_deref(),
                f.recognizer,
                &f.phrase,
            )) {
                Some(true) => audit_right += 1,
                Some(false) => audit_wrong += 1,
                None => unlabelled.push(f.to_json().to_string()),
            }
        }
        tools_n += tools.len();
        texts += t;
        declared += d;
    }
    let rate = |n: usize| n as f64 / texts.max(1) as f64;
    println!(
        "all: {tools_n} tools, {texts} descriptions ({declared} declaring a constraint); \
         error level: {} false alarms ({:.2}%); audit level: {audit_wrong} false alarms ({:.2}%), \
         {audit_right} findings right",
        errors.len(),
        100.0 * rate(errors.len()),
        100.0 * rate(audit_wrong)
    );
    assert!(
        texts >= 300,
        "the set needs at least 300 descriptions: {texts}"
    );
    assert!(
        errors.is_empty(),
        "errors on correct descriptions:\n{}",
        errors.join("\n")
    );
    assert!(
        unlabelled.is_empty(),
        "audit findings with no label in tests/false_alarms/audit_labels.jsonl (add each with \"right\": true or false):\n{}",
        unlabelled.join("\n")
    );
}

/// Every description string of a tool: its own and its schema's, at any depth.
fn texts<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match (k.as_str(), x) {
                    ("description", Value::String(s)) => out.push(s),
                    _ => texts(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        _ => {}
    }
}

/// The cost of the check on a 1,000-tool registry: `lint_tools` over the
/// set's 207 tools repeated to 1,000 (every description read against its
/// schema, nested properties too), against a floor measured in the same
/// run: lowercasing each description and counting its words, the least any
/// reading of the prose does. Printed, not asserted (`--nocapture`);
/// `C12_COST_ROUNDS` (default 3) and `C12_COST_PART` (`floor` or `check`)
/// let callgrind count one part's instructions (`docs/performance.md`).
#[test]
fn cost_of_a_thousand_tool_registry() {
    use std::hint::black_box;
    use std::time::Instant;
    let all: Vec<Value> = SETS
        .iter()
        .flat_map(|(_, text)| {
            let set: Value = serde_json::from_str(text).expect("a tool list");
            set["tools"].as_array().cloned().unwrap_or_default()
        })
        .collect();
    let list = Value::Array(all.iter().cycle().take(1000).cloned().collect());
    let mut docs = Vec::new();
    texts(&list, &mut docs);
    let rounds: usize = std::env::var("C12_COST_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let part = std::env::var("C12_COST_PART").unwrap_or_default();
    let start = Instant::now();
    for _ in 0..rounds * usize::from(part != "check") {
        for d in &docs {
            black_box(d.to_lowercase().split_whitespace().count());
        }
    }
    let floor = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let mut findings = 0;
    for _ in 0..rounds * usize::from(part != "floor") {
        findings = black_box(lint_tools(&list).expect("a tool list")).len();
    }
    let check = start.elapsed().as_secs_f64();
    let r = rounds.max(1) as f64;
    println!(
        "1,000 tools, {} descriptions, {findings} findings: check {:.1} ms, floor {:.2} ms, ratio {:.1}x; {:.1} us per description",
        docs.len(),
        check / r * 1e3,
        floor / r * 1e3,
        check / floor.max(f64::MIN_POSITIVE),
        check / r / docs.len() as f64 * 1e6
    );
}
