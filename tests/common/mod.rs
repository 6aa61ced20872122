//! Helpers shared by the integration tests: the toolbox binary, and the one
//! fixture folder every test that needs files starts from (a toolbox root
//! with `notes/` and `repo/`, and a place outside it).

// Each test crate uses a different subset.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// `toolbox state --store STORE ARGS...`: its stdout, one JSON value a
/// line. A failed run or a line that is not JSON is an error naming it.
pub fn toolbox_state(store: &str, args: &[&str]) -> Result<Vec<serde_json::Value>, String> {
    let out = Command::new(toolbox())
        .args(["state", "--store", store])
        .args(args)
        .output()
        .expect("run toolbox state");
    if !out.status.success() {
        return Err(format!(
            "toolbox state {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str(l)
                .map_err(|e| format!("toolbox state {args:?} printed {l:?}: {e}"))
        })
        .collect()
}

/// The `toolbox` example, built once per test process.
pub fn toolbox() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| example("toolbox"))
}

/// The example `name`, built by cargo: `cargo test --test X` does not build
/// examples, so this asks for it (a no-op when up to date).
pub fn example(name: &str) -> PathBuf {
    {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let mut build = Command::new(cargo);
        build
            .args(["build", "--quiet", "--example", name])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        // What `cargo test` sets for this test's crate, a shell never does
        // for a `cargo build`: ring's build script reruns when its package
        // variables change, so passing them on rebuilt ring, rustls and the
        // toolbox here, and again at the next `cargo test` (40 s on 2 cores).
        for (name, _) in std::env::vars_os() {
            let crate_var = name.to_str().is_some_and(|n| {
                [
                    "CARGO_PKG_",
                    "CARGO_MANIFEST_",
                    "CARGO_CRATE_",
                    "CARGO_BIN_",
                    "CARGO_PRIMARY_PACKAGE",
                    "CARGO_TARGET_TMPDIR",
                    "CARGO_RUSTC_CURRENT_DIR",
                ]
                .iter()
                .any(|p| n.starts_with(p))
            });
            if crate_var {
                build.env_remove(name);
            }
        }
        let status = build.status().expect("run cargo build --example");
        assert!(status.success(), "cargo build --example {name} failed");
        // The test binary lives in target/<profile>/deps; the example in target/<profile>/examples.
        let exe = std::env::current_exe().expect("current_exe");
        let bin = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>")
            .join("examples")
            .join(name);
        assert!(bin.is_file(), "{} was not built", bin.display());
        bin
    }
}

// ------------------------------------------------------------------ the fixture

/// A fresh folder `base/` holding the toolbox root `base/root/` (with `notes/`
/// and `repo/`) and `base/outside/`, a place no tool may reach. Unique to
/// this process and call; removed on drop.
///
/// Every test that needs files on disk starts from this one fixture: an empty
/// layout ([`Fixture::new`]) or the typical one ([`Fixture::standard`]), then
/// adds what it is about with [`Fixture::write`].
pub struct Fixture {
    /// The folder holding the root and `outside/`.
    pub base: PathBuf,
    /// The toolbox root (`--root`).
    pub root: PathBuf,
}

impl Fixture {
    /// `notes/` and `repo/` under the root, both empty, and `outside/` beside it.
    pub fn new(name: &str) -> Fixture {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let base =
            std::env::temp_dir().join(format!("tool-contracts-{}-{name}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("root");
        std::fs::create_dir_all(root.join("notes")).expect("mkdir notes");
        std::fs::create_dir_all(root.join("repo")).expect("mkdir repo");
        std::fs::create_dir_all(base.join("outside")).expect("mkdir outside");
        Fixture { base, root }
    }

    /// The typical layout: three notes and a small repository.
    pub fn standard(name: &str) -> Fixture {
        let f = Fixture::new(name);
        f.write(
            "notes/kv-cache.md",
            "# KV cache\nThe KV cache trades memory for speed.\n",
        )
        .write(
            "notes/agents.md",
            "# Agents\nA tool is an authority boundary.\n",
        )
        .write("notes/plain.md", "nothing to see\n")
        .write("repo/src/lib.rs", "pub fn answer() -> u32 {\n    41\n}\n")
        .write("repo/README.md", "hello hello\n")
        .write("repo/docs/guide.md", "guide\n");
        f
    }

    /// Writes `content` at `rel` under the root, creating parents.
    pub fn write(&self, rel: &str, content: &str) -> &Self {
        write_file(&self.path(rel), content);
        self
    }

    /// Writes `content` at `rel` under `outside/`, creating parents.
    pub fn write_outside(&self, rel: &str, content: &str) -> &Self {
        write_file(&self.outside(rel), content);
        self
    }

    /// The text of the file at `rel` under the root.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).expect("read fixture file")
    }

    /// `rel` under the root.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// `rel` under `outside/`.
    pub fn outside(&self, rel: &str) -> PathBuf {
        self.base.join("outside").join(rel)
    }

    /// Every file under `base/`, as paths relative to it (symlinks not
    /// followed, `.git` not entered), sorted: compare two snapshots to prove
    /// that nothing was created anywhere.
    pub fn snapshot(&self) -> Vec<String> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            let Ok(rd) = std::fs::read_dir(dir) else {
                return;
            };
            for e in rd.flatten() {
                let p = e.path();
                out.push(p.strip_prefix(base).unwrap().display().to_string());
                if e.file_type().map(|t| t.is_dir()).unwrap_or(false) && !p.ends_with(".git") {
                    walk(&p, base, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.base, &self.base, &mut out);
        out.sort();
        out
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

fn write_file(p: &Path, content: &str) {
    std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir parent");
    std::fs::write(p, content).expect("write fixture file");
}

/// The venv's python with the pinned SDK, made once per test process.
pub fn python() -> &'static Path {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let out = Command::new("bash")
            .arg(root.join("tests/mcp_client/venv.sh"))
            .stderr(Stdio::inherit())
            .output()
            .expect("run tests/mcp_client/venv.sh");
        assert!(
            out.status.success(),
            "tests/mcp_client/venv.sh failed: the MCP client needs python3 and PyPI"
        );
        root.join(String::from_utf8(out.stdout).expect("a path").trim())
    })
}

/// The test PostgreSQL's URL (`CONTRACT_TEST_POSTGRES_URL`, set by
/// `.ci/postgres.sh start`). Without it a PostgreSQL test prints a notice and
/// checks nothing locally; in CI (`CI=true`) it fails instead.
pub fn postgres_url() -> Option<String> {
    match std::env::var("CONTRACT_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => panic!(
            "CONTRACT_TEST_POSTGRES_URL is not set: in CI, .ci/run starts PostgreSQL and sets \
             it, and the PostgreSQL tests must run"
        ),
        _ => {
            eprintln!(
                "note: CONTRACT_TEST_POSTGRES_URL is not set, so this PostgreSQL test checked \
                 nothing; run `eval \"$(.ci/postgres.sh start)\"` first"
            );
            None
        }
    }
}

/// A PostgreSQL of the test's own (`.ci/postgres.sh start`: a throwaway
/// cluster in a temporary folder, on a free port), for a test that stops
/// it, cuts it off or measures it, which the shared test database
/// (`CONTRACT_TEST_POSTGRES_URL`) must not be. Stopped and deleted when
/// dropped, a failed assertion included.
pub struct Cluster {
    script: PathBuf,
    /// The cluster's folder (`CONTRACT_PG_DIR`): data, log, port.
    pub dir: String,
    /// Its URL, `postgres://contract@127.0.0.1:PORT/postgres`.
    pub url: String,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
}

impl Cluster {
    /// Starts one; `None` (with the notice of [`postgres_url`]) where the
    /// PostgreSQL tests are not asked for: the same switch as the shared
    /// database, so a machine that runs those runs these.
    pub fn start() -> Option<Cluster> {
        postgres_url()?;
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/postgres.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg("start")
            .output()
            .expect("start a PostgreSQL");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let exports = String::from_utf8_lossy(&out.stdout).into_owned();
        let var = |name: &str| {
            exports
                .lines()
                .find_map(|l| l.strip_prefix(&format!("export {name}=")))
                .unwrap_or_else(|| panic!("{name} in {exports}"))
                .to_string()
        };
        let (dir, url) = (var("CONTRACT_PG_DIR"), var("CONTRACT_TEST_POSTGRES_URL"));
        let port = std::fs::read_to_string(Path::new(&dir).join("port"))
            .expect("the cluster's port")
            .trim()
            .parse()
            .expect("a port");
        Some(Cluster {
            script,
            dir,
            url,
            port,
        })
    }

    /// `postgres.sh halt` (stopped as a crash stops it: immediate mode, its
    /// clients cut) or `resume` (started again on the same port and data).
    pub fn ctl(&self, what: &str) {
        let out = Command::new("bash")
            .arg(&self.script)
            .args([what, &self.dir])
            .output()
            .expect("postgres.sh");
        assert!(
            out.status.success(),
            "postgres.sh {what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// One query's answer through the cluster's own `psql`, unaligned
    /// (`-At`), trimmed.
    pub fn sql(&self, query: &str) -> String {
        let bin = std::fs::read_to_string(Path::new(&self.dir).join("bin"))
            .expect("the cluster's bin folder");
        let out = Command::new(Path::new(bin.trim()).join("psql"))
            .args([&self.url, "-At", "-v", "ON_ERROR_STOP=1", "-c", query])
            .output()
            .expect("run psql");
        assert!(
            out.status.success(),
            "psql {query}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(&self.script)
            .args(["stop", &self.dir])
            .output();
    }
}

/// The machine's load average (1, 5 and 15 minutes), printed beside every
/// wall-clock figure: on a shared machine a time means little without it.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// A small random source for the tests that choose at random (which
/// worker to kill, which key to repeat): [`Rng::seed`] prints its seed, and
/// setting the variable it names repeats a run's choices (not its timing).
pub struct Rng(u64);

impl Rng {
    /// A source seeded with `seed` (0 is taken as 1: xorshift needs a bit).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The seed in the environment variable `var`, or one from the clock.
    pub fn seed(var: &str) -> u64 {
        std::env::var(var)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            })
    }

    /// The next 64 random bits (xorshift64*).
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Spawns `toolbox mcp --http ...` (as `cmd` says) and returns it with the
/// URL it serves, read from its stderr; stderr is drained afterwards so the
/// server never blocks writing to it.
pub fn mcp_http(cmd: &mut Command) -> (Child, String) {
    let (child, url, _) = mcp_http_logged(cmd);
    (child, url)
}

/// [`mcp_http`], and what the server writes on stderr after its URL: the
/// thread's text once the server has ended (kill it first).
pub fn mcp_http_logged(cmd: &mut Command) -> (Child, String, std::thread::JoinHandle<String>) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toolbox mcp --http");
    // The server may say other things first (where its store lives).
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut seen = Vec::new();
    let url = loop {
        let mut line = String::new();
        let n = stderr.read_line(&mut line).expect("read stderr");
        assert!(n > 0, "the server ended before naming its URL: {seen:?}");
        if let Some(url) = line.trim().strip_prefix("toolbox: serving MCP on ") {
            break url.to_owned();
        }
        seen.push(line);
    };
    let rest = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
        rest
    });
    (child, url, rest)
}

/// A fresh UUID-shaped key, unique across runs on one database (a
/// request key the stores' tests send).
pub fn uuid() -> String {
    let hex = contract_runtime::store::new_id("k").expect("randomness");
    let h = &hex[2..];
    format!(
        "{}-{}-4{}-8{}-{}",
        &h[0..8],
        &h[8..12],
        &h[13..16],
        &h[17..20],
        &h[20..32]
    )
}
