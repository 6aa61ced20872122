//! Approvals across processes, as a user of the toolbox sees them: two
//! `toolbox serve-jsonl` servers on one store (SQLite file, PostgreSQL), a
//! person deciding with `toolbox approvals` from a third process, and the
//! approved call sent to both servers at once: it runs exactly once.
//!
//! PostgreSQL comes from `CONTRACT_TEST_POSTGRES_URL` (.ci/run sets it):
//! without it these cases print a notice and pass locally, and fail in CI.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

use common::Fixture;

#[derive(Clone, Copy, Debug)]
enum Kind {
    Sqlite,
    Postgres,
}

fn store_for(kind: Kind, fx: &Fixture) -> Option<String> {
    match kind {
        Kind::Sqlite => Some(format!("sqlite:{}", fx.base.join("state.sqlite").display())),
        Kind::Postgres => match std::env::var("CONTRACT_TEST_POSTGRES_URL") {
            Ok(url) if !url.is_empty() => Some(format!("postgres:{url}")),
            _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
                panic!("CONTRACT_TEST_POSTGRES_URL is not set: in CI, .ci/run starts PostgreSQL")
            }
            _ => {
                eprintln!("note: CONTRACT_TEST_POSTGRES_URL is not set; PostgreSQL case skipped");
                None
            }
        },
    }
}

struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    n: usize,
}

impl Server {
    fn start(root: &Path, store: &str) -> Server {
        let mut child = Command::new(common::toolbox())
            .args(["serve-jsonl", "--task-scope", "src", "--root"])
            .arg(root)
            .args(["--store", store])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn toolbox serve-jsonl");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Server {
            child,
            input,
            output,
            n: 0,
        }
    }

    /// Sends one call without waiting for its answer.
    fn send(&mut self, name: &str, args: &Value) {
        self.n += 1;
        let line = json!({"type": "function_call", "call_id": format!("call_{}", self.n), "name": name, "arguments": args.to_string()});
        writeln!(self.input, "{line}").expect("write a call");
        self.input.flush().expect("flush");
    }

    fn answer(&mut self) -> Value {
        let mut out = String::new();
        self.output.read_line(&mut out).expect("read an answer");
        let item: Value = serde_json::from_str(&out).expect("an output line is JSON");
        serde_json::from_str(item["output"].as_str().expect("output is a string"))
            .expect("the output is an envelope")
    }

    fn call(&mut self, name: &str, args: &Value) -> Value {
        self.send(name, args);
        self.answer()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `toolbox approvals --store S ARGS...`: its JSON lines, or its error.
fn approvals(store: &str, args: &[&str]) -> Result<Vec<Value>, String> {
    let out = Command::new(common::toolbox())
        .args(["approvals", "--store", store])
        .args(args)
        .output()
        .expect("run toolbox approvals");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect())
}

fn request_id(env: &Value) -> String {
    assert_eq!(env["status"], "needs-approval", "{env:#}");
    env["approval"]["id"]
        .as_str()
        .expect("the approval names its request")
        .to_string()
}

/// A note name no earlier run on a shared database has asked about.
fn fresh_note() -> String {
    let id = contract_runtime::store::new_id("n").unwrap();
    format!("{}.md", &id[2..14])
}

fn two_servers_one_grant_one_run(kind: Kind) {
    let fx = Fixture::standard("approvals-two");
    let Some(store) = store_for(kind, &fx) else {
        return;
    };
    let note = fresh_note();
    fx.write(&format!("notes/{note}"), "old\n");
    let mut a = Server::start(&fx.root, &store);
    let mut b = Server::start(&fx.root, &store);
    let args = json!({"note": note});

    let asked = a.call("delete_note", &args);
    let id = request_id(&asked);
    // The person sees it from another process: tool, arguments, digest, rule, reason.
    let pending = approvals(&store, &["list"]).unwrap();
    let listed = pending
        .iter()
        .find(|r| r["id"] == id.as_str())
        .expect("the request is listed");
    assert_eq!(listed["tool"], "delete_note");
    assert_eq!(listed["arguments"], args);
    assert_eq!(listed["digest"], asked["approval"]["digest"]);
    assert_eq!(listed["rule"], "always");
    assert_eq!(listed["state"], "pending");

    let granted = approvals(
        &store,
        &["grant", &id, "--reason", "old note", "--by", "dana"],
    )
    .unwrap();
    assert_eq!(granted[0]["state"], "granted", "{kind:?}");
    assert_eq!(granted[0]["decided_by"], "dana");

    // The same call to both servers at once: one runs, the other is asked again.
    a.send("delete_note", &args);
    b.send("delete_note", &args);
    let answers = [a.answer(), b.answer()];
    let mut statuses: Vec<&str> = answers
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    statuses.sort_unstable();
    assert_eq!(statuses, ["needs-approval", "ok"], "{kind:?}: {answers:#?}");
    assert!(!fx.path(&format!("notes/{note}")).exists());

    // Deciding again on a used request is refused.
    let again = approvals(&store, &["grant", &id]).unwrap_err();
    assert!(again.contains("used, not pending"), "{again}");
}

fn out_of_scope_replace_text_approved_elsewhere_runs_once(kind: Kind) {
    let fx = Fixture::standard("approvals-scope");
    let Some(store) = store_for(kind, &fx) else {
        return;
    };
    let file = format!("docs/{}", fresh_note());
    fx.write(&format!("repo/{file}"), "guide\n");
    let mut a = Server::start(&fx.root, &store);
    let mut b = Server::start(&fx.root, &store);
    let version = a.call("read_file", &json!({"path": file}))["result"]["version"].clone();
    let args = json!({"path": file, "old_text": "guide", "new_text": "handbook", "expected_version": version});
    let asked = a.call("replace_text", &args);
    let id = request_id(&asked);
    assert!(
        asked["approval"]["reason"]
            .as_str()
            .unwrap()
            .contains("outside the task scope"),
        "{asked:#}"
    );
    approvals(&store, &["grant", &id]).unwrap();
    let ran = b.call("replace_text", &args);
    assert_eq!(ran["status"], "ok", "{kind:?}: {ran:#}");
    assert_eq!(fx.read(&format!("repo/{file}")), "handbook\n");
    let again = a.call("replace_text", &args);
    assert_ne!(request_id(&again), id, "used once; a new question now");
}

fn a_denial_from_another_process_ends_in_denied(kind: Kind) {
    let fx = Fixture::standard("approvals-deny");
    let Some(store) = store_for(kind, &fx) else {
        return;
    };
    let note = fresh_note();
    fx.write(&format!("notes/{note}"), "keep\n");
    let mut a = Server::start(&fx.root, &store);
    let args = json!({"note": note});
    let id = request_id(&a.call("delete_note", &args));
    let denied = approvals(
        &store,
        &["deny", &id, "--reason", "still needed", "--by", "erin"],
    )
    .unwrap();
    assert_eq!(denied[0]["state"], "denied");
    let env = a.call("delete_note", &args);
    assert_eq!(env["status"], "denied", "{env:#}");
    assert_eq!(env["errors"][0]["code"], "approval-denied");
    assert_eq!(
        env["errors"][0]["message"],
        "erin denied this call: still needed"
    );
    assert!(fx.path(&format!("notes/{note}")).exists());
}

#[test]
fn sqlite_two_servers_one_grant_one_run() {
    two_servers_one_grant_one_run(Kind::Sqlite);
}

#[test]
fn postgres_two_servers_one_grant_one_run() {
    two_servers_one_grant_one_run(Kind::Postgres);
}

#[test]
fn sqlite_out_of_scope_replace_text_approved_elsewhere_runs_once() {
    out_of_scope_replace_text_approved_elsewhere_runs_once(Kind::Sqlite);
}

#[test]
fn postgres_out_of_scope_replace_text_approved_elsewhere_runs_once() {
    out_of_scope_replace_text_approved_elsewhere_runs_once(Kind::Postgres);
}

#[test]
fn sqlite_a_denial_from_another_process_ends_in_denied() {
    a_denial_from_another_process_ends_in_denied(Kind::Sqlite);
}

#[test]
fn postgres_a_denial_from_another_process_ends_in_denied() {
    a_denial_from_another_process_ends_in_denied(Kind::Postgres);
}

/// A person reads what the file will hold: a bidirectional control in the
/// model's text (Trojan Source, which shows an approver code in another
/// order than the file gets) reaches `approvals list` as its `\u` escape,
/// never raw, and the listing is still the same JSON.
#[test]
fn approvals_list_shows_invisible_characters_as_escapes() {
    let fx = Fixture::standard("approvals-bidi");
    let store = format!("sqlite:{}", fx.base.join("bidi.sqlite").display());
    let new_text = "if access != \"user\u{202e} \u{2066}\": # admin\u{2069}\u{2066}";
    // the version of "guide\n", the standard fixture's docs/guide.md
    let read = Command::new(common::toolbox())
        .args([
            "serve-jsonl",
            "--root",
            fx.root.to_str().unwrap(),
            "--store",
            &store,
        ])
        .args(["--task-scope", "src"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run toolbox");
    let mut child = read;
    let mut input = child.stdin.take().unwrap();
    let call = |id: &str, name: &str, args: Value| json!({"type": "function_call", "call_id": id, "name": name, "arguments": args.to_string()});
    writeln!(
        input,
        "{}",
        call("r", "read_file", json!({"path": "docs/guide.md"}))
    )
    .unwrap();
    input.flush().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    output.read_line(&mut line).unwrap();
    let item: Value = serde_json::from_str(&line).unwrap();
    let env: Value = serde_json::from_str(item["output"].as_str().unwrap()).unwrap();
    let version = env["result"]["version"].as_str().unwrap().to_owned();
    let args = json!({"path": "docs/guide.md", "old_text": "guide", "new_text": new_text, "expected_version": version});
    writeln!(input, "{}", call("e", "replace_text", args.clone())).unwrap();
    drop(input);
    line.clear();
    output.read_line(&mut line).unwrap();
    let _ = child.wait();
    assert!(line.contains("needs-approval"), "{line}");

    let out = Command::new(common::toolbox())
        .args(["approvals", "--store", &store, "list"])
        .output()
        .expect("run toolbox approvals list");
    let text = String::from_utf8(out.stdout).unwrap();
    for c in ['\u{202e}', '\u{2066}', '\u{2069}'] {
        assert!(!text.contains(c), "{c:?} reached the terminal raw: {text}");
    }
    assert!(text.contains(r"\u202e"), "{text}");
    let listed: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(listed["arguments"], args, "the same JSON value");
}
