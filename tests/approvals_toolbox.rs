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
    Ok(approvals_output(store, args)?
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect())
}

/// `toolbox approvals --store S ARGS...`'s output as the terminal gets
/// it, or its error.
fn approvals_output(store: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(common::toolbox())
        .args(["approvals", "--store", store])
        .args(args)
        .output()
        .expect("run toolbox approvals");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8(out.stdout).expect("utf-8"))
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

/// A server on `store` that asked for a `replace_text` of docs/guide.md
/// (outside `--task-scope src`, so a person must approve it) writing
/// `new_text`: the server, the call's arguments and the request's id.
fn ask_to_replace(fx: &Fixture, store: &str, new_text: &str) -> (Server, Value, String) {
    let mut s = Server::start(&fx.root, store);
    let read = s.call("read_file", &json!({"path": "docs/guide.md"}));
    let version = read["result"]["version"].as_str().expect("a version");
    let args = json!({"path": "docs/guide.md", "old_text": "guide", "new_text": new_text, "expected_version": version});
    let id = request_id(&s.call("replace_text", &args));
    (s, args, id)
}

/// A person reads what the file will hold: a bidirectional control in the
/// model's text (Trojan Source, which shows an approver code in another
/// order than the file gets), tag characters (a sentence no one sees) and
/// a soft hyphen reach `approvals list`, and the answer to `grant`, as
/// their `\u` escapes, never raw, and each is still the same JSON.
#[test]
fn approvals_list_and_grant_show_invisible_characters_as_escapes() {
    let fx = Fixture::standard("approvals-bidi");
    let store = format!("sqlite:{}", fx.base.join("bidi.sqlite").display());
    // "if access != "user<RLO> <LRI>": # admin<PDI><LRI>", then "ignore" in
    // tag characters, then a soft hyphen
    let tags: String = "ignore"
        .chars()
        .map(|c| char::from_u32(0xe0000 + c as u32).unwrap())
        .collect();
    let new_text =
        format!("if access != \"user\u{202e} \u{2066}\": # admin\u{2069}\u{2066}{tags}\u{ad}");
    let (_server, args, id) = ask_to_replace(&fx, &store, &new_text);
    let listed = approvals_output(&store, &["list"]).expect("list");
    let granted = approvals_output(&store, &["grant", &id]).expect("grant");
    for text in [&listed, &granted] {
        for c in ['\u{202e}', '\u{2066}', '\u{2069}', '\u{e0069}', '\u{ad}'] {
            assert!(!text.contains(c), "{c:?} reached the terminal raw: {text}");
        }
        // a tag character is two UTF-16 escapes, as JSON writes it
        for escape in [r"\u202e", r"\udb40\udc69", r"\u00ad"] {
            assert!(text.contains(escape), "{escape} in {text}");
        }
        let shown: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(shown["arguments"], args, "the same JSON value");
    }
}

/// A journal keeps every entry for its retention, so it keeps at most
/// `JOURNAL_ARGUMENTS_MAX` of a call's arguments: in the call's entries, and
/// in the approval request's, its decision's and its use's, which repeated
/// the whole arguments (a megabyte a request).
#[test]
fn approval_events_keep_no_more_than_the_journal_bound_of_arguments() {
    use contract_runtime::observe::JOURNAL_ARGUMENTS_MAX;
    let fx = Fixture::standard("approvals-journal-bound");
    let store = format!("sqlite:{}", fx.base.join("bound.sqlite").display());
    let (mut server, args, id) = ask_to_replace(&fx, &store, &"x".repeat(JOURNAL_ARGUMENTS_MAX));
    approvals(&store, &["grant", &id]).expect("grant");
    assert_eq!(server.call("replace_text", &args)["status"], "ok");
    let journal = common::toolbox_state(&store, &["journal"]).expect("the journal");
    let note = format!("not kept: over {JOURNAL_ARGUMENTS_MAX} bytes]");
    let mut seen = Vec::new();
    for entry in &journal {
        let event = entry["event"].as_str().unwrap();
        if entry["tool"] == "replace_text" {
            let kept = entry["arguments"].as_str().unwrap_or_default();
            let head: String = entry.to_string().chars().take(300).collect();
            assert!(
                kept.starts_with("[arguments of ") && kept.ends_with(&note),
                "{event}: {head}"
            );
            seen.push(event.to_owned());
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "approval-decision",
            "approval-request",
            "approval-used",
            "call",
            "call"
        ],
        "the journal's replace_text entries"
    );
}

/// A decision's reason is kept in the request, the journal and the message
/// the model reads on a denial: at most `MAX_REASON` characters, whoever
/// decides. The operator's command took any length (the inbox 2,000); a
/// longer one now decides nothing and says why.
#[test]
fn a_reason_past_the_bound_decides_nothing() {
    use contract_runtime::policy::approval::MAX_REASON;
    let fx = Fixture::standard("approvals-long-reason");
    let store = format!("sqlite:{}", fx.base.join("reason.sqlite").display());
    let (_server, _args, id) = ask_to_replace(&fx, &store, "guidance");
    let long = "é".repeat(MAX_REASON + 1);
    let refused = approvals(&store, &["deny", &id, "--reason", &long]).expect_err("refused");
    assert!(refused.contains("longer than 2000 characters"), "{refused}");
    let listed = approvals(&store, &["list"]).expect("list");
    assert_eq!(listed[0]["state"], "pending", "nothing was decided");
    let denied = approvals(&store, &["deny", &id, "--reason", &long[..long.len() - 2]])
        .expect("2000 characters are a reason");
    assert_eq!(denied[0]["state"], "denied");
}
