//! Effects that combine (`effect = destructive + external`): the strictest
//! decides the runtime's treatment, and every effect reaches the canonical
//! definition and the MCP annotations, with the tool's `title`.

use std::sync::Arc;

use contract_runtime::prelude::*;
use contract_runtime::Effect;
use serde::Serialize;
use serde_json::{json, Value};

/// The cancelled event.
#[derive(Serialize, JsonSchema)]
pub struct Cancelled {
    /// Whether invitees were told.
    pub notified: bool,
}

/// Why a cancellation failed.
#[derive(Debug, ToolFailure)]
pub enum CancelError {
    /// No such event.
    #[failure(code = "no-such-event", message = "no event has this id")]
    NoSuchEvent,
}

/// Cancels an event and emails every invitee that it is off.
#[tool_contract(
    effect = destructive + external,
    title = "Cancel an event",
    idempotency = key(request_key),
    approval = always
)]
pub fn cancel_event(
    /// The event to cancel.
    #[arg(length(min = 1, max = 64))]
    event_id: String,
    /// A fresh UUID for this cancellation.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Cancelled, CancelError> {
    let _ = (event_id, request_key);
    Ok(Cancelled { notified: true })
}

/// Posts a note to the shared board, visible to everyone.
#[tool_contract(effect = reversible + external, idempotency = none, approval = never)]
pub fn post_note(
    /// The note.
    #[arg(length(min = 1, max = 500))]
    text: String,
) -> Result<Cancelled, CancelError> {
    let _ = text;
    Ok(Cancelled { notified: false })
}

fn registry() -> Registry {
    Registry::builder()
        .tool(cancel_event::contract())
        .tool(post_note::contract())
        .build()
        .expect("the registry builds")
}

#[test]
fn the_strictest_effect_decides_and_every_effect_is_declared() {
    let spec = cancel_event::contract().spec();
    assert_eq!(spec.effect, Effect::Destructive);
    assert_eq!(spec.effects, &[Effect::Destructive, Effect::External]);
    assert_eq!(spec.title, Some("Cancel an event"));
    let spec = post_note::contract().spec();
    assert_eq!(spec.effect, Effect::External);
    assert_eq!(spec.effects, &[Effect::External, Effect::Reversible]);
}

#[test]
fn the_canonical_definition_lists_every_effect_and_the_title() {
    let defs = registry().canonical();
    assert_eq!(defs[0]["effect"], "destructive");
    assert_eq!(defs[0]["effects"], json!(["destructive", "external"]));
    assert_eq!(defs[0]["title"], "Cancel an event");
    assert_eq!(defs[1]["effects"], json!(["external", "reversible"]));
    assert!(defs[1].get("title").is_none());
}

#[test]
fn mcp_annotations_carry_every_effect() {
    let tools = contract_runtime::mcp::list(&registry()).expect("the MCP SDK reads the export");
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    assert_eq!(tools[0]["title"], "Cancel an event");
    assert_eq!(
        tools[0]["annotations"],
        json!({
            "title": "Cancel an event",
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": true,
            "openWorldHint": true,
        })
    );
    assert_eq!(
        tools[1]["annotations"],
        json!({
            "readOnlyHint": false,
            "destructiveHint": false,
            "idempotentHint": false,
            "openWorldHint": true,
        })
    );
}

#[test]
fn a_destructive_and_external_call_needs_approval() {
    let d = Dispatcher::new(registry());
    let caller = Arc::new(Caller::new());
    let call = ToolCall::new(
        "c1",
        "cancel_event",
        json!({"event_id": "ev-1", "request_key": "6f1c2b1e-7a3d-4c1b-9a52-0c8d6e0b9f11"})
            .to_string(),
    );
    let env = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
        .block_on(d.dispatch(&caller, &call));
    assert_eq!(
        (env.status, env.codes()),
        (Status::NeedsApproval, vec!["approval-required"])
    );
}

// ------------------------------------------------------------------ keyed tools and repairs

/// Why a reschedule failed.
#[derive(Debug, ToolFailure)]
pub enum RescheduleError {
    /// The slot is taken.
    #[failure(
        code = "slot-taken",
        message = "another event holds this slot",
        field = "start",
        repair = "pick another start"
    )]
    SlotTaken,
    /// The calendar is busy.
    #[failure(code = "busy", message = "the calendar is busy", transient)]
    Busy,
}

/// Moves an event to a new start time.
#[tool_contract(effect = reversible, idempotency = key(request_key))]
pub fn reschedule_event(
    /// The new start, as minutes from now.
    #[arg(range(min = 0, max = 100_000))]
    start: u32,
    /// A fresh UUID for this change.
    #[arg(format = "uuid")]
    request_key: String,
) -> Result<Cancelled, RescheduleError> {
    let _ = request_key;
    match start {
        0 => Err(RescheduleError::Busy),
        _ => Err(RescheduleError::SlotTaken),
    }
}

#[test]
fn a_keyed_repair_that_changes_the_arguments_asks_for_a_new_key() {
    let d = Dispatcher::new(
        Registry::builder()
            .tool(reschedule_event::contract())
            .build()
            .unwrap(),
    );
    let caller = Arc::new(Caller::new());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let call = |id: &str, start: u32, key: &str| {
        let call = ToolCall::new(
            id,
            "reschedule_event",
            json!({"start": start, "request_key": key}).to_string(),
        );
        rt.block_on(d.dispatch(&caller, &call))
    };
    let env = call("c1", 30, "6f1c2b1e-7a3d-4c1b-9a52-0c8d6e0b9f11");
    assert_eq!(
        (env.status, env.codes()),
        (Status::Failed, vec!["slot-taken"])
    );
    assert_eq!(
        env.errors[0].repair.as_ref().unwrap().hint,
        "pick another start; send it with a new `request_key`: the old one stands for the failed arguments"
    );
    // A transient failure changes nothing: the same key may be resent.
    let env = call("c2", 0, "0b9f116f-1c2b-4e7a-9d4c-1b9a520c8d6e");
    assert_eq!(env.codes(), vec!["busy"]);
    assert!(env.errors[0]
        .repair
        .as_ref()
        .is_none_or(|r| !r.hint.contains("new `request_key`")));
}

// ------------------------------------------------------------------ the breaker before a person

static SHRED_RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Shreds a document; the shredder is jammed, every run fails.
#[tool_contract(effect = destructive, idempotency = natural, approval = always)]
pub fn shred(
    /// The document to shred.
    #[arg(length(min = 1, max = 64))]
    document: String,
) -> Result<Cancelled, CancelError> {
    let _ = document;
    SHRED_RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Err(CancelError::NoSuchEvent)
}

/// A call whose circuit is open is refused before the approval stage: no
/// person is asked about it and no grant is spent on it.
#[test]
fn an_open_circuit_asks_no_person() {
    use contract_runtime::policy::breaker::BreakerConfig;
    let d = Dispatcher::new(Registry::builder().tool(shred::contract()).build().unwrap())
        .with_breaker(BreakerConfig::default().with_same_call_failures(1));
    let caller = Arc::new(Caller::new());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let call = |n: usize| {
        let call = ToolCall::new(
            format!("c{n}"),
            "shred",
            json!({"document": "q3"}).to_string(),
        );
        rt.block_on(d.dispatch(&caller, &call))
    };
    // Two failing runs, each approved by a person, open the circuit.
    for round in 0..2 {
        let asked = call(2 * round);
        assert_eq!(
            asked.status,
            Status::NeedsApproval,
            "{}",
            asked.to_json_string()
        );
        let id = asked.approval.unwrap().id.unwrap();
        rt.block_on(d.approvals().grant(&id, "ana", None)).unwrap();
        let ran = call(2 * round + 1);
        assert_eq!(
            ran.codes(),
            vec!["no-such-event"],
            "{}",
            ran.to_json_string()
        );
    }
    assert_eq!(SHRED_RUNS.load(std::sync::atomic::Ordering::SeqCst), 2);
    // Open: refused at once, with no question for a person.
    let refused = call(9);
    assert_eq!(
        (refused.status, refused.codes()),
        (Status::Failed, vec!["circuit-open"]),
        "{}",
        refused.to_json_string()
    );
    assert!(refused.approval.is_none());
    let pending = rt.block_on(d.approvals().pending()).unwrap();
    assert!(pending.is_empty(), "a person was asked: {pending:?}");
    assert_eq!(SHRED_RUNS.load(std::sync::atomic::Ordering::SeqCst), 2);
}
