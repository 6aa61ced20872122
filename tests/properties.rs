//! Property tests on stable Rust (cargo-fuzz needs a nightly toolchain that
//! CI machines cannot fetch): the argument decoder, the confined path type and
//! the streaming assemblers, against arbitrary and mutated input.
//!
//! Each property runs 256 cases by default; set `PROPTEST_CASES` to change
//! that. Failing inputs are not persisted to files: any that a run finds is
//! copied into an explicit regression test at the end of this file.

use toolbox as tools;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use contract_runtime::decode::{decode_args, Limits};
use contract_runtime::provider::{
    AnthropicAssembler, Assembled, ChatAssembler, ResponsesAssembler,
};
use contract_runtime::{ConfinedPath, Root, ToolArgs};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{json, Value};

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

// ================================================================== the decoder

/// A compiled validator per argument type, for the published input schema.
fn validator_for<T: ToolArgs>() -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&T::input_schema())
        .expect("the published schema compiles")
}

/// Decodes `raw` as `T`; when the runtime accepts, the published schema must accept too.
fn decode_agrees<T: ToolArgs>(
    raw: &str,
    validator: &jsonschema::Validator,
) -> Result<(), TestCaseError> {
    if decode_args::<T>(raw, &Limits::default()).is_ok() {
        let v: Value = serde_json::from_str(raw)
            .map_err(|e| TestCaseError::fail(format!("accepted text is not JSON: {e}: {raw:?}")))?;
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        prop_assert!(
            errors.is_empty(),
            "runtime accepted what the schema rejects: {raw}: {errors:?}"
        );
    }
    Ok(())
}

struct Validators {
    search: jsonschema::Validator,
    filings: jsonschema::Validator,
    tag: jsonschema::Validator,
    comment: jsonschema::Validator,
    replace: jsonschema::Validator,
    git: jsonschema::Validator,
}

fn validators() -> &'static Validators {
    static V: OnceLock<Validators> = OnceLock::new();
    V.get_or_init(|| Validators {
        search: validator_for::<tools::SearchNotesArgs>(),
        filings: validator_for::<tools::ListFilingsArgs>(),
        tag: validator_for::<tools::TagNotesArgs>(),
        comment: validator_for::<tools::PostCommentArgs>(),
        replace: validator_for::<tools::ReplaceTextArgs>(),
        git: validator_for::<tools::GitLogArgs>(),
    })
}

/// Every toolbox argument type at once.
fn decode_all(raw: &str) -> Result<(), TestCaseError> {
    let v = validators();
    decode_agrees::<tools::SearchNotesArgs>(raw, &v.search)?;
    decode_agrees::<tools::ListFilingsArgs>(raw, &v.filings)?;
    decode_agrees::<tools::TagNotesArgs>(raw, &v.tag)?;
    decode_agrees::<tools::PostCommentArgs>(raw, &v.comment)?;
    decode_agrees::<tools::ReplaceTextArgs>(raw, &v.replace)?;
    decode_agrees::<tools::GitLogArgs>(raw, &v.git)?;
    // Confined paths and the rest of the toolbox: decoding never panics.
    let _ = decode_args::<tools::ReadFileArgs>(raw, &Limits::default());
    let _ = decode_args::<tools::DeleteNoteArgs>(raw, &Limits::default());
    Ok(())
}

/// Valid arguments, one per tool, as mutation seeds.
const SEEDS: &[&str] = &[
    r#"{"query":"kv cache"}"#,
    r#"{"company":"ACME","year":2019}"#,
    r#"{"notes":["a.md","b-2.md"],"tag":"reviewed"}"#,
    r#"{"issue":7,"body":"Looks good.","request_key":"0b9f7a52-8c1e-4e5b-9a53-2f6d0c1e7a10"}"#,
    r#"{"path":"src/lib.rs","old_text":"41","new_text":"42","expected_version":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}"#,
    r#"{"rev":"HEAD~2","max_count":5}"#,
    r#"{"note":"a.md"}"#,
];

/// Fragments worth splicing into JSON: structure, escapes, numbers at the edges.
const SPLICES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "\\u00e9",
    "null",
    "true",
    "-",
    "0",
    "01",
    "1e400",
    "18446744073709551616",
    "-0",
    "2001.0",
    "65536",
    "4294967296",
    ".5",
    "NaN",
    " ",
    "\n",
    "\u{0}",
    "é",
    "／",
    "..",
    "/",
    r#""extra":1"#,
    r#""year":2019"#,
    r#""query":"#,
    "[[[[[[[[",
    "]]]]]]]]",
];

#[derive(Debug, Clone)]
enum Mutation {
    Insert(usize, usize),
    Delete(usize, usize),
    Replace(usize, usize, usize),
    Byte(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0..SPLICES.len()).prop_map(|(p, s)| Mutation::Insert(p, s)),
        (any::<usize>(), 1usize..8).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (any::<usize>(), 1usize..6, 0..SPLICES.len())
            .prop_map(|(p, n, s)| Mutation::Replace(p, n, s)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Byte(p, b)),
    ]
}

fn mutate(seed: &str, ms: &[Mutation]) -> String {
    let mut b = seed.as_bytes().to_vec();
    for m in ms {
        let at = |p: usize, len: usize| if len == 0 { 0 } else { p % (len + 1) };
        match *m {
            Mutation::Insert(p, s) => {
                let i = at(p, b.len());
                b.splice(i..i, SPLICES[s].bytes());
            }
            Mutation::Delete(p, n) => {
                let i = at(p, b.len());
                let j = (i + n).min(b.len());
                b.drain(i..j);
            }
            Mutation::Replace(p, n, s) => {
                let i = at(p, b.len());
                let j = (i + n).min(b.len());
                b.splice(i..j, SPLICES[s].bytes());
            }
            Mutation::Byte(p, x) => {
                let i = at(p, b.len());
                b.insert(i, x);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Arbitrary JSON values with the toolbox's keys, so that many are accepted.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("query".to_string()),
        Just("company".to_string()),
        Just("year".to_string()),
        Just("notes".to_string()),
        Just("tag".to_string()),
        Just("issue".to_string()),
        Just("body".to_string()),
        Just("request_key".to_string()),
        Just("rev".to_string()),
        Just("max_count".to_string()),
        Just("path".to_string()),
        "[a-z_]{1,6}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (1990u32..2030).prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f)
            .map(Value::Number)
            .unwrap_or(Value::Null)),
        "[A-Z]{1,6}".prop_map(Value::from),
        "[a-z0-9][a-z0-9_-]{0,5}\\.md".prop_map(Value::from),
        "[a-z][a-z0-9-]{0,4}".prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        Just(Value::from("0b9f7a52-8c1e-4e5b-9a53-2f6d0c1e7a10")),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

// ================================================================== confined paths

/// A root with a sub-directory, a file, and links that stay in and lead out;
/// beside it, `outside/` and a sibling sharing the root's name as a prefix.
struct PathFx {
    base: PathBuf,
    root_dir: PathBuf,
    canonical_root: PathBuf,
    root: Root,
}

fn path_fx() -> &'static PathFx {
    static FX: OnceLock<PathFx> = OnceLock::new();
    FX.get_or_init(|| {
        let base = std::env::temp_dir().join(format!("properties-paths-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root_dir = base.join("r");
        std::fs::create_dir_all(root_dir.join("sub/deeper")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::create_dir_all(base.join("r-evil")).unwrap();
        std::fs::write(root_dir.join("a"), "a").unwrap();
        std::fs::write(root_dir.join("sub/b"), "b").unwrap();
        std::fs::write(base.join("outside/s"), "s").unwrap();
        symlink("sub/..", root_dir.join("in")).unwrap();
        symlink("..", root_dir.join("up")).unwrap();
        symlink("../outside", root_dir.join("out")).unwrap();
        symlink("/etc", root_dir.join("abs")).unwrap();
        symlink("/nonexistent-properties", root_dir.join("dang")).unwrap();
        symlink("deeper/../..", root_dir.join("sub/back")).unwrap();
        symlink("../../..", root_dir.join("sub/deeper/esc")).unwrap();
        let canonical_root = std::fs::canonicalize(&root_dir).unwrap();
        let root = Root::open(&root_dir, "r").unwrap();
        PathFx {
            base,
            root_dir,
            canonical_root,
            root,
        }
    })
}

fn component() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("..".to_string()),
        Just(".".to_string()),
        Just("".to_string()),
        Just("a".to_string()),
        Just("sub".to_string()),
        Just("b".to_string()),
        Just("in".to_string()),
        Just("up".to_string()),
        Just("out".to_string()),
        Just("abs".to_string()),
        Just("dang".to_string()),
        Just("back".to_string()),
        Just("deeper".to_string()),
        Just("esc".to_string()),
        Just("r-evil".to_string()),
        Just("r".to_string()),
        Just("s".to_string()),
        Just("outside".to_string()),
        Just("\\".to_string()),
        Just("..\\..".to_string()),
        Just("\0".to_string()),
        Just("C:".to_string()),
        Just("．．".to_string()),
        Just("..／..".to_string()),
        Just("é".to_string()),
        "\\PC{1,4}",
    ]
}

fn path_string() -> impl Strategy<Value = String> {
    (any::<bool>(), prop::collection::vec(component(), 1..8)).prop_map(|(abs, cs)| {
        let p = cs.join("/");
        if abs {
            format!("/{p}")
        } else {
            p
        }
    })
}

/// Resolves `rel` under the root as the OS would: the deepest existing
/// ancestor, canonicalised (symlinks followed), must lie under the root.
fn resolves_inside(fx: &PathFx, rel: &str) -> Result<bool, String> {
    let full = fx.root_dir.join(rel);
    let mut cur: &Path = &full;
    loop {
        match std::fs::canonicalize(cur) {
            Ok(c) => return Ok(c.starts_with(&fx.canonical_root)),
            Err(_) => match std::fs::symlink_metadata(cur) {
                // A dangling link: the write would go wherever it points.
                Ok(m) if m.file_type().is_symlink() => return Ok(false),
                _ => {
                    cur = match cur.parent() {
                        Some(p) => p,
                        None => return Err(format!("no existing ancestor of {rel:?}")),
                    }
                }
            },
        }
    }
}

fn check_confinement(s: &str) -> Result<(), TestCaseError> {
    let fx = path_fx();
    let Ok(p) = ConfinedPath::parse(s) else {
        return Ok(());
    };
    prop_assert!(
        !s.contains('\0') && !s.contains('\\') && !s.starts_with('/'),
        "parse accepted {s:?}"
    );
    if fx.root.check(&p).is_ok() {
        let inside = resolves_inside(fx, s).map_err(TestCaseError::fail)?;
        prop_assert!(
            inside,
            "check accepted {s:?}, which resolves outside {}",
            fx.base.display()
        );
        // And the read goes no further than the check said.
        if let Ok(bytes) = fx.root.read(&p) {
            prop_assert!(bytes != b"s", "read {s:?} returned the outside file");
        }
    }
    Ok(())
}

// ================================================================== assemblers

/// Splits `text` at the given (sorted, deduplicated) char-boundary cut points.
fn split_at(text: &str, cuts: &[usize]) -> Vec<String> {
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|c| c % (text.len() + 1))
        .filter(|c| text.is_char_boundary(*c))
        .collect();
    points.sort_unstable();
    points.dedup();
    let mut out = Vec::new();
    let mut last = 0;
    for p in points {
        out.push(text[last..p].to_string());
        last = p;
    }
    out.push(text[last..].to_string());
    out
}

fn responses_events(parts: &[String], complete: bool) -> Vec<Value> {
    let mut ev = vec![
        json!({"type": "response.output_item.added", "output_index": 0,
        "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "search_notes", "arguments": ""}}),
    ];
    for p in parts {
        ev.push(json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": p}));
    }
    if complete {
        ev.push(json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call", "id": "fc_1"}}));
    }
    ev
}

fn chat_events(parts: &[String], complete: bool) -> Vec<Value> {
    let mut ev = vec![json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "search_notes", "arguments": ""}}]}}]})];
    for p in parts {
        ev.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": p}}]}}]}));
    }
    if complete {
        ev.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    }
    ev
}

fn anthropic_events(parts: &[String], complete: bool) -> Vec<Value> {
    let mut ev = vec![json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "tool_use", "id": "call_1", "name": "search_notes", "input": {}}})];
    for p in parts {
        ev.push(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": p}}));
    }
    if complete {
        ev.push(json!({"type": "content_block_stop", "index": 0}));
        ev.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}));
    }
    ev
}

/// Replays `events` through all three assemblers; returns what each yielded, `finish` included.
fn assemble(parts: &[String], complete: bool) -> Vec<(&'static str, Vec<Assembled>)> {
    let mut r = ResponsesAssembler::new();
    let mut out_r: Vec<Assembled> = responses_events(parts, complete)
        .iter()
        .flat_map(|e| r.push(e))
        .collect();
    out_r.extend(r.finish());
    let mut c = ChatAssembler::new();
    let mut out_c: Vec<Assembled> = chat_events(parts, complete)
        .iter()
        .flat_map(|e| c.push(e))
        .collect();
    out_c.extend(c.finish());
    let mut a = AnthropicAssembler::new();
    let mut out_a: Vec<Assembled> = anthropic_events(parts, complete)
        .iter()
        .flat_map(|e| a.push(e))
        .collect();
    out_a.extend(a.finish());
    vec![("responses", out_r), ("chat", out_c), ("anthropic", out_a)]
}

fn arguments_object() -> impl Strategy<Value = String> {
    prop::collection::btree_map("[a-z_]{1,8}", json_value(), 0..5)
        .prop_map(|m| Value::Object(m.into_iter().collect()).to_string())
}

// ================================================================== properties

proptest! {
    #![proptest_config(config())]

    #[test]
    fn decoder_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        decode_all(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn decoder_survives_mutated_valid_json(seed in 0..SEEDS.len(), ms in prop::collection::vec(mutation(), 1..6)) {
        decode_all(&mutate(SEEDS[seed], &ms))?;
    }

    #[test]
    fn decoder_accepts_only_what_the_schema_accepts(v in json_value()) {
        decode_all(&v.to_string())?;
    }

    #[test]
    fn accepted_paths_resolve_under_the_root(s in path_string()) {
        check_confinement(&s)?;
    }

    #[test]
    fn arbitrary_path_text_is_confined(s in "\\PC{0,40}") {
        check_confinement(&s)?;
    }

    #[test]
    fn any_split_of_the_arguments_yields_exactly_the_call(args in arguments_object(), cuts in prop::collection::vec(any::<usize>(), 0..12)) {
        let parts = split_at(&args, &cuts);
        prop_assert_eq!(parts.concat(), args.clone());
        for (name, out) in assemble(&parts, true) {
            prop_assert_eq!(out.len(), 1, "{}: {:?}", name, out);
            match &out[0] {
                Assembled::Call(call) => {
                    prop_assert_eq!(&call.id, "call_1");
                    prop_assert_eq!(&call.name, "search_notes");
                    prop_assert_eq!(&call.arguments, &args, "{}", name);
                }
                Assembled::Error(e) => prop_assert!(false, "{}: {}", name, e),
                other => prop_assert!(false, "{}: {:?}", name, other),
            }
        }
    }

    #[test]
    fn any_truncation_yields_no_call_and_an_error(args in arguments_object(), cut in any::<usize>(), cuts in prop::collection::vec(any::<usize>(), 0..8), complete in any::<bool>()) {
        // A proper, non-empty prefix of an object's text (serde_json writes no
        // trailing whitespace). The empty prefix is in `regressions`: Anthropic
        // reads a finished block with no input deltas as `{}`.
        let mut end = 1 + cut % (args.len() - 1);
        while !args.is_char_boundary(end) {
            end -= 1;
        }
        let prefix = &args[..end];
        let parts = split_at(prefix, &cuts);
        for (name, out) in assemble(&parts, complete) {
            prop_assert!(out.iter().all(|a| !matches!(a, Assembled::Call(_))), "{}: a cut call came out: {:?}", name, out);
            prop_assert!(out.iter().any(|a| matches!(a, Assembled::Error(_))), "{}: no error for a cut call", name);
        }
    }
}

// ================================================================== regressions

/// Inputs the properties above found or that sit on their edges, kept explicit.
#[test]
fn regressions() {
    for raw in [
        "",
        "{",
        "{\"query\":\"\\ud800\"}",
        "{\"year\":1e400}",
        "{\"notes\":[\"a.md\",\"a.md\"],\"tag\":\"x\"}",
        "\u{feff}{}",
        "{\"year\":2001.0,\"company\":\"ACME\"}",
    ] {
        decode_all(raw).unwrap();
    }
    for p in [
        "up/r-evil",
        "sub/back/../outside",
        "sub/deeper/esc/outside/s",
        "in/in/in/a",
        "dang",
        "out/s",
        "abs/passwd",
        ".",
        "sub/..",
    ] {
        check_confinement(p).unwrap();
    }
    let fx = path_fx();
    assert!(fx.root.check(&ConfinedPath::parse("in/a").unwrap()).is_ok());
    assert!(fx
        .root
        .check(&ConfinedPath::parse("up/r/a").unwrap())
        .is_err());
    // An empty argument text on Anthropic means `{}` when the message
    // stopped for the call; on the others it is cut.
    for (name, out) in assemble(&[], true) {
        assert_eq!(out.len(), 1, "{name}");
        assert_eq!(
            matches!(out[0], Assembled::Call(_)),
            name == "anthropic",
            "{name}: {out:?}"
        );
    }
}
