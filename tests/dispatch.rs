//! The dispatcher's pipeline, stage by stage, through tools declared here:
//! decode and validate (nested types, enums, options), authority, approval,
//! idempotency, timeouts, panics, retries and batches. Each test asserts the
//! envelope a model would see.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use contract_runtime::policy::breaker::BreakerConfig;
use contract_runtime::prelude::*;
use serde_json::{json, Value};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

fn call(name: &str, args: Value) -> ToolCall {
    ToolCall::new(format!("call-{name}"), name, args.to_string())
}

fn run(d: &Dispatcher, caller: &Arc<Caller>, name: &str, args: Value) -> Envelope {
    rt().block_on(d.dispatch(caller, &call(name, args)))
}

// ------------------------------------------------------------------ nested arguments

/// How to sort.
#[derive(ToolArgs, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    NewestFirst,
    OldestFirst,
    #[serde(rename = "by-title")]
    Title,
}

/// A window of time.
#[derive(ToolArgs, Debug)]
pub struct Window {
    /// First day, inclusive.
    #[arg(format = "date")]
    pub from: String,
    /// Days to cover.
    #[arg(range(min = 1, max = 31))]
    pub days: u8,
}

/// A label to match.
#[derive(ToolArgs, Debug)]
pub struct Label {
    /// The label's name.
    #[arg(length(min = 1, max = 20))]
    pub name: String,
    /// Weight of the label in ranking.
    #[arg(range(exclusive_min = 0.0, max = 1.0))]
    pub weight: f64,
}

/// Find events.
#[derive(ToolArgs, Debug)]
pub struct FindEvents {
    /// When.
    pub window: Window,
    /// Labels to match.
    #[arg(length(max = 5))]
    pub labels: Vec<Label>,
    /// How to sort.
    pub order: Option<Order>,
    /// Contact address for the report.
    #[arg(format = "email")]
    pub notify: Option<String>,
}

#[derive(serde::Serialize, JsonSchema)]
pub struct Found {
    pub order: String,
    pub labels: usize,
}

#[derive(Debug, ToolFailure)]
pub enum FindError {
    /// Never happens here.
    #[failure(code = "index-down", transient)]
    Down,
}

/// Find events in a window of time, by label.
#[tool_contract(effect = read_only)]
pub async fn find_events(args: FindEvents) -> Result<Found, FindError> {
    Ok(Found {
        order: format!("{:?}", args.order),
        labels: args.labels.len(),
    })
}

#[test]
fn nested_enums_and_options_decode_and_publish_one_schema() {
    let reg = Registry::builder()
        .tool(find_events::contract())
        .build()
        .unwrap();
    let d = Dispatcher::new(reg);
    let caller = Arc::new(Caller::new());
    let ok = run(
        &d,
        &caller,
        "find_events",
        json!({"window": {"from": "2024-02-29", "days": 3}, "labels": [{"name": "a", "weight": 0.5}], "order": "by-title"}),
    );
    assert_eq!(ok.status, Status::Ok, "{ok:?}");
    assert_eq!(ok.result, json!({"order": "Some(Title)", "labels": 1}));

    let null_order = run(
        &d,
        &caller,
        "find_events",
        json!({"window": {"from": "2024-02-29", "days": 3}, "labels": [], "order": null, "notify": null}),
    );
    assert_eq!(null_order.status, Status::Ok);

    let bad = run(
        &d,
        &caller,
        "find_events",
        json!({"window": {"from": "2023-02-29", "days": 0, "hours": 1}, "labels": [{"name": "", "weight": 0.0}, {"name": "b", "weight": 2}], "order": "newest", "notify": "not-an-email"}),
    );
    assert_eq!(bad.status, Status::Invalid);
    let got: Vec<(String, String)> = bad
        .errors
        .iter()
        .map(|e| {
            (
                e.field.clone().unwrap(),
                e.constraint.as_ref().unwrap().keyword.clone(),
            )
        })
        .collect();
    let want = [
        ("/window/hours", "additionalProperties"),
        ("/window/from", "format"),
        ("/window/days", "minimum"),
        ("/labels/0/name", "minLength"),
        ("/labels/0/weight", "exclusiveMinimum"),
        ("/labels/1/weight", "maximum"),
        ("/order", "enum"),
        ("/notify", "format"),
    ];
    for (f, k) in want {
        assert!(
            got.contains(&(f.to_string(), k.to_string())),
            "missing {f} {k} in {got:?}"
        );
    }
    assert_eq!(got.len(), want.len(), "{got:?}");
    // "an email", not "a email"
    let notify = bad
        .errors
        .iter()
        .find(|e| e.field.as_deref() == Some("/notify"));
    let hint = notify
        .and_then(|e| e.repair.as_ref())
        .map(|r| r.hint.as_str());
    assert!(
        hint.is_some_and(|h| h.starts_with("send an email such as ")),
        "{hint:?}"
    );

    let schema = find_events::contract().input_schema();
    assert_eq!(
        schema["properties"]["order"]["enum"],
        json!(["newest-first", "oldest-first", "by-title", null])
    );
    assert_eq!(
        schema["properties"]["window"]["properties"]["days"],
        json!({"type": "integer", "minimum": 1, "maximum": 31, "description": "Days to cover."})
    );
    assert_eq!(
        schema["properties"]["labels"]["items"]["properties"]["weight"]["exclusiveMinimum"],
        json!(0.0)
    );
    assert_eq!(schema["required"], json!(["window", "labels"]));
    assert_eq!(schema["additionalProperties"], json!(false));
    assert_eq!(
        schema["properties"]["window"]["additionalProperties"],
        json!(false)
    );
}

// ------------------------------------------------------------------ run stage: panics, timeouts, retries

#[derive(serde::Serialize, JsonSchema)]
pub struct Done {
    pub done: bool,
}

#[derive(Debug, ToolFailure)]
pub enum Flaky {
    /// The upstream is busy.
    #[failure(code = "upstream-busy", transient)]
    Busy,
    /// The connection dropped after the request was sent.
    #[failure(code = "connection-reset", unknown)]
    Reset,
}

/// Panics, for the test.
#[tool_contract(effect = read_only)]
pub fn read_panics(
    /// Ignored.
    #[arg(length(max = 5))]
    x: String,
) -> Result<Done, Flaky> {
    panic!("boom {x}")
}

/// Panics after writing, for the test.
#[tool_contract(effect = reversible, idempotency = none)]
pub fn write_panics(
    /// Ignored.
    #[arg(length(max = 5))]
    x: String,
) -> Result<Done, Flaky> {
    panic!("boom {x}")
}

/// Sleeps past its timeout.
#[tool_contract(effect = read_only, timeout_ms = 50)]
pub async fn slow_read(
    /// Milliseconds to sleep.
    #[arg(range(max = 10000))]
    ms: u64,
) -> Result<Done, Flaky> {
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    Ok(Done { done: true })
}

/// Sleeps past its timeout, in a sync handler.
#[tool_contract(effect = external, idempotency = none, approval = never, timeout_ms = 50)]
pub fn slow_sync_write(
    /// Milliseconds to sleep.
    #[arg(range(max = 10000))]
    ms: u64,
) -> Result<Done, Flaky> {
    std::thread::sleep(std::time::Duration::from_millis(ms));
    Ok(Done { done: true })
}

static SLOW_RETRIED_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Sleeps past its timeout, in a sync handler, with a retry policy.
#[tool_contract(effect = read_only, timeout_ms = 50, retry(attempts = 3, backoff_ms = 1))]
pub fn slow_retried_read(
    /// Milliseconds to sleep.
    #[arg(range(max = 10000))]
    ms: u64,
) -> Result<Done, Flaky> {
    SLOW_RETRIED_RUNS.fetch_add(1, Ordering::SeqCst);
    std::thread::sleep(std::time::Duration::from_millis(ms));
    Ok(Done { done: true })
}

static FLAKY_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Fails twice, then succeeds.
#[tool_contract(effect = read_only, retry(attempts = 3, backoff_ms = 1))]
pub fn flaky_read(
    /// Which run succeeds.
    #[arg(range(min = 1, max = 10))]
    succeed_on: usize,
) -> Result<Done, Flaky> {
    let n = FLAKY_RUNS.fetch_add(1, Ordering::SeqCst) + 1;
    if n < succeed_on {
        Err(Flaky::Busy)
    } else {
        Ok(Done { done: true })
    }
}

/// Always busy, whatever the region.
#[tool_contract(effect = read_only)]
pub fn busy_read(
    /// Which region to ask.
    #[arg(range(max = 100))]
    region: u32,
) -> Result<Done, Flaky> {
    let _ = region;
    Err(Flaky::Busy)
}

static RESET_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Sends a request whose answer is lost.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never)]
pub fn lossy_send(
    /// A fresh UUID per request.
    #[arg(format = "uuid")]
    request_key: String,
    /// Payload.
    #[arg(length(max = 100))]
    body: String,
) -> Result<Done, Flaky> {
    let _ = (request_key, body);
    RESET_RUNS.fetch_add(1, Ordering::SeqCst);
    Err(Flaky::Reset)
}

fn run_stage_dispatcher() -> Dispatcher {
    let reg = Registry::builder()
        .tool(read_panics::contract())
        .tool(write_panics::contract())
        .tool(slow_read::contract())
        .tool(slow_sync_write::contract())
        .tool(slow_retried_read::contract())
        .tool(flaky_read::contract())
        .tool(lossy_send::contract())
        .tool(busy_read::contract())
        .tool(send_each::contract())
        .build()
        .unwrap();
    Dispatcher::new(reg)
}

/// Sends one message per recipient: `ok…` is delivered, `reset…` loses its
/// answer after sending, `busy…` is refused before sending.
#[tool_contract(effect = external, idempotency = none, approval = never)]
pub fn send_each(
    /// The recipients.
    #[arg(length(min = 1, max = 5), each(length(min = 1, max = 20)))]
    to: Vec<String>,
) -> Batch<Done, Flaky> {
    to.into_iter()
        .map(|t| {
            let r = if t.starts_with("reset") {
                Err(Flaky::Reset)
            } else if t.starts_with("busy") {
                Err(Flaky::Busy)
            } else {
                Ok(Done { done: true })
            };
            (t, r)
        })
        .collect()
}

/// The mean of some numbers (none: NaN, which JSON writes as null).
#[derive(serde::Serialize, JsonSchema)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// How many numbers, when any.
    pub count: Option<u32>,
}

/// Averages numbers, carelessly: no numbers give NaN.
#[tool_contract(effect = read_only)]
pub fn average(
    /// The numbers.
    #[arg(length(max = 10))]
    xs: Vec<f64>,
) -> Result<Mean, Flaky> {
    let n = xs.len();
    Ok(Mean {
        mean: xs.iter().sum::<f64>() / n as f64,
        count: (n > 0).then_some(n as u32),
    })
}

#[test]
fn a_result_that_breaks_its_own_output_schema_is_never_ok() {
    let d = Dispatcher::new(
        Registry::builder()
            .tool(average::contract())
            .build()
            .unwrap(),
    );
    let caller = Arc::new(Caller::new());
    let fine = run(&d, &caller, "average", json!({"xs": [1.0, 2.0]}));
    assert_eq!(fine.status, Status::Ok, "{fine:?}");
    assert_eq!(fine.result, json!({"mean": 1.5, "count": 2}));
    let nan = run(&d, &caller, "average", json!({"xs": []}));
    assert_eq!(
        (nan.status, nan.codes(), nan.result.clone()),
        (
            Status::Failed,
            vec!["output-contract-violation"],
            Value::Null
        ),
        "{nan:?}"
    );
    assert!(
        nan.errors[0].message.contains("`/mean`"),
        "{}",
        nan.errors[0].message
    );
}

#[test]
fn a_batch_item_of_unknown_outcome_makes_the_batch_unsafe_to_replay() {
    let d = run_stage_dispatcher();
    let caller = Arc::new(Caller::new());
    let unknown = run(
        &d,
        &caller,
        "send_each",
        json!({"to": ["reset-1", "busy-1"]}),
    );
    assert_eq!(
        (
            unknown.status,
            unknown.retry_safe,
            unknown.completed,
            unknown.failed
        ),
        (Status::Unknown, false, Some(0), Some(2)),
        "{unknown:?}"
    );
    assert_eq!(
        unknown.codes(),
        ["connection-reset", "unknown-outcome", "upstream-busy"]
    );
    assert_eq!(unknown.errors[1].item.as_deref(), Some("reset-1"));
    assert_eq!(unknown.result, Value::Null);

    let partial = run(&d, &caller, "send_each", json!({"to": ["ok-1", "reset-1"]}));
    assert_eq!(
        (
            partial.status,
            partial.retry_safe,
            partial.completed,
            partial.failed
        ),
        (Status::Partial, false, Some(1), Some(1)),
        "{partial:?}"
    );
    assert!(partial.codes().contains(&"unknown-outcome"));

    // Known failures only: nothing happened, so sending again is safe.
    let failed = run(
        &d,
        &caller,
        "send_each",
        json!({"to": ["busy-1", "busy-2"]}),
    );
    assert_eq!(
        (failed.status, failed.retry_safe),
        (Status::Failed, true),
        "{failed:?}"
    );
}

#[test]
fn a_tool_that_keeps_failing_transiently_rests_and_says_so() {
    let d = run_stage_dispatcher()
        .with_breaker(BreakerConfig::default().with_tool_transient_failures(3));
    let caller = Arc::new(Caller::new());
    // Four regions, each failing once: no call repeats, the tool as a whole fails.
    for region in 0..4 {
        let env = run(&d, &caller, "busy_read", json!({ "region": region }));
        assert_eq!(env.codes(), ["upstream-busy"]);
    }
    let env = run(&d, &caller, "busy_read", json!({"region": 50}));
    assert_eq!(
        (env.status, env.codes()),
        (Status::Failed, vec!["circuit-open"])
    );
    let e = &env.errors[0];
    assert!(e.message.contains("rests"), "{}", e.message);
    let hint = e.repair.as_ref().map(|r| r.hint.as_str()).unwrap();
    assert!(hint.starts_with("wait retry_after_ms"), "{hint}");
    assert!(e.retry_after_ms.is_some_and(|ms| ms > 0));
}

#[test]
fn a_panic_is_failed_for_reads_and_unknown_for_writes() {
    let d = run_stage_dispatcher();
    let caller = Arc::new(Caller::new());
    let r = run(&d, &caller, "read_panics", json!({"x": "a"}));
    assert_eq!(
        (r.status, r.codes(), r.retry_safe),
        (Status::Failed, vec!["internal"], true)
    );
    let w = run(&d, &caller, "write_panics", json!({"x": "a"}));
    assert_eq!(
        (w.status, w.codes(), w.retry_safe),
        (Status::Unknown, vec!["internal", "unknown-outcome"], false)
    );
}

#[test]
fn a_timeout_is_failed_for_reads_and_unknown_for_writes() {
    let d = run_stage_dispatcher();
    let caller = Arc::new(Caller::new());
    let r = run(&d, &caller, "slow_read", json!({"ms": 2000}));
    assert_eq!((r.status, r.codes()), (Status::Failed, vec!["timeout"]));
    assert!(
        r.errors[0].message.contains("50 ms"),
        "{}",
        r.errors[0].message
    );
    let w = run(&d, &caller, "slow_sync_write", json!({"ms": 500}));
    assert_eq!(
        (w.status, w.codes(), w.retry_safe),
        (Status::Unknown, vec!["timeout", "unknown-outcome"], false)
    );
    let fast = run(&d, &caller, "slow_read", json!({"ms": 1}));
    assert_eq!(fast.status, Status::Ok);
}

/// A timeout is not a transient failure: a retry policy does not run the
/// handler again (the attempt that timed out may still be running on the
/// blocking pool), and the answer comes when the timeout says.
#[test]
fn a_read_that_timed_out_is_not_retried() {
    let d = run_stage_dispatcher();
    let caller = Arc::new(Caller::new());
    let r = run(&d, &caller, "slow_retried_read", json!({"ms": 400}));
    assert_eq!((r.status, r.codes()), (Status::Failed, vec!["timeout"]));
    assert_eq!(
        SLOW_RETRIED_RUNS.load(Ordering::SeqCst),
        1,
        "the handler ran again"
    );
}

#[test]
fn transient_failures_of_a_retry_safe_tool_are_retried_up_to_the_policy() {
    let d = run_stage_dispatcher();
    let caller = Arc::new(Caller::new());
    FLAKY_RUNS.store(0, Ordering::SeqCst);
    let ok = run(&d, &caller, "flaky_read", json!({"succeed_on": 3}));
    assert_eq!(ok.status, Status::Ok);
    assert_eq!(FLAKY_RUNS.load(Ordering::SeqCst), 3);

    FLAKY_RUNS.store(0, Ordering::SeqCst);
    let gave_up = run(&d, &caller, "flaky_read", json!({"succeed_on": 9}));
    assert_eq!(
        (gave_up.status, gave_up.codes(), gave_up.retry_safe),
        (Status::Failed, vec!["upstream-busy"], true)
    );
    assert_eq!(gave_up.errors[0].retry_safe, Some(true));
    assert_eq!(
        FLAKY_RUNS.load(Ordering::SeqCst),
        3,
        "three attempts, no more"
    );
}

#[test]
fn an_unknown_outcome_is_never_retried_and_its_key_stays_unknown() {
    let d = run_stage_dispatcher();
    let caller = Arc::new(Caller::new());
    RESET_RUNS.store(0, Ordering::SeqCst);
    let key = "6f1c0d4e-2a3b-4c5d-8e9f-a0b1c2d3e4f5";
    let first = run(
        &d,
        &caller,
        "lossy_send",
        json!({"request_key": key, "body": "hi"}),
    );
    // The key makes a replay answer from the store instead of the tool,
    // and that answer is `unknown` until an operator settles the record:
    // sending it again gains nothing, and the first answer says so too.
    assert_eq!((first.status, first.retry_safe), (Status::Unknown, false));
    assert_eq!(first.codes(), vec!["connection-reset", "unknown-outcome"]);
    let again = run(
        &d,
        &caller,
        "lossy_send",
        json!({"request_key": key, "body": "hi"}),
    );
    assert_eq!(
        (again.status, again.codes()),
        (Status::Unknown, vec!["unknown-outcome"])
    );
    let other_args = run(
        &d,
        &caller,
        "lossy_send",
        json!({"request_key": key, "body": "different"}),
    );
    // A key in doubt is in doubt for any arguments: "send a new key" would
    // invite the model to send the effect again under one.
    assert_eq!(
        (other_args.status, other_args.retry_safe, other_args.codes()),
        (Status::Unknown, false, vec!["unknown-outcome"])
    );
    assert_eq!(RESET_RUNS.load(Ordering::SeqCst), 1, "ran exactly once");
}

// ------------------------------------------------------------------ authority and approval

/// Deletes a thing, for the test.
#[tool_contract(effect = destructive, idempotency = natural, approval = when(big_ones), authority = ["things:write", "things:admin"])]
pub fn delete_thing(
    /// How many to delete.
    #[arg(range(min = 1, max = 1000))]
    count: u32,
) -> Result<Done, Flaky> {
    let _ = count;
    Ok(Done { done: true })
}

/// Deleting more than ten things needs a person.
pub fn big_ones(_ctx: &CallContext, args: &DeleteThingArgs) -> Option<String> {
    (args.count > 10).then(|| format!("deletes {} things", args.count))
}

#[test]
fn scopes_then_approval_bound_to_the_exact_arguments() {
    let reg = Registry::builder()
        .tool(delete_thing::contract())
        .build()
        .unwrap();
    let d = Dispatcher::new(reg);

    let partial = Arc::new(Caller::new().grant("things:write"));
    let denied = run(&d, &partial, "delete_thing", json!({"count": 1}));
    assert_eq!(
        (denied.status, denied.codes()),
        (Status::Denied, vec!["permission-denied"])
    );
    assert!(denied.errors[0].message.contains("things:admin"));

    let caller = Arc::new(Caller::new().grant("things:write").grant("things:admin"));
    assert_eq!(
        run(&d, &caller, "delete_thing", json!({"count": 10})).status,
        Status::Ok,
        "below the predicate's bar"
    );
    let ask = run(&d, &caller, "delete_thing", json!({"count": 500}));
    assert_eq!(
        (ask.status, ask.codes()),
        (Status::NeedsApproval, vec!["approval-required"])
    );
    let approval = ask.approval.clone().unwrap();
    assert_eq!(approval.rule, "big_ones");
    assert_eq!(approval.reason, "deletes 500 things");

    let approved = Arc::new(
        Caller::new()
            .grant("things:write")
            .grant("things:admin")
            .approve(Approval {
                tool: "delete_thing".into(),
                digest: approval.digest.clone(),
            }),
    );
    // Whitespace and key order do not change the digest.
    let same = ToolCall::new("c", "delete_thing", "{ \"count\" : 500 }");
    assert_eq!(
        rt().block_on(d.dispatch(&approved, &same)).status,
        Status::Ok
    );
    let other = run(&d, &approved, "delete_thing", json!({"count": 501}));
    assert_eq!(
        (other.status, other.codes()),
        (Status::Denied, vec!["approval-mismatch"]),
        "arguments changed after approval are refused"
    );
    // not a dead end: the refusal names a request a person can grant
    let asked = other.approval.unwrap();
    assert_ne!(asked.digest, approval.digest);
    assert!(asked.id.is_some_and(|id| other.errors[0]
        .repair
        .as_ref()
        .is_some_and(|r| r.hint.contains(&id))));
}

// ------------------------------------------------------------------ batches

#[derive(Debug, ToolFailure)]
pub enum ItemError {
    /// This item is odd.
    #[failure(code = "odd-item", field = "items")]
    Odd,
}

#[derive(serde::Serialize, JsonSchema)]
pub struct Half {
    pub half: u32,
}

/// Halves even numbers.
#[tool_contract(effect = read_only)]
pub fn halve(
    /// Numbers to halve.
    #[arg(length(min = 1, max = 10))]
    items: Vec<u32>,
) -> Batch<Half, ItemError> {
    items
        .into_iter()
        .map(|n| {
            (
                n.to_string(),
                if n % 2 == 0 {
                    Ok(Half { half: n / 2 })
                } else {
                    Err(ItemError::Odd)
                },
            )
        })
        .collect()
}

#[test]
fn batch_status_is_derived_from_the_items() {
    let d = Dispatcher::new(Registry::builder().tool(halve::contract()).build().unwrap());
    let caller = Arc::new(Caller::new());
    let all = run(&d, &caller, "halve", json!({"items": [2, 4]}));
    assert_eq!(
        (all.status, all.completed, all.failed),
        (Status::Ok, Some(2), Some(0))
    );
    assert_eq!(
        all.result,
        json!({"items": [{"item": "2", "result": {"half": 1}}, {"item": "4", "result": {"half": 2}}]})
    );
    let some = run(&d, &caller, "halve", json!({"items": [2, 3]}));
    assert_eq!(
        (some.status, some.completed, some.failed),
        (Status::Partial, Some(1), Some(1))
    );
    assert_eq!(some.errors[0].item.as_deref(), Some("3"));
    assert_eq!(some.errors[0].code, "odd-item");
    let none = run(&d, &caller, "halve", json!({"items": [1, 3]}));
    assert_eq!(
        (none.status, none.completed, none.failed),
        (Status::Failed, Some(0), Some(2))
    );
    assert_eq!(none.errors.len(), 2);

    let out = halve::contract().output_schema().unwrap();
    assert_eq!(out["type"], "object");
    assert_eq!(
        out["properties"]["items"]["items"]["properties"]["result"]["properties"]["half"]["type"],
        "integer"
    );
}

// ------------------------------------------------------------------ registry

#[test]
fn registry_refuses_duplicate_names() {
    let err = Registry::builder()
        .tool(halve::contract())
        .tool(halve::contract())
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "two tools are named `halve`; tool names must be unique"
    );
}

#[test]
fn every_standard_code_is_in_one_list() {
    let codes: Vec<&str> = contract_runtime::codes::STANDARD_CODES
        .iter()
        .map(|c| c.code)
        .collect();
    for c in [
        "unknown-tool",
        "malformed-arguments",
        "schema-violation",
        "permission-denied",
        "path-outside-scope",
        "approval-required",
        "approval-mismatch",
        "approval-denied",
        "timeout",
        "transient",
        "circuit-open",
        "unknown-outcome",
        "output-contract-violation",
        "internal",
    ] {
        assert!(codes.contains(&c), "{c}");
    }
}

#[test]
fn docs_envelope_md_lists_exactly_the_standard_codes() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/envelope.md")).unwrap();
    let begin = doc.find("<!-- BEGIN codes -->").unwrap();
    let end = doc.find("<!-- END codes -->").unwrap();
    let mut table = String::from("\n| code | status | meaning |\n|---|---|---|\n");
    for c in contract_runtime::codes::STANDARD_CODES {
        table.push_str(&format!(
            "| `{}` | {} | {} |\n",
            c.code, c.status, c.meaning
        ));
    }
    assert_eq!(
        &doc[begin + "<!-- BEGIN codes -->".len()..end],
        table,
        "regenerate the table in docs/envelope.md from codes.rs"
    );
}

// ------------------------------------------------------------------ guarantees: limits, panics, ranges

/// The token, sent back (as a careless tool might).
#[derive(serde::Serialize, JsonSchema)]
pub struct Leaked {
    /// The token.
    pub token: String,
}

/// Echoes its token back.
#[tool_contract(effect = read_only)]
pub fn leaky(
    /// An API token.
    #[arg(secret, length(min = 8, max = 64))]
    token: String,
    /// Filler.
    #[arg(length(max = 4000000))]
    padding: String,
) -> Result<Leaked, Flaky> {
    let _ = padding;
    Ok(Leaked { token })
}

#[test]
fn secret_arguments_are_scrubbed_under_the_dispatchers_own_limits() {
    let reg = Registry::builder().tool(leaky::contract()).build().unwrap();
    let limits = contract_runtime::Limits::default().with_max_bytes(4 << 20);
    let d = Dispatcher::new(reg).with_limits(limits);
    let caller = Arc::new(Caller::new());
    // Past the default 1 MiB, inside the raised limit.
    let padding = "x".repeat(1_500_000);
    let env = run(
        &d,
        &caller,
        "leaky",
        json!({"token": "tok-7d1e9a2c", "padding": padding}),
    );
    assert_eq!(env.status, Status::Ok);
    assert_eq!(env.result, json!({"token": "[redacted]"}));
}

/// Deletes a thing; its approval rule is broken.
#[tool_contract(effect = destructive, idempotency = natural, approval = when(rule_panics))]
pub fn guarded_delete(
    /// Which.
    #[arg(length(max = 10))]
    name: String,
) -> Result<Done, Flaky> {
    let _ = name;
    Ok(Done { done: true })
}

/// Panics: a bug in the tool author's predicate.
pub fn rule_panics(_ctx: &CallContext, args: &GuardedDeleteArgs) -> Option<String> {
    panic!("predicate bug for {}", args.name)
}

static KEYED_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Sends once per key.
#[tool_contract(effect = external, idempotency = key(request_key), approval = never)]
pub fn keyed_send(
    /// A fresh UUID per request.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Done, Flaky> {
    let _ = request_key;
    KEYED_RUNS.fetch_add(1, Ordering::SeqCst);
    Ok(Done { done: true })
}

/// A store whose every method panics.
struct BrokenStore;

mod broken {
    use contract_runtime::store::*;
    use contract_runtime::Envelope;
    use std::time::Duration;

    impl IdempotencyStore for super::BrokenStore {
        fn claim<'a>(&'a self, _: &'a Claim) -> StoreFuture<'a, Claimed> {
            panic!("store down")
        }
        fn complete<'a>(&'a self, _: &'a Lease, _: &'a Envelope) -> StoreFuture<'a, bool> {
            panic!("store down")
        }
        fn renew<'a>(&'a self, _: &'a Lease, _: Duration) -> StoreFuture<'a, bool> {
            panic!("store down")
        }
        fn release<'a>(&'a self, _: &'a Lease) -> StoreFuture<'a, bool> {
            panic!("store down")
        }
        fn resolve<'a>(&'a self, _: &'a RecordKey, _: Resolution) -> StoreFuture<'a, bool> {
            panic!("store down")
        }
        fn in_doubt(&self) -> StoreFuture<'_, Vec<DoubtfulRecord>> {
            panic!("store down")
        }
        fn records(&self) -> StoreFuture<'_, Vec<StoredRecord>> {
            panic!("store down")
        }
        fn purge(&self) -> StoreFuture<'_, u64> {
            panic!("store down")
        }
    }

    impl ApprovalStore for super::BrokenStore {
        fn create_approval<'a>(&'a self, _: &'a NewApproval) -> StoreFuture<'a, ApprovalRecord> {
            panic!("store down")
        }
        fn approval<'a>(&'a self, _: &'a str) -> StoreFuture<'a, Option<ApprovalRecord>> {
            panic!("store down")
        }
        fn approvals<'a>(&'a self, _: &'a ApprovalFilter) -> StoreFuture<'a, Vec<ApprovalRecord>> {
            panic!("store down")
        }
        fn decide<'a>(&'a self, _: &'a str, _: &'a Decision) -> StoreFuture<'a, Decided> {
            panic!("store down")
        }
        fn consume<'a>(&'a self, _: &'a str, _: &'a str) -> StoreFuture<'a, bool> {
            panic!("store down")
        }
    }

    impl JournalStore for super::BrokenStore {
        fn append<'a>(&'a self, _: &'a JournalRecord) -> StoreFuture<'a, ()> {
            Box::pin(async { panic!("store down") })
        }
        fn query<'a>(&'a self, _: &'a JournalQuery) -> StoreFuture<'a, Vec<JournalRecord>> {
            panic!("store down")
        }
        fn purge_journal(&self, _: i64) -> StoreFuture<'_, u64> {
            panic!("store down")
        }
    }

    impl Store for super::BrokenStore {
        fn describe(&self) -> String {
            "broken".into()
        }
    }
}

/// A journal that panics.
struct BrokenJournal;

impl contract_runtime::observe::Journal for BrokenJournal {
    fn record(&self, _: &contract_runtime::observe::JournalEntry) {
        panic!("disk full")
    }
}

/// Output whose serialization panics.
pub struct Explosive;

impl serde::Serialize for Explosive {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("serializer bug")
    }
}

impl JsonSchema for Explosive {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Explosive".into()
    }
    fn json_schema(
        _: &mut contract_runtime::schemars::SchemaGenerator,
    ) -> contract_runtime::schemars::Schema {
        contract_runtime::schemars::json_schema!({"type": "object"})
    }
}

/// Returns output that cannot be serialized.
#[tool_contract(effect = read_only)]
pub fn explodes(
    /// Anything.
    #[arg(length(max = 10))]
    x: String,
) -> Result<Explosive, Flaky> {
    let _ = x;
    Ok(Explosive)
}

#[test]
fn a_panic_in_anything_the_dispatcher_calls_ends_in_an_envelope() {
    let reg = Registry::builder()
        .tool(guarded_delete::contract())
        .tool(keyed_send::contract())
        .tool(explodes::contract())
        .build()
        .unwrap();
    let d = Dispatcher::new(reg)
        .with_store(Arc::new(BrokenStore))
        .with_journal(Arc::new(BrokenJournal));
    let caller = Arc::new(Caller::new());

    // The approval predicate: the tool did not run, so replaying is safe.
    let approval = run(&d, &caller, "guarded_delete", json!({"name": "a"}));
    assert_eq!(
        (approval.status, approval.codes(), approval.retry_safe),
        (Status::Failed, vec!["internal"], true)
    );
    assert!(
        approval.errors[0].message.contains("approval rule"),
        "{}",
        approval.errors[0].message
    );

    // The idempotency store, before the run: a broken store is an
    // unavailable one, and the tool did not run.
    KEYED_RUNS.store(0, Ordering::SeqCst);
    let key = "6f1c0d4e-2a3b-4c5d-8e9f-a0b1c2d3e4f5";
    let store = run(&d, &caller, "keyed_send", json!({"request_key": key}));
    assert_eq!(
        (store.status, store.codes(), store.retry_safe),
        (Status::Failed, vec!["store-unavailable"], true)
    );
    assert_eq!(KEYED_RUNS.load(Ordering::SeqCst), 0, "the tool never ran");

    // The output's own Serialize: a read, so the outcome is a plain failure.
    let output = run(&d, &caller, "explodes", json!({"x": "a"}));
    assert_eq!(
        (output.status, output.codes()),
        (Status::Failed, vec!["internal"])
    );
}

/// Scales by a factor.
#[tool_contract(effect = read_only)]
pub fn scale(
    /// The factor.
    factor: f32,
) -> Result<Done, Flaky> {
    assert!(factor.is_finite(), "an infinity reached the handler");
    Ok(Done { done: true })
}

#[test]
fn a_float_outside_f32_range_is_refused_not_made_infinite() {
    let reg = Registry::builder().tool(scale::contract()).build().unwrap();
    let d = Dispatcher::new(reg);
    let caller = Arc::new(Caller::new());
    for (sent, keyword) in [(json!(1e39), "maximum"), (json!(-1e39), "minimum")] {
        let env = run(&d, &caller, "scale", json!({ "factor": sent }));
        assert_eq!(
            (env.status, env.codes()),
            (Status::Invalid, vec!["schema-violation"]),
            "{sent}"
        );
        assert_eq!(env.errors[0].field.as_deref(), Some("/factor"));
        let c = env.errors[0].constraint.as_ref().expect("the constraint");
        assert_eq!(c.keyword, keyword);
    }
    let ok = run(&d, &caller, "scale", json!({"factor": 3.5e38}));
    assert_eq!(ok.status, Status::Invalid, "3.5e38 is past f32::MAX too");
    let fine = run(&d, &caller, "scale", json!({"factor": 1.5}));
    assert_eq!(fine.status, Status::Ok);
    // The schema publishes the range it enforces.
    let schema = scale::contract().input_schema();
    assert_eq!(
        schema["properties"]["factor"]["maximum"],
        json!(f32::MAX as f64)
    );
}
