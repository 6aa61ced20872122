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
//! the rates this prints (`--nocapture`). The second and third sets
//! (`tests/false_alarms2/`, `tests/false_alarms3/`) hold fully declared
//! argument descriptions of other servers, labelled before the reader ran;
//! the contradiction checks' levels are measured on the first two sets.

use contract_runtime::audit::{lint_tools, Level};
use serde_json::Value;

/// The contradiction set's pairs, linted (`tests/contradictions/`).
#[path = "contradictions/pairs.rs"]
mod pairs;

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

/// The second false-alarm set, on text no fix was made on: argument
/// descriptions of MCP servers no round had read (26 packages from npm,
/// pinned), each as the server publishes it, selected and labelled by hand
/// before the reader ran on any of them (commit 2f5546b:
/// `tests/false_alarms2/build.py` holds the rule and the labels,
/// `selection.jsonl` every candidate with its label and source). An entry
/// labelled `fully-declared` is correct and its argument declares every
/// constraint its description states (an `enum` the prose lists, the
/// `maximum` it names, the `format` it names, ...), so an error on it is a
/// false alarm. The tool lists keep only the branches down to the selected
/// properties; an error on another description there (an ancestor's, a
/// member of a selected object) is a false alarm too.
///
/// Issue 24's target is at most 1% of at least 300 such descriptions with an
/// error. Measured on its first run: 112 of 457 (24.5%), all in lark-mcp's
/// generated lists ("Options:a(gloss),b(gloss)") read in part and so taken
/// for a narrower set than the declared `enum`. The change that followed
/// was designed on them (the contradiction checks' levels measured, a list
/// read in part naming no narrower set), so the set is no longer unseen.
/// This test pins what the reader does on it: each description that raises
/// an error is listed with its cause in `tests/false_alarms2/errors.jsonl`
/// (none today), and the test fails on an error not listed (a new false
/// alarm) and on a listed one that no longer raises it (update the list and
/// `docs/rule-c12.md`). `fully_declared_descriptions_meet_the_target` asserts
/// the 1% itself. Every audit finding is labelled by hand in
/// `tests/false_alarms2/audit_labels.jsonl`; one without a label fails the test.
#[test]
fn unseen_fully_declared_descriptions() {
    let m = measure_unseen(&SET_2);
    bless_docs(&m, &causes(&SET_2));
    pinned(&SET_2, &m);
}

/// The files of a false-alarm set built like the second: its tool lists
/// (`sets.json`), every candidate with its label (`selection.jsonl`), the
/// hand labels of its audit findings and the descriptions that raise an
/// error, each with its cause.
struct LabelledSet {
    dir: &'static str,
    sets: &'static str,
    selection: &'static str,
    audit_labels: &'static str,
    errors: &'static str,
}

const SET_2: LabelledSet = LabelledSet {
    dir: "false_alarms2",
    sets: include_str!("false_alarms2/sets.json"),
    selection: include_str!("false_alarms2/selection.jsonl"),
    audit_labels: include_str!("false_alarms2/audit_labels.jsonl"),
    errors: include_str!("false_alarms2/errors.jsonl"),
};

/// The cause of each error listed in the set's `errors.jsonl`.
fn causes(set: &LabelledSet) -> Vec<String> {
    set.errors
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let e: Value = serde_json::from_str(l).expect("a JSON line");
            e["kind"].as_str().unwrap_or("").to_string()
        })
        .collect()
}

/// Holds the set's errors to its `errors.jsonl` and its audit findings to
/// their labels.
fn pinned(set: &LabelledSet, m: &Unseen) {
    let dir = set.dir;
    let lines: Vec<Value> = set
        .errors
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let s = |e: &Value, k: &str| e[k].as_str().unwrap_or("").to_string();
    let listed: Vec<(String, String, String)> = lines
        .iter()
        .map(|e| (s(e, "set"), s(e, "tool"), s(e, "argument")))
        .collect();
    let new: Vec<_> = m.erring.iter().filter(|k| !listed.contains(k)).collect();
    let gone: Vec<_> = listed.iter().filter(|k| !m.erring.contains(k)).collect();
    assert!(
        m.unlabelled.is_empty(),
        "audit findings with no label in tests/{dir}/audit_labels.jsonl (add each with \"right\": true or false):\n{}",
        m.unlabelled.join("\n")
    );
    assert!(
        m.selected >= 300,
        "the set needs at least 300: {}",
        m.selected
    );
    assert!(
        new.is_empty(),
        "errors on descriptions not in tests/{dir}/errors.jsonl (new false alarms):\n{new:?}"
    );
    assert!(
        gone.is_empty(),
        "descriptions in tests/{dir}/errors.jsonl that raise no error now (remove them, update docs/rule-c12.md):\n{gone:?}"
    );
}

/// The third false-alarm set (`tests/false_alarms3/`, built like the
/// second: 330 fully declared descriptions of 56 MCP servers no round had
/// read, from npm and PyPI, selected by the second set's rule with a cap
/// per server and labelled by hand before any part of the reader ran on
/// them). It was measured once, with the reader as landed after the second
/// set's change (commit 44d6af4 and the restructurings after it), and
/// nothing was changed on it after: the figure as it fell is the false-alarm
/// figure on unseen text. The test pins it as the second set's does: errors
/// listed in `tests/false_alarms3/errors.jsonl`, audit findings labelled by
/// hand (after that run) in `tests/false_alarms3/audit_labels.jsonl`.
#[test]
fn third_set_fully_declared_descriptions() {
    let m = measure_unseen(&SET_3);
    bless_set_docs(&m, &causes(&SET_3), "third", SET_3.dir);
    pinned(&SET_3, &m);
}

/// Issue 24's target on the third set: at most 1% of its fully declared
/// descriptions raise an error.
#[test]
fn third_set_meets_the_target() {
    let m = measure_unseen(&SET_3);
    let on_selected = m.erring.iter().filter(|k| m.is_selected(k)).count();
    assert!(
        on_selected as f64 <= 0.01 * m.selected as f64,
        "{on_selected} of {} fully declared descriptions raise an error",
        m.selected
    );
}

const SET_3: LabelledSet = LabelledSet {
    dir: "false_alarms3",
    sets: include_str!("false_alarms3/sets.json"),
    selection: include_str!("false_alarms3/selection.jsonl"),
    audit_labels: include_str!("false_alarms3/audit_labels.jsonl"),
    errors: include_str!("false_alarms3/errors.jsonl"),
};

/// Writes (`C12_BLESS=1`) or checks a set's figures in `docs/rule-c12.md`,
/// between the markers `<!-- {which} false-alarm set: ... -->`.
fn bless_set_docs(m: &Unseen, kinds: &[String], which: &str, dir: &str) {
    use std::fmt::Write as _;
    let begin =
        format!("<!-- {which} false-alarm set: written by tests/false_alarms.rs (C12_BLESS=1), not by hand -->");
    let end = format!("<!-- {which} false-alarm set: end -->");
    let mut t = format!("{begin}\n\n| source | fully declared | with an error | audit findings (right / wrong) |\n|---|---|---|---|\n");
    let (mut n, mut e, mut r, mut w) = (0, 0, 0, 0);
    for (_, source, sn, se, sr, sw) in &m.sets {
        let _ = writeln!(t, "| {source} | {sn} | {se} | {} ({sr} / {sw}) |", sr + sw);
        (n, e, r, w) = (n + sn, e + se, r + sr, w + sw);
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let on_selected = m.erring.iter().filter(|k| m.is_selected(k)).count();
    let _ = writeln!(
        t,
        "| **all** | **{n}** | **{e} ({:.1}%)** | {} ({r} / {w}) |\n\n\
         Errors on the {} fully declared descriptions: **{on_selected} ({:.1}%)**, target at most 1%: \
         **{}**; other descriptions of the same tools with an error: {}. Audit findings: {} \
         ({r} right, {w} wrong, labelled by hand after the run).\n\n\
         Why each errs (`tests/{dir}/errors.jsonl`, one cause per description):{}\n",
        pct(e, n),
        r + w,
        m.selected,
        pct(on_selected, m.selected),
        if on_selected as f64 <= 0.01 * m.selected as f64 {
            "met"
        } else {
            "not met"
        },
        m.erring.len() - on_selected,
        r + w,
        if kinds.is_empty() { " none" } else { "" },
    );
    bless_section(t, kinds, &begin, &end);
}

/// Ends a set's generated section of `docs/rule-c12.md` (`t`, from its
/// begin marker on) with the causes of its errors, most frequent first, and
/// the end marker, and blesses it in place of the section between the two
/// markers.
fn bless_section(mut t: String, kinds: &[String], begin: &str, end: &str) {
    use std::fmt::Write as _;
    let mut counted: Vec<(usize, &str)> = Vec::new();
    for k in kinds {
        match counted.iter_mut().find(|c| c.1 == k) {
            Some(c) => c.0 += 1,
            None => counted.push((1, k)),
        }
    }
    counted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    for (c, k) in counted {
        let _ = writeln!(t, "- {k}: {c}");
    }
    t.push_str(&format!("\n{end}\n"));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rule-c12.md");
    let text = std::fs::read_to_string(path).expect("docs/rule-c12.md");
    let b = text
        .find(begin)
        .unwrap_or_else(|| panic!("docs/rule-c12.md has the marker {begin}"));
    let e = text.find(end).expect("end marker") + end.len() + 1;
    bless_file(path, &format!("{}{t}{}", &text[..b], &text[e..]));
}

/// Issue 24's target on the second set: at most 1% of the fully declared
/// descriptions raise an error. Met since the contradiction checks' levels
/// are measured and a list read in part names no narrower set; the set was
/// used to design that change, so it is no longer unseen text.
#[test]
fn fully_declared_descriptions_meet_the_target() {
    let m = measure_unseen(&SET_2);
    let on_selected = m.erring.iter().filter(|k| m.is_selected(k)).count();
    assert!(
        on_selected as f64 <= 0.01 * m.selected as f64,
        "{on_selected} of {} fully declared descriptions raise an error",
        m.selected
    );
}

/// What the reader does on the second set.
struct Unseen {
    /// How many descriptions are labelled fully declared.
    selected: usize,
    /// Their (set, tool, argument).
    keys: Vec<(String, String, String)>,
    /// Each description (set, tool, argument) with at least one error.
    erring: Vec<(String, String, String)>,
    /// Audit findings with no label, as JSON lines to label.
    unlabelled: Vec<String>,
    /// Per set: name, source, fully declared, descriptions with an error,
    /// audit findings right, wrong.
    sets: Vec<(String, String, usize, usize, usize, usize)>,
}

impl Unseen {
    fn is_selected(&self, k: &(String, String, String)) -> bool {
        self.keys.contains(k)
    }
}

/// Lints every set of the set's `sets.json` and prints the figures
/// `docs/rule-c12.md` reports (`--nocapture`).
fn measure_unseen(files: &LabelledSet) -> Unseen {
    let doc: Value = serde_json::from_str(files.sets).expect("sets");
    let keys: Vec<(String, String, String)> = files
        .selection
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|e| e["label"] == "fully-declared")
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or("").to_string();
            (s("set"), s("tool"), s("argument"))
        })
        .collect();
    let labels: Vec<Value> = files
        .audit_labels
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let label = |set: &str, f: &contract_runtime::audit::Finding| {
        labels.iter().find_map(|l| {
            (l["set"] == set
                && l["tool"] == f.tool.as_str()
                && l["argument"].as_str() == f.argument.as_deref()
                && l["recognizer"] == f.recognizer
                && l["phrase"] == f.phrase.as_str())
            .then(|| l["right"].as_bool().unwrap_or(false))
        })
    };
    let (mut erring, mut unlabelled, mut sets) = (Vec::new(), Vec::new(), Vec::new());
    let (mut right, mut wrong, mut errors) = (0, 0, 0);
    for set in doc["sets"].as_array().expect("sets") {
        let name = set["name"].as_str().expect("a name");
        let n = keys.iter().filter(|k| k.0 == name).count();
        let found = lint_tools(&serde_json::json!({ "tools": set["tools"] })).expect("a tool list");
        let (mut errs, mut audits, right_before, wrong_before) = (0, 0, right, wrong);
        for f in &found {
            if f.level == Level::Error {
                errs += 1;
                let k = (
                    name.to_string(),
                    f.tool.clone(),
                    f.argument.clone().unwrap_or_default(),
                );
                if !erring.contains(&k) {
                    erring.push(k);
                }
                continue;
            }
            audits += 1;
            match label(name, f) {
                Some(true) => right += 1,
                Some(false) => wrong += 1,
                None => unlabelled.push(format!(
                    "{{\"set\":{:?},{}",
                    name,
                    &f.to_json().to_string()[1..]
                )),
            }
        }
        errors += errs;
        let described = erring.iter().filter(|k| k.0 == name).count();
        sets.push((
            name.to_string(),
            set["source"].as_str().unwrap_or("").to_string(),
            n,
            described,
            right - right_before,
            wrong - wrong_before,
        ));
        println!(
            "{name} ({}): {n} fully declared; {described} descriptions with an error ({errs} errors); {audits} audit findings",
            set["source"].as_str().unwrap_or("")
        );
    }
    let on_selected = erring.iter().filter(|k| keys.contains(k)).count();
    println!(
        "all: {} fully declared descriptions; {on_selected} raise an error ({:.2}%; {errors} error findings); \
         other descriptions of the same tools with an error: {}; audit findings: {} ({right} right, {wrong} wrong, {} unlabelled)",
        keys.len(),
        100.0 * on_selected as f64 / keys.len().max(1) as f64,
        erring.len() - on_selected,
        right + wrong + unlabelled.len(),
        unlabelled.len()
    );
    for l in &unlabelled {
        println!("  unlabelled {l}");
    }
    Unseen {
        selected: keys.len(),
        keys,
        erring,
        unlabelled,
        sets,
    }
}

/// Writes (`C12_BLESS=1`) or checks the second set's figures in
/// `docs/rule-c12.md`, between its markers.
fn bless_docs(m: &Unseen, kinds: &[String]) {
    use std::fmt::Write as _;
    const BEGIN: &str = "<!-- second false-alarm set: written by tests/false_alarms.rs (C12_BLESS=1), not by hand -->";
    const END: &str = "<!-- second false-alarm set: end -->";
    let mut t = format!("{BEGIN}\n\n| source | fully declared | with an error | audit findings (right / wrong) |\n|---|---|---|---|\n");
    let (mut n, mut e, mut r, mut w) = (0, 0, 0, 0);
    for (_, source, sn, se, sr, sw) in &m.sets {
        let _ = writeln!(t, "| {source} | {sn} | {se} | {} ({sr} / {sw}) |", sr + sw);
        (n, e, r, w) = (n + sn, e + se, r + sr, w + sw);
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let lark = m
        .sets
        .iter()
        .find(|s| s.0 == "lark")
        .map_or((0, 0), |s| (s.2, s.3));
    let _ = writeln!(
        t,
        "| **all** | **{n}** | **{e} ({:.1}%)** | {} ({r} / {w}) |\n\n\
         Errors on the {n} fully declared descriptions: **{e} ({:.1}%)**, target at most 1%: \
         **{}**. Outside lark-mcp: {} of {} ({:.1}%); lark-mcp: {} of {} ({:.1}%).\n\n\
         Why each errs (`tests/false_alarms2/errors.jsonl`, one cause per description):{}\n",
        pct(e, n),
        r + w,
        pct(e, n),
        if e as f64 <= 0.01 * n as f64 {
            "met"
        } else {
            "not met"
        },
        e - lark.1,
        n - lark.0,
        pct(e - lark.1, n - lark.0),
        lark.1,
        lark.0,
        pct(lark.1, lark.0),
        if kinds.is_empty() { " none" } else { "" },
    );
    bless_section(t, kinds, BEGIN, END);
}

/// The contradiction checks' levels, measured as the recognizers' are
/// (`contract-prose/src/measure.rs`): a check is at the error level only
/// with precision at least 0.97 and at least 20 true hits on labelled text.
/// False hits: every contradiction found on the first and second
/// false-alarm sets, whose descriptions are correct. True hits: the
/// contradiction set (`tests/contradictions/`, labelled and committed
/// before the reader ran on it), where a hit of the check a pair is
/// labelled with is true and a hit of another check is false. The held-out
/// batches declare types only, no values, so no check can fire on them
/// (`measure::no_contradiction_on_the_held_out_batches` holds that); the
/// third set is kept out, as the measure on unseen text. Writes
/// `contract-prose/src/check_levels.rs` and the check table of
/// `docs/rule-c12.md` (`C12_BLESS=1`), and fails when either is out of date.
/// The hits are also counted per recognizer within each check: a check at
/// the error level stops a build only on what a recognizer read that has a
/// true hit of it and no false one (`CheckRow::level_for`).
#[test]
fn contradiction_checks_are_measured() {
    use contract_prose::{Level as L, CHECKS, TABLE};
    use std::fmt::Write as _;
    const ERROR_PRECISION: f64 = 0.97;
    const ERROR_MIN_HITS: usize = 20;
    // [check] = (true, false) per labelled source: set 1, set 2, the
    // contradiction set; and the same per (check, recognizer that read the
    // prose), in the order first met
    // (true, false) per labelled source
    type Hits = [(usize, usize); 3];
    // a recognizer and its (true, false) hits over all sources
    type RecHits = (&'static str, (usize, usize));
    let mut per = vec![[(0usize, 0usize); 3]; CHECKS.len()];
    let mut by: Vec<Vec<(&'static str, Hits)>> = vec![Vec::new(); CHECKS.len()];
    let mut missed = vec![0usize; CHECKS.len()];
    let index = |name: &str| CHECKS.iter().position(|c| c.name == name);
    let mut count = |i: usize, rec: &'static str, source: usize, right: bool| {
        let side = |c: &mut (usize, usize)| {
            if right {
                c.0 += 1;
            } else {
                c.1 += 1;
            }
        };
        side(&mut per[i][source]);
        let at = match by[i].iter().position(|(r, _)| *r == rec) {
            Some(at) => at,
            None => {
                by[i].push((rec, [(0, 0); 3]));
                by[i].len() - 1
            }
        };
        side(&mut by[i][at].1[source]);
    };
    // The contradiction set (`tests/contradictions/`): each pair a true
    // contradiction with the check that should find it. A finding of that
    // check is a true hit; a finding of another check is a false hit of
    // that check (it names a disagreement the pair was not made with).
    for pair in pairs::measured() {
        let want = pair.check.as_deref();
        for (check, rec) in &pair.findings {
            if let Some(i) = index(check) {
                count(i, rec, 2, Some(*check) == want);
            }
        }
        let hit = want.is_some_and(|w| pair.fired.contains(&w));
        if let (false, Some(i)) = (hit, want.and_then(index)) {
            missed[i] += 1;
            println!("missed by {}: \"{}\"", CHECKS[i].name, pair.id);
        }
    }
    for (_, text) in SETS {
        let set: Value = serde_json::from_str(text).expect("a tool list");
        for f in lint_tools(&set).expect("a tool list") {
            if let Some(i) = f.check.and_then(index) {
                count(i, f.recognizer, 0, false);
            }
        }
    }
    let doc: Value = serde_json::from_str(SET_2.sets).expect("sets");
    for set in doc["sets"].as_array().expect("sets") {
        let list = serde_json::json!({ "tools": set["tools"] });
        for f in lint_tools(&list).expect("a tool list") {
            if let Some(i) = f.check.and_then(index) {
                count(i, f.recognizer, 1, false);
            }
        }
    }
    let sum = |c: &Hits| c.iter().fold((0, 0), |(t, f), (a, b)| (t + a, f + b));
    let total = |i: usize| sum(&per[i]);
    let level = |i: usize| {
        let (t, f) = total(i);
        let precision = t as f64 / (t + f).max(1) as f64;
        if t >= ERROR_MIN_HITS && precision >= ERROR_PRECISION {
            L::Error
        } else {
            L::Audit
        }
    };
    // within a check at the error level, the recognizers measured right:
    // at least one true hit and no false one; sorted by name
    let error_for = |i: usize| {
        let mut recs: Vec<RecHits> = by[i]
            .iter()
            .map(|(r, c)| (*r, sum(c)))
            .filter(|(_, (t, f))| level(i) == L::Error && *t >= 1 && *f == 0)
            .collect();
        recs.sort_unstable();
        recs
    };
    // the levels the reader uses: (check, its recognizers at the error level)
    let mut pairs_at_error: Vec<(&str, Vec<RecHits>)> = (0..CHECKS.len())
        .map(|i| (CHECKS[i].name, error_for(i)))
        .filter(|(_, recs)| !recs.is_empty())
        .collect();
    pairs_at_error.sort_unstable();
    let mut list = String::from("&[\n");
    for (check, recs) in &pairs_at_error {
        let recs: Vec<String> = recs.iter().map(|(r, _)| format!("\"{r}\"")).collect();
        let _ = writeln!(list, "    (\"{check}\", &[{}]),", recs.join(", "));
    }
    list.push_str("];\n");
    let levels = format!(
        "//! Written by `tests/false_alarms.rs` (`contradiction_checks_are_measured`,\n\
         //! C12_BLESS=1 to rewrite), never by hand: the contradiction checks whose\n\
         //! precision over the labelled text is at least 0.97 with enough true hits,\n\
         //! each with the recognizers measured right within it (at least one true\n\
         //! hit, no false one). A contradiction is an error only when its check and\n\
         //! the recognizer that read the prose are listed here together; every\n\
         //! other contradiction reports at the audit level.\n\n\
         /// (check, the recognizers it is at the error level for), by name.\n\
         #[rustfmt::skip]\n\
         pub(crate) const CHECK_ERROR_LEVEL: &[(&str, &[&str])] = {list}"
    );
    let root = env!("CARGO_MANIFEST_DIR");
    bless_file(
        &format!("{root}/contract-prose/src/check_levels.rs"),
        &levels,
    );
    // the table of docs/rule-c12.md
    const BEGIN: &str =
        "<!-- contradiction checks: written by tests/false_alarms.rs (C12_BLESS=1), not by hand -->";
    const END: &str = "<!-- contradiction checks: end -->";
    let mut t = format!(
        "{BEGIN}\n\nError level: precision at least {ERROR_PRECISION} over the labelled text, \
         with at least {ERROR_MIN_HITS} true hits. Counts are true / false hits: on the held-out \
         batches (which declare no values, so no check fires there), on the first false-alarm set \
         and on the second (every contradiction found on them is false), and on the contradiction \
         set (`tests/contradictions/`: a hit of the check a pair was labelled with is true, of \
         another check false), with the pairs of each check it missed. A check's level applies \
         only to the recognizers measured right within it: **error for** lists, with their true / \
         false hits for that check, the recognizers with at least one true hit and no false hit \
         there; a contradiction the check finds on prose another recognizer read is an audit \
         finding, whether that recognizer was measured wrong or right too rarely (**audit for**, \
         its hits) or never measured at all (a recognizer with no hit on the labelled text, \
         listed nowhere).\n\n\
         | check | level | error for | audit for | true / false | precision | held-out batches | set 1 | set 2 | contradiction set | missed | compares | e.g. | not |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    let cell = |s: &str| s.replace('|', "\\|");
    let recs = |recs: &[RecHits]| {
        let cells: Vec<String> = recs
            .iter()
            .map(|(r, (t, f))| format!("`{r}` {t} / {f}"))
            .collect();
        if cells.is_empty() {
            "none".to_string()
        } else {
            cells.join(", ")
        }
    };
    for (i, row) in CHECKS.iter().enumerate() {
        let (tr, fa) = total(i);
        let error = error_for(i);
        let mut audit: Vec<RecHits> = by[i]
            .iter()
            .map(|(r, c)| (*r, sum(c)))
            .filter(|(r, _)| !error.iter().any(|(e, _)| e == r))
            .collect();
        audit.sort_unstable();
        let _ = writeln!(
            t,
            "| `{}` | {} | {} | {} | {tr} / {fa} | {:.3} | 0 / 0 | {} / {} | {} / {} | {} / {} | {} | {} | {} | {} |",
            row.name,
            level(i).as_str(),
            recs(&error),
            recs(&audit),
            tr as f64 / (tr + fa).max(1) as f64,
            per[i][0].0,
            per[i][0].1,
            per[i][1].0,
            per[i][1].1,
            per[i][2].0,
            per[i][2].1,
            missed[i],
            cell(row.compares),
            cell(row.example),
            cell(row.not),
        );
        println!(
            "{:16} {:5} {tr} / {fa} (set 1 {:?}, set 2 {:?}, contradictions {:?}, missed {})",
            row.name,
            level(i).as_str(),
            per[i][0],
            per[i][1],
            per[i][2],
            missed[i]
        );
        for (r, c) in &by[i] {
            println!("    {r:20} {:?}", c);
        }
    }
    let _ = write!(t, "\n{END}\n");
    let path = format!("{root}/docs/rule-c12.md");
    let text = std::fs::read_to_string(&path).expect("docs/rule-c12.md");
    let begin = text
        .find(BEGIN)
        .expect("docs/rule-c12.md has the check table's markers");
    let end = text.find(END).expect("end marker") + END.len() + 1;
    bless_file(&path, &format!("{}{t}{}", &text[..begin], &text[end..]));
    // the reader's levels are the measured ones, for every recognizer
    for (i, row) in CHECKS.iter().enumerate() {
        for rec in TABLE {
            let want = if error_for(i).iter().any(|(r, _)| *r == rec.name) {
                L::Error
            } else {
                L::Audit
            };
            assert_eq!(
                row.level_for(rec.name),
                want,
                "{} read by {}",
                row.name,
                rec.name
            );
        }
    }
}

/// Writes (`C12_BLESS=1`) or checks a generated file.
fn bless_file(path: &str, want: &str) {
    if std::env::var_os("C12_BLESS").is_some() {
        std::fs::write(path, want).expect("write a generated file");
    }
    assert!(
        std::fs::read_to_string(path).unwrap_or_default() == want,
        "{path} is out of date; rerun with C12_BLESS=1 and read the diff"
    );
}

/// Every value an `enum` declares, with its property's description,
/// anywhere in `v`.
fn enum_values<'a>(v: &'a Value, out: &mut Vec<(&'a str, String)>) {
    match v {
        Value::Object(o) => {
            if let (Some(Value::String(doc)), Some(Value::Array(values))) =
                (o.get("description"), o.get("enum"))
            {
                for value in values {
                    let text = match value {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    out.push((doc, text));
                }
            }
            o.values().for_each(|x| enum_values(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| enum_values(x, out)),
        _ => {}
    }
}

/// The compile-time enum check (C12's `set-narrower` on a Rust enum, in a
/// constant) and the audit decide alike whether a description names a
/// value as a word of its own: `__private::named_in` is the audit's
/// `named_elsewhere` written to run in a constant. Held to the same answer
/// on every (description, declared value) pair of the three false-alarm
/// sets, on each word-like piece of those descriptions, and on the edges.
#[test]
fn the_compile_time_check_names_values_as_the_audit_does() {
    use contract_prose::named_elsewhere;
    use contract_runtime::__private::named_in;
    let sets: Vec<Value> = SETS
        .iter()
        .map(|(_, t)| *t)
        .chain([
            include_str!("false_alarms2/sets.json"),
            include_str!("false_alarms3/sets.json"),
        ])
        .map(|t| serde_json::from_str(t).expect("a tool list"))
        .collect();
    let mut pairs = Vec::new();
    for set in &sets {
        enum_values(set, &mut pairs);
    }
    assert!(pairs.len() > 500, "{} pairs", pairs.len());
    let mut docs = Vec::new();
    for set in &sets {
        texts(set, &mut docs);
    }
    let mut checked = 0;
    let mut differ = Vec::new();
    let mut check = |doc: &str, v: &str| {
        checked += 1;
        if named_in(doc, v) != named_elsewhere(doc, v) {
            differ.push(format!("{v:?} in {doc:?}"));
        }
    };
    for (doc, v) in &pairs {
        check(doc, v);
    }
    for doc in docs.iter().take(400) {
        for piece in doc.split([' ', ',', '(', ')', '`', '"', '\'']) {
            check(doc, piece);
        }
    }
    let edges = [
        (
            "Allowed categories: TRAVEL, OFFICE SUPPLIES.",
            "office supplies",
            true,
        ),
        ("Region: us/eu.", "us/eu", true),
        ("We re-use it.", "use", false),
        ("Pin to v1.2 or later.", "v1", false),
        ("One of `open` or `closed`.", "Open", true),
        ("Ends on open", "open", true),
        ("open-ended", "open", false),
        ("Use open.", "open", true),
        ("Ünïcode open façade", "open", true),
        ("", "open", false),
        ("open", "", false),
    ];
    for (doc, v, want) in edges {
        assert_eq!(named_in(doc, v), want, "{v:?} in {doc:?}");
        check(doc, v);
    }
    assert!(
        differ.is_empty(),
        "{} of {checked} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
