//! Several `toolbox mcp --http` processes on one store serve one request key
//! once: the official Python `mcp` client (tests/mcp_client/race.py) sends the
//! same keyed `post_comment` calls to every server at the same instant, and
//! the effect is counted in `outbox.jsonl`.
//!
//! PostgreSQL comes from `CONTRACT_TEST_POSTGRES_URL` (see tests/store.rs):
//! without it the PostgreSQL case prints a notice and passes locally, and
//! fails in CI.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use common::{python, uuid, Fixture};
use serde_json::{json, Value};

/// Server processes sharing one store and one root.
const SERVERS: usize = 3;
/// Distinct request keys, each sent to every server at once.
const KEYS: usize = 20;

/// A running `toolbox mcp --http 127.0.0.1:0 --store STORE` and its URL.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(root: &Path, store: &str) -> Server {
        let (child, url) = common::mcp_http(
            Command::new(common::toolbox())
                .args(["mcp", "--http", "127.0.0.1:0", "--store", store, "--root"])
                .arg(root),
        );
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `outbox.jsonl` lines (one per comment actually posted) for `key`.
fn lines_for(root: &Path, key: &str) -> usize {
    std::fs::read_to_string(root.join("outbox.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("an outbox line is JSON"))
        .filter(|l| l["request_key"] == key)
        .count()
}

/// Starts `SERVERS` servers on `store` (each its own, when `store` is
/// `memory`) and sends each of them the same `KEYS` keyed `post_comment`
/// calls at the same instant. Returns the keys and, per server, the
/// envelope of each call in key order.
fn race(root: &Path, store: &str) -> (Vec<String>, Vec<Vec<Value>>) {
    let servers: Vec<Server> = (0..SERVERS).map(|_| Server::start(root, store)).collect();
    let keys: Vec<String> = (0..KEYS).map(|_| uuid()).collect();
    let calls: Vec<Value> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            json!({"name": "post_comment",
                   "arguments": {"issue": 7, "body": format!("comment {i}"), "request_key": k}})
        })
        .collect();
    let calls = Value::Array(calls).to_string();
    // Far enough ahead for every client to start and initialize (a loaded
    // machine takes seconds to import the SDK); a late one sends at once.
    let start_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs_f64()
        + 8.0;
    let clients: Vec<_> = servers
        .iter()
        .map(|s| {
            let (url, calls) = (s.url.clone(), calls.clone());
            std::thread::spawn(move || {
                let out = Command::new(python())
                    .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/race.py"))
                    .args([url, start_at.to_string(), calls])
                    .stderr(Stdio::inherit())
                    .output()
                    .expect("run the MCP client");
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(out.status.success(), "the MCP client failed: {stdout}");
                let results: Vec<Value> = serde_json::from_str(&stdout)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
                results
                    .into_iter()
                    .map(|r| r["structuredContent"].clone())
                    .collect::<Vec<Value>>()
            })
        })
        .collect();
    let answers = clients
        .into_iter()
        .map(|c| c.join().expect("client thread"))
        .collect();
    drop(servers);
    (keys, answers)
}

/// How the answers to one key split: originals (ran here), marked replays,
/// and in-flight refusals; anything else fails the test.
fn tally(key: &str, answers: &[Vec<Value>], i: usize) -> (usize, usize, usize) {
    let (mut originals, mut replays, mut in_flight) = (0, 0, 0);
    for server in answers {
        let env = &server[i];
        match env["status"].as_str() {
            Some("ok") => {
                assert_eq!(env["result"]["request_key"], key, "{env:#}");
                if env["replayed"] == true {
                    replays += 1;
                } else {
                    originals += 1;
                }
            }
            _ if env["errors"][0]["code"] == "in-flight" => {
                assert!(env["retry_after_ms"].is_u64(), "{env:#}");
                in_flight += 1;
            }
            _ => panic!("neither the original, a replay nor in-flight: {env:#}"),
        }
    }
    (originals, replays, in_flight)
}

fn servers_on_one_store_post_each_key_once(name: &str, store: impl FnOnce(&Fixture) -> String) {
    let fx = Fixture::standard(&format!("mcp-http-store-{name}"));
    let store = store(&fx);
    let (keys, answers) = race(&fx.root, &store);
    let (mut replays, mut in_flight) = (0, 0);
    for (i, key) in keys.iter().enumerate() {
        assert_eq!(lines_for(&fx.root, key), 1, "key {i} was posted once");
        let (originals, r, f) = tally(key, &answers, i);
        assert_eq!(originals, 1, "exactly one server ran key {i}");
        (replays, in_flight) = (replays + r, in_flight + f);
    }
    eprintln!("{name}: {KEYS} originals, {replays} replays, {in_flight} in flight");
    // The others were answered from the record, not refused.
    assert!(replays > 0, "no replay at all: {answers:#?}");
}

#[test]
fn sqlite_servers_post_each_key_once() {
    servers_on_one_store_post_each_key_once("sqlite", |fx| {
        format!("sqlite:{}", fx.outside("state.sqlite").display())
    });
}

#[test]
fn postgres_servers_post_each_key_once() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    servers_on_one_store_post_each_key_once("postgres", |_| format!("postgres:{url}"));
}

/// The same race with a store per process: every server runs every key, and
/// the count above sees it. This is what the shared store prevents.
#[test]
fn a_store_per_process_posts_each_key_once_per_server() {
    let fx = Fixture::standard("mcp-http-store-memory");
    let (keys, answers) = race(&fx.root, "memory");
    for (i, key) in keys.iter().enumerate() {
        assert_eq!(lines_for(&fx.root, key), SERVERS, "key {i}");
        assert_eq!(tally(key, &answers, i), (SERVERS, 0, 0), "key {i}");
    }
}
