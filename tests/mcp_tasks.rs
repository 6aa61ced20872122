//! Durable tasks over MCP, followed by rmcp's client (which speaks the Tasks
//! extension) against `examples/mcp_everything --stdio` processes on one
//! store: a task outlives the server that started it, two servers on one
//! store answer for each other's tasks, a server killed mid-task leaves its
//! task `unknown` and its effect done once, and a task belongs to its caller.
//!
//! `test_task_write` writes one line naming its request key to the effects
//! file before it works on (`seconds`), so the file counts how many times a
//! key's effect happened.
//!
//! PostgreSQL comes from `CONTRACT_TEST_POSTGRES_URL` (see tests/store.rs):
//! without it the PostgreSQL case prints a notice and passes locally, and
//! fails in CI.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientRequest,
    CustomRequest, GetTaskParams, GetTaskResult, Implementation, InitializeRequestParams,
    ServerResult, TaskPayload, TaskStatus,
};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};

/// `examples/mcp_everything`, built once per test process (`cargo test
/// --test X` does not build examples).
fn everything() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| common::example("mcp_everything"))
}

/// A scratch folder for one test: the SQLite file and the effects file.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "contract-mcp-tasks-{}-{name}-{}",
        std::process::id(),
        contract_runtime::store::new_id("d").expect("randomness")
    ));
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

/// One `mcp_everything --stdio` process and rmcp's client session with it.
struct Server {
    child: tokio::process::Child,
    client: RunningService<RoleClient, InitializeRequestParams>,
}

impl Server {
    /// Starts a server on `store`; its client declares the Tasks extension
    /// when `tasks`.
    async fn start(store: &str, effects: &Path, tasks: bool) -> Server {
        let mut child = tokio::process::Command::new(everything())
            .args(["--stdio", "--store", store, "--effects"])
            .arg(effects)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("start mcp_everything");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take().expect("stdin");
        let caps = if tasks {
            ClientCapabilities::builder().enable_tasks().build()
        } else {
            ClientCapabilities::default()
        };
        let info = InitializeRequestParams::new(caps, Implementation::new("tasks-test", "0"));
        let client = info.serve((stdout, stdin)).await.expect("initialize");
        Server { child, client }
    }

    /// Calls `test_task_write`; the task it answers with.
    async fn write(&self, key: &str, seconds: u32) -> String {
        let mut params = CallToolRequestParams::new("test_task_write");
        params.arguments = json!({"request_key": key, "seconds": seconds})
            .as_object()
            .cloned();
        match self
            .client
            .call_tool_once(params)
            .await
            .expect("tools/call")
        {
            CallToolResponse::Task(t) => {
                assert_eq!(t.task.status, TaskStatus::Working);
                t.task.task_id
            }
            other => panic!("expected a task, got {other:?}"),
        }
    }

    async fn get(&self, id: &str) -> Result<GetTaskResult, rmcp::service::ServiceError> {
        self.client.get_task(GetTaskParams::new(id)).await
    }

    /// Polls `id` until it is no longer working; its final state.
    async fn settled(&self, id: &str) -> GetTaskResult {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let got = self.get(id).await.expect("tasks/get");
            if got.task.status() != TaskStatus::Working {
                return got;
            }
            assert!(Instant::now() < until, "task {id} still working after 30 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// `tasks/list` (2025-11-25): the ids listed.
    async fn list(&self) -> Vec<String> {
        let answer = self
            .client
            .send_request(ClientRequest::CustomRequest(CustomRequest::new(
                "tasks/list",
                Some(json!({})),
            )))
            .await
            .expect("tasks/list");
        let v = match answer {
            ServerResult::CustomResult(r) => r.0,
            other => serde_json::to_value(other).expect("a result"),
        };
        v["tasks"]
            .as_array()
            .unwrap_or_else(|| panic!("tasks/list answered {v}"))
            .iter()
            .map(|t| t["taskId"].as_str().expect("taskId").to_owned())
            .collect()
    }

    /// `tasks/result` (2025-11-25): the call's result, once the task ended.
    async fn result(&self, id: &str) -> Value {
        let answer = self
            .client
            .send_request(ClientRequest::CustomRequest(CustomRequest::new(
                "tasks/result",
                Some(json!({ "taskId": id })),
            )))
            .await
            .expect("tasks/result");
        match answer {
            ServerResult::CustomResult(r) => r.0,
            other => serde_json::to_value(other).expect("a result"),
        }
    }

    /// SIGKILL, and wait for it to be gone.
    async fn kill(mut self) {
        self.child.kill().await.expect("SIGKILL the server");
    }
}

/// The envelope a settled task's result carries.
fn envelope(got: &GetTaskResult) -> Value {
    match &got.task.payload {
        TaskPayload::Completed { result } => result
            .get("structuredContent")
            .cloned()
            .unwrap_or_else(|| panic!("no structuredContent in {result:?}")),
        other => panic!("expected a completed task, got {other:?}"),
    }
}

/// Lines of the effects file naming `key`: how many times its effect ran.
fn effects_of(effects: &Path, key: &str) -> usize {
    let text = std::fs::read_to_string(effects).unwrap_or_default();
    // A line being written as the file is read is not whole yet.
    let whole = text.rfind('\n').map_or("", |end| &text[..end]);
    whole
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).expect("a JSON line")["request_key"] == key)
        .count()
}

fn key() -> String {
    contract_runtime::store::new_id("k").expect("randomness")
}

fn postgres_url() -> Option<String> {
    match std::env::var("CONTRACT_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CONTRACT_TEST_POSTGRES_URL is not set: in CI the PostgreSQL cases must run")
        }
        _ => {
            eprintln!("note: CONTRACT_TEST_POSTGRES_URL is not set, so the PostgreSQL case checked nothing");
            None
        }
    }
}

/// A task started by one server is read, with its result and in the list,
/// by the next server on the same SQLite file after the first has gone;
/// a server on a store of its own has never heard of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_outlives_the_server_that_started_it() {
    let dir = scratch("restart");
    let (store, effects) = (
        format!("sqlite:{}", dir.join("state.sqlite").display()),
        dir.join("effects.jsonl"),
    );
    let k = key();
    let first = Server::start(&store, &effects, true).await;
    let id = first.write(&k, 0).await;
    let done = first.settled(&id).await;
    assert_eq!(done.task.status(), TaskStatus::Completed);
    let env = envelope(&done);
    assert_eq!(env["status"], "ok", "{env}");
    assert_eq!(env["result"]["request_key"], k.as_str());
    assert_eq!(env["call_id"], id.as_str(), "the call's id is the task's");
    first.kill().await;

    let second = Server::start(&store, &effects, true).await;
    let again = second.get(&id).await.expect("tasks/get after a restart");
    assert_eq!(envelope(&again), env);
    assert_eq!(second.list().await, vec![id.clone()]);
    assert_eq!(second.result(&id).await["structuredContent"], env);
    assert_eq!(effects_of(&effects, &k), 1);

    let elsewhere = Server::start("memory", &effects, true).await;
    let err = elsewhere.get(&id).await.expect_err("another store's task");
    assert!(err.to_string().contains("no task"), "{err}");
}

/// Two servers on one store: each answers for the other's task while it
/// runs, and a cancel sent to one stops the task the other runs.
async fn two_workers_share_tasks(store: &str, effects: &Path) {
    let a = Server::start(store, effects, true).await;
    let b = Server::start(store, effects, true).await;
    let k = key();
    let id = a.write(&k, 30).await;
    let seen = b.get(&id).await.expect("the other worker's task");
    assert_eq!(seen.task.status(), TaskStatus::Working);
    assert!(b.list().await.contains(&id));
    b.client
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel on the other worker");
    for server in [&a, &b] {
        let got = server.get(&id).await.expect("tasks/get");
        assert_eq!(got.task.status(), TaskStatus::Cancelled);
    }
    // Its worker learns of the cancel at its next renewal (a third of the
    // 10 s lease) and records nothing: the task stays cancelled.
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        a.get(&id).await.unwrap().task.status(),
        TaskStatus::Cancelled
    );
    // The stopped call may have had its effect: its key reads `unknown`
    // on either worker, before the key's own lease would have run out.
    let resent = b.write(&k, 30).await;
    let env = envelope(&b.settled(&resent).await);
    assert_eq!(env["status"], "unknown", "{env}");
    assert_eq!(env["errors"][0]["code"], "unknown-outcome", "{env}");
    assert_eq!(effects_of(effects, &k), 1);
}

/// A keyed write's task cancelled on the worker that runs it, after its
/// effect: the task reads `cancelled`, and the same write sent again at
/// once is answered `unknown` (not `in-flight` until the key's lease runs
/// out) and runs nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_write_leaves_its_key_in_doubt_at_once() {
    let dir = scratch("cancel-key");
    let store = format!("sqlite:{}", dir.join("state.sqlite").display());
    let effects = dir.join("effects.jsonl");
    let server = Server::start(&store, &effects, true).await;
    let k = key();
    let id = server.write(&k, 30).await;
    let until = Instant::now() + Duration::from_secs(20);
    while effects_of(&effects, &k) == 0 {
        assert!(Instant::now() < until, "the task never wrote its line");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server
        .client
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .expect("tasks/cancel");
    let resent = server.write(&k, 30).await;
    let env = envelope(&server.settled(&resent).await);
    assert_eq!(env["status"], "unknown", "{env}");
    assert_eq!(env["retry_safe"], false, "{env}");
    assert_eq!(env["errors"][0]["code"], "unknown-outcome", "{env}");
    assert_eq!(
        server.get(&id).await.unwrap().task.status(),
        TaskStatus::Cancelled
    );
    assert_eq!(effects_of(&effects, &k), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_on_one_sqlite_file_share_tasks() {
    let dir = scratch("share");
    let store = format!("sqlite:{}", dir.join("state.sqlite").display());
    two_workers_share_tasks(&store, &dir.join("effects.jsonl")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_on_one_postgres_share_tasks() {
    let Some(url) = postgres_url() else {
        return;
    };
    let dir = scratch("share-pg");
    two_workers_share_tasks(&url, &dir.join("effects.jsonl")).await;
}

/// SIGKILL of the server while its task runs: the next server answers the
/// task `unknown` (the envelope's status, with `unknown-outcome`), and the
/// same write sent again under its key runs nothing: the effect happened
/// once.
async fn killed_mid_task(store: &str, effects: &Path) {
    let (store, effects) = (store, effects.to_path_buf());
    let k = key();
    let first = Server::start(store, &effects, true).await;
    let id = first.write(&k, 30).await;
    // Killed after its effect, mid-task.
    let until = Instant::now() + Duration::from_secs(20);
    while effects_of(&effects, &k) == 0 {
        assert!(Instant::now() < until, "the task never wrote its line");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first.kill().await;

    let second = Server::start(store, &effects, true).await;
    let got = second.settled(&id).await;
    assert_eq!(got.task.status(), TaskStatus::Completed);
    let env = envelope(&got);
    assert_eq!(env["status"], "unknown", "{env}");
    assert_eq!(env["retry_safe"], false, "{env}");
    assert_eq!(env["errors"][0]["code"], "unknown-outcome", "{env}");
    // The key is in doubt too: the same write sent again runs nothing.
    let resent = second.write(&k, 30).await;
    let env = envelope(&second.settled(&resent).await);
    assert_eq!(env["status"], "unknown", "{env}");
    assert_eq!(env["errors"][0]["code"], "unknown-outcome", "{env}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        effects_of(&effects, &k),
        1,
        "the effect ran more than once: {}",
        std::fs::read_to_string(&effects).unwrap_or_default()
    );
    // The first task is still there, and still unknown, for the next reader.
    assert!(second.list().await.contains(&id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_whose_server_was_killed_is_unknown_and_never_runs_again() {
    let dir = scratch("kill");
    let store = format!("sqlite:{}", dir.join("state.sqlite").display());
    killed_mid_task(&store, &dir.join("effects.jsonl")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_task_whose_server_was_killed_is_unknown() {
    let Some(url) = postgres_url() else {
        return;
    };
    let dir = scratch("kill-pg");
    killed_mid_task(&url, &dir.join("effects.jsonl")).await;
}

/// A tool that runs only as a task, called by a client that did not
/// declare the extension: the extension's error, and nothing runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_task_refuses_a_client_without_the_extension() {
    let dir = scratch("nocap");
    let effects = dir.join("effects.jsonl");
    let server = Server::start("memory", &effects, false).await;
    let mut params = CallToolRequestParams::new("test_task_write");
    params.arguments = json!({"request_key": key(), "seconds": 0})
        .as_object()
        .cloned();
    let err = server
        .client
        .call_tool_once(params)
        .await
        .expect_err("a required task without the extension");
    assert!(
        err.to_string().contains("-32021") || err.to_string().contains("capability"),
        "{err}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!effects.exists(), "the tool ran");
}

/// A task belongs to its caller: another tenant, or another subject of the
/// same tenant, is told it does not exist, and cannot cancel it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_belongs_to_its_caller() {
    use contract_runtime::prelude::*;
    use contract_runtime::store::{SqliteStore, TaskState};
    use contract_runtime::task::Tasks;

    #[derive(serde::Serialize, JsonSchema)]
    struct Slept {
        slept: bool,
    }

    /// Sleeps a second.
    #[tool_contract(effect = read_only, task = optional)]
    async fn nap() -> Result<Slept, std::convert::Infallible> {
        tokio::time::sleep(Duration::from_secs(1)).await;
        Ok(Slept { slept: true })
    }

    let dir = scratch("owner");
    let store = Arc::new(SqliteStore::open(dir.join("state.sqlite")).expect("open SQLite"));
    let registry = Registry::builder().tool(nap::contract()).build().unwrap();
    let tasks = Tasks::new(Arc::new(Dispatcher::new(registry).with_store(store)));
    let alice = Arc::new(Caller::new().tenant("acme").subject("alice"));
    let task = tasks
        .start(alice.clone(), "nap", "{}".into())
        .await
        .unwrap();
    for other in [
        Caller::new().tenant("acme").subject("bob"),
        Caller::new().tenant("evil").subject("alice"),
        Caller::new(),
    ] {
        assert_eq!(tasks.get(&other, &task.id).await.unwrap(), None);
        assert_eq!(tasks.cancel(&other, &task.id).await.unwrap(), None);
        assert!(tasks.list(&other).await.unwrap().is_empty());
    }
    let mine = tasks.get(&alice, &task.id).await.unwrap().unwrap();
    assert_eq!(
        mine.state,
        TaskState::Working,
        "another caller's cancel stopped it"
    );
    let cancelled = tasks.cancel(&alice, &task.id).await.unwrap().unwrap();
    assert_eq!(cancelled.state, TaskState::Cancelled);
}

/// One JSON-RPC exchange with the HTTP server as `tenant` (the test's
/// authenticator reads the `x-tenant` header): the session id it answered
/// with, and the JSON-RPC message it sent back (`Value::Null` for a
/// notification's 202).
fn rpc(addr: &str, tenant: &str, session: Option<&str>, body: Value) -> (Option<String>, Value) {
    use std::io::{Read, Write};
    let body = body.to_string();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nx-tenant: {tenant}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-11-25\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(s) = session {
        head.push_str(&format!("mcp-session-id: {s}\r\n"));
    }
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .write_all(format!("{head}\r\n{body}").as_bytes())
        .expect("send");
    let mut out = String::new();
    stream.read_to_string(&mut out).expect("read");
    let session = out.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_owned())
    });
    let message = out
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|v| v.get("id").is_some())
        .unwrap_or(Value::Null);
    (session, message)
}

/// Opens a session as `tenant`, declaring the Tasks extension.
fn open_session(addr: &str, tenant: &str) -> String {
    let (session, answer) = rpc(
        addr,
        tenant,
        None,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
            "clientInfo": {"name": "tasks-test", "version": "0"}}}),
    );
    assert!(answer.get("result").is_some(), "initialize: {answer}");
    let session = session.expect("a session id");
    rpc(
        addr,
        tenant,
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    session
}

/// Over streamable HTTP with an authenticator, a task is its tenant's:
/// another tenant's `tasks/get`, `tasks/cancel` and `tasks/result` are told
/// no such task, as for an id that does not exist, and its `tasks/list` is
/// empty; the owner reads and cancels it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn over_http_another_tenant_cannot_read_or_cancel_a_task() {
    use contract_runtime::identity::{http, Refusal};
    use contract_runtime::mcp::McpServer;
    use contract_runtime::prelude::*;

    #[derive(serde::Serialize, JsonSchema)]
    struct Slept {
        slept: bool,
    }

    /// Sleeps five seconds.
    #[tool_contract(effect = read_only, task = optional)]
    async fn long_nap() -> Result<Slept, std::convert::Infallible> {
        tokio::time::sleep(Duration::from_secs(5)).await;
        Ok(Slept { slept: true })
    }

    let registry = Registry::builder()
        .tool(long_nap::contract())
        .build()
        .unwrap();
    let by_header = |req: &http::request::Parts| -> Result<Arc<Caller>, Refusal> {
        let tenant = req
            .headers
            .get("x-tenant")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| Refusal::missing_token("no x-tenant header"))?;
        Ok(Arc::new(Caller::new().tenant(tenant).subject("user")))
    };
    let server = McpServer::new(Dispatcher::new(registry), Arc::new(Caller::new()))
        .unwrap()
        .with_authenticator(by_header);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(server.serve_http_on(listener, contract_runtime::mcp::http::loopback()));

    let call = |id: u64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let a = addr.clone();
    let (id, others, own) = tokio::task::spawn_blocking(move || {
        let acme = open_session(&a, "acme");
        let (_, started) = rpc(
            &a,
            "acme",
            Some(&acme),
            call(
                2,
                "tools/call",
                json!({"name": "long_nap", "arguments": {}}),
            ),
        );
        assert_eq!(started["result"]["resultType"], "task", "{started}");
        let id = started["result"]["taskId"]
            .as_str()
            .expect("taskId")
            .to_owned();
        let evil = open_session(&a, "evil");
        let others: Vec<Value> = [
            call(3, "tasks/get", json!({"taskId": id})),
            call(4, "tasks/cancel", json!({"taskId": id})),
            call(5, "tasks/result", json!({"taskId": id})),
            call(6, "tasks/list", json!({})),
        ]
        .into_iter()
        .map(|req| rpc(&a, "evil", Some(&evil), req).1)
        .collect();
        let own: Vec<Value> = [
            call(7, "tasks/get", json!({"taskId": id})),
            call(8, "tasks/cancel", json!({"taskId": id})),
            call(9, "tasks/get", json!({"taskId": id})),
        ]
        .into_iter()
        .map(|req| rpc(&a, "acme", Some(&acme), req).1)
        .collect();
        (id, others, own)
    })
    .await
    .unwrap();
    for refused in &others[..3] {
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert_eq!(
            refused["error"]["message"],
            format!("no task {id}"),
            "{refused}"
        );
    }
    assert_eq!(others[3]["result"]["tasks"], json!([]), "{}", others[3]);
    assert_eq!(own[0]["result"]["status"], "working", "{}", own[0]);
    assert!(own[1].get("result").is_some(), "{}", own[1]);
    assert_eq!(own[2]["result"]["status"], "cancelled", "{}", own[2]);
}

/// `mcp_everything --http 127.0.0.1:0 --store STORE`, and its address.
fn http_server(store: &str, effects: &Path) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(everything())
        .args(["--http", "127.0.0.1:0", "--store", store, "--effects"])
        .arg(effects)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mcp_everything --http");
    let mut stderr = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("read stderr");
    let addr = line
        .trim()
        .strip_prefix("mcp_everything: http://")
        .and_then(|l| l.strip_suffix("/mcp"))
        .unwrap_or_else(|| panic!("the server said {line:?}"))
        .to_owned();
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (child, addr)
}

/// Over streamable HTTP: a task started on one `mcp_everything --http`
/// process, which is then SIGKILLed mid-task, is read from the next process
/// on the same SQLite file (`tasks/get`, `tasks/list`): `completed` with
/// the `unknown` envelope, the effect written once.
#[test]
fn over_http_a_task_outlives_a_killed_server() {
    let dir = scratch("http");
    let (store, effects) = (
        format!("sqlite:{}", dir.join("state.sqlite").display()),
        dir.join("effects.jsonl"),
    );
    let k = key();
    let (mut first, addr) = http_server(&store, &effects);
    let session = open_session(&addr, "-");
    let (_, started) = rpc(
        &addr,
        "-",
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "test_task_write", "arguments": {"request_key": k, "seconds": 30}}}),
    );
    assert_eq!(started["result"]["resultType"], "task", "{started}");
    let id = started["result"]["taskId"]
        .as_str()
        .expect("taskId")
        .to_owned();
    let until = Instant::now() + Duration::from_secs(20);
    while effects_of(&effects, &k) == 0 {
        assert!(Instant::now() < until, "the task never wrote its line");
        std::thread::sleep(Duration::from_millis(20));
    }
    first.kill().expect("SIGKILL");
    first.wait().expect("reap");

    let (mut second, addr) = http_server(&store, &effects);
    let session = open_session(&addr, "-");
    let (_, got) = rpc(
        &addr,
        "-",
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"taskId": id}}),
    );
    assert_eq!(got["result"]["status"], "completed", "{got}");
    let env = &got["result"]["result"]["structuredContent"];
    assert_eq!(env["status"], "unknown", "{got}");
    assert_eq!(env["errors"][0]["code"], "unknown-outcome", "{got}");
    let (_, listed) = rpc(
        &addr,
        "-",
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/list", "params": {}}),
    );
    assert_eq!(
        listed["result"]["tasks"][0]["taskId"],
        id.as_str(),
        "{listed}"
    );
    assert_eq!(
        listed["result"]["tasks"][0]["status"], "completed",
        "{listed}"
    );
    assert_eq!(effects_of(&effects, &k), 1);
    let _ = second.kill();
    let _ = second.wait();
}

/// A read-only task whose worker stopped mid-call (its runtime shut down,
/// nothing recorded) reads `unknown` as every task in doubt does, and the
/// next worker never runs it again; but its envelope says the call is safe
/// to send again, since the tool writes nothing. A write's says the
/// opposite (`killed_mid_task`).
#[test]
fn a_read_only_task_in_doubt_is_safe_to_send_again() {
    use contract_runtime::prelude::*;
    use contract_runtime::store::{RecordTimes, SqliteStore, TaskState};
    use contract_runtime::task::Tasks;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static RUNS: AtomicUsize = AtomicUsize::new(0);

    #[derive(serde::Serialize, JsonSchema)]
    struct Scanned {
        rows: u32,
    }

    /// Scans the archive, slowly.
    #[tool_contract(effect = read_only, task = optional)]
    async fn scan_archive() -> Result<Scanned, std::convert::Infallible> {
        RUNS.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(60)).await;
        Ok(Scanned { rows: 1 })
    }

    let file = scratch("read-only-doubt").join("state.sqlite");
    let tasks_on = |file: &Path| {
        let store = Arc::new(SqliteStore::open(file).expect("open SQLite"));
        let registry = Registry::builder()
            .tool(scan_archive::contract())
            .build()
            .unwrap();
        let times = RecordTimes {
            lease: Duration::from_millis(300),
            ..RecordTimes::default()
        };
        Tasks::new(Arc::new(
            Dispatcher::new(registry)
                .with_store(store)
                .with_record_times(times),
        ))
    };
    let alice = Arc::new(Caller::new().subject("alice"));
    let first = tokio::runtime::Runtime::new().unwrap();
    let id = first.block_on(async {
        let tasks = tasks_on(&file);
        let task = tasks
            .start(alice.clone(), "scan_archive", "{}".into())
            .await
            .unwrap();
        while RUNS.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        task.id
    });
    // The worker stops where it stands: no outcome, no more renewals.
    first.shutdown_background();

    let second = tokio::runtime::Runtime::new().unwrap();
    second.block_on(async {
        let tasks = tasks_on(&file);
        let until = Instant::now() + Duration::from_secs(20);
        let task = loop {
            let task = tasks.get(&alice, &id).await.unwrap().expect("still there");
            if task.state != TaskState::Working {
                break task;
            }
            assert!(Instant::now() < until, "the task never left `working`");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let env = tasks.outcome(&task).expect("an outcome").to_value();
        assert_eq!(env["status"], "unknown", "{env}");
        assert_eq!(env["retry_safe"], true, "{env}");
        assert_eq!(env["errors"][0]["code"], "unknown-outcome", "{env}");
        let hint = env["errors"][0]["repair"]["hint"].as_str().unwrap();
        assert!(hint.contains("sending the call again is safe"), "{hint}");
    });
    assert_eq!(RUNS.load(Ordering::SeqCst), 1, "the task ran again");
}
