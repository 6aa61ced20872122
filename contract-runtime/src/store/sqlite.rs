//! The embedded store: one SQLite file that several processes on one host
//! share. WAL lets readers run beside the one writer; the busy timeout makes a
//! writer wait for another process's write instead of failing; every state
//! change is a single conditional statement, so it is atomic across processes.
//!
//! Each store owns one connection. A job (a statement or two) runs on the
//! caller's thread when the connection is free and the file's write lock can
//! be had at once: no thread hand-off, which is most of what a job would
//! otherwise cost (see docs/performance.md). Otherwise it goes to the store's
//! connection thread, which waits for the lock with the busy timeout, so the
//! async executor never waits on another process's write; jobs that queue
//! there together share one commit. Only a commit (a write to the WAL, no
//! sync under the default `synchronous=NORMAL`) runs on the caller's thread:
//! with [`SqliteOptions::durable`], whose commits sync the file, and with
//! [`SqliteOptions::on_caller_thread`] off, every job goes to the thread, and
//! WAL checkpoints (which sync) always run there.
//!
//! Claims commit before they are answered: a claim lost in a crash could let
//! a key run twice. A recorded outcome is answered once its statement has run
//! in an open transaction, which stays open a moment (half a millisecond)
//! for the next job (typically the same worker's next claim) to share its
//! commit (unless [`SqliteOptions::durable_outcomes`]). An outcome lost in a
//! crash before that commit leaves its record running, which reads `unknown`
//! once its lease ends, so the worst case is an operator's `resolve`, never a
//! second run; and a keyed call pays one commit instead of two. Measured in
//! benches/store.rs.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, ErrorCode};

use super::sql::{self, Dialect, Row};
use super::{
    envelope_json, json_text, judge_claim, lease_token, millis, new_id, settled_envelope,
    ApprovalFilter, ApprovalRecord, ApprovalState, ApprovalStore, Claim, Claimed, Decided,
    Decision, DoubtfulRecord, IdempotencyStore, JournalQuery, JournalRecord, JournalStore, Lease,
    NewApproval, RecordKey, RecordState, Resolution, Store, StoreError, StoreErrorKind,
    StoreFuture, StoredRecord,
};
use super::{NewTask, TaskLease, TaskOwner, TaskRecord, TaskState, TaskStore};
use crate::envelope::Envelope;

/// How a [`SqliteStore`] opens its file.
#[derive(Clone, Debug)]
pub struct SqliteOptions {
    /// How long a write waits for another process's write before the store
    /// answers [`StoreError`] (default 5 s). Only the store's connection
    /// thread waits: a job on the caller's thread that finds the file locked
    /// goes to that thread instead of waiting.
    pub busy_timeout: Duration,
    /// Sync the file on every commit (`synchronous=FULL`): survives power
    /// loss, at an fsync per write. The default (`NORMAL` under WAL) survives
    /// any process crash, which is what a killed worker is. Durable commits
    /// always run on the connection thread, never on the caller's.
    pub durable: bool,
    /// Answer a recorded outcome only once it is committed. By default the
    /// answer comes when its statement has run and the commit follows within
    /// half a millisecond, shared with the next job: an outcome lost in a
    /// crash in between leaves its record running, so the key answers
    /// `unknown` until an operator resolves it, never a second run.
    pub durable_outcomes: bool,
    /// Run a job on the calling thread when the connection is free and the
    /// file's write lock is free at once (default on). Its statements and
    /// its commit (a WAL write, no sync) then block that thread, an async
    /// executor's worker, for tens of microseconds; in exchange a job costs
    /// no hand-off between threads. Off: every job goes through the store's
    /// connection thread.
    pub on_caller_thread: bool,
    /// Open only a store this library made (default `false`): a missing
    /// file, or one without its tables (an empty file, another program's
    /// database), is refused and left as it is. What an operator's view of
    /// a store wants, where a mistyped path would otherwise read as an
    /// empty store.
    pub existing: bool,
}

/// How long a transaction holding only recorded outcomes (whose callers were
/// answered already) stays open for the next job to share its commit.
const OUTCOME_LINGER: Duration = Duration::from_micros(500);

/// At most this many jobs share one commit.
const MAX_BATCH: usize = 64;

/// Commits between two WAL checkpoints run by the connection thread (the
/// automatic checkpoint, which syncs the file, is off when jobs run on the
/// caller's thread; a commit writes a few pages, so this keeps the WAL near
/// SQLite's default of 1,000 pages).
const CHECKPOINT_EVERY: u32 = 250;

impl Default for SqliteOptions {
    fn default() -> SqliteOptions {
        SqliteOptions {
            busy_timeout: Duration::from_secs(5),
            durable: false,
            durable_outcomes: false,
            on_caller_thread: true,
            existing: false,
        }
    }
}

/// How a job joins transactions and when it is answered.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// May share a transaction; answered once it commits.
    Shared,
    /// Commits alone: no other job's statements in its transaction.
    Solo,
    /// May share a transaction; answered once it has run.
    Early,
    /// Runs outside any transaction and alone: the benchmarks' empty job.
    Bare,
}

/// Work for the connection thread. It runs inside a transaction its runner
/// opened; its answer is held back until that commits, unless it is
/// [`Mode::Early`]: a claim is not won before it is durable.
trait Job: Send {
    /// Runs its statements; what it returns sends the answer.
    fn run(self: Box<Self>, c: &mut Connection) -> Box<dyn Reply>;
    /// Answers `e` without running.
    fn fail(self: Box<Self>, e: StoreError);
    fn mode(&self) -> Mode;
}

/// A job's answer, sent once its transaction's fate is known.
trait Reply: Send {
    fn send(self: Box<Self>, committed: Result<(), StoreError>);
}

struct Task<T, F> {
    f: F,
    tx: tokio::sync::oneshot::Sender<Result<T, StoreError>>,
    mode: Mode,
}

struct Answer<T> {
    value: Result<T, StoreError>,
    tx: tokio::sync::oneshot::Sender<Result<T, StoreError>>,
}

impl<T, F> Job for Task<T, F>
where
    T: Send + 'static,
    F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
{
    fn run(self: Box<Self>, c: &mut Connection) -> Box<dyn Reply> {
        let value = (self.f)(c);
        Box::new(Answer { value, tx: self.tx })
    }
    fn fail(self: Box<Self>, e: StoreError) {
        let _ = self.tx.send(Err(e));
    }
    fn mode(&self) -> Mode {
        self.mode
    }
}

impl<T: Send> Reply for Answer<T> {
    fn send(self: Box<Self>, committed: Result<(), StoreError>) {
        let _ = self.tx.send(committed.and(self.value));
    }
}

/// What the connection thread is sent.
enum Message {
    Job(Box<dyn Job>),
    /// Look at the connection: a transaction was left open, or a checkpoint
    /// is due.
    Look,
}

/// The connection and the transaction it may have open, behind the lock
/// that callers and the connection thread take turns on.
struct Conn {
    c: Connection,
    /// Since when a transaction holding only outcomes already answered has
    /// been open; `None` when no transaction is open.
    open_since: Option<Instant>,
    /// Jobs run in the open transaction.
    in_open: usize,
    /// The connection thread knows of the open transaction and will commit
    /// it when it has lingered long enough.
    watched: bool,
    /// Commits since the last checkpoint, and whether the thread was asked
    /// for one.
    commits: u32,
    checkpoint_asked: bool,
}

impl Conn {
    /// Opens a transaction for a job, or joins the one open; a job that
    /// commits alone first commits the open one.
    fn begin(&mut self, mode: Mode) -> Result<(), rusqlite::Error> {
        if self.open_since.is_some() {
            if mode != Mode::Solo {
                return Ok(());
            }
            // Its outcomes were answered: a failed commit loses them, and
            // their records read `unknown` after their leases.
            let _ = self.commit();
        }
        self.c.execute_batch("BEGIN IMMEDIATE")?;
        self.open_since = Some(Instant::now());
        self.in_open = 0;
        Ok(())
    }

    /// After a job ran: leaves the transaction open for the next job (true)
    /// when it holds only outcomes already answered and has not lingered or
    /// grown too long; otherwise the caller commits it.
    fn linger(&mut self, mode: Mode, durable_outcomes: bool) -> bool {
        self.in_open += 1;
        mode == Mode::Early
            && !durable_outcomes
            && self.in_open < MAX_BATCH
            && self
                .open_since
                .is_some_and(|t| t.elapsed() < OUTCOME_LINGER)
    }

    /// Whether an error rolled the open transaction back (disk full, I/O):
    /// what ran in it is undone.
    fn rolled_back(&mut self) -> bool {
        if self.open_since.is_some() && self.c.is_autocommit() {
            self.open_since = None;
            self.in_open = 0;
            return true;
        }
        false
    }

    fn commit(&mut self) -> Result<(), StoreError> {
        if self.open_since.take().is_none() {
            return Ok(());
        }
        self.in_open = 0;
        self.commits += 1;
        let committed = self.c.execute_batch("COMMIT").map_err(err);
        if committed.is_err() {
            let _ = self.c.execute_batch("ROLLBACK");
        }
        committed
    }
}

/// What callers and the connection thread share.
struct Shared {
    conn: Mutex<Conn>,
    busy_timeout: Duration,
    durable_outcomes: bool,
    /// Jobs may run on the caller's thread.
    on_caller_thread: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Conn> {
        // A job that panicked was caught before the lock was released; the
        // connection itself is still sound.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The connection thread: runs the jobs sent to it in arrival order, waiting
/// for the file's lock with the busy timeout. Jobs that queued up while the
/// previous commit ran share one transaction (group commit): each is still
/// one atomic statement or two, but many pay for one commit. It also commits
/// a transaction left open once it has lingered, and checkpoints the WAL.
fn serve(shared: &Shared, inbox: &mpsc::Receiver<Message>) {
    let mut next: Option<Box<dyn Job>> = None;
    loop {
        let deadline = {
            let mut g = shared.lock();
            // Also after commits of its own: with every job queued here
            // (callers always finding the connection busy) nobody asks.
            if shared.on_caller_thread && g.commits >= CHECKPOINT_EVERY && g.open_since.is_none() {
                // PASSIVE: never waits for readers or other writers.
                let _ =
                    g.c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                g.commits = 0;
                g.checkpoint_asked = false;
            }
            g.watched = g.open_since.is_some();
            g.open_since.map(|t| t + OUTCOME_LINGER)
        };
        let first = match next.take() {
            Some(j) => Ok(Message::Job(j)),
            None => match deadline {
                None => inbox
                    .recv()
                    .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                Some(d) => inbox.recv_timeout(d.saturating_duration_since(Instant::now())),
            },
        };
        match first {
            Ok(Message::Look) => {}
            Ok(Message::Job(first)) => {
                if first.mode() == Mode::Bare {
                    if let Some(reply) = run_one(&mut shared.lock().c, first) {
                        reply.send(Ok(()));
                    }
                    continue;
                }
                let mut batch = VecDeque::from([first]);
                if batch[0].mode() != Mode::Solo {
                    next = gather(inbox, &mut batch, MAX_BATCH);
                }
                let mut g = shared.lock();
                if shared.on_caller_thread {
                    let _ = g.c.busy_timeout(shared.busy_timeout);
                }
                run_batch(&mut g, batch, shared.durable_outcomes);
                if shared.on_caller_thread {
                    let _ = g.c.busy_timeout(Duration::ZERO);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let mut g = shared.lock();
                if g.open_since.is_some_and(|t| t.elapsed() >= OUTCOME_LINGER) {
                    let _ = g.commit();
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // The store (the only sender) was dropped: commit what is open.
                let _ = shared.lock().commit();
                return;
            }
        }
    }
}

/// Moves the jobs already waiting into `batch`, up to `limit` in all; a job
/// that commits alone stops it and is returned, to run next.
fn gather(
    inbox: &mpsc::Receiver<Message>,
    batch: &mut VecDeque<Box<dyn Job>>,
    limit: usize,
) -> Option<Box<dyn Job>> {
    while batch.len() < limit {
        match inbox.try_recv() {
            Ok(Message::Job(j)) if matches!(j.mode(), Mode::Solo | Mode::Bare) => return Some(j),
            Ok(Message::Job(j)) => batch.push_back(j),
            Ok(Message::Look) => {}
            Err(_) => break,
        }
    }
    None
}

/// Runs a job; a job that panics drops its answer (its caller sees the store
/// unavailable) and the connection serves the next.
fn run_one(conn: &mut Connection, job: Box<dyn Job>) -> Option<Box<dyn Reply>> {
    std::panic::catch_unwind(AssertUnwindSafe(|| job.run(conn))).ok()
}

/// Runs `jobs` in one transaction (joining one left open). Recorded outcomes
/// are answered as they run; the rest once it commits. A transaction that
/// holds only outcomes is left open for the next job to share its commit.
fn run_batch(g: &mut Conn, mut jobs: VecDeque<Box<dyn Job>>, durable_outcomes: bool) {
    let mode = jobs[0].mode();
    if let Err(e) = g.begin(mode) {
        // No transaction (the file stayed locked past the busy timeout, or
        // is broken): nothing runs, and every job hears why.
        let e = err(e);
        for j in jobs {
            j.fail(e.clone());
        }
        return;
    }
    let mut pending: Vec<Box<dyn Reply>> = Vec::with_capacity(jobs.len());
    let mut linger = false;
    while let Some(j) = jobs.pop_front() {
        let mode = j.mode();
        let reply = run_one(&mut g.c, j);
        if g.rolled_back() {
            // What ran in it is undone, and its jobs must hear so (an outcome
            // answered early is lost, and its record reads `unknown` after
            // its lease).
            let e = StoreError::unavailable("SQLite rolled back a shared transaction");
            for reply in pending.drain(..).chain(reply) {
                reply.send(Err(e.clone()));
            }
            // The rest run in a transaction of their own.
            if !jobs.is_empty() {
                run_batch(g, jobs, durable_outcomes);
            }
            return;
        }
        linger = g.linger(mode, durable_outcomes);
        if let Some(reply) = reply {
            if mode == Mode::Early && !durable_outcomes {
                reply.send(Ok(()));
            } else {
                pending.push(reply);
            }
        }
    }
    if linger && pending.is_empty() {
        return;
    }
    let committed = g.commit();
    for reply in pending {
        reply.send(committed.clone());
    }
}

/// State in one SQLite file. See the module docs.
pub struct SqliteStore {
    shared: Arc<Shared>,
    /// `None` only while the store is dropped.
    jobs: Option<mpsc::Sender<Message>>,
    /// The connection thread, joined on drop so that an outcome answered
    /// early is committed before the store is gone.
    thread: Option<std::thread::JoinHandle<()>>,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (or creates) the store at `path` with default options.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, SqliteOptions::default())
    }

    /// Opens (or creates) the store at `path`. Blocks while the file is
    /// opened and its tables are created: call it at start-up.
    pub fn open_with(
        path: impl AsRef<Path>,
        options: SqliteOptions,
    ) -> Result<SqliteStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        let on_caller_thread = options.on_caller_thread && !options.durable;
        let c = connect(&path, &options)?;
        if on_caller_thread {
            // Callers never wait for the file: the connection thread does.
            c.busy_timeout(Duration::ZERO).map_err(err)?;
            // Checkpoints sync the file: the connection thread runs them.
            c.execute_batch("PRAGMA wal_autocheckpoint=0")
                .map_err(err)?;
        }
        let shared = Arc::new(Shared {
            conn: Mutex::new(Conn {
                c,
                open_since: None,
                in_open: 0,
                watched: false,
                commits: 0,
                checkpoint_asked: false,
            }),
            busy_timeout: options.busy_timeout,
            durable_outcomes: options.durable_outcomes,
            on_caller_thread,
        });
        let (jobs, inbox) = mpsc::channel::<Message>();
        let served = shared.clone();
        let thread = std::thread::Builder::new()
            .name("contract-sqlite".into())
            .spawn(move || serve(&served, &inbox))
            .map_err(|e| StoreError::unavailable(format!("cannot start the SQLite thread: {e}")))?;
        Ok(SqliteStore {
            shared,
            jobs: Some(jobs),
            thread: Some(thread),
            path,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in a transaction possibly shared with other jobs; answers
    /// once that commits.
    fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'static, T> {
        self.send(f, Mode::Shared)
    }

    /// Runs `f` in a transaction possibly shared with other jobs; answers
    /// once it has run, before that commits (recorded outcomes, see the
    /// module docs).
    fn run_early<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'static, T> {
        self.send(f, Mode::Early)
    }

    /// Runs `f` in a transaction of its own.
    fn run_solo<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'static, T> {
        self.send(f, Mode::Solo)
    }

    /// Runs `f` here when the connection is free and the file's write lock
    /// can be had without waiting; otherwise on the connection thread.
    fn send<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
        mode: Mode,
    ) -> StoreFuture<'static, T> {
        if self.shared.on_caller_thread {
            if let Ok(mut g) = self.shared.conn.try_lock() {
                // Busy (another process writes) or failed: the thread waits
                // with the busy timeout, or reports the failure.
                if g.begin(mode).is_ok() {
                    let value = self.here(&mut g, f, mode);
                    return Box::pin(std::future::ready(value));
                }
            }
        }
        self.hand_off(f, mode)
    }

    /// The caller's-thread half of [`SqliteStore::send`], in the transaction
    /// `g` has open.
    fn here<T>(
        &self,
        g: &mut Conn,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError>,
        mode: Mode,
    ) -> Result<T, StoreError> {
        let value = std::panic::catch_unwind(AssertUnwindSafe(|| f(&mut g.c)))
            .unwrap_or_else(|_| Err(StoreError::unavailable("a SQLite job panicked")));
        if g.rolled_back() {
            return value.and(Err(StoreError::unavailable(
                "SQLite rolled back a shared transaction",
            )));
        }
        let mut look = false;
        let value = if g.linger(mode, self.shared.durable_outcomes) {
            // The connection thread commits it if no job comes in time.
            look = !std::mem::replace(&mut g.watched, true);
            value
        } else {
            g.commit().and(value)
        };
        if g.commits >= CHECKPOINT_EVERY && !g.checkpoint_asked {
            g.checkpoint_asked = true;
            look = true;
        }
        if look {
            if let Some(jobs) = &self.jobs {
                let _ = jobs.send(Message::Look);
            }
        }
        value
    }

    /// Sends `f` to the connection thread.
    fn hand_off<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
        mode: Mode,
    ) -> StoreFuture<'static, T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let sent = match &self.jobs {
            Some(jobs) => jobs
                .send(Message::Job(Box::new(Task { f, tx, mode })))
                .map_err(|_| ()),
            None => Err(()),
        };
        Box::pin(async move {
            sent.map_err(|_| StoreError::unavailable("the SQLite thread has stopped"))?;
            rx.await
                .map_err(|_| StoreError::unavailable("the SQLite thread dropped a request"))?
        })
    }

    /// The benchmarks' measure of one round trip to the connection thread:
    /// a job that runs no statement, always sent to the thread.
    #[doc(hidden)]
    pub fn round_trip(&self) -> StoreFuture<'static, ()> {
        self.hand_off(|_| Ok(()), Mode::Bare)
    }

    /// The benchmarks' floor: the cheapest write transaction this database
    /// does, one insert and one update in one transaction of their own,
    /// through the same machinery as every job (on the caller's thread when
    /// the connection is free, else on the connection thread).
    #[doc(hidden)]
    pub fn floor_write(&self, key: String) -> StoreFuture<'static, ()> {
        self.run_solo(move |c| {
            execute(c, sql::FLOOR_INSERT, [&key])?;
            execute(c, sql::FLOOR_UPDATE, [&key]).map(drop)
        })
    }
}

/// A store file this opens for the first time is created readable by its
/// owner only (0600; SQLite gives the WAL and its index the file's mode):
/// it holds the journal's arguments, the approval requests and the stored
/// results. A file that exists keeps the mode its owner gave it.
fn private_if_new(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // (`:memory:` and SQLite's `file:` URIs name no file of that name)
        let named = path.to_str().unwrap_or_default();
        if named == ":memory:" || named.starts_with("file:") || path.exists() {
            return Ok(());
        }
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(|e| {
                StoreError::unavailable(format!("cannot open SQLite file {}: {e}", path.display()))
            })?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn connect(path: &Path, options: &SqliteOptions) -> Result<Connection, StoreError> {
    if !options.existing {
        private_if_new(path)?;
    }
    let flags = if options.existing {
        // no create: a missing file is an error, not a new store
        rusqlite::OpenFlags::default() - rusqlite::OpenFlags::SQLITE_OPEN_CREATE
    } else {
        rusqlite::OpenFlags::default()
    };
    let conn = Connection::open_with_flags(path, flags).map_err(|e| {
        StoreError::unavailable(format!("cannot open SQLite file {}: {e}", path.display()))
    })?;
    // Every refusal names the file; one that is not a database (damaged, or
    // not SQLite's) says it is left alone: a store is never made anew over
    // records it may hold.
    let at = |e: rusqlite::Error| {
        let mut e = err(e);
        e.message = if e.kind == StoreErrorKind::Invalid {
            format!(
                "{} is not a readable SQLite database ({}); it is left as it is: restore it from a backup, or name another store",
                path.display(),
                e.message
            )
        } else {
            format!("{}: {}", path.display(), e.message)
        };
        e
    };
    conn.busy_timeout(options.busy_timeout).map_err(at)?;
    if options.existing {
        let ours: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'contract_idempotency'",
                [],
                |r| r.get(0),
            )
            .map_err(at)?;
        if ours == 0 {
            return Err(StoreError::config(format!(
                "{} holds no tool-contract store (no table contract_idempotency): check the path; it is left as it is",
                path.display()
            )));
        }
    }
    // Switching to WAL needs a moment alone with the file. Processes starting
    // together on a new file take turns through the busy timeout, except
    // where SQLite sees a deadlock (two readers both asking for the exclusive
    // lock): it then answers SQLITE_BUSY at once without waiting, so the
    // switch is tried again until the busy timeout has passed.
    let started = Instant::now();
    let mode: String = loop {
        match conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)) {
            Err(rusqlite::Error::SqliteFailure(f, _))
                if f.code == ErrorCode::DatabaseBusy
                    && started.elapsed() < options.busy_timeout =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            other => break other.map_err(at)?,
        }
    };
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::unavailable(format!(
            "{} cannot use WAL (journal mode {mode}); is it on a network file system?",
            path.display()
        )));
    }
    let sync = if options.durable { "FULL" } else { "NORMAL" };
    conn.execute_batch(&format!("PRAGMA synchronous={sync};"))
        .map_err(at)?;
    conn.execute_batch(&format!("BEGIN IMMEDIATE;{}", sql::SQLITE_SCHEMA))
        .map_err(at)?;
    let upgraded = add_columns(&conn)
        .and_then(|()| conn.execute_batch(sql::ONE_PENDING_REQUEST))
        .and_then(|()| conn.execute_batch("COMMIT"));
    if let Err(e) = upgraded {
        let _ = conn.execute_batch("ROLLBACK");
        return Err(at(e));
    }
    Ok(conn)
}

/// Adds the columns of [`sql::ADDED_COLUMNS`] that a store made by an
/// earlier release lacks (inside the caller's write transaction).
fn add_columns(conn: &Connection) -> rusqlite::Result<()> {
    for (table, column, kind) in sql::ADDED_COLUMNS {
        let there: i64 = conn.query_row(
            "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2",
            params![table, column],
            |r| r.get(0),
        )?;
        if there == 0 {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))?;
        }
    }
    Ok(())
}

/// SQLite's errors, sorted into the two kinds a caller acts on.
fn err(e: rusqlite::Error) -> StoreError {
    match &e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) =>
        {
            StoreError::invalid(format!("SQLite: {e}"))
        }
        rusqlite::Error::FromSqlConversionFailure(..)
        | rusqlite::Error::InvalidColumnType(..)
        | rusqlite::Error::IntegralValueOutOfRange(..) => {
            StoreError::invalid(format!("SQLite: {e}"))
        }
        _ => StoreError::unavailable(format!("SQLite: {e}")),
    }
}

impl Row for rusqlite::Row<'_> {
    fn text(&self, i: usize) -> Result<String, StoreError> {
        self.get(i).map_err(err)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        self.get(i).map_err(err)
    }
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.get(i).map_err(err)
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        self.get(i).map_err(err)
    }
    fn flag(&self, i: usize) -> Result<bool, StoreError> {
        self.get(i).map_err(err)
    }
}

/// The rendered statements, built once per process.
struct Statements {
    claim: String,
    find: String,
    complete: String,
    release: String,
    renew: String,
    resolve_done: String,
    resolve_failed: String,
    in_doubt: String,
    records: String,
    live_leases: String,
    purge_records: String,
    purge_journal: String,
    purge_approvals: String,
    create_task: String,
    get_task: String,
    list_tasks: String,
    renew_task: String,
    finish_task: String,
    cancel_task: String,
    purge_tasks: String,
    create_approval: String,
    retire_expired_request: String,
    pending_request: String,
    get_approval: String,
    list_approvals: String,
    decide: String,
    consume: String,
    append_journal: String,
    query_journal: String,
}

fn statements() -> &'static Statements {
    static S: std::sync::OnceLock<Statements> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let d = |s: &str| Dialect::Sqlite.render(s);
        Statements {
            claim: d(sql::CLAIM),
            find: d(sql::FIND),
            complete: d(sql::COMPLETE),
            release: d(sql::RELEASE),
            renew: d(sql::RENEW),
            resolve_done: d(&sql::resolve_done()),
            resolve_failed: d(&sql::resolve_failed()),
            in_doubt: d(&sql::list_in_doubt()),
            records: d(&sql::list_records()),
            live_leases: d(sql::LIVE_LEASES),
            purge_records: d(sql::PURGE_RECORDS),
            purge_journal: d(sql::PURGE_JOURNAL),
            purge_approvals: d(sql::PURGE_APPROVALS),
            create_task: d(sql::CREATE_TASK),
            get_task: d(&sql::get_task()),
            list_tasks: d(&sql::list_tasks()),
            renew_task: d(sql::RENEW_TASK),
            finish_task: d(sql::FINISH_TASK),
            cancel_task: d(sql::CANCEL_TASK),
            purge_tasks: d(sql::PURGE_TASKS),
            create_approval: d(&sql::create_approval()),
            retire_expired_request: d(sql::RETIRE_EXPIRED_REQUEST),
            pending_request: d(&sql::pending_request()),
            get_approval: d(&sql::get_approval()),
            list_approvals: d(&sql::list_approvals()),
            decide: d(&sql::decide()),
            consume: d(sql::CONSUME),
            append_journal: d(sql::APPEND_JOURNAL),
            query_journal: d(sql::QUERY_JOURNAL),
        }
    })
}

/// Runs one statement and reports how many rows it changed.
fn execute(c: &Connection, sql: &str, p: impl rusqlite::Params) -> Result<usize, StoreError> {
    c.prepare_cached(sql)
        .and_then(|mut s| s.execute(p))
        .map_err(err)
}

/// Runs one statement that returns at most one row.
fn one<T>(
    c: &Connection,
    sql: &str,
    p: impl rusqlite::Params,
    read: impl FnOnce(&rusqlite::Row<'_>) -> Result<T, StoreError>,
) -> Result<Option<T>, StoreError> {
    let mut stmt = c.prepare_cached(sql).map_err(err)?;
    let mut rows = stmt.query(p).map_err(err)?;
    match rows.next().map_err(err)? {
        Some(row) => read(row).map(Some),
        None => Ok(None),
    }
}

/// Ends the leases of records whose holder was killed mid-call: they are
/// in doubt now, not in flight until their lease runs out.
fn end_dead_leases(c: &Connection) -> Result<(), StoreError> {
    let s = statements();
    for (k, existing, now) in all(c, &s.live_leases, [], |r| sql::live_lease(r))? {
        if let Some(dead) = existing.holder_gone(now) {
            execute(c, &s.renew, params![k.tool, k.tenant, k.key, dead, 0i64])?;
        }
    }
    Ok(())
}

/// Runs one statement and reads every row.
fn all<T>(
    c: &Connection,
    sql: &str,
    p: impl rusqlite::Params,
    read: impl Fn(&rusqlite::Row<'_>) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut stmt = c.prepare_cached(sql).map_err(err)?;
    let mut rows = stmt.query(p).map_err(err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(err)? {
        out.push(read(row)?);
    }
    Ok(out)
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        // Closing the queue ends the thread once it has run what was sent
        // and committed its last transaction.
        drop(self.jobs.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl IdempotencyStore for SqliteStore {
    fn claim<'a>(&'a self, claim: &'a Claim) -> StoreFuture<'a, Claimed> {
        let claim = claim.clone();
        let token = lease_token();
        self.run(move |c| {
            let token = token?;
            let s = statements();
            let k = &claim.key;
            // The insert and the read are two statements; a record purged or
            // released between them is simply claimed on the next round.
            for _ in 0..3 {
                let won = one(
                    c,
                    &s.claim,
                    params![
                        k.tool,
                        k.tenant,
                        k.key,
                        claim.digest,
                        claim.revision,
                        claim.call_id,
                        token,
                        millis(claim.lease),
                        millis(claim.retention)
                    ],
                    |r| r.text(0),
                )?;
                if won.is_some() {
                    return Ok(Claimed::Run(Lease {
                        key: claim.key.clone(),
                        token: token.clone(),
                    }));
                }
                let found = one(c, &s.find, params![k.tool, k.tenant, k.key], |r| {
                    sql::existing(r)
                })?;
                if let Some((existing, now)) = found {
                    // a holder killed mid-call: its lease ends now, and the
                    // next round reads the record in doubt
                    if let Some(dead) = existing.holder_gone(now) {
                        execute(c, &s.renew, params![k.tool, k.tenant, k.key, dead, 0i64])?;
                        continue;
                    }
                    return Ok(judge_claim(&existing, &claim, now));
                }
            }
            Err(StoreError::unavailable(
                "the record changed under the claim three times in a row",
            ))
        })
    }

    fn complete<'a>(&'a self, lease: &'a Lease, envelope: &'a Envelope) -> StoreFuture<'a, bool> {
        let lease = lease.clone();
        let state = RecordState::of(envelope).as_str();
        let env = envelope_json(envelope);
        self.run_early(move |c| {
            let k = &lease.key;
            let n = execute(
                c,
                &statements().complete,
                params![k.tool, k.tenant, k.key, state, env, lease.token],
            )?;
            Ok(n == 1)
        })
    }

    fn renew<'a>(&'a self, lease: &'a Lease, lease_for: Duration) -> StoreFuture<'a, bool> {
        let lease = lease.clone();
        self.run(move |c| {
            let k = &lease.key;
            let n = execute(
                c,
                &statements().renew,
                params![k.tool, k.tenant, k.key, lease.token, millis(lease_for)],
            )?;
            Ok(n == 1)
        })
    }

    fn release<'a>(&'a self, lease: &'a Lease) -> StoreFuture<'a, bool> {
        let lease = lease.clone();
        self.run(move |c| {
            let k = &lease.key;
            let n = execute(
                c,
                &statements().release,
                params![k.tool, k.tenant, k.key, lease.token],
            )?;
            Ok(n == 1)
        })
    }

    fn resolve<'a>(&'a self, key: &'a RecordKey, as_: Resolution) -> StoreFuture<'a, bool> {
        let k = key.clone();
        self.run(move |c| {
            let s = statements();
            let n = match as_ {
                Resolution::Done => execute(
                    c,
                    &s.resolve_done,
                    params![
                        k.tool,
                        k.tenant,
                        k.key,
                        envelope_json(&settled_envelope(&k.tool))
                    ],
                )?,
                Resolution::Failed => {
                    execute(c, &s.resolve_failed, params![k.tool, k.tenant, k.key])?
                }
            };
            Ok(n == 1)
        })
    }

    fn in_doubt(&self) -> StoreFuture<'_, Vec<DoubtfulRecord>> {
        self.run(|c| {
            end_dead_leases(c)?;
            all(c, &statements().in_doubt, [], |r| sql::doubtful(r))
        })
    }

    fn records(&self) -> StoreFuture<'_, Vec<StoredRecord>> {
        self.run(|c| {
            end_dead_leases(c)?;
            all(c, &statements().records, [], |r| sql::stored(r))
        })
    }

    fn purge(&self) -> StoreFuture<'_, u64> {
        self.run_solo(|c| {
            let s = statements();
            let n = execute(c, &s.purge_records, [])?
                + execute(c, &s.purge_approvals, [])?
                + execute(c, &s.purge_tasks, [])?;
            Ok(n as u64)
        })
    }
}

impl ApprovalStore for SqliteStore {
    fn create_approval<'a>(&'a self, new: &'a NewApproval) -> StoreFuture<'a, ApprovalRecord> {
        let new = new.clone();
        let id = new_id("apr");
        self.run(move |c| {
            let id = id?;
            let st = statements();
            let question = params![new.tool, new.caller, new.digest, new.tenant];
            execute(c, &st.retire_expired_request, question)?;
            let created = one(
                c,
                &st.create_approval,
                params![
                    id,
                    new.tool,
                    json_text(&new.arguments),
                    new.digest,
                    new.rule,
                    new.reason,
                    new.caller,
                    millis(new.ttl),
                    new.tenant
                ],
                |r| sql::approval(r),
            )?;
            match created {
                Some(r) => Ok(r),
                // Another server asked the same question first: its request.
                None => one(c, &st.pending_request, question, |r| sql::approval(r))?
                    .ok_or_else(|| StoreError::invalid("the approval insert returned no row")),
            }
        })
    }

    fn approval<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<ApprovalRecord>> {
        let id = id.to_owned();
        self.run(move |c| one(c, &statements().get_approval, [id], |r| sql::approval(r)))
    }

    fn approvals<'a>(&'a self, filter: &'a ApprovalFilter) -> StoreFuture<'a, Vec<ApprovalRecord>> {
        let filter = filter.clone();
        self.run(move |c| {
            // the query filters every field: its rows are the answer
            all(
                c,
                &statements().list_approvals,
                params![
                    filter.tool,
                    filter.caller,
                    filter.digest,
                    filter.tenant,
                    filter.state.map(ApprovalState::as_str)
                ],
                |r| sql::approval(r),
            )
        })
    }

    fn decide<'a>(&'a self, id: &'a str, decision: &'a Decision) -> StoreFuture<'a, Decided> {
        let id = id.to_owned();
        let decision = decision.clone();
        self.run(move |c| {
            let s = statements();
            let state = if decision.grant {
                ApprovalState::Granted
            } else {
                ApprovalState::Denied
            };
            let now = one(
                c,
                &s.decide,
                params![id, state.as_str(), decision.by, decision.reason],
                |r| sql::approval(r),
            )?;
            if let Some(r) = now {
                return Ok(Decided::Now(r));
            }
            Ok(
                match one(c, &s.get_approval, [&id], |r| sql::approval(r))? {
                    Some(r) => Decided::Already(r),
                    None => Decided::Missing,
                },
            )
        })
    }

    fn consume<'a>(&'a self, id: &'a str, digest: &'a str) -> StoreFuture<'a, bool> {
        let (id, digest) = (id.to_owned(), digest.to_owned());
        self.run(move |c| Ok(execute(c, &statements().consume, [id, digest])? == 1))
    }
}

impl JournalStore for SqliteStore {
    fn append<'a>(&'a self, record: &'a JournalRecord) -> StoreFuture<'a, ()> {
        let r = record.clone();
        self.run(move |c| {
            execute(
                c,
                &statements().append_journal,
                params![
                    r.call_id,
                    r.tool,
                    r.event,
                    r.caller,
                    json_text(&r.arguments),
                    r.status,
                    sql::codes_text(&r.codes),
                    r.retry_safe,
                    r.replayed,
                    r.started_ms,
                    i64::try_from(r.duration_us).unwrap_or(i64::MAX),
                    r.tenant
                ],
            )
            .map(drop)
        })
    }

    fn query<'a>(&'a self, query: &'a JournalQuery) -> StoreFuture<'a, Vec<JournalRecord>> {
        let q = query.clone();
        self.run(move |c| {
            all(
                c,
                &statements().query_journal,
                params![
                    q.call_id,
                    q.tool,
                    q.since_ms,
                    q.until_ms,
                    q.limit_or_all(),
                    q.tenant
                ],
                |r| sql::journal(r),
            )
        })
    }
    fn purge_journal(&self, before_ms: i64) -> StoreFuture<'_, u64> {
        self.run_solo(move |c| {
            let n = execute(c, &statements().purge_journal, params![before_ms])?;
            Ok(n as u64)
        })
    }
}

impl TaskStore for SqliteStore {
    fn create_task<'a>(&'a self, new: &'a NewTask) -> StoreFuture<'a, TaskLease> {
        let new = new.clone();
        let (id, token) = (new_id("task"), lease_token());
        // Committed before it is answered: the client hears of a task only
        // once a restart would still find it.
        self.run(move |c| {
            let (id, token) = (id?, token?);
            let created_ms = one(
                c,
                &statements().create_task,
                params![
                    id,
                    new.tool,
                    new.owner.tenant,
                    new.owner.subject,
                    new.key,
                    token,
                    millis(new.lease),
                    millis(new.ttl)
                ],
                |r| r.int(0),
            )?
            .ok_or_else(|| StoreError::invalid("the task insert returned no row"))?;
            Ok(TaskLease {
                id,
                token,
                created_ms,
            })
        })
    }

    fn renew_task<'a>(
        &'a self,
        lease: &'a TaskLease,
        lease_for: Duration,
    ) -> StoreFuture<'a, bool> {
        let lease = lease.clone();
        self.run(move |c| {
            let n = execute(
                c,
                &statements().renew_task,
                params![lease.id, lease.token, millis(lease_for)],
            )?;
            Ok(n == 1)
        })
    }

    fn finish_task<'a>(
        &'a self,
        lease: &'a TaskLease,
        envelope: &'a Envelope,
    ) -> StoreFuture<'a, bool> {
        let lease = lease.clone();
        let env = envelope_json(envelope);
        self.run(move |c| {
            let n = execute(
                c,
                &statements().finish_task,
                params![lease.id, lease.token, env],
            )?;
            Ok(n == 1)
        })
    }

    fn task<'a>(
        &'a self,
        id: &'a str,
        owner: &'a TaskOwner,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        let (id, owner) = (id.to_owned(), owner.clone());
        self.run(move |c| {
            let found = one(
                c,
                &statements().get_task,
                params![id, owner.tenant, owner.subject],
                |r| sql::task(r),
            )?;
            Ok(found.map(|(t, _)| t))
        })
    }

    fn tasks<'a>(&'a self, owner: &'a TaskOwner) -> StoreFuture<'a, Vec<TaskRecord>> {
        let owner = owner.clone();
        self.run(move |c| {
            let rows = all(
                c,
                &statements().list_tasks,
                params![owner.tenant, owner.subject],
                |r| sql::task(r),
            )?;
            Ok(rows.into_iter().map(|(t, _)| t).collect())
        })
    }

    fn cancel_task<'a>(
        &'a self,
        id: &'a str,
        owner: &'a TaskOwner,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        let (id, owner) = (id.to_owned(), owner.clone());
        self.run(move |c| {
            let s = statements();
            let key = params![id, owner.tenant, owner.subject];
            let Some((seen, token)) = one(c, &s.get_task, key, |r| sql::task(r))? else {
                return Ok(None);
            };
            if seen.state != TaskState::Working {
                return Ok(Some(seen));
            }
            execute(
                c,
                &s.cancel_task,
                params![id, owner.tenant, owner.subject, token],
            )?;
            Ok(one(c, &s.get_task, key, |r| sql::task(r))?.map(|(t, _)| t))
        })
    }
}

impl Store for SqliteStore {
    fn describe(&self) -> String {
        format!("sqlite:{}", self.path.display())
    }

    fn task_store(&self) -> Option<&dyn TaskStore> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store file the library makes is its owner's alone, WAL included;
    /// one that exists keeps its mode.
    #[cfg(unix)]
    #[test]
    fn a_new_store_file_is_readable_by_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("contract-sqlite-mode-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp folder");
        let mode = |p: &Path| std::fs::metadata(p).expect("a file").permissions().mode() & 0o777;
        let file = dir.join("new.sqlite");
        let store = SqliteStore::open(&file).expect("a store");
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(&dir.join("new.sqlite-wal")), 0o600);
        drop(store);
        let shared = dir.join("shared.sqlite");
        std::fs::write(&shared, b"").expect("a file");
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o640)).unwrap();
        drop(SqliteStore::open(&shared).expect("a store"));
        assert_eq!(mode(&shared), 0o640, "the owner's choice stands");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A store made before tenants (no `tenant` columns, the old one-pending
    /// index) opens: it gains the columns, its requests read tenant `""`,
    /// and two tenants asking the same question make two requests.
    #[test]
    fn a_store_made_before_tenants_gains_them() {
        let dir = std::env::temp_dir().join(format!("contract-sqlite-old-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let file = dir.join("old.sqlite");
        let _ = std::fs::remove_file(&file);
        let old = Connection::open(&file).expect("old store");
        old.execute_batch(
            "CREATE TABLE contract_approvals (
                id TEXT PRIMARY KEY, tool TEXT NOT NULL, arguments TEXT NOT NULL, digest TEXT NOT NULL,
                rule TEXT NOT NULL, reason TEXT NOT NULL, caller TEXT NOT NULL,
                created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL, state TEXT NOT NULL,
                decided_by TEXT, decided_ms INTEGER, decision_reason TEXT) WITHOUT ROWID;
             CREATE UNIQUE INDEX contract_approvals_one_pending
                ON contract_approvals (tool, caller, digest) WHERE state = 'pending';
             CREATE TABLE contract_journal (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                call_id TEXT NOT NULL, tool TEXT NOT NULL, event TEXT NOT NULL, caller TEXT,
                arguments TEXT NOT NULL, status TEXT NOT NULL, codes TEXT NOT NULL,
                retry_safe INTEGER NOT NULL, replayed INTEGER NOT NULL,
                started_ms INTEGER NOT NULL, duration_us INTEGER NOT NULL);
             INSERT INTO contract_approvals VALUES ('apr_old', 't', '{}', 'sha256:a', 'always',
                'why', 'acme', 0, 99999999999999, 'pending', NULL, NULL, NULL);",
        )
        .expect("old schema");
        drop(old);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let store = SqliteStore::open(&file).expect("open an old store");
        rt.block_on(async {
            let old = store.approval("apr_old").await.unwrap().expect("kept");
            assert_eq!((old.tenant.as_str(), old.caller.as_str()), ("", "acme"));
            let ask = |tenant: &str| NewApproval {
                tool: "t".into(),
                arguments: serde_json::json!({}),
                digest: "sha256:a".into(),
                rule: "always".into(),
                reason: "why".into(),
                caller: "acme".into(),
                tenant: tenant.into(),
                ttl: Duration::from_secs(60),
            };
            let a = store.create_approval(&ask("acme")).await.unwrap();
            let b = store.create_approval(&ask("globex")).await.unwrap();
            assert_ne!(a.id, b.id);
            assert_ne!(a.id, "apr_old");
            assert_eq!(b.tenant, "globex");
        });
        drop(store);
        SqliteStore::open(&file).expect("opens again once upgraded");
    }

    /// An outcome answered before its commit is committed when the store is
    /// dropped: the same key in a store opened afterwards is a replay, not
    /// a record still running (which would read `unknown`).
    #[test]
    fn an_outcome_answered_early_is_committed_when_the_store_is_dropped() {
        let dir = std::env::temp_dir().join(format!("contract-sqlite-drop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let file = dir.join("state.sqlite");
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let claim = Claim::new(
            RecordKey::new("post_comment", "k-1"),
            "sha256:ab",
            "r1",
            "c1",
        );
        rt.block_on(async {
            let store = SqliteStore::open(&file).expect("open");
            let Ok(Claimed::Run(lease)) = store.claim(&claim).await else {
                panic!("first arrival runs")
            };
            let env = Envelope::failure("c1", "post_comment", crate::Status::Ok, true, vec![]);
            assert!(store.complete(&lease, &env).await.expect("complete"));
        });
        let again = SqliteStore::open(&file).expect("reopen");
        let answer = rt.block_on(again.claim(&claim));
        assert!(matches!(answer, Ok(Claimed::Replay(_))), "{answer:?}");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn scratch(tag: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "contract-sqlite-{tag}-{}-{}",
            std::process::id(),
            new_id("t").expect("randomness")
        ));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let file = dir.join("state.sqlite");
        (dir, file)
    }

    /// Processes starting together on a new file all open it: two of them
    /// switching it to WAL at once is a deadlock SQLite answers with
    /// SQLITE_BUSY at once, without the busy timeout (two `toolbox` servers
    /// started side by side lost one this way, "database is locked").
    #[test]
    fn stores_opened_together_on_a_new_file_all_open() {
        for _ in 0..40 {
            let (dir, file) = scratch("open-together");
            let gate = Arc::new(std::sync::Barrier::new(6));
            let openers: Vec<_> = (0..6)
                .map(|_| {
                    let (gate, file) = (gate.clone(), file.clone());
                    std::thread::spawn(move || {
                        gate.wait();
                        SqliteStore::open(&file).map(drop)
                    })
                })
                .collect();
            for o in openers {
                let opened = o.join().expect("opener thread");
                assert!(opened.is_ok(), "{:?}", opened.err().map(|e| e.to_string()));
            }
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    fn state_seen_by_another_connection(file: &Path, key: &str) -> Option<String> {
        let other = Connection::open(file).expect("second connection");
        other
            .query_row(
                "SELECT state FROM contract_idempotency WHERE key = ?1",
                [key],
                |r| r.get(0),
            )
            .ok()
    }

    /// A caller that finds the file locked by another process's write does
    /// not fail at once (its own busy timeout is zero): its job goes to the
    /// connection thread, which waits with the store's busy timeout, and the
    /// claim is won once the other write ends.
    #[test]
    fn a_claim_that_finds_the_file_locked_waits_for_it_on_the_connection_thread() {
        let (dir, file) = scratch("busy");
        let store = SqliteStore::open(&file).expect("open");
        let other = Connection::open(&file).expect("second connection");
        other.execute_batch("BEGIN IMMEDIATE").expect("lock");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let claim = Claim::new(RecordKey::new("post_comment", "k-busy"), "d", "r1", "c1");
        let answer = rt.block_on(async {
            let claimed = store.claim(&claim);
            let unlock = async {
                tokio::time::sleep(Duration::from_millis(200)).await;
                other.execute_batch("COMMIT").expect("unlock");
            };
            let (claimed, ()) = tokio::join!(claimed, unlock);
            claimed
        });
        assert!(matches!(answer, Ok(Claimed::Run(_))), "{answer:?}");
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// With jobs on the caller's thread SQLite's automatic checkpoint is off
    /// (it syncs the file); the connection thread's checkpoints keep the WAL
    /// from growing without end.
    #[test]
    fn the_wal_is_checkpointed_when_jobs_run_on_the_callers_thread() {
        let (dir, file) = scratch("wal");
        let store = SqliteStore::open(&file).expect("open");
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let env = Envelope::failure("c1", "post_comment", crate::Status::Ok, true, vec![]);
        let wal = file.with_extension("sqlite-wal");
        let mut largest = 0;
        for round in 0..3_000 {
            let claim = Claim::new(
                RecordKey::new("post_comment", format!("k-{round}")),
                "d",
                "r1",
                "c1",
            );
            rt.block_on(async {
                let Ok(Claimed::Run(lease)) = store.claim(&claim).await else {
                    panic!("first arrival runs")
                };
                assert!(store.complete(&lease, &env).await.expect("complete"));
            });
            largest = largest.max(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0));
        }
        // 3,000 keyed calls write some 6,000 pages (25 MB) of WAL frames;
        // checkpoints let it start over every few hundred commits.
        assert!(largest < 8 << 20, "the WAL grew to {largest} bytes");
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// An outcome answered before its commit, with no job after it, is
    /// committed by the connection thread once it has lingered: another
    /// process sees it done without this store doing anything more.
    #[test]
    fn an_outcome_left_open_is_committed_after_its_linger() {
        let (dir, file) = scratch("linger");
        let store = SqliteStore::open(&file).expect("open");
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let env = Envelope::failure("c1", "post_comment", crate::Status::Ok, true, vec![]);
        // An outcome whose statement outlasts the linger (an unoptimized
        // build, a loaded machine) is committed at once: try until one is
        // seen still open.
        let mut left_open = 0;
        for round in 0..50 {
            let key = format!("k-linger-{round}");
            let claim = Claim::new(RecordKey::new("post_comment", &key), "d", "r1", "c1");
            rt.block_on(async {
                let Ok(Claimed::Run(lease)) = store.claim(&claim).await else {
                    panic!("first arrival runs")
                };
                assert!(store.complete(&lease, &env).await.expect("complete"));
            });
            if state_seen_by_another_connection(&file, &key).as_deref() != Some("running") {
                continue;
            }
            left_open += 1;
            // Committed well within a second, though the store stays open.
            let mut seen = None;
            for _ in 0..100 {
                std::thread::sleep(Duration::from_millis(10));
                seen = state_seen_by_another_connection(&file, &key);
                if seen.as_deref() == Some("done") {
                    break;
                }
            }
            assert_eq!(seen.as_deref(), Some("done"), "round {round}");
            if left_open == 3 {
                break;
            }
        }
        assert!(
            left_open > 0,
            "no outcome was ever left open to share a commit"
        );
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
