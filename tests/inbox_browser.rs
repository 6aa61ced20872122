//! The approvals inbox in a real browser: `toolbox approvals serve` on a
//! SQLite store that a `toolbox serve-jsonl` server asks on, and the
//! machine's headless Chromium (Debian's `chromium` and `chromium-driver`,
//! which .ci/run installs) driven by Selenium (pinned in
//! tests/mcp_client/venv.sh) through tests/browser/inbox.py, with
//! JavaScript off.
//!
//! A call asks; the page shows it with its arguments; a click grants it; the
//! call sent again runs once (the journal counts one run). A denial with a
//! reason reaches the envelope. A grant posted from another site's page is
//! refused (403) even with the page's own token, and changes nothing. An
//! argument holding markup is shown as text. A request decided elsewhere
//! while the page was open shows as such. `INBOX_SCREENSHOT=PATH` saves a
//! picture of the page (docs/img/approvals-inbox.png was made so).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

use common::{python, Fixture};

/// `toolbox serve-jsonl` on the store: the server that asks.
struct Agent {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    n: usize,
}

impl Agent {
    fn start(root: &Path, store: &str) -> Agent {
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
        Agent {
            child,
            input,
            output,
            n: 0,
        }
    }

    fn call(&mut self, name: &str, args: &Value) -> Value {
        self.n += 1;
        let line = json!({"type": "function_call", "call_id": format!("call_{}", self.n), "name": name, "arguments": args.to_string()});
        writeln!(self.input, "{line}").expect("write a call");
        self.input.flush().expect("flush");
        let mut out = String::new();
        self.output.read_line(&mut out).expect("read an answer");
        let item: Value = serde_json::from_str(&out).expect("an output line is JSON");
        serde_json::from_str(item["output"].as_str().expect("output is a string"))
            .expect("the output is an envelope")
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `toolbox approvals serve --http 127.0.0.1:0`: the inbox, and its address.
struct InboxServer {
    child: Child,
    addr: String,
}

impl InboxServer {
    fn start(store: &str, by: &str) -> InboxServer {
        let mut child = Command::new(common::toolbox())
            .args([
                "approvals",
                "--store",
                store,
                "serve",
                "--http",
                "127.0.0.1:0",
            ])
            .args(["--by", by])
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn toolbox approvals serve");
        let mut err = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        err.read_line(&mut line)
            .expect("the inbox says where it is");
        let addr = line
            .trim()
            .strip_prefix("toolbox: approvals inbox on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not the inbox's address: {line}"))
            .to_string();
        InboxServer { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for InboxServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// tests/browser/inbox.py: one Chromium, driven one command at a time.
struct Browser {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Browser {
    fn start(url: &str) -> Browser {
        let mut child = Command::new(python())
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/inbox.py"))
            .arg(url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run the browser driver");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Browser {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, cmd: Value) -> Value {
        writeln!(self.input, "{cmd}").expect("write a command");
        self.input.flush().expect("flush");
        let mut out = String::new();
        self.output
            .read_line(&mut out)
            .expect("read the browser's answer");
        let answer: Value = serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("the driver answers JSON ({e}): {out:?}"));
        if let Some(error) = answer.get("error") {
            panic!("the browser failed {cmd}: {error}");
        }
        answer
    }

    fn open(&mut self) -> Value {
        self.send(json!({"op": "open"}))
    }

    fn decide(&mut self, id: &str, decision: &str, reason: &str) -> Value {
        self.send(json!({"op": "decide", "id": id, "decision": decision, "reason": reason}))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "{}", json!({"op": "quit"}));
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

fn request_id(env: &Value) -> String {
    assert_eq!(env["status"], "needs-approval", "{env:#}");
    env["approval"]["id"].as_str().expect("an id").to_string()
}

fn pending<'a>(page: &'a Value, id: &str) -> Option<&'a Value> {
    page["pending"]
        .as_array()
        .expect("pending")
        .iter()
        .find(|p| p["id"] == id)
}

/// The state of request `id`, as `toolbox approvals list --all` says.
fn state_of(store: &str, id: &str) -> String {
    let out = Command::new(common::toolbox())
        .args(["approvals", "--store", store, "list", "--all"])
        .output()
        .expect("run toolbox approvals list");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == id)
        .map(|r| r["state"].as_str().unwrap().to_string())
        .expect("the request is listed")
}

/// How many `delete_note` calls ran to `ok`, as the journal says.
fn deletions_run(store: &str) -> usize {
    common::toolbox_state(store, &["journal"])
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .filter(|e| e["event"] == "call" && e["tool"] == "delete_note" && e["status"] == "ok")
        .count()
}

/// A raw HTTP/1.1 request to the inbox; the status code and the body.
fn http(addr: &str, request: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect to the inbox");
    s.write_all(request.as_bytes()).expect("send");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let status = out[9..12].parse().expect("a status code");
    (status, out)
}

#[test]
fn a_person_decides_in_the_browser_and_the_call_runs_once() {
    let fx = Fixture::standard("inbox-browser");
    fx.write("notes/a.md", "a\n");
    let store = format!("sqlite:{}", fx.base.join("state.sqlite").display());
    let mut agent = Agent::start(&fx.root, &store);

    // A call asks.
    let delete_a = json!({"note": "a.md"});
    let first = request_id(&agent.call("delete_note", &delete_a));
    // An out-of-scope edit whose new text is markup.
    let version =
        agent.call("read_file", &json!({"path": "README.md"}))["result"]["version"].clone();
    let markup = r#"<script>document.title='pwned'</script><img src=x onerror=document.title='pwned'><b>bold</b>"#;
    let edit = json!({"path": "README.md", "old_text": "hello hello", "new_text": markup, "expected_version": version});
    let second = request_id(&agent.call("replace_text", &edit));

    let inbox = InboxServer::start(&store, "dana");
    let mut browser = Browser::start(&inbox.url());

    // The page shows both, newest first, with what a person needs to decide.
    let page = browser.open();
    assert_eq!(page["title"], "Approvals inbox (2)", "{page:#}");
    let ids: Vec<&str> = page["pending"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()], "newest first");
    let shown = pending(&page, &first).unwrap();
    assert_eq!(shown["tool"], "delete_note");
    assert_eq!(
        shown["does"],
        "Delete one note for good. It cannot be undone."
    );
    let args: Value = serde_json::from_str(shown["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args, delete_a, "the arguments, as formatted JSON");
    assert!(shown["reason"]
        .as_str()
        .unwrap()
        .contains("always needs a person's approval"));
    assert!(shown["digest"].as_str().unwrap().starts_with("sha256:"));
    assert!(
        shown["left"].as_str().unwrap().starts_with("expires in 1"),
        "{shown:#}"
    );
    let caller = shown["caller"].as_str().unwrap();
    assert!(
        caller.starts_with("a caller with no subject or tenant · ") && caller.ends_with(" ago"),
        "{caller}"
    );
    assert_eq!(shown["reason_field"], 1);
    assert_eq!(
        shown["buttons"],
        json!([["decision", "grant"], ["decision", "deny"]])
    );

    // Markup in an argument is text: no element in the <pre>, nothing ran.
    let edit_shown = pending(&page, &second).unwrap();
    assert!(
        edit_shown["arguments"].as_str().unwrap().contains(markup),
        "{edit_shown:#}"
    );
    assert_eq!(page["markup_in_arguments"], 0);
    assert_eq!(
        page["elements"],
        json!({"script": 0, "img": 0, "iframe": 0})
    );
    assert_ne!(page["title"], "pwned");

    if let Ok(path) = std::env::var("INBOX_SCREENSHOT") {
        browser.send(json!({"op": "screenshot", "path": path}));
    }

    // A click grants it; the page says so and lists the decision.
    let after = browser.decide(&first, "grant", "old note");
    assert_eq!(after["notice"]["kind"], "decided", "{after:#}");
    assert_eq!(after["notice"]["id"], first.as_str());
    assert!(
        after["notice"]["text"]
            .as_str()
            .unwrap()
            .contains("is granted by dana: old note"),
        "{after:#}"
    );
    assert!(pending(&after, &first).is_none());
    assert!(after["decided"][0]["text"]
        .as_str()
        .unwrap()
        .contains("granted"));

    // The call sent again runs, once: the next send is a new question.
    assert_eq!(deletions_run(&store), 0);
    let ran = agent.call("delete_note", &delete_a);
    assert_eq!(ran["status"], "ok", "{ran:#}");
    assert!(!fx.path("notes/a.md").exists());
    let third = request_id(&agent.call("delete_note", &delete_a));
    assert_ne!(third, first);
    assert_eq!(deletions_run(&store), 1, "the journal counts one run");

    // A denial with a reason reaches the envelope; the edit did not happen.
    browser.open();
    let denied = browser.decide(&second, "deny", "not in this task <b>ever</b>");
    assert!(
        denied["notice"]["text"]
            .as_str()
            .unwrap()
            .contains("is denied by dana: not in this task <b>ever</b>"),
        "{denied:#}"
    );
    let refused = agent.call("replace_text", &edit);
    assert_eq!(refused["status"], "denied", "{refused:#}");
    assert_eq!(refused["errors"][0]["code"], "approval-denied");
    assert_eq!(
        refused["errors"][0]["message"],
        "dana denied this call: not in this task <b>ever</b>"
    );
    assert_eq!(fx.read("repo/README.md"), "hello hello\n");

    // Another site's page posting a grant, even with the page's own token,
    // is refused, and the request stays pending.
    let csrf = pending(&browser.open(), &third).unwrap()["csrf"].clone();
    let attacked = browser.send(json!({"op": "cross_site", "id": third, "csrf": csrf}));
    assert_eq!(
        attacked["alert"], "Refused: this decision was sent from another site.",
        "{attacked:#}"
    );
    assert_eq!(state_of(&store, &third), "pending");

    // Decided elsewhere while the page was open: the click changes nothing
    // and the page says who decided first.
    let page = browser.open();
    assert!(pending(&page, &third).is_some());
    let cli = Command::new(common::toolbox())
        .args([
            "approvals",
            "--store",
            &store,
            "grant",
            &third,
            "--by",
            "sam",
            "--reason",
            "fine",
        ])
        .output()
        .unwrap();
    assert!(cli.status.success());
    let late = browser.decide(&third, "deny", "too late");
    assert_eq!(late["notice"]["kind"], "already", "{late:#}");
    assert!(
        late["notice"]["text"].as_str().unwrap().contains(
            "was already granted by sam: fine before your decision reached it; nothing changed"
        ),
        "{late:#}"
    );
    assert_eq!(state_of(&store, &third), "granted");

    // Without the page's token, a post is refused; so is a foreign Host.
    let body = format!("id={third}&decision=deny&reason=x");
    let (status, text) = http(
        &inbox.addr,
        &format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            inbox.addr,
            body.len()
        ),
    );
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("the form&#39;s token is missing"), "{text}");
    let (status, _) = http(
        &inbox.addr,
        "GET / HTTP/1.1\r\nHost: inbox.evil.example\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 403, "a rebinding name is not a loopback host");
}
