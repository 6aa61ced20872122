//! `examples/mcp_everything --stdio`, spoken to by hand.
//!
//! Log lines by protocol revision: up to `2025-11-25` the session's level
//! (`logging/setLevel`) decides; from `2026-07-28` (SEP-2575) each request
//! carries its own level in `_meta` (`io.modelcontextprotocol/logLevel`),
//! and the server must not send `notifications/message` for a request
//! without it, whatever an earlier `logging/setLevel` said.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use serde_json::{json, Value};

/// The messages a call's request brings, up to and including its answer.
fn call_and_collect(
    stdin: &mut std::process::ChildStdin,
    lines: &std::sync::mpsc::Receiver<String>,
    id: u64,
    meta: Value,
) -> Vec<Value> {
    let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "test_tool_with_logging", "arguments": {}, "_meta": meta}});
    writeln!(stdin, "{call}").unwrap();
    stdin.flush().unwrap();
    let mut seen = Vec::new();
    loop {
        let line = lines
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

fn logs(messages: &[Value]) -> usize {
    messages
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .count()
}

#[test]
fn from_2026_07_28_a_request_without_its_own_level_gets_no_log_line() {
    let mut child = Command::new(common::example("mcp_everything"))
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mcp_everything");
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.as_mut().unwrap();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "tests/mcp_log_level.rs", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    for (id, method, params) in [
        (1, "server/discover", json!({"_meta": meta})),
        (
            2,
            "logging/setLevel",
            json!({"level": "debug", "_meta": meta}),
        ),
    ] {
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{m}").unwrap();
        stdin.flush().unwrap();
        loop {
            let line = lines.recv_timeout(Duration::from_secs(30)).unwrap();
            let v: Value = serde_json::from_str(&line).unwrap();
            if v.get("id") == Some(&json!(id)) {
                break;
            }
        }
    }
    // The session's level is not this request's: no log line.
    let without = call_and_collect(stdin, &lines, 3, meta.clone());
    assert_eq!(logs(&without), 0, "{without:#?}");
    // Its own level: the three lines, at `info`.
    let mut with = meta.clone();
    with["io.modelcontextprotocol/logLevel"] = json!("info");
    let asked = call_and_collect(stdin, &lines, 4, with);
    assert_eq!(logs(&asked), 3, "{asked:#?}");
    // Above them: none.
    let mut above = meta;
    above["io.modelcontextprotocol/logLevel"] = json!("error");
    let quiet = call_and_collect(stdin, &lines, 5, above);
    assert_eq!(logs(&quiet), 0, "{quiet:#?}");
    let _ = child.kill();
    let _ = child.wait();
}

/// `completion/complete` for a prompt or template the server does not
/// have is invalid params (-32602), as the spec's completion errors say,
/// not an empty list; for one it has, the (empty) values.
#[test]
fn completing_an_unknown_reference_is_invalid_params() {
    let mut child = Command::new(common::example("mcp_everything"))
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mcp_everything");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let stdin = child.stdin.as_mut().unwrap();
    let mut request = |id: u64, method: &str, params: Value| -> Value {
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{m}").unwrap();
        stdin.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(out.read_line(&mut line).unwrap() > 0, "the server ended");
            let v: Value = serde_json::from_str(&line).unwrap();
            if v.get("id") == Some(&json!(id)) {
                return v;
            }
        }
    };
    request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "tests/mcp_everything_stdio.rs", "version": "0"}}),
    );
    let unknown = request(
        2,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "no_such_prompt"},
               "argument": {"name": "a", "value": ""}}),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let known = request(
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
    let _ = child.kill();
    let _ = child.wait();
}
