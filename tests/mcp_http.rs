//! MCP over streamable HTTP, spoken to by the official Python SDK (`mcp`,
//! pinned in tests/mcp_client/venv.sh) through tests/mcp_client/client.py:
//! `toolbox mcp --http` end to end, and concurrent calls on one session
//! overlapping in time on an in-process `McpServer::serve_http_on`.

#[allow(dead_code)]
#[path = "../examples/toolbox/tools.rs"]
mod tools;

mod common;

use std::path::Path;

use common::{python, Fixture};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use contract_runtime::dialect::{self, Dialect, ExportOptions};
use contract_runtime::mcp::{http::HttpConfig, McpServer};
use contract_runtime::prelude::*;
use serde_json::{json, Value};
use std::convert::Infallible;

/// Runs the Python client against `url` with `script` (batches of concurrent
/// calls) and returns what it printed.
fn client(url: &str, script: Value) -> Value {
    let out = Command::new(python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/client.py"))
        .arg(url)
        .arg(script.to_string())
        .stderr(Stdio::inherit())
        .output()
        .expect("run the MCP client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the MCP client failed: {stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// A running `toolbox mcp --http 127.0.0.1:0` and the URL it printed.
struct Toolbox {
    child: Child,
    url: String,
    dir: Fixture,
}

impl Toolbox {
    fn start(name: &str) -> Toolbox {
        let dir = Fixture::standard(&format!("mcp-http-{name}"));
        let (child, url) = common::mcp_http(
            Command::new(common::toolbox())
                .args(["mcp", "--http", "127.0.0.1:0", "--root"])
                .arg(&dir.root),
        );
        Toolbox { child, url, dir }
    }
}

impl Drop for Toolbox {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The envelope of one answered call, after checking the `CallToolResult`
/// around it: the same envelope as text, `isError` for all but ok and partial.
fn envelope(result: &Value) -> &Value {
    let envelope = &result["structuredContent"];
    let status = envelope["status"]
        .as_str()
        .unwrap_or_else(|| panic!("no envelope: {result}"));
    let text: Value = serde_json::from_str(result["text"][0].as_str().expect("a text block"))
        .expect("the text is JSON");
    assert_eq!(&text, envelope, "text and structuredContent agree");
    assert_eq!(
        result["isError"],
        json!(!matches!(status, "ok" | "partial")),
        "{result}"
    );
    envelope
}

#[test]
fn toolbox_serves_its_tools_over_http() {
    let server = Toolbox::start("session");
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    let concurrent: Vec<Value> = (0..16)
        .map(|i| {
            let query = if i % 2 == 0 { "cache" } else { "authority" };
            json!({"name": "search_notes", "arguments": {"query": query}})
        })
        .collect();
    let out = client(
        &server.url,
        json!([
            [
                {"name": "search_notes", "arguments": {"query": "cache"}},
                {"name": "list_filings", "arguments": {"company": "ACME", "year": 1998}},
                {"name": "search_notes", "arguments": {"query": ""}},
                {"name": "drop_database", "arguments": {}},
                {"name": "delete_note", "arguments": {"note": "agents.md"}}
            ],
            concurrent
        ]),
    );

    assert_eq!(out["server"]["name"], "toolbox");
    // tools/list as the SDK parsed it: the MCP export, tool for tool.
    let export = dialect::export(
        tools::registry().canonical(),
        Dialect::Mcp,
        &ExportOptions::default(),
    )
    .expect("export");
    let listed = out["tools"].as_array().expect("tools");
    assert_eq!(listed.len(), export.tools.len());
    for (got, want) in listed.iter().zip(&export.tools) {
        assert_eq!(got["name"], want["name"]);
        assert_eq!(got["inputSchema"], want["inputSchema"], "{}", want["name"]);
    }

    let first = out["batches"][0].as_array().expect("batch 0");
    let ok = envelope(&first[0]);
    assert_eq!(ok["status"], "ok", "{ok}");
    assert_eq!(ok["tool"], "search_notes");
    assert_eq!(ok["result"]["matches"][0]["note"], "kv-cache.md");

    let invalid = envelope(&first[1]);
    assert_eq!(invalid["status"], "invalid");
    assert_eq!(invalid["errors"][0]["field"], "/year");
    assert_eq!(invalid["errors"][0]["constraint"]["keyword"], "minimum");

    // The listed schema's own minLength, enforced by the server.
    let empty = envelope(&first[2]);
    assert_eq!(empty["status"], "invalid");
    assert_eq!(empty["errors"][0]["field"], "/query");
    assert_eq!(empty["errors"][0]["constraint"]["keyword"], "minLength");

    let unknown = envelope(&first[3]);
    assert_eq!(unknown["errors"][0]["code"], "unknown-tool");

    let gated = envelope(&first[4]);
    assert_eq!(gated["status"], "needs-approval");
    assert!(server.dir.path("notes/agents.md").is_file(), "nothing ran");

    // 16 calls in flight at once on one session: each answered with its own
    // envelope, under its own JSON-RPC id.
    let second = out["batches"][1].as_array().expect("batch 1");
    assert_eq!(second.len(), 16);
    let mut ids = std::collections::HashSet::new();
    for (i, result) in second.iter().enumerate() {
        let env = envelope(result);
        assert_eq!(env["status"], "ok", "{env}");
        let note = if i % 2 == 0 {
            "kv-cache.md"
        } else {
            "agents.md"
        };
        assert_eq!(env["result"]["matches"][0]["note"], note, "{env}");
        assert!(ids.insert(env["call_id"].clone()), "a repeated call id");
    }
}

#[test]
fn only_loopback_addresses_are_served() {
    let dir = Fixture::standard("mcp-http-public");
    for addr in ["0.0.0.0:0", "192.0.2.1:8080", "localhost"] {
        let out = Command::new(common::toolbox())
            .args(["mcp", "--http", addr, "--root"])
            .arg(&dir.root)
            .stdin(Stdio::null())
            .output()
            .expect("run toolbox");
        assert!(!out.status.success(), "{addr} was accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("--http {addr}")), "{stderr}");
    }
}

/// `localhost:PORT` is the IPv4 loopback address, as a user types it (it
/// was refused as "not an address"); `localhost` without a port is still
/// refused, above.
#[test]
fn localhost_with_a_port_serves_the_loopback_address() {
    let (url, answer) = initialize_at("mcp-http-localhost", "localhost:0");
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// Every loopback address serves, not only `127.0.0.1`: the address bound
/// is an allowed `Host` (rmcp's own list names `127.0.0.1` and `localhost`
/// only, so `127.0.0.2` printed its URL and then refused every request).
#[test]
fn another_loopback_address_answers_requests_to_it() {
    let (_, answer) = initialize_at("mcp-http-127-0-0-2", "127.0.0.2:0");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("protocolVersion"), "{answer}");
}

/// `toolbox mcp --http addr` started, and an `initialize` sent to the URL
/// it names on a connection of its own: that URL, and the whole answer.
fn initialize_at(fixture: &str, addr: &str) -> (String, String) {
    use std::io::{Read, Write};
    let dir = Fixture::standard(fixture);
    let (mut child, url) = common::mcp_http(
        Command::new(common::toolbox())
            .args(["mcp", "--http", addr, "--root"])
            .arg(&dir.root),
    );
    let authority = url.trim_start_matches("http://").trim_end_matches("/mcp");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let mut stream = std::net::TcpStream::connect(authority).expect("connect");
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let _ = child.kill();
    let _ = child.wait();
    (url, answer)
}

// ------------------------------------------------------------------ concurrency

#[derive(serde::Serialize, JsonSchema)]
pub struct Slept {
    /// When the call started and ended, in ms since the Unix epoch.
    pub start_ms: f64,
    pub end_ms: f64,
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

/// Sleeps, and says when it started and ended.
#[tool_contract(effect = read_only)]
pub async fn nap(
    /// Milliseconds to sleep.
    #[arg(range(min = 1, max = 2000))]
    ms: u64,
) -> Result<Slept, Infallible> {
    let start_ms = now_ms();
    tokio::time::sleep(Duration::from_millis(ms)).await;
    Ok(Slept {
        start_ms,
        end_ms: now_ms(),
    })
}

#[test]
fn concurrent_calls_on_one_session_overlap() {
    let registry = Registry::builder()
        .tool(nap::contract())
        .build()
        .expect("registry");
    let server =
        McpServer::new(Dispatcher::new(registry), Arc::new(Caller::new())).expect("server");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let url = format!("http://{}/mcp", listener.local_addr().expect("addr"));
    rt.spawn(server.serve_http_on(listener, HttpConfig::default()));

    const N: usize = 8;
    const MS: f64 = 400.0;
    let batch: Vec<Value> = (0..N)
        .map(|_| json!({"name": "nap", "arguments": {"ms": MS as u64}}))
        .collect();
    let out = client(&url, json!([batch]));
    let spans: Vec<(f64, f64)> = out["batches"][0]
        .as_array()
        .expect("batch")
        .iter()
        .map(|r| {
            let env = envelope(r);
            assert_eq!(env["status"], "ok", "{env}");
            let res = &env["result"];
            (
                res["start_ms"].as_f64().expect("start"),
                res["end_ms"].as_f64().expect("end"),
            )
        })
        .collect();
    assert_eq!(spans.len(), N);
    // Served one after another, the last call would start after the first
    // ended; served concurrently, every call starts before any has ended.
    let last_start = spans.iter().map(|s| s.0).fold(f64::MIN, f64::max);
    let first_end = spans.iter().map(|s| s.1).fold(f64::MAX, f64::min);
    assert!(
        last_start < first_end,
        "calls ran one after another: {spans:?}"
    );
    rt.shutdown_background();
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

impl Toolbox {
    /// One POST of `body` on its own connection, with `headers` (each line
    /// ending in CRLF) added: the raw answer, status line, headers and body.
    /// For what the official client never sends.
    fn raw_post(&self, body: &str, headers: &str) -> String {
        self.raw("POST", "/mcp", body, headers)
    }

    /// One raw HTTP/1.1 request; the whole answer, head and body.
    fn raw(&self, method: &str, path: &str, body: &str, headers: &str) -> String {
        use std::io::{Read, Write};
        let addr = self
            .url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .expect("host:port");
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).expect("write");
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        answer
    }
}

/// MCP is served at the one path the server announces; ending a session
/// answers 204, which the official client takes as success (rmcp's 202 made
/// it log a failure on every close), and the session is gone after it.
#[test]
fn one_endpoint_and_a_clean_session_close() {
    let server = Toolbox::start("endpoint");
    for path in ["/", "/mcp/", "/other", "/mcpx"] {
        let answer = server.raw("POST", path, INITIALIZE, "");
        assert_eq!(answer.get(9..12), Some("404"), "{path}: {answer}");
    }
    let init = server.raw_post(INITIALIZE, "");
    assert_eq!(init.get(9..12), Some("200"), "{init}");
    let session = init
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        })
        .expect("a session id");
    let headers = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-06-18\r\n");
    // Text that is not JSON: JSON-RPC's parse error, not rmcp's 415 text.
    let garbage = server.raw_post("this is not json", &headers);
    assert_eq!(garbage.get(9..12), Some("400"), "{garbage}");
    let body = garbage.split("\r\n\r\n").nth(1).unwrap_or_default();
    let error: Value =
        serde_json::from_str(body.trim()).unwrap_or_else(|e| panic!("{e}: {garbage}"));
    assert_eq!(
        (error["id"].clone(), error["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );
    let closed = server.raw("DELETE", "/mcp", "", &headers);
    assert_eq!(closed.get(9..12), Some("204"), "{closed}");
    let after = server.raw_post(
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#,
        &headers,
    );
    assert_eq!(
        after.get(9..12),
        Some("404"),
        "the session is gone: {after}"
    );
}

/// A page on another site must not reach the server through the user's
/// browser: a request with a foreign `Origin` is refused (403), one from a
/// loopback page or with no `Origin` (not a browser) is answered.
#[test]
fn a_foreign_origin_is_refused() {
    let server = Toolbox::start("origin");
    let status = |origin: Option<&str>| {
        let origin = origin
            .map(|o| format!("Origin: {o}\r\n"))
            .unwrap_or_default();
        let answer = server.raw_post(INITIALIZE, &origin);
        answer.get(9..12).unwrap_or_default().to_string()
    };
    assert_eq!(status(Some("http://evil.example")), "403");
    assert_eq!(status(Some("https://attacker.test:8443")), "403");
    assert_eq!(status(Some("http://localhost:3000")), "200");
    assert_eq!(status(None), "200");
}

impl Toolbox {
    /// A session opened by raw POSTs (initialize, then initialized): a
    /// function that posts a body on it and returns the raw answer.
    fn raw_session(&self) -> impl Fn(&str) -> String + '_ {
        let init = self.raw_post(INITIALIZE, "");
        let session = init
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("mcp-session-id")
                    .then(|| value.trim().to_string())
            })
            .unwrap_or_else(|| panic!("a session id: {init}"));
        let headers = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-06-18\r\n");
        self.raw_post(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            &headers,
        );
        move |body: &str| self.raw_post(body, &headers)
    }
}

/// The JSON-RPC message answering request `id` in a raw answer (sent as a
/// server-sent event).
fn answer_to(answer: &str, id: u64) -> Value {
    let data = answer
        .lines()
        .find_map(|l| {
            l.strip_prefix("data: ")
                .filter(|d| d.contains(&format!("\"id\":{id}")))
        })
        .unwrap_or_else(|| panic!("an answer to request {id}: {answer}"));
    serde_json::from_str(data).expect("JSON")
}

/// The envelope of a message that must be `invalid / malformed-arguments`.
fn malformed(message: &Value) -> &Value {
    assert!(message.get("error").is_none(), "{message}");
    assert_eq!(message["result"]["isError"], true, "{message}");
    let env = &message["result"]["structuredContent"];
    assert_eq!(env["status"], "invalid", "{env}");
    assert_eq!(env["errors"][0]["code"], "malformed-arguments", "{env}");
    env
}

/// Over HTTP as over stdio: `arguments` that is not an object is a tool
/// result (`invalid / malformed-arguments`, `isError`), not a JSON-RPC error.
#[test]
fn arguments_that_are_not_an_object_are_a_result_over_http() {
    let server = Toolbox::start("not-an-object");
    let post = server.raw_session();
    let answer = post(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":"{\"query\":\"kv\"}"}}"#,
    );
    malformed(&answer_to(&answer, 2));
}

/// Over HTTP as over stdio: a key sent twice is `malformed-arguments`
/// naming it (the SDK alone runs on the last one), and a number no JSON
/// reader holds is a tool result too (the SDK alone answers 415).
#[test]
fn repeated_keys_and_unreadable_numbers_are_malformed_over_http() {
    let server = Toolbox::start("repeated-keys");
    let post = server.raw_session();
    let answer = post(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/etc/passwd","path":"README.md"}}}"#,
    );
    assert!(!answer.contains("hello hello"), "{answer}");
    let message = answer_to(&answer, 2);
    let env = malformed(&message);
    let text = env["errors"][0]["message"].as_str().unwrap();
    assert!(text.contains("`path`"), "{env}");

    let answer = post(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"kv","n":1e400}}}"#,
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    malformed(&answer_to(&answer, 3));
}

/// The priming event (an event with empty `data`, an id and `retry`,
/// SEP-1699) opens a stream only for a client of 2025-11-25 or later, as
/// the official SDKs send it: a client of 2025-06-18 reads every `data` as
/// a message and failed on the empty one (rmcp sends it to every client).
#[test]
fn only_clients_of_2025_11_25_get_a_priming_event() {
    let server = Toolbox::start("priming");
    for (version, primed) in [
        ("2025-06-18", false),
        ("2025-03-26", false),
        ("2025-11-25", true),
    ] {
        let init = INITIALIZE.replace("2025-06-18", version);
        let answer = server.raw_post(&init, "");
        assert!(
            !answer.contains("retry:"),
            "initialize at {version}: {answer}"
        );
        let session = answer
            .lines()
            .find_map(|l| l.strip_prefix("mcp-session-id: "))
            .expect("a session")
            .trim()
            .to_owned();
        let headers = format!("Mcp-Session-Id: {session}\r\nMCP-Protocol-Version: {version}\r\n");
        server.raw_post(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            &headers,
        );
        let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"agents"}}}"#;
        let answer = server.raw_post(call, &headers);
        assert!(answer.contains(r#""id":2"#), "{version}: {answer}");
        assert_eq!(answer.contains("retry:"), primed, "{version}: {answer}");
    }
}
