//! Log lines by protocol revision, spoken to `examples/mcp_everything
//! --stdio` by hand: up to `2025-11-25` the session's level
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
