//! `examples/mcp_everything --stdio`, spoken to by hand.
//!
//! Log lines by protocol revision: up to `2025-11-25` the session's level
//! (`logging/setLevel`) decides; from `2026-07-28` (SEP-2575) each request
//! carries its own level in `_meta` (`io.modelcontextprotocol/logLevel`),
//! and the server must not send `notifications/message` for a request
//! without it, whatever an earlier `logging/setLevel` said.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

/// A running `mcp_everything --stdio` and the lines it prints.
struct Everything {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Everything {
    fn start() -> Everything {
        let mut child = Command::new(common::example("mcp_everything"))
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mcp_everything");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Everything {
            child,
            stdin,
            lines,
        }
    }

    /// Sends a request; every message up to and including its answer.
    fn exchange(&mut self, id: u64, method: &str, params: Value) -> Vec<Value> {
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.stdin, "{m}").unwrap();
        self.stdin.flush().unwrap();
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("an answer within 30 s");
            let message: Value = serde_json::from_str(&line).unwrap();
            let done = message.get("id") == Some(&json!(id));
            seen.push(message);
            if done {
                return seen;
            }
        }
    }

    /// A request's answer.
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.exchange(id, method, params).pop().unwrap()
    }
}

impl Drop for Everything {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn logs(messages: &[Value]) -> usize {
    messages
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .count()
}

#[test]
fn from_2026_07_28_a_request_without_its_own_level_gets_no_log_line() {
    let mut s = Everything::start();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tests/mcp_everything_stdio.rs", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    s.request(1, "server/discover", json!({"_meta": meta}));
    s.request(
        2,
        "logging/setLevel",
        json!({"level": "debug", "_meta": meta}),
    );
    let call =
        |meta: &Value| json!({"name": "test_tool_with_logging", "arguments": {}, "_meta": meta});
    // The session's level is not this request's: no log line.
    let without = s.exchange(3, "tools/call", call(&meta));
    assert_eq!(logs(&without), 0, "{without:#?}");
    // Its own level: the three lines, at `info`.
    let mut with = meta.clone();
    with["io.modelcontextprotocol/logLevel"] = json!("info");
    let asked = s.exchange(4, "tools/call", call(&with));
    assert_eq!(logs(&asked), 3, "{asked:#?}");
    // Above them: none.
    with["io.modelcontextprotocol/logLevel"] = json!("error");
    let quiet = s.exchange(5, "tools/call", call(&with));
    assert_eq!(logs(&quiet), 0, "{quiet:#?}");
}

/// `completion/complete` for a prompt or template the server does not
/// have is invalid params (-32602), as the spec's completion errors say,
/// not an empty list; for one it has, the (empty) values.
#[test]
fn completing_an_unknown_reference_is_invalid_params() {
    let mut s = Everything::start();
    s.request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "tests/mcp_everything_stdio.rs", "version": "0"}}),
    );
    let unknown = s.request(
        2,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "no_such_prompt"},
               "argument": {"name": "a", "value": ""}}),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let known = s.request(
        3,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
               "argument": {"name": "arg1", "value": ""}}),
    );
    assert_eq!(
        known["result"]["completion"]["values"],
        json!([]),
        "{known}"
    );
}
