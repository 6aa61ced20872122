//! What an idempotency record costs, against the floor of the same database.
//!
//! For each store, in the same run:
//!
//! - `claim+complete`: what a keyed write adds to a call: the atomic claim
//!   before the tool runs, and the outcome recorded after (two statements,
//!   two commits: the claim must be durable before the effect);
//! - `floor`: the cheapest write transaction the same database does, one
//!   insert and one update in one transaction, sent through the same
//!   connection machinery (SQLite: the store's own connection, on the
//!   caller's thread when it is free and on its connection thread when not,
//!   as every job; PostgreSQL: the store's connections, both statements in
//!   one round trip).
//!
//! Each with 1, 4 and 16 concurrent workers; the time per operation is the
//! wall time of the whole batch divided by the operations in it, so it is the
//! inverse of throughput. PostgreSQL runs when `CONTRACT_TEST_POSTGRES_URL`
//! is set (`eval "$(.ci/postgres.sh start)"`).
//!
//! Run: `cargo bench --bench store` (see docs/performance.md).
//!
//! The ratio mode also measures what a key adds to a whole dispatch: the same
//! trivial tool declared with `idempotency = key(request_key)` and with
//! `idempotency = none`, through a dispatcher on each store (which journals
//! every call there, keyed or not).
//!
//! On a busy machine criterion's groups measure the keyed path and the floor
//! minutes apart, under different load. `STORE_BENCH_RATIOS=<rounds>` instead
//! alternates the two, batch by batch, and prints the median time per
//! operation of each and their ratio: the numbers docs/performance.md quotes.
//! It also prints the CPU time per operation (every thread of the process,
//! from `/proc/self/task/*/schedstat`, so Linux only): on a machine shared
//! with other work, wall time is mostly waiting for a core, and CPU time is
//! the steadier measure of the work an operation costs.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use contract_runtime::store::{
    self, Claim, Claimed, MemoryStore, PostgresOptions, PostgresStore, RecordKey, SqliteStore,
    Store,
};
use contract_runtime::{Envelope, Status};
use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use tokio::runtime::Runtime;

const WORKERS: [usize; 3] = [1, 4, 16];

/// Fresh keys for every operation, unique across runs on one database.
fn next_key() -> String {
    static PREFIX: OnceLock<String> = OnceLock::new();
    static N: AtomicU64 = AtomicU64::new(0);
    let prefix = PREFIX.get_or_init(|| store::new_id("b").expect("randomness"));
    format!("{prefix}-{}", N.fetch_add(1, Ordering::Relaxed))
}

/// Runs `iters` operations spread over `workers` tasks; the time per operation
/// is what criterion divides out.
fn run_workers<F, Fut>(rt: &Runtime, workers: usize, iters: u64, op: F) -> Duration
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send,
{
    let op = Arc::new(op);
    let per = iters.div_ceil(workers as u64).max(1);
    let total = per * workers as u64;
    let elapsed = rt.block_on(async {
        let start = Instant::now();
        let tasks: Vec<_> = (0..workers)
            .map(|_| {
                let op = op.clone();
                tokio::spawn(async move {
                    for _ in 0..per {
                        op().await;
                    }
                })
            })
            .collect();
        for t in tasks {
            t.await.expect("bench worker");
        }
        start.elapsed()
    });
    elapsed.mul_f64(iters as f64 / total as f64)
}

fn outcome() -> Arc<Envelope> {
    let mut env = Envelope::failure("call_1", "post_comment", Status::Ok, false, vec![]);
    env.result = serde_json::json!({"comment": 1, "issue": 42});
    Arc::new(env)
}

/// One keyed write's bookkeeping: claim a fresh key, record the outcome.
fn claim_complete(
    s: Arc<dyn Store>,
) -> impl Fn() -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync {
    let env = outcome();
    move || {
        let (s, env) = (s.clone(), env.clone());
        Box::pin(async move {
            let c = Claim::new(
                RecordKey::new("post_comment", next_key()),
                "sha256:4f0c8a1d",
                "r1",
                "call_1",
            );
            match s.claim(&c).await {
                Ok(Claimed::Run(lease)) => {
                    assert!(s.complete(&lease, &env).await.expect("complete"));
                }
                other => panic!("a fresh key must run, got {other:?}"),
            }
        })
    }
}

fn group(c: &mut Criterion, rt: &Runtime, name: &str, s: Arc<dyn Store>, floor: Option<Floor>) {
    let mut g = c.benchmark_group(format!("store/{name}"));
    g.throughput(Throughput::Elements(1));
    for workers in WORKERS {
        let op = claim_complete(s.clone());
        let op = Arc::new(op);
        g.bench_with_input(
            BenchmarkId::new("claim+complete", workers),
            &workers,
            |b, &w| {
                b.iter_custom(|iters| {
                    let op = op.clone();
                    run_workers(rt, w, iters, move || op())
                })
            },
        );
        if let Some(floor) = &floor {
            g.bench_with_input(BenchmarkId::new("floor", workers), &workers, |b, &w| {
                b.iter_custom(|iters| {
                    let floor = floor.clone();
                    run_workers(rt, w, iters, move || floor.write())
                })
            });
        }
    }
    g.finish();
}

/// The floor of one database.
#[derive(Clone)]
enum Floor {
    Sqlite(Arc<SqliteStore>),
    Postgres(Arc<PostgresStore>),
}

impl Floor {
    fn write(&self) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> {
        match self {
            Floor::Sqlite(s) => {
                let f = s.floor_write(next_key());
                Box::pin(async move { f.await.expect("floor write") })
            }
            Floor::Postgres(s) => {
                let s = s.clone();
                Box::pin(async move { s.floor_write(next_key()).await.expect("floor write") })
            }
        }
    }
}

fn stores(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");

    group(c, &rt, "memory", Arc::new(MemoryStore::new()), None);

    let dir = std::env::temp_dir().join(format!("contract-store-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let sqlite = Arc::new(SqliteStore::open(dir.join("bench.sqlite")).expect("open SQLite"));
    group(
        c,
        &rt,
        "sqlite",
        sqlite.clone(),
        Some(Floor::Sqlite(sqlite)),
    );

    match std::env::var("CONTRACT_TEST_POSTGRES_URL") {
        Ok(url) => {
            let options = PostgresOptions {
                schema: Some(
                    store::new_id("bench")
                        .expect("randomness")
                        .replace('-', "_"),
                ),
                ..PostgresOptions::default()
            };
            let pg = rt
                .block_on(PostgresStore::connect_with(&url, options))
                .expect("connect to CONTRACT_TEST_POSTGRES_URL");
            let pg = Arc::new(pg);
            group(c, &rt, "postgres", pg.clone(), Some(Floor::Postgres(pg)));
            // The same with every outcome flushed before the answer.
            let options = PostgresOptions {
                schema: Some(
                    store::new_id("bench")
                        .expect("randomness")
                        .replace('-', "_"),
                ),
                durable_outcomes: true,
                ..PostgresOptions::default()
            };
            let pg = rt
                .block_on(PostgresStore::connect_with(&url, options))
                .expect("connect to CONTRACT_TEST_POSTGRES_URL");
            let pg = Arc::new(pg);
            group(
                c,
                &rt,
                "postgres-durable-outcomes",
                pg.clone(),
                Some(Floor::Postgres(pg)),
            );
        }
        Err(_) => eprintln!(
            "note: CONTRACT_TEST_POSTGRES_URL is not set; PostgreSQL not measured \
             (eval \"$(.ci/postgres.sh start)\")"
        ),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn config() -> Criterion {
    // Short by default (2-core machine); command-line flags still override.
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = stores
}

// ------------------------------------------------------------------ dispatch

#[derive(serde::Serialize, contract_runtime::JsonSchema)]
pub struct Sent {
    sent: bool,
}

/// Sends a message; a repeat of the key sends nothing.
#[contract_runtime::tool_contract(effect = external, idempotency = key(request_key), approval = never)]
pub fn send_keyed(
    /// A fresh key per message.
    #[arg(length(min = 1, max = 100))]
    request_key: String,
) -> Result<Sent, std::convert::Infallible> {
    let _ = request_key;
    Ok(Sent { sent: true })
}

/// Sends a message (the same tool without a key).
#[contract_runtime::tool_contract(effect = external, idempotency = none, approval = never)]
pub fn send_plain(
    /// An identifier for the message.
    #[arg(length(min = 1, max = 100))]
    request_key: String,
) -> Result<Sent, std::convert::Infallible> {
    let _ = request_key;
    Ok(Sent { sent: true })
}

/// One dispatch of `tool` with a fresh key, through a dispatcher on `s`.
fn dispatch_op(
    d: Arc<contract_runtime::Dispatcher>,
    tool: &'static str,
) -> impl Fn() -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync {
    let caller = Arc::new(contract_runtime::Caller::new());
    move || {
        let (d, caller) = (d.clone(), caller.clone());
        Box::pin(async move {
            let args = serde_json::json!({ "request_key": next_key() }).to_string();
            let call = contract_runtime::ToolCall::new("call_1", tool, args);
            let env = d.dispatch(&caller, &call).await;
            assert_eq!(env.status, Status::Ok, "{env:?}");
        })
    }
}

/// `STORE_BENCH_RATIOS=<rounds>`: keyed path and floor alternated, batch by batch.
fn ratios(rounds: usize) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = std::env::temp_dir().join(format!("contract-store-ratios-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let mut subjects: Vec<(String, Arc<dyn Store>, Floor)> = Vec::new();
    let memory: Arc<dyn Store> = Arc::new(MemoryStore::new());
    // The default store; the same with every outcome committed before its
    // answer (two commits per keyed call, as before outcomes shared the next
    // job's commit); and every job through the connection thread, as before
    // jobs ran on the caller's thread when the connection is free.
    let variants = [
        ("sqlite", store::SqliteOptions::default()),
        (
            "sqlite-durable-outcomes",
            store::SqliteOptions {
                durable_outcomes: true,
                ..store::SqliteOptions::default()
            },
        ),
        (
            "sqlite-connection-thread",
            store::SqliteOptions {
                on_caller_thread: false,
                ..store::SqliteOptions::default()
            },
        ),
    ];
    let mut sqlite_hop = None;
    for (name, options) in variants {
        let file = dir.join(format!("ratios-{name}.sqlite"));
        let sqlite = Arc::new(SqliteStore::open_with(file, options).expect("open SQLite"));
        sqlite_hop.get_or_insert_with(|| sqlite.clone());
        subjects.push((name.into(), sqlite.clone(), Floor::Sqlite(sqlite)));
    }
    let sqlite_hop = sqlite_hop.expect("the default SQLite store");
    if let Ok(url) = std::env::var("CONTRACT_TEST_POSTGRES_URL") {
        for durable_outcomes in [false, true] {
            let options = PostgresOptions {
                schema: Some(
                    store::new_id("bench")
                        .expect("randomness")
                        .replace('-', "_"),
                ),
                durable_outcomes,
                ..PostgresOptions::default()
            };
            let pg = Arc::new(
                rt.block_on(PostgresStore::connect_with(&url, options))
                    .expect("connect to CONTRACT_TEST_POSTGRES_URL"),
            );
            let name = if durable_outcomes {
                "postgres-durable-outcomes"
            } else {
                "postgres"
            };
            subjects.push((name.into(), pg.clone(), Floor::Postgres(pg)));
        }
    }
    println!("dispatch through | workers | keyed call | same tool unkeyed | added | ratio");
    let through: Vec<(String, Arc<dyn Store>)> = std::iter::once(("memory".to_string(), memory))
        .chain(subjects.iter().map(|(n, s, _)| (n.clone(), s.clone())))
        .collect();
    for (name, s) in &through {
        let registry = contract_runtime::Registry::builder()
            .tool(send_keyed::contract())
            .tool(send_plain::contract())
            .build()
            .expect("registry");
        let d = Arc::new(contract_runtime::Dispatcher::new(registry).with_store(s.clone()));
        for workers in WORKERS {
            let keyed = Arc::new(dispatch_op(d.clone(), "send_keyed"));
            let plain = Arc::new(dispatch_op(d.clone(), "send_plain"));
            let probe = {
                let op = keyed.clone();
                run_workers(&rt, workers, 20, move || op())
            };
            let ops = ((0.25 / probe.as_secs_f64()) as u64).clamp(20, 20_000);
            let (mut k, mut u) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                let op = keyed.clone();
                k.push(run_workers(&rt, workers, ops, move || op()).as_secs_f64() / ops as f64);
                let op = plain.clone();
                u.push(run_workers(&rt, workers, ops, move || op()).as_secs_f64() / ops as f64);
            }
            let (k, u) = (median(&mut k), median(&mut u));
            println!(
                "{name} | {workers} | {:.1} µs | {:.1} µs | {:.1} µs | {:.2}",
                k * 1e6,
                u * 1e6,
                (k - u) * 1e6,
                k / u
            );
        }
    }
    println!(
        "store | workers | claim+complete per op | floor per op | ratio | CPU: claim+complete | floor | ratio"
    );
    for (name, s, floor) in subjects {
        for workers in WORKERS {
            let keyed = Arc::new(claim_complete(s.clone()));
            // Size a batch to about a quarter of a second of floor writes.
            let probe = {
                let f = floor.clone();
                run_workers(&rt, workers, 20, move || f.write())
            };
            let ops = ((0.25 / probe.as_secs_f64()) as u64).clamp(20, 20_000);
            let (mut k, mut f, mut kc, mut fc) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for _ in 0..rounds {
                let op = keyed.clone();
                let (wall, cpu) = timed(&rt, workers, ops, move || op());
                k.push(wall);
                kc.push(cpu);
                let fl = floor.clone();
                let (wall, cpu) = timed(&rt, workers, ops, move || fl.write());
                f.push(wall);
                fc.push(cpu);
            }
            let (k, f) = (median(&mut k), median(&mut f));
            let (kc, fc) = (median(&mut kc), median(&mut fc));
            println!(
                "{name} | {workers} | {:.1} µs | {:.1} µs | {:.2} | {:.1} µs | {:.1} µs | {:.2}",
                k * 1e6,
                f * 1e6,
                k / f,
                kc * 1e6,
                fc * 1e6,
                kc / fc
            );
        }
    }
    // What one job costs that runs no statement: the hop to the connection
    // thread and back, which a keyed call makes twice and the floor once.
    println!("sqlite round trip to the connection thread | workers | wall per op | CPU per op");
    for workers in WORKERS {
        let mut w = Vec::new();
        let mut c = Vec::new();
        for _ in 0..rounds {
            let s = sqlite_hop.clone();
            let (wall, cpu) = timed(&rt, workers, 2_000, move || {
                let f = s.round_trip();
                async move { f.await.expect("round trip") }
            });
            w.push(wall);
            c.push(cpu);
        }
        println!(
            "sqlite | {workers} | {:.1} µs | {:.1} µs",
            median(&mut w) * 1e6,
            median(&mut c) * 1e6
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// CPU time of every thread of this process so far, in seconds (0 where
/// `/proc` cannot say).
fn cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .sum::<f64>()
        / 1e9
}

/// Runs a batch like [`run_workers`] and returns wall and CPU seconds per
/// operation.
fn timed<F, Fut>(rt: &Runtime, workers: usize, ops: u64, op: F) -> (f64, f64)
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send,
{
    let cpu = cpu_seconds();
    let wall = run_workers(rt, workers, ops, op).as_secs_f64();
    (wall / ops as f64, (cpu_seconds() - cpu) / ops as f64)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if let Ok(rounds) = std::env::var("STORE_BENCH_RATIOS") {
        ratios(rounds.parse().unwrap_or(11));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
