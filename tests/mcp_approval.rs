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

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::{json, Value};

use common::Fixture;

/// The venv's python with the pinned SDK, made once per test process.
fn python() -> &'static Path {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let out = Command::new("bash")
            .arg(root.join("tests/mcp_client/venv.sh"))
            .stderr(Stdio::inherit())
            .output()
            .expect("run tests/mcp_client/venv.sh");
        assert!(
            out.status.success(),
            "tests/mcp_client/venv.sh failed: the MCP client needs python3 and PyPI"
        );
        root.join(String::from_utf8(out.stdout).expect("a path").trim())
    })
}

/// Runs the client in `mode` against `toolbox mcp` on `fx` and `store`.
fn client(mode: &str, fx: &Fixture, store: &str, calls: Value) -> Value {
    let server = json!([
        common::toolbox().display().to_string(),
        "mcp",
        "--root",
        fx.root.display().to_string(),
        "--store",
        store
    ]);
    let out = Command::new(python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/approval.py"))
        .arg(mode)
        .arg(server.to_string())
        .arg(calls.to_string())
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
