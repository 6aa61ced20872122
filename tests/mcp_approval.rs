//! Approval over MCP with the official Python client (`mcp`, pinned in
//! tests/mcp_client/venv.sh) driving `toolbox mcp` through
//! tests/mcp_client/approval.py:
//!
//! - a client that declares elicitation is asked (what the tool does, the
//!   redacted arguments, the reason, the digest); accepting runs the call in
//!   the same request, declining answers `denied` with the reason given;
//! - a client without the capability gets `needs-approval` with the
//!   request's id; `toolbox approvals grant` from another process grants it,
//!   and the call re-sent (here by a new client and server on the same store)
//!   runs once.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use common::{python, Fixture};

/// Runs the client in `mode` against `toolbox mcp` on `fx` and `store`.
fn client(mode: &str, fx: &Fixture, store: &str, calls: Value) -> Value {
    run_script("approval.py", mode, fx, store, Some(calls))
}

/// Runs `tests/mcp_client/<script>` in `mode` against `toolbox mcp` on `fx`
/// and `store` (with `calls` as its last argument when given); returns what
/// it prints.
fn run_script(script: &str, mode: &str, fx: &Fixture, store: &str, calls: Option<Value>) -> Value {
    let server = json!([
        common::toolbox().display().to_string(),
        "mcp",
        "--root",
        fx.root.display().to_string(),
        "--store",
        store
    ]);
    let mut cmd = Command::new(python());
    cmd.arg(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/mcp_client")
            .join(script),
    )
    .arg(mode)
    .arg(server.to_string());
    if let Some(calls) = calls {
        cmd.arg(calls.to_string());
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .expect("run the MCP client");
    assert!(out.status.success(), "the MCP client failed");
    serde_json::from_slice(&out.stdout).expect("the client prints JSON")
}

fn setup(name: &str) -> (Fixture, String) {
    let fx = Fixture::standard(&format!("mcp-approval-{name}"));
    fx.write("notes/a.md", "a\n");
    let store = format!("sqlite:{}", fx.base.join("state.sqlite").display());
    (fx, store)
}

fn delete_a() -> Value {
    json!([{"name": "delete_note", "arguments": {"note": "a.md"}}])
}

#[test]
fn a_client_with_elicitation_is_asked_and_accepting_runs_the_call_in_the_same_request() {
    let (fx, store) = setup("accept");
    let out = client("accept", &fx, &store, delete_a());
    let asked = out["asked"].as_array().expect("asked");
    assert_eq!(asked.len(), 1, "{out:#}");
    let message = asked[0]["message"].as_str().unwrap();
    for part in [
        "delete_note",
        "Delete one note for good",
        r#"{"note":"a.md"}"#,
        "always needs a person's approval",
        "Digest: sha256:",
    ] {
        assert!(message.contains(part), "{part:?} in {message}");
    }
    let env = &out["results"][0]["structuredContent"];
    assert_eq!(env["status"], "ok", "{out:#}");
    assert_eq!(out["results"][0]["isError"], false);
    assert!(!fx.path("notes/a.md").exists(), "the call ran");
    // The grant was recorded under the client's name, and used.
    let line = Command::new(common::toolbox())
        .args(["approvals", "--store", &store, "list", "--all"])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&line.stdout).unwrap();
    assert_eq!(r["state"], "used");
    assert!(r["decided_by"].as_str().unwrap().starts_with("mcp-client:"));
}

#[test]
fn declining_at_the_client_answers_denied_with_the_reason() {
    let (fx, store) = setup("decline");
    let out = client("decline", &fx, &store, delete_a());
    assert_eq!(out["asked"].as_array().unwrap().len(), 1);
    let env = &out["results"][0]["structuredContent"];
    assert_eq!(env["status"], "denied", "{out:#}");
    assert_eq!(env["errors"][0]["code"], "approval-denied");
    assert!(
        env["errors"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("denied this call: not this note"),
        "{env:#}"
    );
    assert_eq!(out["results"][0]["isError"], true);
    assert!(fx.path("notes/a.md").exists(), "nothing ran");
}

/// The state of the one approval request on `store`.
fn request_state(store: &str) -> String {
    let out = Command::new(common::toolbox())
        .args(["approvals", "--store", store, "list", "--all"])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    r["state"].as_str().unwrap().to_owned()
}

/// A person who closes the question without choosing (`cancel`) has not
/// denied the call: it answers `needs-approval` with the request's id, the
/// request stays pending for them or another approver, and the same call
/// sent again asks again. The dismissal was recorded as a denial: the next
/// call was refused without asking, and the model told not to retry.
#[test]
fn closing_the_question_at_the_client_decides_nothing() {
    let (fx, store) = setup("cancel");
    let out = client(
        "cancel",
        &fx,
        &store,
        json!([
            {"name": "delete_note", "arguments": {"note": "a.md"}},
            {"name": "delete_note", "arguments": {"note": "a.md"}}
        ]),
    );
    assert_eq!(
        out["asked"].as_array().unwrap().len(),
        2,
        "asked each time: {out:#}"
    );
    for r in out["results"].as_array().unwrap() {
        let env = &r["structuredContent"];
        assert_eq!(env["status"], "needs-approval", "{out:#}");
        assert!(env["approval"]["id"].is_string(), "{env:#}");
    }
    assert_eq!(request_state(&store), "pending");
    assert!(fx.path("notes/a.md").exists(), "nothing ran");
}

#[test]
fn without_the_capability_the_request_id_is_granted_elsewhere_and_the_re_sent_call_runs() {
    let (fx, store) = setup("none");
    let out = client("none", &fx, &store, delete_a());
    assert_eq!(out["asked"], json!([]), "nobody was asked");
    let env = &out["results"][0]["structuredContent"];
    assert_eq!(env["status"], "needs-approval", "{out:#}");
    let id = env["approval"]["id"].as_str().expect("the request id");
    assert!(fx.path("notes/a.md").exists());

    let granted = Command::new(common::toolbox())
        .args(["approvals", "--store", &store, "grant", id])
        .output()
        .unwrap();
    assert!(granted.status.success());

    let out = client("none", &fx, &store, json!([delete_a()[0], delete_a()[0]]));
    let first = &out["results"][0]["structuredContent"];
    assert_eq!(first["status"], "ok", "{out:#}");
    assert!(!fx.path("notes/a.md").exists());
    // Once: the same call again is a new request, not a second run.
    let second = &out["results"][1]["structuredContent"];
    assert_eq!(second["status"], "needs-approval");
    assert_ne!(second["approval"]["id"], id);
}

// ---------------------------------------------------------------------------
// The multi-round-trip flow (2026-07-28): the question travels in an
// `InputRequiredResult`, and the approval request's id in a `requestState`
// sealed with an HMAC bound to the tool, the digest and the caller.

/// Runs tests/mcp_client/approval_mrtr.py in `mode`; returns its legs.
fn mrtr(mode: &str, fx: &Fixture, store: &str) -> Vec<Value> {
    let out = run_script("approval_mrtr.py", mode, fx, store, None);
    assert_eq!(out["protocol"], "2026-07-28", "{out:#}");
    let legs = out["legs"].as_array().expect("legs").clone();
    // Every flow starts with the question, in the result.
    assert_eq!(legs[0]["inputRequired"], true, "{out:#}");
    assert_eq!(legs[0]["keys"], json!(["approval"]));
    let message = legs[0]["message"].as_str().unwrap();
    assert!(
        message.contains(r#"{"note":"a.md"}"#) && message.contains("Digest: sha256:"),
        "{message}"
    );
    legs
}

fn mrtr_setup(name: &str) -> (Fixture, String) {
    let (fx, store) = setup(name);
    fx.write("notes/b.md", "b\n");
    (fx, store)
}

#[test]
fn mrtr_accepting_runs_the_call_on_the_retry() {
    let (fx, store) = mrtr_setup("mrtr-accept");
    let legs = mrtr("accept", &fx, &store);
    assert_eq!(legs[1]["structuredContent"]["status"], "ok", "{legs:#?}");
    assert!(!fx.path("notes/a.md").exists());
}

#[test]
fn mrtr_declining_answers_denied_with_the_reason() {
    let (fx, store) = mrtr_setup("mrtr-decline");
    let legs = mrtr("decline", &fx, &store);
    let env = &legs[1]["structuredContent"];
    assert_eq!(env["status"], "denied", "{legs:#?}");
    assert!(env["errors"][0]["message"]
        .as_str()
        .unwrap()
        .ends_with("denied this call: not this note"));
    assert!(fx.path("notes/a.md").exists());
}

/// The same over the multi-round-trip flow: a dismissed question answers
/// `needs-approval` (not a new question straight away) and leaves the
/// request pending.
#[test]
fn mrtr_closing_the_question_decides_nothing() {
    let (fx, store) = mrtr_setup("mrtr-cancel");
    let legs = mrtr("cancel", &fx, &store);
    assert_eq!(legs[1]["inputRequired"], false, "{legs:#?}");
    assert_eq!(
        legs[1]["structuredContent"]["status"], "needs-approval",
        "{legs:#?}"
    );
    assert_eq!(request_state(&store), "pending");
    assert!(fx.path("notes/a.md").exists());
}

#[test]
fn mrtr_a_tampered_request_state_grants_nothing() {
    let (fx, store) = mrtr_setup("mrtr-tamper");
    let legs = mrtr("tamper", &fx, &store);
    assert_eq!(
        legs[1]["inputRequired"], true,
        "asked again, not run: {legs:#?}"
    );
    assert!(fx.path("notes/a.md").exists(), "nothing ran");
}

#[test]
fn mrtr_a_request_state_sealed_for_other_arguments_grants_nothing() {
    let (fx, store) = mrtr_setup("mrtr-other");
    let legs = mrtr("other-arguments", &fx, &store);
    assert_eq!(legs[1]["inputRequired"], true, "{legs:#?}");
    assert!(fx.path("notes/a.md").exists() && fx.path("notes/b.md").exists());
}

#[test]
fn mrtr_a_replayed_request_state_runs_nothing_a_second_time() {
    let (fx, store) = mrtr_setup("mrtr-replay");
    let legs = mrtr("replay", &fx, &store);
    assert_eq!(legs[1]["structuredContent"]["status"], "ok", "{legs:#?}");
    // The grant it named is used: the replay is a new question, not a run
    // (a second run would answer `failed / no-such-note`).
    assert_eq!(legs[2]["inputRequired"], true, "{legs:#?}");
}

// ---------------------------------------------------------------------------
// A grant on record for other arguments of the tool: the person who can be
// asked is asked about these arguments, told of the earlier approval, which
// stays as it is; a caller that cannot be asked keeps the refusal.

/// Request `id` as `toolbox approvals list --all` shows it.
fn listed(store: &str, id: &str) -> Value {
    let out = Command::new(common::toolbox())
        .args(["approvals", "--store", store, "list", "--all"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("{id} is listed"))
}

/// A grant for `delete_note {"note": NOTE}`, decided from another process
/// and never used; its id.
fn stale_grant(fx: &Fixture, store: &str, note: &str) -> String {
    let out = client(
        "none",
        fx,
        store,
        json!([{"name": "delete_note", "arguments": {"note": note}}]),
    );
    let id = out["results"][0]["structuredContent"]["approval"]["id"]
        .as_str()
        .expect("the request id")
        .to_string();
    let granted = Command::new(common::toolbox())
        .args(["approvals", "--store", store, "grant", &id, "--by", "dana"])
        .output()
        .unwrap();
    assert!(granted.status.success());
    id
}

fn delete(note: &str) -> Value {
    json!([{"name": "delete_note", "arguments": {"note": note}}])
}

#[test]
fn a_grant_for_other_arguments_asks_the_person_about_these_and_stays() {
    let (fx, store) = mrtr_setup("stale-accept");
    let old = stale_grant(&fx, &store, "a.md");

    // No way to ask: the documented refusal, naming a request for these.
    let out = client("none", &fx, &store, delete("b.md"));
    let env = &out["results"][0]["structuredContent"];
    assert_eq!(env["status"], "denied", "{out:#}");
    assert_eq!(env["errors"][0]["code"], "approval-mismatch");
    let fresh = env["approval"]["id"].as_str().expect("a request for b.md");
    assert_ne!(fresh, old);

    // A client that can ask: the person is asked about b.md, told of the
    // earlier approval; accepting runs it.
    let out = client("accept", &fx, &store, delete("b.md"));
    let asked = out["asked"].as_array().expect("asked");
    assert_eq!(asked.len(), 1, "{out:#}");
    let message = asked[0]["message"].as_str().unwrap();
    for part in [
        "an earlier approval covered other arguments of `delete_note`; it stays as it is",
        r#"Arguments: {"note":"b.md"}"#,
        "Digest: sha256:",
    ] {
        assert!(message.contains(part), "{part:?} in {message}");
    }
    assert_eq!(
        out["results"][0]["structuredContent"]["status"], "ok",
        "{out:#}"
    );
    assert!(!fx.path("notes/b.md").exists());
    // The request the refusal named is the one the person granted, and used.
    assert_eq!(listed(&store, fresh)["state"], "used");

    // The earlier grant stays as it was, and still runs its own call once.
    assert_eq!(listed(&store, &old)["state"], "granted");
    let out = client("none", &fx, &store, delete("a.md"));
    assert_eq!(
        out["results"][0]["structuredContent"]["status"], "ok",
        "{out:#}"
    );
    assert!(!fx.path("notes/a.md").exists());
    assert_eq!(listed(&store, &old)["state"], "used");
}

#[test]
fn declining_the_question_about_other_arguments_denies_them_and_keeps_the_grant() {
    let (fx, store) = mrtr_setup("stale-decline");
    let old = stale_grant(&fx, &store, "a.md");
    let out = client("decline", &fx, &store, delete("b.md"));
    assert_eq!(out["asked"].as_array().unwrap().len(), 1, "{out:#}");
    let env = &out["results"][0]["structuredContent"];
    assert_eq!(env["status"], "denied", "{out:#}");
    assert_eq!(env["errors"][0]["code"], "approval-denied");
    assert!(fx.path("notes/b.md").exists(), "nothing ran");
    assert_eq!(listed(&store, &old)["state"], "granted");
}

#[test]
fn mrtr_a_grant_for_other_arguments_asks_in_the_result_and_the_retry_runs() {
    let (fx, store) = mrtr_setup("mrtr-stale");
    let old = stale_grant(&fx, &store, "b.md");
    let legs = mrtr("accept", &fx, &store);
    let message = legs[0]["message"].as_str().unwrap();
    assert!(
        message.contains("an earlier approval covered other arguments of `delete_note`"),
        "{message}"
    );
    assert_eq!(legs[1]["structuredContent"]["status"], "ok", "{legs:#?}");
    assert!(!fx.path("notes/a.md").exists());
    assert!(fx.path("notes/b.md").exists());
    assert_eq!(listed(&store, &old)["state"], "granted");
}
