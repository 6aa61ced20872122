//! The shared store: PostgreSQL, for many workers on many hosts.
//!
//! Every state change is one statement (a conditional insert or update), so
//! it is atomic without an explicit transaction, and every time comparison
//! uses the server's `now()`, so the workers' clocks do not matter. A few
//! connections are opened up front and shared: tokio-postgres pipelines the
//! statements of concurrent callers on each. A connection that breaks is
//! opened again on the next use; until the server answers, calls get
//! [`StoreError`] of kind `Unavailable`.
//!
//! Claims commit durably: a claim lost in a server crash could let a key run
//! twice. Outcomes are recorded on connections of their own with
//! `synchronous_commit = off` (unless [`PostgresOptions::durable_outcomes`]):
//! losing one in a crash leaves the record running, which reads `unknown`
//! once its lease ends, so the worst case is an operator's `resolve`, never a
//! second run; and a keyed call pays one disk flush instead of two.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Config, NoTls, Statement};

use super::sql::{self, Dialect, Row};
use super::{
    envelope_json, json_text, judge_claim, lease_token, millis, new_id, settled_envelope,
    ApprovalFilter, ApprovalRecord, ApprovalState, ApprovalStore, Claim, Claimed, Decided,
    Decision, DoubtfulRecord, IdempotencyStore, JournalQuery, JournalRecord, JournalStore, Lease,
    NewApproval, RecordKey, RecordState, Resolution, Store, StoreError, StoreFuture, StoredRecord,
};
use super::{NewTask, TaskLease, TaskOwner, TaskRecord, TaskState, TaskStore};
use crate::envelope::Envelope;

/// How a [`PostgresStore`] connects.
#[derive(Clone, Debug)]
pub struct PostgresOptions {
    /// Connections kept open and shared by all callers (default 4).
    pub connections: usize,
    /// How long to wait for the server to accept a connection (default 5 s).
    pub connect_timeout: Duration,
    /// Sync every recorded outcome to disk before answering (default
    /// `false`). Claims always are: a lost claim could let a key run twice.
    /// A recorded outcome lost in a server crash (the last fraction of a
    /// second, `synchronous_commit = off`) leaves its record running, so the
    /// key answers `unknown` until an operator resolves it: never a second run.
    pub durable_outcomes: bool,
    /// A schema to keep the tables in, created if missing (default: the
    /// connection's `search_path`, usually `public`). Lowercase letters,
    /// digits and `_`.
    pub schema: Option<String>,
    /// Open only a store this library made (default `false`): a database
    /// (or schema) without its tables is refused and nothing is created in
    /// it. What an operator's view of a store wants, where a mistyped
    /// database would otherwise read as an empty store.
    pub existing: bool,
}

impl Default for PostgresOptions {
    fn default() -> PostgresOptions {
        PostgresOptions {
            connections: 4,
            connect_timeout: Duration::from_secs(5),
            durable_outcomes: false,
            schema: None,
            existing: false,
        }
    }
}

/// Statements prepared once on each connection, so a call is one round trip.
struct Prepared {
    claim: Statement,
    find: Statement,
    complete: Statement,
    release: Statement,
    renew: Statement,
    resolve_done: Statement,
    resolve_failed: Statement,
    in_doubt: Statement,
    records: Statement,
    live_leases: Statement,
    purge_records: Statement,
    purge_journal: Statement,
    purge_approvals: Statement,
    create_task: Statement,
    get_task: Statement,
    list_tasks: Statement,
    renew_task: Statement,
    finish_task: Statement,
    cancel_task: Statement,
    purge_tasks: Statement,
    create_approval: Statement,
    retire_expired_request: Statement,
    pending_request: Statement,
    get_approval: Statement,
    list_approvals: Statement,
    decide: Statement,
    consume: Statement,
    append_journal: Statement,
    query_journal: Statement,
}

struct Conn {
    client: Client,
    st: Prepared,
}

/// State in a PostgreSQL database. See the module docs.
pub struct PostgresStore {
    config: Config,
    schema: Option<String>,
    /// [`PostgresOptions::existing`].
    existing: bool,
    slots: Vec<Mutex<Option<Arc<Conn>>>>,
    /// Connections that record outcomes, `synchronous_commit = off` unless
    /// the options ask for durable outcomes.
    outcome_slots: Vec<Mutex<Option<Arc<Conn>>>>,
    durable_outcomes: bool,
    next: AtomicUsize,
    shown: String,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user[:password]@host:port/db`, or
    /// `postgres:` followed by that) and creates the tables if missing.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        PostgresStore::connect_with(url, PostgresOptions::default()).await
    }

    /// [`PostgresStore::connect`] with options.
    pub async fn connect_with(
        url: &str,
        options: PostgresOptions,
    ) -> Result<PostgresStore, StoreError> {
        let url = match url.strip_prefix("postgres:") {
            Some(rest) if !rest.starts_with("//") => rest,
            _ => url,
        };
        let mut config: Config = url
            .parse()
            .map_err(|e| StoreError::config(format!("not a PostgreSQL URL: {e}")))?;
        config.connect_timeout(options.connect_timeout);
        // A password kept off the command line (where `ps` shows it), as
        // libpq finds one.
        if config.get_password().is_none() {
            if let Some(password) = password_from_environment(&config) {
                config.password(password);
            }
        }
        let schema = match options.schema {
            Some(s) if is_identifier(&s) => Some(s),
            Some(s) => {
                return Err(StoreError::config(format!(
                    "`{s}` is not a schema name: use lowercase letters, digits and `_`"
                )))
            }
            None => None,
        };
        let store = PostgresStore {
            shown: shown(&config),
            config,
            schema,
            existing: options.existing,
            slots: (0..options.connections.max(1))
                .map(|_| Mutex::new(None))
                .collect(),
            outcome_slots: (0..options.connections.max(1))
                .map(|_| Mutex::new(None))
                .collect(),
            durable_outcomes: options.durable_outcomes,
            next: AtomicUsize::new(0),
        };
        // The first connection creates the tables; the rest open now so the
        // first burst of calls does not wait for them.
        for i in 0..store.slots.len() {
            store.conn_in(Use::Claims, i).await?;
            store.conn_in(Use::Outcomes, i).await?;
        }
        Ok(store)
    }

    /// A live connection for `use_`, opening one again if its predecessor broke.
    async fn conn(&self, use_: Use) -> Result<Arc<Conn>, StoreError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.slots.len();
        self.conn_in(use_, i).await
    }

    async fn conn_in(&self, use_: Use, i: usize) -> Result<Arc<Conn>, StoreError> {
        let (slot, relaxed) = match use_ {
            Use::Claims => (&self.slots[i], false),
            Use::Outcomes => (&self.outcome_slots[i], !self.durable_outcomes),
        };
        if let Some(c) = lock(slot).as_ref() {
            if !c.client.is_closed() {
                return Ok(c.clone());
            }
        }
        let c = Arc::new(open(&self.config, self.schema.as_deref(), relaxed, self.existing).await?);
        *lock(slot) = Some(c.clone());
        Ok(c)
    }

    /// The benchmarks' floor: the cheapest write transaction this database
    /// does, one insert and one update sent together in one round trip.
    #[doc(hidden)]
    pub fn floor_write(&self, key: String) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let c = self.conn(Use::Claims).await?;
            let lit = format!("'{}'", key.replace('\'', "''"));
            let batch = format!(
                "BEGIN;{};{};COMMIT;",
                sql::FLOOR_INSERT.replace("?1", &lit),
                sql::FLOOR_UPDATE.replace("?1", &lit)
            );
            c.client.batch_execute(&batch).await.map_err(err)
        })
    }
}

/// What a connection is for.
#[derive(Clone, Copy)]
enum Use {
    /// Claims, reads, approvals and the journal: every commit durable.
    Claims,
    /// Recording or releasing an outcome.
    Outcomes,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The server a configuration names first, as host and port (what the
/// URL shows, and what a password file's line is matched against).
fn server(config: &Config) -> (String, u16) {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".to_string(),
    };
    (host, config.get_ports().first().copied().unwrap_or(5432))
}

/// The URL without its password, for a line on stderr.
fn shown(config: &Config) -> String {
    let (host, port) = server(config);
    format!(
        "postgres://{}@{host}:{port}/{}",
        config.get_user().unwrap_or(""),
        config.get_dbname().unwrap_or("")
    )
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && s.len() <= 63
}

async fn open(
    config: &Config,
    schema: Option<&str>,
    relaxed: bool,
    existing: bool,
) -> Result<Conn, StoreError> {
    let (client, connection) = config.connect(NoTls).await.map_err(|e| {
        StoreError::unavailable(format!("cannot connect to PostgreSQL: {}", why(&e)))
    })?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "PostgreSQL connection ended");
        }
    });
    if existing {
        if let Some(s) = schema {
            client
                .batch_execute(&format!("SET search_path TO {s};"))
                .await
                .map_err(err)?;
        }
        let row = client
            .query_one(
                "SELECT to_regclass('contract_idempotency') IS NOT NULL",
                &[],
            )
            .await
            .map_err(err)?;
        if !row.get::<_, bool>(0) {
            return Err(StoreError::config(
                "this database holds no tool-contract store (no table contract_idempotency): check the URL and the schema; nothing was created",
            ));
        }
    }
    // Workers starting together would race on CREATE TABLE IF NOT EXISTS; an
    // advisory lock lets one create and the others see the tables.
    let use_schema = schema.map_or(String::new(), |s| {
        format!("CREATE SCHEMA IF NOT EXISTS {s}; SET search_path TO {s};")
    });
    client
        .batch_execute(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock(720331); {use_schema} {} {} {} COMMIT; {}",
            sql::POSTGRES_SCHEMA,
            added_columns(),
            sql::ONE_PENDING_REQUEST,
            if relaxed {
                "SET synchronous_commit TO off;"
            } else {
                ""
            }
        ))
        .await
        .map_err(err)?;
    let st = prepare(&client).await?;
    Ok(Conn { client, st })
}

async fn prepare(c: &Client) -> Result<Prepared, StoreError> {
    let p = |s: String| async move { c.prepare(&s).await.map_err(err) };
    let d = |s: &str| Dialect::Postgres.render(s);
    Ok(Prepared {
        claim: p(d(sql::CLAIM)).await?,
        find: p(d(sql::FIND)).await?,
        complete: p(d(sql::COMPLETE)).await?,
        release: p(d(sql::RELEASE)).await?,
        renew: p(d(sql::RENEW)).await?,
        resolve_done: p(d(&sql::resolve_done())).await?,
        resolve_failed: p(d(&sql::resolve_failed())).await?,
        in_doubt: p(d(&sql::list_in_doubt())).await?,
        records: p(d(&sql::list_records())).await?,
        live_leases: p(d(sql::LIVE_LEASES)).await?,
        purge_records: p(d(sql::PURGE_RECORDS)).await?,
        purge_journal: p(d(sql::PURGE_JOURNAL)).await?,
        purge_approvals: p(d(sql::PURGE_APPROVALS)).await?,
        create_task: p(d(sql::CREATE_TASK)).await?,
        get_task: p(d(&sql::get_task())).await?,
        list_tasks: p(d(&sql::list_tasks())).await?,
        renew_task: p(d(sql::RENEW_TASK)).await?,
        finish_task: p(d(sql::FINISH_TASK)).await?,
        cancel_task: p(d(sql::CANCEL_TASK)).await?,
        purge_tasks: p(d(sql::PURGE_TASKS)).await?,
        create_approval: p(d(&sql::create_approval())).await?,
        retire_expired_request: p(d(sql::RETIRE_EXPIRED_REQUEST)).await?,
        pending_request: p(d(&sql::pending_request())).await?,
        get_approval: p(d(&sql::get_approval())).await?,
        list_approvals: p(d(&sql::list_approvals())).await?,
        decide: p(d(&sql::decide())).await?,
        consume: p(d(sql::CONSUME)).await?,
        append_journal: p(d(sql::APPEND_JOURNAL)).await?,
        query_journal: p(d(sql::QUERY_JOURNAL)).await?,
    })
}

/// The statements that add [`sql::ADDED_COLUMNS`] to a store made by an
/// earlier release.
fn added_columns() -> String {
    sql::ADDED_COLUMNS
        .iter()
        .map(|(table, column, kind)| {
            format!("ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind};")
        })
        .collect()
}

/// PostgreSQL's errors, sorted into the two kinds a caller acts on: a
/// statement the server could not read or data it could not take is
/// `Invalid`; everything else (connection, shutdown, resources, conflicts)
/// may pass and is `Unavailable`.
/// Why a connection failed, in the server's words where it gave any
/// (`password authentication failed for user "ana"`, `database "x" does
/// not exist`): the client's own text for those is only "db error", and
/// for a refused connection it leaves the reason to its source. Neither
/// holds the password: the server never sends it back.
fn why(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text = format!("{text}: {s}");
        source = s.source();
    }
    if text.contains("password missing") {
        text.push_str(
            " (the server asks for one: put it in the URL, or keep it off the command line in PGPASSWORD or a ~/.pgpass file)",
        );
    }
    text
}

/// The password libpq would use when the URL has none: `PGPASSWORD`, else
/// the first matching line of the password file (`PGPASSFILE`, else
/// `~/.pgpass`: `host:port:database:user:password`, `*` matching anything,
/// `\:` and `\\` escaped), which on unix is ignored when others may read
/// it, as libpq ignores it.
fn password_from_environment(config: &Config) -> Option<String> {
    let file = match std::env::var_os("PGPASSFILE") {
        Some(f) => Some(std::path::PathBuf::from(f)),
        None => std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".pgpass")),
    };
    password_for(config, std::env::var("PGPASSWORD").ok(), file.as_deref())
}

/// [`password_from_environment`] given what the environment holds.
fn password_for(
    config: &Config,
    pgpassword: Option<String>,
    file: Option<&std::path::Path>,
) -> Option<String> {
    if let Some(p) = pgpassword.filter(|p| !p.is_empty()) {
        return Some(p);
    }
    let file = file?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file).ok()?.permissions().mode();
        if mode & 0o077 != 0 {
            tracing::warn!(file = %file.display(), "the password file may be read by others: ignored, as libpq ignores it");
            return None;
        }
    }
    let text = std::fs::read_to_string(file).ok()?;
    let (host, port) = server(config);
    let port = port.to_string();
    let user = config.get_user().unwrap_or_default();
    let db = config.get_dbname().unwrap_or(user);
    pgpass_lookup(&text, [&host, &port, db, user])
}

/// The password of the first line of a password file whose four fields
/// match `wanted` (host, port, database, user).
fn pgpass_lookup(text: &str, wanted: [&str; 4]) -> Option<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|line| {
            let fields = pgpass_fields(line);
            let [h, p, d, u, password] = fields.as_slice() else {
                return None;
            };
            let matches = [h, p, d, u]
                .iter()
                .zip(wanted)
                .all(|(f, w)| f.as_str() == "*" || f.as_str() == w);
            matches.then(|| password.clone())
        })
}

/// A password file's line split at unescaped `:` (the password, last, may
/// hold more).
fn pgpass_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => field.extend(chars.next()),
            ':' if fields.len() < 4 => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}

fn err(e: tokio_postgres::Error) -> StoreError {
    // The client's own text for a server error is only "db error".
    let text = match e.as_db_error() {
        Some(db) => format!("PostgreSQL {}: {}", db.code().code(), db.message()),
        None => format!("PostgreSQL: {}", why(&e)),
    };
    match e.code().map(|c| &c.code()[..2]) {
        Some("22" | "42") => StoreError::invalid(text),
        _ => StoreError::unavailable(text),
    }
}

impl Row for tokio_postgres::Row {
    fn text(&self, i: usize) -> Result<String, StoreError> {
        self.try_get(i).map_err(err)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        self.try_get(i).map_err(err)
    }
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.try_get(i).map_err(err)
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        self.try_get(i).map_err(err)
    }
    fn flag(&self, i: usize) -> Result<bool, StoreError> {
        self.try_get(i).map_err(err)
    }
}

impl PostgresStore {
    async fn one<T>(
        &self,
        pick: impl Fn(&Prepared) -> &Statement,
        params: &[&(dyn ToSql + Sync)],
        read: impl FnOnce(&tokio_postgres::Row) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let c = self.conn(Use::Claims).await?;
        let row = c.client.query_opt(pick(&c.st), params).await.map_err(err)?;
        row.as_ref().map(read).transpose()
    }

    /// Ends the leases of records whose holder was killed mid-call: they
    /// are in doubt now, not in flight until their lease runs out.
    async fn end_dead_leases(&self) -> Result<(), StoreError> {
        for (k, existing, now) in self.all(|s| &s.live_leases, &[], sql::live_lease).await? {
            if let Some(dead) = existing.holder_gone(now) {
                self.end_lease(&k, dead).await?;
            }
        }
        Ok(())
    }

    async fn all<T>(
        &self,
        pick: impl Fn(&Prepared) -> &Statement,
        params: &[&(dyn ToSql + Sync)],
        read: impl Fn(&tokio_postgres::Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let c = self.conn(Use::Claims).await?;
        let rows = c.client.query(pick(&c.st), params).await.map_err(err)?;
        rows.iter().map(read).collect()
    }

    async fn execute(
        &self,
        pick: impl Fn(&Prepared) -> &Statement,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        self.execute_on(Use::Claims, pick, params).await
    }

    async fn execute_on(
        &self,
        use_: Use,
        pick: impl Fn(&Prepared) -> &Statement,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let c = self.conn(use_).await?;
        c.client.execute(pick(&c.st), params).await.map_err(err)
    }

    /// Ends the lease `token` holds on `k` now: its holder is gone.
    async fn end_lease(&self, k: &RecordKey, token: &str) -> Result<u64, StoreError> {
        self.execute(|s| &s.renew, &[&k.tool, &k.tenant, &k.key, &token, &0i64])
            .await
    }
}

impl IdempotencyStore for PostgresStore {
    fn claim<'a>(&'a self, claim: &'a Claim) -> StoreFuture<'a, Claimed> {
        Box::pin(async move {
            let token = lease_token()?;
            let k = &claim.key;
            let (lease, retention) = (millis(claim.lease), millis(claim.retention));
            // The insert and the read are two statements; a record purged or
            // released between them is simply claimed on the next round.
            for _ in 0..3 {
                let won = self
                    .one(
                        |s| &s.claim,
                        &[
                            &k.tool,
                            &k.tenant,
                            &k.key,
                            &claim.digest,
                            &claim.revision,
                            &claim.call_id,
                            &token,
                            &lease,
                            &retention,
                        ],
                        |r| r.text(0),
                    )
                    .await;
                let won = match won {
                    Ok(won) => won,
                    Err(e) => {
                        // The insert may have committed with its answer lost
                        // (the connection cut just then): the claim is given
                        // back, so a call that never ran does not leave its
                        // key held. If this fails too, the key reads
                        // in-flight and then unknown: never run twice.
                        let release: [&(dyn ToSql + Sync); 4] =
                            [&k.tool, &k.tenant, &k.key, &token];
                        let _ = self
                            .execute_on(Use::Outcomes, |s| &s.release, &release)
                            .await;
                        return Err(e);
                    }
                };
                if won.is_some() {
                    return Ok(Claimed::Run(Lease {
                        key: k.clone(),
                        token,
                    }));
                }
                let found = self
                    .one(|s| &s.find, &[&k.tool, &k.tenant, &k.key], sql::existing)
                    .await?;
                if let Some((existing, now)) = found {
                    // a holder killed mid-call: its lease ends now, and the
                    // next round reads the record in doubt
                    if let Some(dead) = existing.holder_gone(now) {
                        self.end_lease(k, dead).await?;
                        continue;
                    }
                    return Ok(judge_claim(&existing, claim, now));
                }
            }
            Err(StoreError::unavailable(
                "the record changed under the claim three times in a row",
            ))
        })
    }

    fn complete<'a>(&'a self, lease: &'a Lease, envelope: &'a Envelope) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let k = &lease.key;
            let state = RecordState::of(envelope).as_str();
            let env = envelope_json(envelope);
            let n = self
                .execute_on(
                    Use::Outcomes,
                    |s| &s.complete,
                    &[&k.tool, &k.tenant, &k.key, &state, &env, &lease.token],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn renew<'a>(&'a self, lease: &'a Lease, lease_for: Duration) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let k = &lease.key;
            let ms = millis(lease_for);
            let n = self
                .execute(
                    |s| &s.renew,
                    &[&k.tool, &k.tenant, &k.key, &lease.token, &ms],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn release<'a>(&'a self, lease: &'a Lease) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let k = &lease.key;
            let n = self
                .execute_on(
                    Use::Outcomes,
                    |s| &s.release,
                    &[&k.tool, &k.tenant, &k.key, &lease.token],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn resolve<'a>(&'a self, key: &'a RecordKey, as_: Resolution) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let k = key;
            let n = match as_ {
                Resolution::Done => {
                    let env = envelope_json(&settled_envelope(&k.tool));
                    self.execute(|s| &s.resolve_done, &[&k.tool, &k.tenant, &k.key, &env])
                        .await?
                }
                Resolution::Failed => {
                    self.execute(|s| &s.resolve_failed, &[&k.tool, &k.tenant, &k.key])
                        .await?
                }
            };
            Ok(n == 1)
        })
    }

    fn in_doubt(&self) -> StoreFuture<'_, Vec<DoubtfulRecord>> {
        Box::pin(async move {
            self.end_dead_leases().await?;
            self.all(|s| &s.in_doubt, &[], sql::doubtful).await
        })
    }

    fn records(&self) -> StoreFuture<'_, Vec<StoredRecord>> {
        Box::pin(async move {
            self.end_dead_leases().await?;
            self.all(|s| &s.records, &[], sql::stored).await
        })
    }

    fn purge(&self) -> StoreFuture<'_, u64> {
        Box::pin(async move {
            // Two independent deletes: each is atomic, and a crash between
            // them leaves nothing inconsistent.
            let records = self.execute(|s| &s.purge_records, &[]).await?;
            let approvals = self.execute(|s| &s.purge_approvals, &[]).await?;
            let tasks = self.execute(|s| &s.purge_tasks, &[]).await?;
            Ok(records + approvals + tasks)
        })
    }
}

impl ApprovalStore for PostgresStore {
    fn create_approval<'a>(&'a self, new: &'a NewApproval) -> StoreFuture<'a, ApprovalRecord> {
        Box::pin(async move {
            let id = new_id("apr")?;
            let args = json_text(&new.arguments);
            let ttl = millis(new.ttl);
            let question: [&(dyn ToSql + Sync); 4] =
                [&new.tool, &new.caller, &new.digest, &new.tenant];
            self.execute(|s| &s.retire_expired_request, &question)
                .await?;
            let created = self
                .one(
                    |s| &s.create_approval,
                    &[
                        &id,
                        &new.tool,
                        &args,
                        &new.digest,
                        &new.rule,
                        &new.reason,
                        &new.caller,
                        &ttl,
                        &new.tenant,
                    ],
                    sql::approval,
                )
                .await?;
            match created {
                Some(r) => Ok(r),
                // Another server asked the same question first: its request.
                None => self
                    .one(|s| &s.pending_request, &question, sql::approval)
                    .await?
                    .ok_or_else(|| StoreError::invalid("the approval insert returned no row")),
            }
        })
    }

    fn approval<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<ApprovalRecord>> {
        Box::pin(async move { self.one(|s| &s.get_approval, &[&id], sql::approval).await })
    }

    fn approvals<'a>(&'a self, filter: &'a ApprovalFilter) -> StoreFuture<'a, Vec<ApprovalRecord>> {
        Box::pin(async move {
            let state = filter.state.map(ApprovalState::as_str);
            // the query filters every field: its rows are the answer
            self.all(
                |s| &s.list_approvals,
                &[
                    &filter.tool,
                    &filter.caller,
                    &filter.digest,
                    &filter.tenant,
                    &state,
                ],
                sql::approval,
            )
            .await
        })
    }

    fn decide<'a>(&'a self, id: &'a str, decision: &'a Decision) -> StoreFuture<'a, Decided> {
        Box::pin(async move {
            let state = if decision.grant {
                ApprovalState::Granted
            } else {
                ApprovalState::Denied
            }
            .as_str();
            let now = self
                .one(
                    |s| &s.decide,
                    &[&id, &state, &decision.by, &decision.reason],
                    sql::approval,
                )
                .await?;
            if let Some(r) = now {
                return Ok(Decided::Now(r));
            }
            Ok(
                match self.one(|s| &s.get_approval, &[&id], sql::approval).await? {
                    Some(r) => Decided::Already(r),
                    None => Decided::Missing,
                },
            )
        })
    }

    fn consume<'a>(&'a self, id: &'a str, digest: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move { Ok(self.execute(|s| &s.consume, &[&id, &digest]).await? == 1) })
    }
}

impl JournalStore for PostgresStore {
    fn append<'a>(&'a self, record: &'a JournalRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let r = record;
            let args = json_text(&r.arguments);
            let codes = sql::codes_text(&r.codes);
            let duration = i64::try_from(r.duration_us).unwrap_or(i64::MAX);
            self.execute(
                |s| &s.append_journal,
                &[
                    &r.call_id,
                    &r.tool,
                    &r.event,
                    &r.caller,
                    &args,
                    &r.status,
                    &codes,
                    &r.retry_safe,
                    &r.replayed,
                    &r.started_ms,
                    &duration,
                    &r.tenant,
                ],
            )
            .await
            .map(drop)
        })
    }

    fn query<'a>(&'a self, query: &'a JournalQuery) -> StoreFuture<'a, Vec<JournalRecord>> {
        Box::pin(async move {
            let q = query;
            let limit = q.limit_or_all();
            self.all(
                |s| &s.query_journal,
                &[
                    &q.call_id,
                    &q.tool,
                    &q.since_ms,
                    &q.until_ms,
                    &limit,
                    &q.tenant,
                ],
                sql::journal,
            )
            .await
        })
    }

    fn purge_journal(&self, before_ms: i64) -> StoreFuture<'_, u64> {
        Box::pin(async move { self.execute(|s| &s.purge_journal, &[&before_ms]).await })
    }
}

impl TaskStore for PostgresStore {
    fn create_task<'a>(&'a self, new: &'a NewTask) -> StoreFuture<'a, TaskLease> {
        Box::pin(async move {
            let (id, token) = (new_id("task")?, lease_token()?);
            let (lease, ttl) = (millis(new.lease), millis(new.ttl));
            let created_ms = self
                .one(
                    |s| &s.create_task,
                    &[
                        &id,
                        &new.tool,
                        &new.owner.tenant,
                        &new.owner.subject,
                        &new.key,
                        &token,
                        &lease,
                        &ttl,
                    ],
                    |r| r.int(0),
                )
                .await?
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
        Box::pin(async move {
            let ms = millis(lease_for);
            let n = self
                .execute(|s| &s.renew_task, &[&lease.id, &lease.token, &ms])
                .await?;
            Ok(n == 1)
        })
    }

    fn finish_task<'a>(
        &'a self,
        lease: &'a TaskLease,
        envelope: &'a Envelope,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let env = envelope_json(envelope);
            let n = self
                .execute(|s| &s.finish_task, &[&lease.id, &lease.token, &env])
                .await?;
            Ok(n == 1)
        })
    }

    fn task<'a>(
        &'a self,
        id: &'a str,
        owner: &'a TaskOwner,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let found = self
                .one(
                    |s| &s.get_task,
                    &[&id, &owner.tenant, &owner.subject],
                    sql::task,
                )
                .await?;
            Ok(found.map(|(t, _)| t))
        })
    }

    fn tasks<'a>(&'a self, owner: &'a TaskOwner) -> StoreFuture<'a, Vec<TaskRecord>> {
        Box::pin(async move {
            let rows = self
                .all(
                    |s| &s.list_tasks,
                    &[&owner.tenant, &owner.subject],
                    sql::task,
                )
                .await?;
            Ok(rows.into_iter().map(|(t, _)| t).collect())
        })
    }

    fn cancel_task<'a>(
        &'a self,
        id: &'a str,
        owner: &'a TaskOwner,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let key: [&(dyn ToSql + Sync); 3] = [&id, &owner.tenant, &owner.subject];
            let Some((seen, token)) = self.one(|s| &s.get_task, &key, sql::task).await? else {
                return Ok(None);
            };
            if seen.state != TaskState::Working {
                return Ok(Some(seen));
            }
            self.execute(
                |s| &s.cancel_task,
                &[&id, &owner.tenant, &owner.subject, &token],
            )
            .await?;
            let now = self.one(|s| &s.get_task, &key, sql::task).await?;
            Ok(now.map(|(t, _)| t))
        })
    }
}

impl Store for PostgresStore {
    fn describe(&self) -> String {
        self.shown.clone()
    }

    fn task_store(&self) -> Option<&dyn TaskStore> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(url: &str) -> Config {
        url.parse().unwrap()
    }

    #[test]
    fn a_password_file_line_matches_field_by_field_with_wildcards_and_escapes() {
        let text = "# comment\n\
                    db.example:5432:sales:ana:wrong-host\n\
                    127.0.0.1:5433:*:ana:pa\\:ss\\\\word:with:colons\n\
                    *:*:*:*:fallback\n";
        let found = |w: [&str; 4]| pgpass_lookup(text, w);
        assert_eq!(
            found(["127.0.0.1", "5433", "orders", "ana"]).as_deref(),
            Some("pa:ss\\word:with:colons")
        );
        assert_eq!(
            found(["127.0.0.1", "5432", "orders", "ana"]).as_deref(),
            Some("fallback")
        );
        assert_eq!(pgpass_lookup("h:1:d:u\n", ["h", "1", "d", "v"]), None);
    }

    #[test]
    fn the_password_comes_from_pgpassword_then_a_private_password_file() {
        let c = config("postgres://ana@127.0.0.1:5433/orders");
        assert_eq!(
            password_for(&c, Some("s3cret".into()), None).as_deref(),
            Some("s3cret")
        );
        assert_eq!(password_for(&c, Some(String::new()), None), None);
        let dir = std::env::temp_dir().join(format!("pgpass-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("pgpass");
        std::fs::write(&file, "127.0.0.1:5433:orders:ana:from-file\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Readable by others: ignored, as libpq ignores it.
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert_eq!(password_for(&c, None, Some(&file)), None);
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert_eq!(
            password_for(&c, None, Some(&file)).as_deref(),
            Some("from-file")
        );
        // The database defaults to the user's name, as libpq's does.
        let c = config("postgres://orders@127.0.0.1:5433");
        std::fs::write(&file, "127.0.0.1:5433:orders:orders:same-name\n").unwrap();
        assert_eq!(
            password_for(&c, None, Some(&file)).as_deref(),
            Some("same-name")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
