//! End to end: `toolbox mcp --root DIR` spoken to by hand, one JSON-RPC
//! message a line on its stdin and stdout (the MCP stdio transport).

use toolbox as tools;

mod common;
use common::{toolbox, Fixture};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use contract_runtime::dialect::{self, Dialect, ExportOptions};
use serde_json::{json, Value};

/// A running `toolbox mcp` and the lines it prints.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The folder served; removed after the server is stopped.
    dir: Fixture,
}

impl Server {
    fn start(name: &str) -> Server {
        let dir = Fixture::standard(&format!("mcp-{name}"));
        let mut child = Command::new(toolbox())
            .args(["mcp", "--root"])
            .arg(&dir.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn toolbox mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Server {
            child,
            stdin,
            lines,
            dir,
        }
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{message}").expect("write to the server");
        stdin.flush().expect("flush");
    }

    /// The next message the server prints.
    fn recv(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(30))
            .expect("a reply within 30 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends a request and returns its response, skipping notifications.
    fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.recv();
            if message.get("id") == Some(&id) {
                return message;
            }
            assert!(
                message.get("id").is_none(),
                "a response to another request: {message}"
            );
        }
    }

    fn call(&mut self, id: Value, name: &str, arguments: Option<Value>) -> Value {
        let mut params = json!({"name": name});
        if let Some(arguments) = arguments {
            params["arguments"] = arguments;
        }
        let response = self.request(id, "tools/call", params);
        assert!(
            response.get("error").is_none(),
            "tools/call must answer with a result, not an error: {response}"
        );
        let result = response["result"].clone();
        check_result(&result);
        result
    }

    fn initialize(&mut self) -> Value {
        let response = self.request(
            json!(1),
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "tests/mcp.rs", "version": "0"}
            }),
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        response
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What every `CallToolResult` must be (`docs/envelope.md`, "Per provider"): the
/// envelope in `structuredContent`, the same JSON as text in `content`, and
/// `isError` for every status but ok and partial.
fn check_result(result: &Value) {
    let envelope = &result["structuredContent"];
    let status = envelope["status"]
        .as_str()
        .unwrap_or_else(|| panic!("no envelope: {result}"));
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "{result}");
    assert_eq!(content[0]["type"], "text");
    let text: Value =
        serde_json::from_str(content[0]["text"].as_str().expect("text")).expect("JSON text");
    assert_eq!(
        &text, envelope,
        "content text and structuredContent are the same envelope"
    );
    assert_eq!(
        result["isError"],
        json!(!matches!(status, "ok" | "partial")),
        "{result}"
    );
}

#[test]
fn initialize_list_and_call() {
    let mut server = Server::start("session");
    let init = server.initialize();
    let info = &init["result"];
    assert!(info["capabilities"]["tools"].is_object(), "{init}");
    assert_eq!(info["serverInfo"]["name"], "toolbox");
    assert!(info["protocolVersion"].is_string());

    // tools/list: the MCP export, every toolbox tool.
    let list = server.request(json!(2), "tools/list", json!({}));
    let listed = list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .clone();
    let export = dialect::export(
        tools::registry().canonical(),
        Dialect::Mcp,
        &ExportOptions::default(),
    )
    .expect("export");
    assert_eq!(listed.len(), export.tools.len());
    for (got, want) in listed.iter().zip(&export.tools) {
        // Listed whole as exported, `outputSchema` included (the server
        // builds it from the export's parts, shared between equal outputs).
        assert_eq!(*got, *want, "{}", want["name"]);
        assert_eq!(got["name"], want["name"]);
        assert_eq!(got["description"], want["description"]);
        assert_eq!(got["inputSchema"], want["inputSchema"], "{}", want["name"]);
        assert_eq!(got["annotations"], want["annotations"], "{}", want["name"]);
        // The output schema describes what structuredContent carries: the envelope.
        let output = &got["outputSchema"];
        assert_eq!(output["type"], "object");
        assert!(output["required"]
            .as_array()
            .expect("required")
            .contains(&json!("status")));
    }
    let by_name = |name: &str| {
        listed
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .expect(name)
    };
    assert_eq!(by_name("search_notes")["annotations"]["readOnlyHint"], true);
    assert_eq!(
        by_name("delete_note")["annotations"]["destructiveHint"],
        true
    );
    assert_eq!(
        by_name("post_comment")["annotations"]["openWorldHint"],
        true
    );

    // An ok call: the envelope, its call id the JSON-RPC request id.
    let ok = server.call(json!(3), "search_notes", Some(json!({"query": "cache"})));
    let envelope = &ok["structuredContent"];
    assert_eq!(envelope["status"], "ok", "{ok}");
    assert_eq!(envelope["call_id"], "3");
    assert_eq!(envelope["tool"], "search_notes");
    assert_eq!(envelope["result"]["matches"][0]["note"], "kv-cache.md");
    assert_eq!(ok["isError"], false);
    let validator = jsonschema::validator_for(&by_name("search_notes")["outputSchema"])
        .expect("outputSchema compiles");
    assert!(
        validator.is_valid(envelope),
        "structuredContent follows outputSchema: {envelope}"
    );

    // A schema violation is a result with isError, not a JSON-RPC error.
    let invalid = server.call(
        json!(4),
        "list_filings",
        Some(json!({"company": "ACME", "year": 1998})),
    );
    let envelope = &invalid["structuredContent"];
    assert_eq!(invalid["isError"], true);
    assert_eq!(envelope["status"], "invalid");
    assert_eq!(envelope["errors"][0]["code"], "schema-violation");
    assert_eq!(envelope["errors"][0]["field"], "/year");
    assert_eq!(envelope["errors"][0]["constraint"]["keyword"], "minimum");
    let validator = jsonschema::validator_for(&by_name("list_filings")["outputSchema"])
        .expect("outputSchema compiles");
    assert!(validator.is_valid(envelope), "{envelope}");

    // Missing arguments: the same, for the missing field.
    let missing = server.call(json!(5), "search_notes", None);
    assert_eq!(missing["structuredContent"]["status"], "invalid");
    assert_eq!(
        missing["structuredContent"]["errors"][0]["code"],
        "schema-violation"
    );

    // An unknown tool, with a string request id: a result too.
    let unknown = server.call(json!("req-6"), "drop_database", Some(json!({})));
    let envelope = &unknown["structuredContent"];
    assert_eq!(unknown["isError"], true);
    assert_eq!(envelope["status"], "invalid");
    assert_eq!(envelope["tool"], "drop_database");
    assert_eq!(envelope["call_id"], "req-6");
    assert_eq!(envelope["errors"][0]["code"], "unknown-tool");
    let hint = envelope["errors"][0]["repair"]["hint"]
        .as_str()
        .expect("a hint");
    assert!(hint.contains("search_notes"), "{hint}");

    // Approval-gated: nothing ran, isError.
    let gated = server.call(json!(7), "delete_note", Some(json!({"note": "agents.md"})));
    assert_eq!(gated["structuredContent"]["status"], "needs-approval");
    assert_eq!(gated["isError"], true);
    assert!(
        server.dir.path("notes/agents.md").is_file(),
        "nothing was deleted"
    );

    // A write that is in scope: the file changes.
    let read = server.call(json!(8), "read_file", Some(json!({"path": "src/lib.rs"})));
    let version = read["structuredContent"]["result"]["version"]
        .as_str()
        .expect("a version")
        .to_owned();
    let replaced = server.call(
        json!(9),
        "replace_text",
        Some(json!({"path": "src/lib.rs", "old_text": "41", "new_text": "42", "expected_version": version})),
    );
    // No --task-scope: a change inside repo/ may need approval; either way the
    // result is well-formed (checked by `call`) and nothing ran unless ok.
    let status = replaced["structuredContent"]["status"]
        .as_str()
        .expect("a status")
        .to_owned();
    let text = std::fs::read_to_string(server.dir.path("repo/src/lib.rs")).expect("read");
    assert_eq!(text.contains("42"), status == "ok", "{replaced}");

    // Closing stdin ends the server.
    drop(server.stdin.take());
    let mut waited = 0;
    while server.child.try_wait().expect("try_wait").is_none() {
        assert!(waited < 100, "the server did not exit after stdin closed");
        std::thread::sleep(Duration::from_millis(100));
        waited += 1;
    }
}

#[test]
fn a_bad_root_fails_to_start() {
    let out = Command::new(toolbox())
        .args(["mcp", "--root", "/nonexistent/toolbox-mcp-root"])
        .stdin(Stdio::null())
        .output()
        .expect("run toolbox mcp");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--root"), "{stderr}");
}

/// The SDK's tools of an MCP export: tools whose outputs have the same
/// schema share one `outputSchema` (rmcp holds it whole, about 45 KB of
/// `Value`), different outputs have their own, and each is the export's.
#[test]
fn sdk_tools_share_equal_output_schemas() {
    let mut defs = tools::registry().canonical();
    let copies: Vec<Value> = defs
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d["name"] = json!(format!("{}_copy", d["name"].as_str().expect("a name")));
            d
        })
        .collect();
    defs.extend(copies);
    let export = dialect::export(&defs, Dialect::Mcp, &ExportOptions::default()).expect("export");
    let listed = contract_runtime::mcp::rmcp_tools(export.clone()).expect("SDK tools");
    assert_eq!(listed.len(), defs.len());
    let schema = |i: usize| listed[i].output_schema.as_ref().expect("an output schema");
    for (i, want) in export.tools.iter().enumerate() {
        assert_eq!(
            Value::Object((**schema(i)).clone()),
            want["outputSchema"],
            "{}",
            want["name"]
        );
        assert_eq!(listed[i].name, want["name"].as_str().expect("a name"));
        assert_eq!(
            Value::Object((*listed[i].input_schema).clone()),
            want["inputSchema"]
        );
    }
    let half = defs.len() / 2;
    for i in 0..half {
        assert!(std::sync::Arc::ptr_eq(schema(i), schema(i + half)));
    }
    // As many allocations as different schemas: equal ones shared, and
    // no two different ones merged.
    let mut texts: Vec<String> = (0..defs.len())
        .map(|i| export.tools[i]["outputSchema"].to_string())
        .collect();
    texts.sort();
    texts.dedup();
    let mut ptrs: Vec<*const _> = (0..defs.len())
        .map(|i| std::sync::Arc::as_ptr(schema(i)))
        .collect();
    ptrs.sort();
    ptrs.dedup();
    assert_eq!(ptrs.len(), texts.len());
    assert!(texts.len() > 1, "the toolbox's outputs differ");
}

/// `arguments` that is not an object (the JSON text of the arguments as a
/// string, a list, a number) is a tool result, `invalid /
/// malformed-arguments` with `isError`, as for every provider: never a
/// JSON-RPC error, which the model would not see.
#[test]
fn arguments_that_are_not_an_object_are_a_result_not_a_protocol_error() {
    let mut server = Server::start("not-an-object");
    server.initialize();
    for (id, arguments, kind) in [
        (10, json!("{\"query\":\"kv\"}"), "string"),
        (11, json!([1]), "array"),
        (12, json!(7), "integer"),
    ] {
        let result = server.call(json!(id), "search_notes", Some(arguments));
        assert_eq!(result["isError"], true, "{result}");
        let env = &result["structuredContent"];
        assert_eq!(env["status"], "invalid", "{env}");
        assert_eq!(env["errors"][0]["code"], "malformed-arguments", "{env}");
        assert!(
            env["errors"][0]["message"].as_str().unwrap().contains(kind),
            "{env}"
        );
    }
    // the session goes on
    let ok = server.call(json!(13), "search_notes", Some(json!({"query": "kv"})));
    assert_eq!(ok["structuredContent"]["status"], "ok", "{ok}");
}

impl Server {
    /// Writes `line` as it is (what `json!` could never build) and returns
    /// the answer to request `id`; a missing answer fails within 30 s.
    fn call_raw(&mut self, id: u64, line: &str) -> Value {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the server");
        stdin.flush().expect("flush");
        loop {
            let message = self.recv();
            if message.get("id") == Some(&json!(id)) {
                assert!(message.get("error").is_none(), "{message}");
                check_result(&message["result"]);
                return message;
            }
        }
    }
}

/// A `tools/call` line with `arguments` written as given.
fn raw_call(id: u64, name: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
    )
}

/// The envelope of an answer that must be `invalid / malformed-arguments`.
fn malformed(answer: &Value) -> &Value {
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let env = &answer["result"]["structuredContent"];
    assert_eq!(env["status"], "invalid", "{env}");
    assert_eq!(env["errors"][0]["code"], "malformed-arguments", "{env}");
    env
}

/// A key sent twice is `malformed-arguments` naming it, as over
/// serve-jsonl: the SDK alone would keep the last one and run on it (the
/// file read, or an approval granted for the other note consumed).
#[test]
fn repeated_argument_keys_are_malformed_not_the_last_one_run() {
    let mut server = Server::start("repeated-keys");
    server.initialize();
    for (id, name, args, key) in [
        (
            20,
            "read_file",
            r#"{"path":"/etc/passwd","path":"README.md"}"#,
            "path",
        ),
        (
            21,
            "read_file",
            r#"{"path":"src/lib.rs","p\u0061th":"README.md"}"#,
            "path",
        ),
        (
            22,
            "delete_note",
            r#"{"note":"plain.md","note":"agents.md"}"#,
            "note",
        ),
    ] {
        let answer = server.call_raw(id, &raw_call(id, name, args));
        let env = malformed(&answer);
        let message = env["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(&format!("`{key}`")), "{env}");
        let text = answer.to_string();
        assert!(
            !text.contains("hello hello") && !text.contains("pub fn answer"),
            "{text}"
        );
    }
    assert!(server.dir.path("notes/plain.md").is_file());
    assert!(server.dir.path("notes/agents.md").is_file());
    let ok = server.call(json!(23), "read_file", Some(json!({"path": "README.md"})));
    assert_eq!(ok["structuredContent"]["status"], "ok", "{ok}");
}

/// Arguments the SDK's JSON reader refuses (it would drop the whole
/// message, leaving the client without an answer) are answered
/// `malformed-arguments`, as over serve-jsonl.
#[test]
fn arguments_the_sdk_cannot_read_are_answered_malformed() {
    let mut server = Server::start("unreadable");
    server.initialize();
    let deep = format!(r#"{{"query":{}"kv"{}}}"#, "[".repeat(200), "]".repeat(200));
    for (id, args) in [
        (30, r#"{"query":"kv","limit":1e400}"#),
        (31, r#"{"query":"\ud800"}"#),
        (32, r#"{"query":"kv","limit":NaN}"#),
        (33, deep.as_str()),
    ] {
        let answer = server.call_raw(id, &raw_call(id, "search_notes", args));
        malformed(&answer);
    }
    let ok = server.call(json!(34), "search_notes", Some(json!({"query": "kv"})));
    assert_eq!(ok["structuredContent"]["status"], "ok", "{ok}");
}

/// Text that is not JSON at all gets JSON-RPC's parse error (code -32700,
/// id null), as JSON-RPC 2.0 asks: the SDK alone drops it without a word,
/// and a client waiting for an answer waits forever. The session goes on.
#[test]
fn text_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() {
    let mut server = Server::start("parse-error");
    server.initialize();
    // JSON that rmcp's reader refuses and dropped without an answer: a
    // lone surrogate outside the arguments, nesting past 128 levels.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":47,"method":"tools/call","params":{{"name":"search_notes","x":{}1{}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    for (i, line) in [
        "this is not json",
        r#"{"jsonrpc":"2.0","id":40,"method":"tools/list"} trailing"#,
        r#"{"jsonrpc":"2.0","id":41,"method":"tools/list""#,
        r#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":NaN}}} x"#,
        r#"{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"search\ud800","arguments":{"query":"a"}}}"#,
        r#"{"jsonrpc":"2.0","id":"\udc00","method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":46,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"a"},"\ud800":1}}"#,
        &deep,
    ]
    .into_iter()
    .enumerate()
    {
        let stdin = server.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
        let answer = server.recv();
        assert_eq!(answer["jsonrpc"], "2.0", "{i}: {answer}");
        assert_eq!(answer["id"], Value::Null, "{i}: {answer}");
        assert_eq!(answer["error"]["code"], -32700, "{i}: {answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Parse error")),
            "{i}: {answer}"
        );
    }
    let listed = server.request(json!(43), "tools/list", json!({}));
    assert!(
        listed["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "{listed}"
    );
}

/// A call the client cancels (`notifications/cancelled`) while the server
/// waits for a person's answer to its approval question stops there: the
/// answer, when it comes after all ("accept"), runs nothing, and the
/// cancelled request gets no answer. rmcp only cancels a request's token;
/// before the server watched it, the stale "accept" deleted the note.
#[test]
fn a_call_cancelled_while_its_approval_is_asked_never_runs() {
    let mut s = Server::start("cancel-approval");
    s.dir.write("notes/a.md", "a\n");
    s.request(
        json!(1),
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "tests/mcp.rs", "version": "0"}
        }),
    );
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    s.send(json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
                  "params": {"name": "delete_note", "arguments": {"note": "a.md"}}}));
    let asked = s.recv();
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": 10, "reason": "the user changed their mind"}}),
    );
    // The cancellation is read before the answer (one line after the
    // other on stdin); the pause only makes the old behaviour's delete
    // certain to have happened by the check below.
    std::thread::sleep(Duration::from_millis(300));
    s.send(
        json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {}}}),
    );
    // A request sent after it is answered in order: by then the stale
    // answer has been taken.
    let listed = s.request(json!(11), "tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        s.dir.path("notes/a.md").exists(),
        "the cancelled call deleted the note"
    );
    while let Ok(line) = s.lines.try_recv() {
        let message: Value = serde_json::from_str(&line).unwrap();
        assert_ne!(message.get("id"), Some(&json!(10)), "{message}");
    }
}
