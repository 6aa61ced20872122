//! Faults at scale, from outside as an operator meets them: several
//! `toolbox serve-jsonl` workers on one store send keyed writes
//! (`post_comment`, fresh and repeated request keys) while workers are
//! killed with SIGKILL at random moments, the database is stopped and
//! started, connections are cut, or the disk fills; then the invariants
//! are checked over `outbox.jsonl` (one line is one effect), the store
//! (`toolbox state records` and `state unknown`) and the journal (`state
//! journal`), and the counts are printed as one table.
//!
//! CI runs small configurations. The long mode is run by hand (its results
//! are in docs/reliability.md):
//!
//! ```sh
//! eval "$(.ci/postgres.sh start)"
//! FAULTS_KILLS=1000 cargo test --test faults -- --ignored --nocapture
//! ```
//!
//! PostgreSQL comes from `CONTRACT_TEST_POSTGRES_URL` (see tests/store.rs):
//! without it those cases print a notice and pass locally, and fail in CI.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{load_average, Cluster, Rng};
use serde_json::{json, Value};

/// This run's seed: printed with its table, and `FAULTS_SEED` repeats a
/// run's choices (not its timing: that is the point).
fn seed() -> u64 {
    Rng::seed("FAULTS_SEED")
}

// ---------------------------------------------------------------------------
// The harness

/// One run's shape.
struct Config {
    /// A name for the table's row.
    label: String,
    /// The store each worker is started with (index: worker). All the same
    /// in every real configuration; one per worker is the broken one.
    stores: Vec<String>,
    /// The store the checks read (`toolbox state --store`).
    check_store: String,
    /// Extra arguments for every worker.
    worker_args: Vec<String>,
    /// Percent of calls that send a fresh key (the rest repeat a key sent
    /// before, often one another worker is sending at the same moment).
    fresh_percent: u64,
    /// Whether a worker that dies is started again (kill runs), or its
    /// death is a violation (the database runs: workers must ride it out).
    restart: bool,
    /// Whether only a key whose worker was killed under it may be in doubt.
    /// Not so when the store goes away mid-call: an outcome that could not
    /// be recorded leaves its key in doubt, by design.
    doubt_needs_a_kill: bool,
}

impl Config {
    fn shared(label: &str, store: &str, workers: usize) -> Config {
        Config {
            label: label.to_string(),
            stores: vec![store.to_string(); workers],
            check_store: store.to_string(),
            worker_args: Vec::new(),
            fresh_percent: 50,
            restart: true,
            doubt_needs_a_kill: true,
        }
    }
}

/// What one call got.
#[derive(Clone, Debug)]
struct Answer {
    key: String,
    call_id: String,
    status: String,
    replayed: bool,
    codes: Vec<String>,
}

/// Everything the workers saw, for the checks.
#[derive(Default)]
struct Log {
    answers: Vec<Answer>,
    /// Keys of calls that were sent and never answered: their worker died
    /// under them.
    interrupted: BTreeSet<String>,
    /// Worker deaths the harness did not cause.
    unexpected_exits: usize,
    /// Worker processes started, the first ones included.
    starts: usize,
}

/// A run in progress: the workers' processes and what they answered.
struct Run {
    cfg: Config,
    root: PathBuf,
    logs: PathBuf,
    /// Distinguishes this run's call ids from every other's in a shared store.
    run_id: String,
    stop: AtomicBool,
    slots: Vec<Mutex<Option<Child>>>,
    log: Mutex<Log>,
    keys: Mutex<Vec<String>>,
    kills: AtomicUsize,
}

/// The counts a run prints, and what broke.
#[derive(Debug, Default)]
struct Report {
    label: String,
    workers: usize,
    kills: usize,
    starts: usize,
    calls: usize,
    keys: usize,
    effects: usize,
    replays: usize,
    unknown_answers: usize,
    unavailable_answers: usize,
    in_doubt: usize,
    violations: Vec<String>,
}

impl Report {
    fn header() -> String {
        "| run | workers | kills | starts | calls | keys | effects | replays | unknown answers | store-unavailable | in doubt, resolved | violations |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|"
            .to_string()
    }
    fn row(&self) -> String {
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            self.label,
            self.workers,
            self.kills,
            self.starts,
            self.calls,
            self.keys,
            self.effects,
            self.replays,
            self.unknown_answers,
            self.unavailable_answers,
            self.in_doubt,
            self.violations.len()
        )
    }
    fn print(&self) {
        println!("{}\n{}", Report::header(), self.row());
        for v in self.violations.iter().take(20) {
            println!("violation: {v}");
        }
    }
    fn assert_clean(&self) {
        self.print();
        assert!(
            self.violations.is_empty(),
            "{} violations, first: {:#?}",
            self.violations.len(),
            &self.violations[..self.violations.len().min(10)]
        );
    }
}

fn comment(key: &str) -> Value {
    // The same arguments every time a key is sent: a repeat is a retry.
    json!({"issue": 7, "body": format!("comment {key}"), "request_key": key})
}

fn item(call_id: &str, args: &Value) -> String {
    let mut line = json!({"type": "function_call", "call_id": call_id, "name": "post_comment", "arguments": args.to_string()}).to_string();
    line.push('\n');
    line
}

fn envelope(line: &str) -> Option<Value> {
    let item: Value = serde_json::from_str(line).ok()?;
    serde_json::from_str(item["output"].as_str()?).ok()
}

fn codes(env: &Value) -> Vec<String> {
    env["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["code"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

impl Run {
    fn new(cfg: Config, root: &Path, logs: &Path) -> Arc<Run> {
        std::fs::create_dir_all(logs).expect("log folder");
        let workers = cfg.stores.len();
        Arc::new(Run {
            run_id: common::uuid()[..8].to_string(),
            cfg,
            root: root.to_path_buf(),
            logs: logs.to_path_buf(),
            stop: AtomicBool::new(false),
            slots: (0..workers).map(|_| Mutex::new(None)).collect(),
            log: Mutex::new(Log::default()),
            keys: Mutex::new(Vec::new()),
            kills: AtomicUsize::new(0),
        })
    }

    fn spawn(&self, w: usize, generation: usize) -> Child {
        let stderr = std::fs::File::create(self.logs.join(format!("worker-{w}-{generation}.log")))
            .expect("worker log");
        self.log.lock().unwrap().starts += 1;
        Command::new(common::toolbox())
            .args(["serve-jsonl", "--root"])
            .arg(&self.root)
            .args(["--store", &self.cfg.stores[w]])
            .args(&self.cfg.worker_args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn toolbox serve-jsonl")
    }

    /// One worker slot: a process sent one call at a time, started again
    /// when it dies (if the run says so), until the run stops.
    fn worker(self: &Arc<Run>, w: usize, seed: u64) {
        let mut rng = Rng::new(seed);
        let mut generation = 0;
        while !self.stop.load(Ordering::SeqCst) {
            let mut child = self.spawn(w, generation);
            let mut input = child.stdin.take().expect("stdin");
            let mut output = BufReader::new(child.stdout.take().expect("stdout"));
            *self.slots[w].lock().unwrap() = Some(child);
            let mut n = 0;
            let died = loop {
                if self.stop.load(Ordering::SeqCst) {
                    break false;
                }
                let key = self.pick_key(&mut rng);
                n += 1;
                let call_id = format!("{}-w{w}-g{generation}-c{n}", self.run_id);
                let mut line = String::new();
                let sent = input
                    .write_all(item(&call_id, &comment(&key)).as_bytes())
                    .and_then(|()| input.flush())
                    .is_ok();
                let read = sent && output.read_line(&mut line).is_ok_and(|n| n > 0);
                if !read {
                    self.log.lock().unwrap().interrupted.insert(key);
                    break true;
                }
                let Some(env) = envelope(&line) else {
                    self.log
                        .lock()
                        .unwrap()
                        .interrupted
                        .insert(format!("unreadable answer {line:?}"));
                    break true;
                };
                self.log.lock().unwrap().answers.push(Answer {
                    key,
                    call_id,
                    status: env["status"].as_str().unwrap_or("").to_string(),
                    replayed: env["replayed"] == true,
                    codes: codes(&env),
                });
            };
            drop(input);
            let child = self.slots[w].lock().unwrap().take();
            // Still in its slot: the harness did not kill it.
            if let Some(mut child) = child {
                let status = child.wait().expect("wait for a worker");
                if died {
                    self.log.lock().unwrap().unexpected_exits += 1;
                    eprintln!("worker {w} exited on its own: {status}");
                    if !self.cfg.restart {
                        return;
                    }
                }
            }
            generation += 1;
        }
    }

    fn pick_key(&self, rng: &mut Rng) -> String {
        let mut keys = self.keys.lock().unwrap();
        if keys.is_empty() || rng.chance(self.cfg.fresh_percent) {
            let key = common::uuid();
            keys.push(key.clone());
            return key;
        }
        // Mostly a recent key (likely in flight on another worker right
        // now), sometimes any key sent before.
        let len = keys.len() as u64;
        let i = if rng.chance(70) {
            len - 1 - rng.below(len.min(8))
        } else {
            rng.below(len)
        };
        keys[i as usize].clone()
    }

    /// SIGKILL to a random worker, if one is running; whether one was.
    fn kill_one(&self, rng: &mut Rng) -> bool {
        let w = rng.below(self.slots.len() as u64) as usize;
        // Taken out of its slot, so it is killed (and counted) once; a
        // worker that died already is not a kill. `Child::kill` is SIGKILL.
        let Some(mut child) = self.slots[w].lock().unwrap().take() else {
            return false;
        };
        let killed = matches!(child.try_wait(), Ok(None)) && child.kill().is_ok();
        let _ = child.wait();
        if killed {
            self.kills.fetch_add(1, Ordering::SeqCst);
        }
        killed
    }

    /// Starts the workers, runs `chaos` beside them, stops them, checks.
    fn go(self: &Arc<Run>, seed: u64, chaos: impl FnOnce(&Arc<Run>)) -> Report {
        let threads: Vec<_> = (0..self.slots.len())
            .map(|w| {
                let run = self.clone();
                let s = seed.wrapping_add(w as u64 * 7919 + 1);
                std::thread::spawn(move || run.worker(w, s))
            })
            .collect();
        chaos(self);
        self.stop.store(true, Ordering::SeqCst);
        // A worker that hangs is killed after a minute (and reported).
        let deadline = Instant::now() + Duration::from_secs(60);
        while threads.iter().any(|t| !t.is_finished()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut hung = 0;
        for slot in &self.slots {
            if let Some(child) = slot.lock().unwrap().as_mut() {
                hung += 1;
                let _ = child.kill();
            }
        }
        for t in threads {
            t.join().expect("worker thread");
        }
        let mut report = self.check();
        if hung > 0 {
            report
                .violations
                .push(format!("{hung} workers did not answer within a minute"));
        }
        report
    }

    // -----------------------------------------------------------------------
    // The checks

    fn state(&self, args: &[&str]) -> Result<Vec<Value>, String> {
        common::toolbox_state(&self.cfg.check_store, args)
    }

    /// The files beside a SQLite store and their sizes, for a report.
    fn store_files(&self) -> String {
        let Some(file) = self.cfg.check_store.strip_prefix("sqlite:") else {
            return String::new();
        };
        let Some(dir) = Path::new(file).parent() else {
            return String::new();
        };
        let mut listed = String::from("\nthe store's folder holds:");
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let len = e.metadata().map(|m| m.len()).unwrap_or(0);
            listed.push_str(&format!(
                "\n  {} ({len} bytes)",
                e.file_name().to_string_lossy()
            ));
        }
        listed
    }

    fn outbox(&self) -> Vec<Value> {
        std::fs::read_to_string(self.root.join("outbox.jsonl"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    fn check(&self) -> Report {
        let log = std::mem::take(&mut *self.log.lock().unwrap());
        let keys: BTreeSet<String> = self.keys.lock().unwrap().iter().cloned().collect();
        let mut v = Vec::new();
        let mut report = Report {
            label: self.cfg.label.clone(),
            workers: self.slots.len(),
            kills: self.kills.load(Ordering::SeqCst),
            starts: log.starts,
            calls: log.answers.len() + log.interrupted.len(),
            keys: keys.len(),
            ..Report::default()
        };
        if log.unexpected_exits > 0 {
            v.push(format!(
                "{} workers died without being killed",
                log.unexpected_exits
            ));
        }

        // Effects: one outbox line each, naming the key and the call.
        let lines = self.outbox();
        let mut effects: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut downstream: HashMap<String, String> = HashMap::new();
        for l in &lines {
            let key = l["request_key"].as_str().unwrap_or("").to_string();
            effects
                .entry(key.clone())
                .or_default()
                .push(l["call_id"].as_str().unwrap_or("").to_string());
            // One key, every hop: the key the service saw is the same for
            // every effect of one request key, and never another key's.
            let idem = l["idempotency_key"].as_str().unwrap_or("").to_string();
            if let Some(other) = downstream.insert(idem.clone(), key.clone()) {
                if other != key {
                    v.push(format!("downstream key {idem} names {other} and {key}"));
                }
            }
        }
        report.effects = lines.len();
        let count = |k: &str| effects.get(k).map_or(0, Vec::len);

        // 1. No key has more than one effect.
        for (k, calls) in &effects {
            if calls.len() > 1 {
                v.push(format!("key {k} has {} effects: {calls:?}", calls.len()));
            }
        }

        // 2. Every call answered `ok`, original or replay, has exactly one effect.
        let mut answered_ok = BTreeSet::new();
        for a in &log.answers {
            match a.status.as_str() {
                "ok" => {
                    answered_ok.insert(a.key.clone());
                    if a.replayed {
                        report.replays += 1;
                    }
                }
                "unknown" => report.unknown_answers += 1,
                "failed" if a.codes == ["store-unavailable"] => report.unavailable_answers += 1,
                "failed" if a.codes == ["in-flight"] => {}
                _ => v.push(format!("an answer no keyed write may give: {a:?}")),
            }
        }
        for k in &answered_ok {
            if count(k) != 1 {
                v.push(format!("key {k} answered ok with {} effects", count(k)));
            }
        }

        // 3. Every key is done, failed, unknown or never started: never lost.
        let records = match self.state(&["records"]) {
            Ok(r) => r,
            Err(e) => {
                // Every key would read as lost: say why once, with what the
                // store's folder holds, and check no key against nothing.
                v.push(format!("{e}{}", self.store_files()));
                report.violations = v;
                return report;
            }
        };
        let records: HashMap<String, &Value> = records
            .iter()
            .filter(|r| r["tool"] == "post_comment")
            .filter_map(|r| {
                let k = r["key"].as_str()?.to_string();
                keys.contains(&k).then_some((k, r))
            })
            .collect();
        let mut in_doubt = BTreeSet::new();
        for k in &keys {
            let n = count(k);
            match records.get(k) {
                None if n > 0 => v.push(format!("key {k} had its effect and has no record: lost")),
                None => {} // never started, or failed and released
                Some(r) if r["in_doubt"] == true => {
                    in_doubt.insert(k.clone());
                }
                Some(r) if r["state"] == "done" => {
                    if n != 1 {
                        v.push(format!("key {k} is done with {n} effects"));
                    }
                    // The store names the call that had the effect.
                    if n == 1 && effects[k][0] != r["call_id"].as_str().unwrap_or("") {
                        v.push(format!(
                            "key {k}: the effect came from {} but the record names {}",
                            effects[k][0], r["call_id"]
                        ));
                    }
                }
                Some(r) => v.push(format!(
                    "key {k} is {} with a live lease and no live worker",
                    r["state"]
                )),
            }
        }
        // Only a key whose call a worker died under may be in doubt.
        for k in in_doubt.iter().filter(|_| self.cfg.doubt_needs_a_kill) {
            if !log.interrupted.contains(k) {
                v.push(format!("key {k} is in doubt, and no worker died under it"));
            }
        }
        // `state unknown` lists exactly the keys in doubt.
        let listed: BTreeSet<String> = match self.state(&["unknown"]) {
            Ok(list) => list
                .iter()
                .filter(|r| r["tool"] == "post_comment")
                .filter_map(|r| r["key"].as_str().map(str::to_string))
                .filter(|k| keys.contains(k))
                .collect(),
            Err(e) => {
                v.push(e);
                BTreeSet::new()
            }
        };
        if listed != in_doubt {
            v.push(format!(
                "state unknown lists {} keys, the records {} in doubt (listed only: {:?}; in doubt only: {:?})",
                listed.len(),
                in_doubt.len(),
                listed.difference(&in_doubt).take(5).collect::<Vec<_>>(),
                in_doubt.difference(&listed).take(5).collect::<Vec<_>>()
            ));
        }
        report.in_doubt = in_doubt.len();

        // 4. Every journal entry agrees with the store's record (and with
        // the answer the worker wrote, where it got to write one).
        let answers: HashMap<&str, &Answer> = log
            .answers
            .iter()
            .map(|a| (a.call_id.as_str(), a))
            .collect();
        let prefix = format!("{}-", self.run_id);
        match self.state(&["journal", "--tool", "post_comment"]) {
            Err(e) => v.push(e),
            Ok(journal) => {
                for e in journal.iter().filter(|e| {
                    e["call_id"]
                        .as_str()
                        .is_some_and(|c| c.starts_with(&prefix))
                }) {
                    let call_id = e["call_id"].as_str().unwrap_or("");
                    let key = e["arguments"]["request_key"].as_str().unwrap_or("");
                    let (status, replayed) =
                        (e["status"].as_str().unwrap_or(""), e["replayed"] == true);
                    if let Some(a) = answers.get(call_id) {
                        if a.status != status || a.replayed != replayed {
                            v.push(format!(
                                "journal {call_id}: {status} (replayed {replayed}), answered {a:?}"
                            ));
                        }
                    }
                    let r = records.get(key);
                    let state = r.map(|r| r["state"].as_str().unwrap_or(""));
                    let doubtful = r.is_some_and(|r| r["in_doubt"] == true);
                    let agrees = match (status, replayed) {
                        ("ok", false) => {
                            // The run that had the effect: its outcome is
                            // recorded, or (its commit lost with the
                            // process) the record is in doubt.
                            doubtful
                                || (state == Some("done")
                                    && r.is_some_and(|r| {
                                        r["call_id"] == call_id && r["status"] == "ok"
                                    }))
                        }
                        ("ok", true) => {
                            doubtful
                                || (state == Some("done") && r.is_some_and(|r| r["status"] == "ok"))
                        }
                        ("unknown", _) => doubtful,
                        ("failed", _) => true, // in-flight or store-unavailable: nothing ran
                        _ => false,
                    };
                    if !agrees {
                        v.push(format!(
                            "journal {call_id} for {key}: {status} (replayed {replayed}), the record: {}",
                            r.map_or("none".to_string(), |r| r.to_string())
                        ));
                    }
                }
            }
        }

        // 5. The operator settles every key in doubt by looking at the
        // effects; then nothing is in doubt, and sending every key once more
        // leaves each with exactly one effect.
        for k in &in_doubt {
            let as_ = if count(k) == 1 { "done" } else { "failed" };
            if let Err(e) = self.state(&["resolve", k, "--as", as_, "--tool", "post_comment"]) {
                v.push(e);
            }
        }
        match self.state(&["unknown"]) {
            Ok(left) => {
                let left: Vec<_> = left
                    .iter()
                    .filter(|r| r["key"].as_str().is_some_and(|k| keys.contains(k)))
                    .collect();
                if !left.is_empty() {
                    v.push(format!("{} keys still in doubt after resolve", left.len()));
                }
            }
            Err(e) => v.push(e),
        }
        self.final_pass(&keys, &mut v);
        report.violations = v;
        report
    }

    /// Every key sent once more, by one new worker on the (first) store:
    /// each answers `ok`, and each has exactly one effect after.
    fn final_pass(&self, keys: &BTreeSet<String>, v: &mut Vec<String>) {
        let mut child = Command::new(common::toolbox())
            .args(["serve-jsonl", "--root"])
            .arg(&self.root)
            .args(["--store", &self.cfg.check_store])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the final worker");
        let input: String = keys
            .iter()
            .enumerate()
            .map(|(i, k)| item(&format!("{}-final-{i}", self.run_id), &comment(k)))
            .collect();
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        let answers: Vec<Value> = out
            .lines()
            .map_while(Result::ok)
            .filter_map(|l| envelope(&l))
            .collect();
        let _ = writer.join();
        let _ = child.wait();
        if answers.len() != keys.len() {
            v.push(format!(
                "the final pass got {} answers for {} keys",
                answers.len(),
                keys.len()
            ));
        }
        for (k, env) in keys.iter().zip(&answers) {
            if env["status"] != "ok" {
                v.push(format!("final pass: key {k} answered {env}"));
            }
        }
        let mut counts: HashMap<String, usize> = HashMap::new();
        for l in self.outbox() {
            *counts
                .entry(l["request_key"].as_str().unwrap_or("").to_string())
                .or_default() += 1;
        }
        for k in keys {
            let n = counts.get(k).copied().unwrap_or(0);
            if n != 1 {
                v.push(format!("after the final pass key {k} has {n} effects"));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Kill runs

/// Random SIGKILLs: `kills` of them, a random pause (up to `gap_ms`)
/// before each.
fn kill_at_random(kills: usize, gap_ms: u64, seed: u64) -> impl FnOnce(&Arc<Run>) {
    move |run| {
        let mut rng = Rng::new(seed ^ 0x5eed);
        // Let every worker start and answer a few calls first.
        std::thread::sleep(Duration::from_millis(300));
        let mut misses = 0;
        while run.kills.load(Ordering::SeqCst) < kills && misses < 100_000 {
            std::thread::sleep(Duration::from_millis(rng.below(gap_ms) + 1));
            if !run.kill_one(&mut rng) {
                misses += 1;
            }
        }
        // Let the last restarts answer something.
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// `kills` random SIGKILLs of `workers` workers on `store` (a new SQLite
/// file when `None`); a pause of up to `gap_ms` before each kill (a
/// PostgreSQL worker takes longer to start: it opens eight connections).
fn kill_run(
    label: &str,
    store: Option<String>,
    fx: &common::Fixture,
    workers: usize,
    kills: usize,
    gap_ms: u64,
) -> Report {
    let store =
        store.unwrap_or_else(|| format!("sqlite:{}", fx.base.join("state.sqlite").display()));
    let seed = seed();
    let (started, load_before) = (Instant::now(), load_average());
    let run = Run::new(
        Config::shared(label, &store, workers),
        &fx.root,
        &fx.base.join("logs"),
    );
    let report = run.go(seed, kill_at_random(kills, gap_ms, seed));
    println!(
        "{label}: seed {seed}, {:.1} s, load average {load_before} before, {} after",
        started.elapsed().as_secs_f64(),
        load_average()
    );
    report
}

// ---------------------------------------------------------------------------
// 1. Kill at random

#[test]
fn random_kills_on_sqlite_lose_and_duplicate_nothing() {
    let fx = common::Fixture::standard("faults-kill-sqlite");
    kill_run("sqlite, CI", None, &fx, 4, 40, 60).assert_clean();
}

#[test]
fn random_kills_on_postgres_lose_and_duplicate_nothing() {
    let Some(url) = common::postgres_url() else {
        return;
    };
    let fx = common::Fixture::standard("faults-kill-postgres");
    kill_run(
        "postgres, CI",
        Some(format!("postgres:{url}")),
        &fx,
        4,
        40,
        250,
    )
    .assert_clean();
}

/// The harness catches a duplicate: the same run with a store per worker
/// (a misconfiguration that shares nothing) posts repeated keys more than
/// once, and the checks say so.
#[test]
fn the_harness_catches_a_duplicate() {
    let fx = common::Fixture::standard("faults-broken");
    let stores: Vec<String> = (0..4)
        .map(|w| {
            format!(
                "sqlite:{}",
                fx.base.join(format!("state-{w}.sqlite")).display()
            )
        })
        .collect();
    let cfg = Config {
        label: "one store per worker (broken)".into(),
        check_store: stores[0].clone(),
        stores,
        worker_args: Vec::new(),
        fresh_percent: 30,
        restart: true,
        doubt_needs_a_kill: true,
    };
    let run = Run::new(cfg, &fx.root, &fx.base.join("logs"));
    let report = run.go(seed(), |_| std::thread::sleep(Duration::from_secs(3)));
    report.print();
    assert!(
        report
            .violations
            .iter()
            .any(|v| v.contains("effects") && v.starts_with("key ")),
        "the duplicate went unnoticed: {report:#?}"
    );
}

/// The long mode, by hand: `FAULTS_KILLS` (default 1,000) kills of
/// `FAULTS_WORKERS` (default 4) workers on SQLite and, when it is there,
/// PostgreSQL.
#[test]
#[ignore = "the long mode: run by hand, see the module docs"]
fn long_random_kills() {
    let kills = std::env::var("FAULTS_KILLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let workers = std::env::var("FAULTS_WORKERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    println!("load average at start: {}", load_average());
    let fx = common::Fixture::standard("faults-long-sqlite");
    let mut reports = vec![kill_run("sqlite", None, &fx, workers, kills, 60)];
    if let Some(url) = common::postgres_url() {
        let fx = common::Fixture::standard("faults-long-postgres");
        reports.push(kill_run(
            "postgres",
            Some(format!("postgres:{url}")),
            &fx,
            workers,
            kills,
            250,
        ));
    }
    println!("{}", Report::header());
    for r in &reports {
        println!("{}", r.row());
    }
    for r in &reports {
        r.assert_clean();
    }
}

// ---------------------------------------------------------------------------
// 5. One key, every hop

/// A handler reads the key it runs under and hands it on: the outbox (the
/// service `post_comment` calls) gets a downstream key derived from the
/// request key, and another tenant sending the same key gets another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_key_reaches_the_service_downstream() {
    use contract_runtime::{Dispatcher, ToolCall};
    let fx = common::Fixture::standard("faults-downstream");
    let dispatcher = Dispatcher::new(toolbox::registry());
    let as_tenant = |t: &str| Arc::new(toolbox::caller(&fx.root, None, &[]).unwrap().tenant(t));
    let (acme, globex) = (as_tenant("acme"), as_tenant("globex"));
    let key = common::uuid();
    let call = |id: &str| ToolCall::new(id, "post_comment", comment(&key).to_string());
    for (caller, id) in [(&acme, "c1"), (&acme, "c2"), (&globex, "c3")] {
        let env = dispatcher.dispatch(caller, &call(id)).await;
        assert_eq!(env.status, contract_runtime::Status::Ok, "{env:?}");
    }
    let lines: Vec<Value> = std::fs::read_to_string(fx.root.join("outbox.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // One effect per tenant: c2 replayed c1.
    assert_eq!(lines.len(), 2, "{lines:#?}");
    let (a, b) = (&lines[0]["idempotency_key"], &lines[1]["idempotency_key"]);
    assert!(
        a.as_str()
            .is_some_and(|k| k.starts_with("rk_") && k.len() == 67),
        "{a}"
    );
    assert_ne!(a, b, "two tenants' keys never meet downstream either");
    assert_eq!(lines[0]["call_id"], "c1");
    assert_eq!(lines[1]["call_id"], "c3");
}

// ---------------------------------------------------------------------------
// 4. (part) Retention: the store stays the size of its retention

/// A dispatcher with a store deletes completed records past their
/// retention and journal entries past theirs as it serves: no operator
/// runs `purge`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dispatcher_purges_expired_records_and_journal_entries() {
    use contract_runtime::store::{self, JournalQuery, RecordTimes};
    use contract_runtime::{Dispatcher, ToolCall};
    let fx = common::Fixture::standard("faults-purge");
    let s = store::open(&format!(
        "sqlite:{}",
        fx.base.join("state.sqlite").display()
    ))
    .await
    .unwrap();
    let times = RecordTimes {
        retention: Duration::from_millis(300),
        journal_retention: Duration::from_millis(300),
        purge_every: Duration::from_millis(100),
        ..RecordTimes::default()
    };
    let dispatcher = Dispatcher::new(toolbox::registry())
        .with_store(s.clone())
        .with_record_times(times);
    let caller = Arc::new(toolbox::caller(&fx.root, None, &[]).unwrap());
    let send = |id: &str, key: &str| ToolCall::new(id, "post_comment", comment(key).to_string());
    let old = common::uuid();
    dispatcher.dispatch(&caller, &send("old", &old)).await;
    assert_eq!(s.records().await.unwrap().len(), 1);
    tokio::time::sleep(Duration::from_millis(600)).await;
    dispatcher
        .dispatch(&caller, &send("new", &common::uuid()))
        .await;
    let records = s.records().await.unwrap();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_ne!(records[0].key.key, old, "the expired record went");
    let journal = s.query(&JournalQuery::default()).await.unwrap();
    let ids: Vec<_> = journal.iter().map(|e| e.call_id.as_str()).collect();
    assert_eq!(ids, ["new"], "the old entry went, the new one stays");
}

// ---------------------------------------------------------------------------
// 2. The database restarts

/// Answers so far, for "answered ok after the fault" checks.
fn answers_since(run: &Run, from: usize) -> Vec<Answer> {
    run.log.lock().unwrap().answers[from..].to_vec()
}

fn answered(run: &Run) -> usize {
    run.log.lock().unwrap().answers.len()
}

/// Waits (a minute at most) until the workers have answered a few calls:
/// on a loaded machine they take a while to start, and a fault before then
/// tests start-up, not a running server.
fn warmed_up(run: &Run) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while answered(run) < 3 * run.slots.len() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn store_fault_config(label: &str, store: &str) -> Config {
    Config {
        restart: false,
        doubt_needs_a_kill: false,
        ..Config::shared(label, store, 3)
    }
}

/// PostgreSQL stopped in immediate mode under three workers, and started
/// again: while it is down keyed writes answer `store-unavailable` and run
/// nothing; the same processes answer `ok` once it is back.
#[test]
fn postgres_restarts_under_three_workers() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let fx = common::Fixture::standard("faults-pg-restart");
    let store = format!("postgres:{}", cluster.url);
    let run = Run::new(
        store_fault_config("postgres stopped and started", &store),
        &fx.root,
        &fx.base.join("logs"),
    );
    let (mut down, mut after) = (Vec::new(), Vec::new());
    let report = run.go(seed(), |run| {
        warmed_up(run);
        for _ in 0..2 {
            std::thread::sleep(Duration::from_millis(1500));
            cluster.ctl("halt");
            let at = answered(run);
            std::thread::sleep(Duration::from_millis(1500));
            down.extend(answers_since(run, at));
            cluster.ctl("resume");
            let at = answered(run);
            std::thread::sleep(Duration::from_millis(3000));
            after.push(answers_since(run, at));
        }
    });
    report.assert_clean();
    assert!(
        down.iter().any(|a| a.codes == ["store-unavailable"]),
        "no call met the store down: {down:?}"
    );
    for a in &down {
        assert!(
            a.codes == ["store-unavailable"] || a.status == "ok" || a.status == "unknown",
            "while down: {a:?}"
        );
    }
    for answers in &after {
        assert!(
            answers.iter().any(|a| a.status == "ok" && !a.replayed),
            "the workers ran keyed writes again without a restart"
        );
    }
    assert_eq!(report.starts, 3, "no worker was restarted");
}

/// A TCP proxy between the workers and PostgreSQL, which the test tells to
/// cut every connection (and refuse new ones for a moment).
struct Proxy {
    port: u16,
    live: Arc<Mutex<Vec<std::net::TcpStream>>>,
    refusing: Arc<AtomicBool>,
}

impl Proxy {
    fn start(to: u16) -> Proxy {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        let port = listener.local_addr().expect("its address").port();
        let live = Arc::new(Mutex::new(Vec::new()));
        let refusing = Arc::new(AtomicBool::new(false));
        let (l, r) = (live.clone(), refusing.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if r.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let Ok(server) = std::net::TcpStream::connect(("127.0.0.1", to)) else {
                    continue;
                };
                let mut kept = l.lock().unwrap();
                for (from, into) in [(&client, &server), (&server, &client)] {
                    let (mut from, mut into) =
                        (from.try_clone().unwrap(), into.try_clone().unwrap());
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut into);
                        let _ = into.shutdown(std::net::Shutdown::Both);
                    });
                }
                kept.push(client);
                kept.push(server);
            }
        });
        Proxy {
            port,
            live,
            refusing,
        }
    }

    /// Cuts every connection, and refuses new ones for `down`.
    fn cut(&self, down: Duration) {
        self.refusing.store(true, Ordering::SeqCst);
        for s in self.live.lock().unwrap().drain(..) {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
        std::thread::sleep(down);
        self.refusing.store(false, Ordering::SeqCst);
    }
}

/// Connections cut under three workers, three times: the same processes
/// reconnect on their own, and nothing is lost or run twice.
#[test]
fn postgres_connections_cut_by_a_proxy() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let proxy = Proxy::start(cluster.port);
    let fx = common::Fixture::standard("faults-pg-proxy");
    let store = format!(
        "postgres:{}",
        cluster
            .url
            .replace(&format!(":{}/", cluster.port), &format!(":{}/", proxy.port))
    );
    let run = Run::new(
        store_fault_config("connections cut by a proxy", &store),
        &fx.root,
        &fx.base.join("logs"),
    );
    let mut down = Vec::new();
    let mut after = Vec::new();
    let report = run.go(seed(), |run| {
        warmed_up(run);
        for _ in 0..3 {
            std::thread::sleep(Duration::from_millis(1500));
            let at = answered(run);
            proxy.cut(Duration::from_millis(1000));
            down.extend(answers_since(run, at));
            let at = answered(run);
            std::thread::sleep(Duration::from_millis(2000));
            after.push(answers_since(run, at));
        }
    });
    report.assert_clean();
    assert!(
        down.iter().any(|a| a.codes == ["store-unavailable"]),
        "no call met the cut: {down:?}"
    );
    for answers in &after {
        assert!(
            answers.iter().any(|a| a.status == "ok" && !a.replayed),
            "ran again after the cut"
        );
    }
    assert_eq!(report.starts, 3, "no worker was restarted");
}

// ---------------------------------------------------------------------------
// 3. The disk fills

/// A file system of 1 MB the test mounts (tmpfs; needs root), unmounted
/// when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(at: &Path, size: &str) -> Option<SmallDisk> {
        std::fs::create_dir_all(at).expect("mount point");
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .ok()?;
        if !out.status.success() {
            eprintln!(
                "note: cannot mount a small file system ({}), so this disk-full test checked nothing",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            return None;
        }
        Some(SmallDisk(at.to_path_buf()))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

/// The store's file system fills under three workers: keyed writes answer
/// `store-unavailable` and run nothing, the processes go on; once there is
/// room again the same workers write again, and every key acknowledged
/// before replays its one effect (the checks' final pass).
#[test]
fn sqlite_on_a_full_disk_refuses_keyed_writes_and_keeps_what_it_acknowledged() {
    let fx = common::Fixture::standard("faults-disk");
    let Some(disk) = SmallDisk::mount(&fx.base.join("disk"), "1m") else {
        return;
    };
    let store = format!("sqlite:{}", disk.0.join("state.sqlite").display());
    let run = Run::new(
        store_fault_config("sqlite, 1 MB file system", &store),
        &fx.root,
        &fx.base.join("logs"),
    );
    let mut after = Vec::new();
    let report = run.go(seed(), |run| {
        // Until the disk is full and refusals have come for a while.
        let deadline = Instant::now() + Duration::from_secs(120);
        let full = |run: &Run| {
            run.log
                .lock()
                .unwrap()
                .answers
                .iter()
                .filter(|a| a.codes == ["store-unavailable"])
                .count()
        };
        while full(run) < 50 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(200));
        }
        // The operator makes room: the same workers write again, and the
        // checks (which open the store) run on a disk with space. Room to
        // spare: while the disk was full no checkpoint could shrink the
        // write-ahead log, and three workers writing flat out for two
        // seconds on a fast machine filled 16 MB again before the checks
        // ran (tmpfs takes memory only for what is written).
        let grown = Command::new("mount")
            .args(["-o", "remount,size=512m"])
            .arg(&disk.0)
            .status()
            .expect("remount");
        assert!(grown.success());
        let at = answered(run);
        std::thread::sleep(Duration::from_millis(2000));
        after = answers_since(run, at);
    });
    report.assert_clean();
    assert!(
        report.unavailable_answers >= 50,
        "the disk never filled: {report:?}"
    );
    assert!(
        after.iter().any(|a| a.status == "ok" && !a.replayed),
        "the same workers wrote again once there was room"
    );
    assert_eq!(report.starts, 3, "no worker was restarted");
}

/// A store file that is not a database is refused with a message that
/// says so, and is left as it was: never replaced by a new, empty store.
#[test]
fn a_damaged_store_file_is_refused_never_recreated() {
    let fx = common::Fixture::standard("faults-damaged");
    let db = fx.base.join("state.sqlite");
    let damage = b"this was a database until something wrote over it\n".repeat(200);
    std::fs::write(&db, &damage).unwrap();
    let store = format!("sqlite:{}", db.display());
    for args in [
        vec![
            "serve-jsonl",
            "--root",
            fx.root.to_str().unwrap(),
            "--store",
            &store,
        ],
        vec!["state", "--store", &store, "unknown"],
    ] {
        let out = Command::new(common::toolbox())
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("run toolbox");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&db.display().to_string()) && stderr.contains("not a database"),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(std::fs::read(&db).unwrap(), damage, "the file is as it was");
}
