//! Rules across arguments (`rules(...)`): what each publishes in the
//! canonical schema and in every dialect, and the envelope a model sees when
//! a call breaks one.

use std::sync::Arc;

use contract_runtime::decode::{decode_args, DecodeError, Limits};
use contract_runtime::dialect::{export, Dialect, ExportOptions};
use contract_runtime::envelope::ErrorEntry;
use contract_runtime::prelude::*;
use serde_json::{json, Value};

/// Which messages to list.
#[derive(ToolArgs, Debug)]
#[args(rules(
    exactly_one_of(mailbox, thread),
    at_most_one_of(unread, flagged, starred),
    requires(page => per_page),
    le(min_size, max_size),
    max_span(min_size, max_size, 1000),
    check(cheap_enough, "a `query` is at most `per_page` characters long")
))]
pub struct ListMessages {
    /// The mailbox to list.
    pub mailbox: Option<String>,
    /// The thread to list.
    pub thread: Option<String>,
    /// Only unread messages.
    pub unread: Option<bool>,
    /// Only flagged messages.
    pub flagged: Option<bool>,
    /// Only starred messages.
    pub starred: Option<bool>,
    /// The page to return.
    pub page: Option<u32>,
    /// Messages per page.
    pub per_page: Option<u32>,
    /// Smallest size in bytes.
    pub min_size: Option<u64>,
    /// Largest size in bytes.
    pub max_size: Option<u64>,
    /// Words to match.
    pub query: Option<String>,
}

fn cheap_enough(a: &ListMessages) -> Vec<RuleViolation> {
    match (&a.query, a.per_page) {
        (Some(q), Some(n)) if q.len() > n as usize => vec![RuleViolation::new(
            &["query", "per_page"],
            format!("is longer ({} characters) than `per_page` allows", q.len()),
            "shorten the query or raise per_page",
        )],
        _ => Vec::new(),
    }
}

fn decode(args: Value) -> Result<ListMessages, Vec<ErrorEntry>> {
    decode_args::<ListMessages>(&args.to_string(), &Limits::default())
        .map_err(DecodeError::into_errors)
}

/// `(field, keyword)` of each error.
fn fields(errs: &[ErrorEntry]) -> Vec<(String, String)> {
    errs.iter()
        .map(|e| {
            (
                e.field.clone().unwrap_or_default(),
                e.constraint
                    .as_ref()
                    .map(|c| c.keyword.clone())
                    .unwrap_or_default(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[test]
fn the_schema_publishes_what_json_schema_can_say_and_words_for_the_rest() {
    let s = ListMessages::input_schema();
    // "Sent" is present and not null: a null optional argument is left out.
    let sent = |names: &[&str]| {
        let props: serde_json::Map<String, Value> = names
            .iter()
            .map(|n| ((*n).to_owned(), json!({"not": {"type": "null"}})))
            .collect();
        json!({"required": names, "properties": props})
    };
    assert_eq!(
        s["allOf"],
        json!([
            {"description": "send exactly one of `mailbox` or `thread`",
             "oneOf": [sent(&["mailbox"]), sent(&["thread"])]},
            {"description": "send at most one of `unread`, `flagged` or `starred`",
             "not": {"anyOf": [
                 sent(&["unread", "flagged"]),
                 sent(&["unread", "starred"]),
                 sent(&["flagged", "starred"])]}},
            {"description": "when `page` is sent, send `per_page` too",
             "if": sent(&["page"]), "then": sent(&["per_page"])}
        ])
    );
    assert_eq!(
        s["description"],
        json!("Which messages to list.\n\nRules across arguments: `min_size` must be less than or equal to `max_size`; `max_size` minus `min_size` must be at most 1000; a `query` is at most `per_page` characters long.")
    );
}

#[test]
fn a_valid_call_passes_on_both_paths() {
    let ok = json!({"mailbox": "inbox", "unread": true, "page": 2, "per_page": 10, "min_size": 5, "max_size": 5});
    assert!(decode(ok.clone()).is_ok());
    // The slow path (a duplicate-free but unknown-key-free tree): same verdict.
    let with_null_free_reorder =
        json!({"per_page": 10, "page": 2, "unread": true, "mailbox": "inbox"});
    assert!(decode(with_null_free_reorder).is_ok());
}

#[test]
fn exactly_one_of_names_every_argument_involved() {
    let errs = decode(json!({})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/mailbox", "oneOf"), ("/thread", "oneOf")])
    );
    assert_eq!(
        errs[0].message,
        "`/mailbox` is missing: exactly one of `mailbox` or `thread` is required"
    );
    assert_eq!(
        errs[0].constraint.as_ref().unwrap().limit,
        Some(json!(["mailbox", "thread"]))
    );
    let errs = decode(json!({"mailbox": "a", "thread": "b"})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/mailbox", "oneOf"), ("/thread", "oneOf")])
    );
    assert_eq!(
        errs[1].message,
        "`/thread` cannot be sent together with `mailbox`"
    );
    assert_eq!(
        errs[1].repair.as_ref().unwrap().hint,
        "send only one of `mailbox` or `thread`: remove the others"
    );
}

#[test]
fn at_most_one_of_names_the_ones_sent() {
    let errs = decode(json!({"mailbox": "a", "unread": true, "starred": false})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/unread", "not"), ("/starred", "not")])
    );
}

#[test]
fn requires_names_both_sides() {
    let errs = decode(json!({"mailbox": "a", "page": 3})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/page", "then"), ("/per_page", "then")])
    );
    assert_eq!(errs[0].message, "`/page` needs `per_page` to be sent too");
    assert_eq!(
        errs[1].message,
        "`/per_page` is required when `page` is sent"
    );
    assert_eq!(
        errs[0].constraint.as_ref().unwrap().limit,
        Some(json!({"page": ["per_page"]}))
    );
}

#[test]
fn comparisons_and_spans_show_the_values() {
    let errs = decode(json!({"mailbox": "a", "min_size": 10, "max_size": 2})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/min_size", "le"), ("/max_size", "le")])
    );
    assert_eq!(
        errs[0].message,
        "`/min_size` must be less than or equal to `max_size` (2)"
    );
    assert_eq!(
        errs[1].message,
        "`/max_size` must be greater than or equal to `min_size` (10)"
    );
    let c = errs[0].constraint.as_ref().unwrap();
    assert_eq!(
        (c.limit.clone(), c.actual.clone()),
        (Some(json!(2)), Some(json!(10)))
    );

    let errs = decode(json!({"mailbox": "a", "min_size": 1, "max_size": 5000})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/min_size", "max_span"), ("/max_size", "max_span")])
    );
    assert_eq!(
        errs[0].message,
        "`/min_size` starts a range of 4999 to `max_size`; at most 1000 is allowed"
    );
    assert_eq!(
        errs[1].message,
        "`/max_size` ends a range of 4999 from `min_size`; at most 1000 is allowed"
    );
    assert_eq!(
        errs[0].repair.as_ref().unwrap().hint,
        "narrow the range to at most 1000, or split it into several calls"
    );
}

#[test]
fn a_check_function_reports_typed_violations() {
    let errs = decode(json!({"mailbox": "a", "query": "long words", "per_page": 3})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/query", "cheap_enough"), ("/per_page", "cheap_enough")])
    );
    assert_eq!(
        errs[0].message,
        "`/query` is longer (10 characters) than `per_page` allows"
    );
}

#[test]
fn the_slow_path_checks_the_rules_too() {
    // A float where an integer is expected sends the call down the slow path
    // (JSON Schema counts 3.0 as an integer); the rules still run there.
    let errs =
        decode(json!({"mailbox": "a", "thread": "b", "page": 1.0, "per_page": 3})).unwrap_err();
    assert_eq!(
        fields(&errs),
        pairs(&[("/mailbox", "oneOf"), ("/thread", "oneOf")])
    );
}

// ------------------------------------------------------------------ inline arguments and dialects

/// Lists messages in a mailbox or a thread.
#[tool_contract(
    effect = read_only,
    rules(exactly_one_of(mailbox, thread), requires(page => per_page), le(min_size, max_size))
)]
fn list_messages(
    /// The mailbox to list.
    mailbox: Option<String>,
    /// The thread to list.
    thread: Option<String>,
    /// The page to return.
    page: Option<u32>,
    /// Messages per page.
    per_page: Option<u32>,
    /// Smallest size in bytes.
    min_size: Option<u64>,
    /// Largest size in bytes.
    max_size: Option<u64>,
) -> Result<usize, NoFailure> {
    let _ = (mailbox, thread, page, per_page, min_size, max_size);
    Ok(0)
}

/// No failure.
#[derive(ToolFailure, Debug)]
pub enum NoFailure {
    /// Never happens.
    #[failure(code = "never", message = "never")]
    Never,
}

fn registry() -> Registry {
    Registry::builder()
        .tool(list_messages::contract())
        .build()
        .expect("the registry builds")
}

#[test]
fn inline_rules_reach_the_envelope() {
    let d = Dispatcher::new(registry());
    let caller = Arc::new(Caller::new());
    let call = ToolCall::new("c1", "list_messages", json!({"page": 1}).to_string());
    let env = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(d.dispatch(&caller, &call));
    let v = serde_json::to_value(&env).unwrap();
    assert_eq!(v["status"], "invalid");
    let got: Vec<(Value, Value)> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["field"].clone(), e["constraint"]["keyword"].clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (json!("/mailbox"), json!("oneOf")),
            (json!("/thread"), json!("oneOf")),
            (json!("/page"), json!("then")),
            (json!("/per_page"), json!("then")),
        ]
    );
}

#[test]
fn every_dialect_carries_or_states_each_rule_and_reports_the_loss() {
    let defs = registry().canonical();
    assert_eq!(
        defs[0]["rules"],
        json!([
            {"rule": "exactly_one_of", "keyword": "oneOf", "arguments": ["mailbox", "thread"], "in_schema": true, "text": "send exactly one of `mailbox` or `thread`"},
            {"rule": "requires", "keyword": "then", "arguments": ["page", "per_page"], "in_schema": true, "text": "when `page` is sent, send `per_page` too"},
            {"rule": "le", "keyword": "le", "arguments": ["min_size", "max_size"], "in_schema": false, "text": "`min_size` must be less than or equal to `max_size`"},
        ])
    );
    for d in Dialect::ALL.iter().copied() {
        let out =
            export(&defs, d, &ExportOptions::default()).unwrap_or_else(|e| panic!("{d}: {e}"));
        let losses: Vec<(String, String, String)> = out
            .losses
            .iter()
            .map(|l| {
                (
                    l.pointer.clone(),
                    l.keyword.clone(),
                    l.action.id().to_owned(),
                )
            })
            .collect();
        let le = (
            String::new(),
            "le".to_owned(),
            "moved-to-description".to_owned(),
        );
        assert!(losses.contains(&le), "{d}: {losses:?}");
        let text = out.tools[0].to_string();
        assert!(
            text.contains("`min_size` must be less than or equal to `max_size`"),
            "{d}: {text}"
        );
        // The presence rules: kept as JSON Schema (with their words), or
        // stated in the description and reported.
        let kept = text.contains(r#""oneOf":[{"required":["mailbox"]"#);
        assert_eq!(
            kept,
            text.contains(r#""then":{"required":["per_page"]"#),
            "{d}: {text}"
        );
        assert!(
            text.contains("send exactly one of `mailbox` or `thread`"),
            "{d}: {text}"
        );
        assert!(
            text.contains("when `page` is sent, send `per_page` too"),
            "{d}: {text}"
        );
        let moved = losses.iter().filter(|l| l.1 == "allOf").count();
        assert_eq!(moved, if kept { 0 } else { 2 }, "{d}: {losses:?}");
        println!(
            "{d}: {} losses; presence rules kept as JSON Schema: {kept}",
            losses.len()
        );
    }
}

/// The GBNF export has no grammar for rules across arguments (a grammar
/// writes one argument after the other): each is an omission that names
/// the rule as the user wrote it, and the runtime enforces it.
#[test]
fn the_gbnf_export_names_each_rule_it_leaves_to_the_runtime() {
    use contract_runtime::dialect::gbnf;
    let defs = registry().canonical();
    let g = gbnf::arguments(&defs[0], &gbnf::GbnfOptions::default())
        .expect("a grammar without the rules");
    let why: Vec<(&str, &str)> = g
        .omissions
        .iter()
        .map(|o| (o.keyword.as_str(), o.why.as_str()))
        .collect();
    assert_eq!(
        why,
        vec![
            (
                "oneOf",
                "rule exactly_one_of(mailbox, thread) cannot be expressed in GBNF; it is enforced at run time"
            ),
            (
                "then",
                "rule requires(page, per_page) cannot be expressed in GBNF; it is enforced at run time"
            ),
            (
                "le",
                "rule le(min_size, max_size) cannot be expressed in GBNF; it is enforced at run time"
            ),
        ]
    );
    // The grammar itself has no trace of the root allOf.
    assert!(!g.text.contains("allOf"), "{}", g.text);
}
