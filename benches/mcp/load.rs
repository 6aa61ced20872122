//! The load generator: spawns each server as a child process of this binary
//! and drives it over stdio (pipelined) or HTTP (concurrent sessions), on a
//! current-thread runtime so that it takes one core at most and leaves the
//! other to the server.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

const SERVERS: [&str; 2] = ["bare", "contract"];
/// Calls in flight at once on stdio.
const WINDOW: usize = 32;
/// The revision the clients speak: one whose streams both servers open with
/// a priming event (the contract's sends it only from 2025-11-25, as the
/// official SDKs do; bare rmcp to every client), so they do the same work.
const PROTOCOL: &str = "2025-11-25";

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn run(filter: &[&str]) {
    let wants = |what: &str| filter.is_empty() || filter.contains(&what);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let rounds: usize = env_or("MCP_BENCH_ROUNDS", 3);
    let calls: usize = env_or("MCP_BENCH_CALLS", 20_000);
    let secs: f64 = env_or("MCP_BENCH_SECS", 2.0);
    let mut report = serde_json::Map::new();

    if wants("refuse") {
        println!("== an empty query (the listed schema says minLength: 1)");
        let mut refused = serde_json::Map::new();
        for server in SERVERS {
            let answer = rt.block_on(empty_query(server));
            println!("{server:>8}: {answer}");
            refused.insert(server.to_owned(), answer);
        }
        // What this comparison claims; a bench that printed otherwise would mislead.
        assert_eq!(refused["bare"]["isError"], json!(false), "bare rmcp ran it");
        assert_eq!(
            refused["contract"]["structuredContent"]["errors"][0]["constraint"]["keyword"],
            "minLength"
        );
        report.insert("empty_query".into(), Value::Object(refused));
    }

    if wants("stdio") {
        println!("== stdio, {calls} tools/call pipelined ({WINDOW} in flight), best of {rounds}");
        let mut best = [f64::MAX; 2];
        for _ in 0..rounds {
            for (i, server) in SERVERS.iter().enumerate() {
                let t = rt.block_on(stdio_pipelined(server, calls));
                best[i] = best[i].min(t.as_secs_f64());
            }
        }
        let mut row = serde_json::Map::new();
        for (i, server) in SERVERS.iter().enumerate() {
            let per_s = calls as f64 / best[i];
            println!(
                "{server:>8}: {:>8.0} calls/s ({:.1} us/call)",
                per_s,
                best[i] * 1e6 / calls as f64
            );
            row.insert(server.to_string(), json!(per_s));
        }
        let ratio = best[0] / best[1];
        println!("   ratio: contract/bare throughput {ratio:.2}x");
        row.insert("ratio".into(), json!(ratio));
        report.insert("stdio".into(), Value::Object(row));
    }

    if wants("http") {
        // The issue-grade figure: median of 5 rounds of 3 s unless told
        // otherwise (MCP_BENCH_HTTP_ROUNDS, MCP_BENCH_HTTP_SECS).
        let rounds: usize = env_or("MCP_BENCH_HTTP_ROUNDS", 5);
        let secs: f64 = env_or("MCP_BENCH_HTTP_SECS", 3.0);
        // `contract` (an async handler, run on the request's task as rmcp
        // runs its tool) is the like-for-like comparison; `contract-sync`
        // (a plain `fn`, run on the blocking pool) shows what the hand-off
        // to the pool costs.
        const HTTP: [&str; 3] = ["bare", "contract", "contract-sync"];
        let mut rows = Vec::new();
        for clients in [1usize, 16, 64] {
            let load_before = loadavg();
            println!(
                "== streamable HTTP, {clients} concurrent clients, {secs} s, median of {rounds} (load before: {load_before})"
            );
            let mut samples: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
            // Rounds interleaved, and every other round in reverse order
            // (bare, contract, sync; sync, contract, bare; ...), so that a
            // drift of the machine's speed during a run, or a cost of going
            // first or last, falls on every server alike.
            for round in 0..rounds {
                let mut order: Vec<usize> = (0..HTTP.len()).collect();
                if round % 2 == 1 {
                    order.reverse();
                }
                for i in order {
                    samples[i].push(rt.block_on(http_clients(HTTP[i], clients, secs)));
                }
            }
            let median = |v: &[f64]| {
                let mut v = v.to_vec();
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let bare = median(&samples[0]);
            let mut row = json!({"clients": clients, "load_before": load_before});
            for (i, server) in HTTP.iter().enumerate() {
                let m = median(&samples[i]);
                // Every round too: on a shared machine the spread says how
                // far to trust the median.
                println!(
                    "{server:>14}: {m:>8.0} calls/s  {:.2}x bare  (rounds: {})",
                    m / bare,
                    samples[i]
                        .iter()
                        .map(|x| format!("{x:.0}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                row[*server] = json!({"median": m, "ratio": m / bare, "rounds": samples[i]});
            }
            row["load_after"] = json!(loadavg());
            rows.push(row);
        }
        report.insert("http".into(), Value::Array(rows));
    }

    if wants("auth") {
        // What authenticating each request costs: the same contract server
        // without an authenticator, with bearer JWTs (accepted tokens
        // remembered, the default), and with every token's signature
        // checked; each client its own token. Ratios within one run.
        crate::auth::write_jwks();
        const AUTH: [&str; 3] = ["contract", "contract-jwt", "contract-jwt-nocache"];
        let mut rows = Vec::new();
        let load_before = loadavg();
        for clients in [1usize, 16] {
            println!(
                "== authentication, streamable HTTP, {clients} clients, {secs} s, median of {rounds} (load {load_before})"
            );
            let mut samples: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
            for _ in 0..rounds {
                for (i, server) in AUTH.iter().enumerate() {
                    samples[i].push(rt.block_on(http_clients(server, clients, secs)));
                }
            }
            let median = |v: &[f64]| {
                let mut v = v.to_vec();
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let floor = median(&samples[0]);
            let mut row = json!({"clients": clients});
            for (i, server) in AUTH.iter().enumerate() {
                let m = median(&samples[i]);
                println!(
                    "{server:>22}: {m:>8.0} calls/s  {:.3}x  (rounds: {})",
                    m / floor,
                    samples[i]
                        .iter()
                        .map(|x| format!("{x:.0}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                row[*server] = json!({"median": m, "ratio": m / floor, "rounds": samples[i]});
            }
            rows.push(row);
        }
        let load_after = loadavg();
        println!("load average before {load_before}, after {load_after}");
        report.insert(
            "auth".into(),
            json!({"rows": rows, "load_before": load_before, "load_after": load_after}),
        );
    }

    // The target directory cargo builds in (`target/` unless
    // `CARGO_TARGET_DIR` or `build.target-dir` says otherwise): its scratch
    // directory's parent.
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = target.parent().unwrap_or(&target).join("mcp-bench.json");
    if std::fs::write(&out, Value::Object(report).to_string()).is_ok() {
        println!("wrote {}", out.display());
    }
}

/// The 1, 5 and 15 minute load averages, as `uptime` shows them.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn server(name: &str, transport: &str) -> Child {
    Command::new(std::env::current_exe().expect("current_exe"))
        .args(["serve", name, transport])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn the server")
}

fn initialize(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "mcp-bench", "version": "0"}}})
    .to_string()
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn call(id: u64, query: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "search_notes", "arguments": {"query": query}}})
    .to_string()
}

/// The queries the load cycles through: one, two and no matching lines.
const QUERIES: [&str; 3] = ["kv cache", "tool", "zebra"];

// ------------------------------------------------------------------ stdio

struct Stdio2 {
    child: Child,
    stdin: tokio::process::ChildStdin,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

async fn stdio_session(name: &str) -> Stdio2 {
    let mut child = server(name, "stdio");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    stdin
        .write_all(format!("{}\n{INITIALIZED}\n", initialize(0)).as_bytes())
        .await
        .expect("write");
    let init = lines.next_line().await.expect("read").expect("a line");
    assert!(init.contains("\"result\""), "{init}");
    Stdio2 {
        child,
        stdin,
        lines,
    }
}

async fn empty_query(name: &str) -> Value {
    let mut s = stdio_session(name).await;
    s.stdin
        .write_all(format!("{}\n", call(1, "")).as_bytes())
        .await
        .expect("write");
    let line = s.lines.next_line().await.expect("read").expect("a line");
    let _ = s.child.kill().await;
    let v: Value = serde_json::from_str(&line).expect("JSON");
    v["result"].clone()
}

async fn stdio_pipelined(name: &str, n: usize) -> Duration {
    let Stdio2 {
        mut child,
        mut stdin,
        mut lines,
    } = stdio_session(name).await;
    // At most WINDOW calls in flight: pipelined, as a busy client is, without
    // measuring how the server copes with an unbounded queue instead.
    let window = Arc::new(tokio::sync::Semaphore::new(WINDOW));
    let permits = window.clone();
    let started = Instant::now();
    let writer = tokio::spawn(async move {
        let mut buf = Vec::with_capacity(1 << 12);
        let mut i = 0;
        while i < n {
            // Write what the window allows in one go.
            let take = permits.acquire_many(1).await.expect("open");
            take.forget();
            buf.clear();
            loop {
                buf.extend_from_slice(call(i as u64 + 1, QUERIES[i % 3]).as_bytes());
                buf.push(b'\n');
                i += 1;
                if i == n {
                    break;
                }
                match permits.try_acquire() {
                    Ok(p) => p.forget(),
                    Err(_) => break,
                }
            }
            stdin.write_all(&buf).await.expect("write");
            stdin.flush().await.expect("flush");
        }
        stdin
    });
    for _ in 0..n {
        let line = lines.next_line().await.expect("read").expect("a line");
        assert!(line.contains(r#""isError":false"#), "{line}");
        window.add_permits(1);
    }
    let elapsed = started.elapsed();
    drop(writer.await);
    let _ = child.kill().await;
    elapsed
}

// ------------------------------------------------------------------ HTTP

struct Session {
    send: SendRequest<Full<Bytes>>,
    host: String,
    session: Option<String>,
    /// The bearer token sent with every request, for an authenticated server.
    token: Option<String>,
}

impl Session {
    async fn open(addr: &str, token: Option<String>) -> Session {
        let tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
        tcp.set_nodelay(true).expect("nodelay");
        let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
            .await
            .expect("handshake");
        tokio::spawn(conn);
        let mut s = Session {
            send,
            host: addr.to_owned(),
            session: None,
            token,
        };
        let (_, headers, body) = s.post(initialize(0)).await;
        assert!(
            String::from_utf8_lossy(&body).contains("\"result\""),
            "{body:?}"
        );
        s.session = headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let (status, _, _) = s.post(INITIALIZED.to_owned()).await;
        assert!(status.is_success(), "initialized: {status}");
        s
    }

    async fn post(&mut self, body: String) -> (hyper::StatusCode, hyper::HeaderMap, Bytes) {
        let mut req = hyper::Request::post("/mcp")
            .header("host", &self.host)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL);
        if let Some(id) = &self.session {
            req = req.header("mcp-session-id", id);
        }
        if let Some(token) = &self.token {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        let req = req.body(Full::new(Bytes::from(body))).expect("request");
        self.send.ready().await.expect("ready");
        let res = self.send.send_request(req).await.expect("response");
        let (parts, body) = res.into_parts();
        let body = body.collect().await.expect("body").to_bytes();
        (parts.status, parts.headers, body)
    }
}

/// One client's `calls` calls on one session, as each client of
/// [`http_clients`] makes them, against a server started here, one after
/// another; prints the calls per second and the calls' latency
/// percentiles. Under callgrind (which does not trace the server unless
/// told) it is what the client side costs per call.
pub fn client(name: &str, calls: u64) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut child = server(name, "http");
        let mut out = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let addr = out.next_line().await.expect("read").expect("the address");
        let mut s = Session::open(&addr, None).await;
        let began = Instant::now();
        let mut lat = Vec::with_capacity(calls as usize);
        for i in 1..=calls {
            let t0 = Instant::now();
            let (status, _, body) = s.post(call(i, QUERIES[(i % 3) as usize])).await;
            lat.push(t0.elapsed().as_nanos() as u64);
            assert!(status.is_success(), "{status}");
            let text = std::str::from_utf8(&body).expect("UTF-8");
            assert!(text.contains(r#""isError":false"#), "{text}");
        }
        let took = began.elapsed();
        // One call at a time: the latency of each, not only their rate
        // (a wider tail and a slower typical call look alike in a mean).
        lat.sort_unstable();
        if let Some(last) = lat.len().checked_sub(1) {
            let q = |f: f64| lat[(last as f64 * f) as usize] as f64 / 1000.0;
            eprintln!(
                "{name}: {calls} calls in {:.3} s, {:.0} calls/s, p10 {:.1} p50 {:.1} p90 {:.1} p99 {:.1} us",
                took.as_secs_f64(),
                calls as f64 / took.as_secs_f64(),
                q(0.1),
                q(0.5),
                q(0.9),
                q(0.99)
            );
        }
        let _ = child.kill().await;
    });
}

/// Calls answered per second by `clients` sessions calling in a loop, over
/// `secs` seconds after a warm-up of a quarter of that.
async fn http_clients(name: &str, clients: usize, secs: f64) -> f64 {
    let mut child = server(name, "http");
    let mut out = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let addr = out.next_line().await.expect("read").expect("the address");
    let mut sessions = Vec::with_capacity(clients);
    for c in 0..clients {
        let token = name
            .starts_with("contract-jwt")
            .then(|| crate::auth::token(c));
        sessions.push(Session::open(&addr, token).await);
    }
    let warm = Duration::from_secs_f64(secs / 4.0);
    let start = Instant::now() + warm;
    let end = start + Duration::from_secs_f64(secs);
    let done = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for (c, mut s) in sessions.into_iter().enumerate() {
        let done = done.clone();
        tasks.push(tokio::spawn(async move {
            let mut i = c as u64;
            loop {
                i += 1;
                let (status, _, body) = s.post(call(i, QUERIES[(i % 3) as usize])).await;
                assert!(status.is_success(), "{status}");
                let text = std::str::from_utf8(&body).expect("UTF-8");
                assert!(text.contains(r#""isError":false"#), "{text}");
                let now = Instant::now();
                if now >= end {
                    break;
                }
                if now >= start {
                    done.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    for t in tasks {
        t.await.expect("client");
    }
    let _ = child.kill().await;
    done.load(Ordering::Relaxed) as f64 / secs
}
