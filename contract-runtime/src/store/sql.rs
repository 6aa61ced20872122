//! The SQL both database stores run, written once: statements use `?N`
//! placeholders and `NOW_MS` for the database's clock in milliseconds, and
//! [`Dialect::render`] turns them into SQLite's or PostgreSQL's text. Rows are
//! read through [`Row`] so one decoder serves both clients.

use serde_json::Value;

use super::{
    judge_task, parse_codes, parse_json, ApprovalRecord, ApprovalState, Doubt, DoubtfulRecord,
    ExistingRecord, JournalRecord, RecordKey, RecordState, StoreError, StoredRecord, TaskOwner,
    TaskRecord, TaskRow,
};

/// The two SQL dialects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    #[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
    Sqlite,
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    Postgres,
}

impl Dialect {
    /// `sql` with `NOW_MS` and the placeholders of this dialect.
    pub(super) fn render(self, sql: &str) -> String {
        let now = match self {
            // 'now' is fixed for the whole statement, so every NOW_MS in one
            // statement is the same instant.
            Dialect::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
            // now() is the start of the transaction: one instant per statement here.
            Dialect::Postgres => "CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT)",
        };
        let sql = sql.replace("NOW_MS", now);
        match self {
            Dialect::Sqlite => sql,
            Dialect::Postgres => sql.replace('?', "$"),
        }
    }
}

/// Tables for SQLite. `WITHOUT ROWID` keeps a record in its key's B-tree.
/// A table added in a later release is created here too (`IF NOT EXISTS`):
/// a store made before it gains it when it is opened.
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
pub(super) const SQLITE_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS contract_idempotency (
    tool TEXT NOT NULL, tenant TEXT NOT NULL, key TEXT NOT NULL,
    digest TEXT NOT NULL, revision TEXT NOT NULL, call_id TEXT NOT NULL,
    state TEXT NOT NULL, token TEXT,
    claimed_ms INTEGER NOT NULL, lease_until_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL,
    envelope TEXT,
    PRIMARY KEY (tool, tenant, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS contract_approvals (
    id TEXT PRIMARY KEY, tool TEXT NOT NULL, arguments TEXT NOT NULL, digest TEXT NOT NULL,
    rule TEXT NOT NULL, reason TEXT NOT NULL, caller TEXT NOT NULL,
    created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL, state TEXT NOT NULL,
    decided_by TEXT, decided_ms INTEGER, decision_reason TEXT,
    tenant TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS contract_journal (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    call_id TEXT NOT NULL, tool TEXT NOT NULL, event TEXT NOT NULL, caller TEXT,
    arguments TEXT NOT NULL, status TEXT NOT NULL, codes TEXT NOT NULL,
    retry_safe INTEGER NOT NULL, replayed INTEGER NOT NULL,
    started_ms INTEGER NOT NULL, duration_us INTEGER NOT NULL,
    tenant TEXT
);
CREATE INDEX IF NOT EXISTS contract_journal_call ON contract_journal (call_id);
CREATE INDEX IF NOT EXISTS contract_journal_tool ON contract_journal (tool, started_ms);
CREATE INDEX IF NOT EXISTS contract_journal_time ON contract_journal (started_ms);
CREATE TABLE IF NOT EXISTS contract_tasks (
    id TEXT PRIMARY KEY, tool TEXT NOT NULL, tenant TEXT NOT NULL, subject TEXT NOT NULL,
    key TEXT, state TEXT NOT NULL, token TEXT, envelope TEXT,
    created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
    lease_until_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS contract_tasks_owner ON contract_tasks (tenant, subject, created_ms);
";

/// The same tables for PostgreSQL.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
pub(super) const POSTGRES_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS contract_idempotency (
    tool TEXT NOT NULL, tenant TEXT NOT NULL, key TEXT NOT NULL,
    digest TEXT NOT NULL, revision TEXT NOT NULL, call_id TEXT NOT NULL,
    state TEXT NOT NULL, token TEXT,
    claimed_ms BIGINT NOT NULL, lease_until_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL,
    envelope TEXT,
    PRIMARY KEY (tool, tenant, key)
);
CREATE TABLE IF NOT EXISTS contract_approvals (
    id TEXT PRIMARY KEY, tool TEXT NOT NULL, arguments TEXT NOT NULL, digest TEXT NOT NULL,
    rule TEXT NOT NULL, reason TEXT NOT NULL, caller TEXT NOT NULL,
    created_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL, state TEXT NOT NULL,
    decided_by TEXT, decided_ms BIGINT, decision_reason TEXT,
    tenant TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS contract_journal (
    seq BIGSERIAL PRIMARY KEY,
    call_id TEXT NOT NULL, tool TEXT NOT NULL, event TEXT NOT NULL, caller TEXT,
    arguments TEXT NOT NULL, status TEXT NOT NULL, codes TEXT NOT NULL,
    retry_safe BOOLEAN NOT NULL, replayed BOOLEAN NOT NULL,
    started_ms BIGINT NOT NULL, duration_us BIGINT NOT NULL,
    tenant TEXT
);
CREATE INDEX IF NOT EXISTS contract_journal_call ON contract_journal (call_id);
CREATE INDEX IF NOT EXISTS contract_journal_tool ON contract_journal (tool, started_ms);
CREATE INDEX IF NOT EXISTS contract_journal_time ON contract_journal (started_ms);
CREATE TABLE IF NOT EXISTS contract_tasks (
    id TEXT PRIMARY KEY, tool TEXT NOT NULL, tenant TEXT NOT NULL, subject TEXT NOT NULL,
    key TEXT, state TEXT NOT NULL, token TEXT, envelope TEXT,
    created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL,
    lease_until_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS contract_tasks_owner ON contract_tasks (tenant, subject, created_ms);
";

/// Columns added after the first release, each `(table, column, type)`:
/// a store made before them gains them when it is opened (SQLite has no
/// `ADD COLUMN IF NOT EXISTS`, so its store asks `pragma_table_info` first).
/// Rows written before have no tenant: `''` for approvals, `NULL` in the
/// journal.
pub(super) const ADDED_COLUMNS: [(&str, &str, &str); 2] = [
    ("contract_approvals", "tenant", "TEXT NOT NULL DEFAULT ''"),
    ("contract_journal", "tenant", "TEXT"),
];

/// One pending request per (tool, tenant, caller, digest), the same in both
/// dialects and run after either schema (and [`ADDED_COLUMNS`]): concurrent
/// servers on one store asking the same question make one request, so one
/// person's denial cannot be outrun by a grant on a duplicate. Stores made
/// before this index keep only their newest pending duplicate; the index of
/// the release without tenants, on (tool, caller, digest), gives way to it.
pub(super) const ONE_PENDING_REQUEST: &str = "
UPDATE contract_approvals SET state = 'expired' WHERE state = 'pending' AND EXISTS (
    SELECT 1 FROM contract_approvals AS newer
    WHERE newer.state = 'pending' AND newer.tool = contract_approvals.tool
      AND newer.tenant = contract_approvals.tenant
      AND newer.caller = contract_approvals.caller AND newer.digest = contract_approvals.digest
      AND (newer.created_ms > contract_approvals.created_ms
           OR (newer.created_ms = contract_approvals.created_ms AND newer.id > contract_approvals.id)));
DROP INDEX IF EXISTS contract_approvals_one_pending;
CREATE UNIQUE INDEX IF NOT EXISTS contract_approvals_one_pending_per_owner
    ON contract_approvals (tool, tenant, caller, digest) WHERE state = 'pending';
";

/// The atomic claim: insert, or take over a completed record past its
/// retention; returns the token only when this statement won the key.
/// `?1..?3` key, `?4` digest, `?5` revision, `?6` call id, `?7` token,
/// `?8` lease ms, `?9` retention ms.
pub(super) const CLAIM: &str = "
INSERT INTO contract_idempotency AS r
    (tool, tenant, key, digest, revision, call_id, state, token,
     claimed_ms, lease_until_ms, expires_ms, envelope)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'running', ?7, NOW_MS, NOW_MS + ?8, NOW_MS + ?9, NULL)
ON CONFLICT (tool, tenant, key) DO UPDATE SET
    digest = excluded.digest, revision = excluded.revision, call_id = excluded.call_id,
    state = 'running', token = excluded.token, claimed_ms = excluded.claimed_ms,
    lease_until_ms = excluded.lease_until_ms, expires_ms = excluded.expires_ms, envelope = NULL
WHERE r.state = 'done' AND r.expires_ms <= excluded.claimed_ms
RETURNING token";

/// The record a claim lost to, and the database's now.
pub(super) const FIND: &str = "
SELECT digest, revision, state, lease_until_ms, expires_ms, envelope, NOW_MS, token
FROM contract_idempotency WHERE tool = ?1 AND tenant = ?2 AND key = ?3";

/// The `running` records whose lease is live, with their tokens: the ones
/// whose holder may be gone (see `ExistingRecord::holder_gone`). The columns
/// of [`FIND`], then the key.
pub(super) const LIVE_LEASES: &str = "
SELECT digest, revision, state, lease_until_ms, expires_ms, envelope, NOW_MS, token,
       tool, tenant, key
FROM contract_idempotency WHERE state = 'running' AND lease_until_ms > NOW_MS";

/// `?4` state, `?5` envelope, `?6` token.
pub(super) const COMPLETE: &str = "
UPDATE contract_idempotency SET state = ?4, envelope = ?5, token = NULL
WHERE tool = ?1 AND tenant = ?2 AND key = ?3 AND token = ?6 AND state = 'running'";

/// `?4` token, `?5` lease ms.
pub(super) const RENEW: &str = "
UPDATE contract_idempotency SET lease_until_ms = NOW_MS + ?5
WHERE tool = ?1 AND tenant = ?2 AND key = ?3 AND token = ?4 AND state = 'running'";

/// `?4` token.
pub(super) const RELEASE: &str = "
DELETE FROM contract_idempotency
WHERE tool = ?1 AND tenant = ?2 AND key = ?3 AND token = ?4 AND state = 'running'";

/// A record in doubt: recorded unknown, or running past its lease.
const IN_DOUBT: &str = "(state = 'unknown' OR (state = 'running' AND lease_until_ms <= NOW_MS))";

/// Settles a record in doubt as done: `?4` the envelope to replay. It is kept
/// as long from now as its retention was from its claim.
pub(super) fn resolve_done() -> String {
    format!(
        "UPDATE contract_idempotency
         SET state = 'done', envelope = ?4, token = NULL,
             expires_ms = NOW_MS + (expires_ms - claimed_ms)
         WHERE tool = ?1 AND tenant = ?2 AND key = ?3 AND {IN_DOUBT}"
    )
}

/// Settles a record in doubt as failed: it goes, and the key may run again.
pub(super) fn resolve_failed() -> String {
    format!(
        "DELETE FROM contract_idempotency
         WHERE tool = ?1 AND tenant = ?2 AND key = ?3 AND {IN_DOUBT}"
    )
}

/// Records in doubt, oldest first.
pub(super) fn list_in_doubt() -> String {
    format!(
        "SELECT tool, tenant, key, state, call_id, digest, claimed_ms
         FROM contract_idempotency WHERE {IN_DOUBT}
         ORDER BY claimed_ms, tool, tenant, key"
    )
}

/// Every record, oldest first, and whether it is in doubt now.
pub(super) fn list_records() -> String {
    format!(
        "SELECT tool, tenant, key, state, call_id, digest, claimed_ms, expires_ms, envelope,
                {IN_DOUBT}
         FROM contract_idempotency
         ORDER BY claimed_ms, tool, tenant, key"
    )
}

pub(super) const PURGE_RECORDS: &str =
    "DELETE FROM contract_idempotency WHERE state = 'done' AND expires_ms <= NOW_MS";

pub(super) const PURGE_APPROVALS: &str =
    "DELETE FROM contract_approvals WHERE expires_ms <= NOW_MS";

/// An approval's state as shown: a pending or granted request past its
/// expiry reads `expired`. A macro, so that the columns below and the
/// filter of [`list_approvals`] are one text.
macro_rules! shown_state {
    () => {
        "CASE WHEN state IN ('pending', 'granted') AND expires_ms <= NOW_MS THEN 'expired' ELSE state END"
    };
}

/// [`shown_state`], for `format!`.
const SHOWN_STATE: &str = shown_state!();

/// The columns of an approval, its state as shown ([`shown_state`]).
const APPROVAL_COLUMNS: &str = concat!(
    "id, tool, arguments, digest, rule, reason, caller, created_ms, expires_ms, ",
    shown_state!(),
    ", decided_by, decided_ms, decision_reason, tenant"
);

/// `?1` id .. `?7` caller, `?8` ttl ms, `?9` tenant.
/// A new pending request, or no row when one for the same tool, tenant,
/// caller and digest is already pending (the unique index): the caller then reads that
/// one with [`pending_request`]. Run [`RETIRE_EXPIRED_REQUEST`] first, so a
/// request past its expiry does not hold the place.
pub(super) fn create_approval() -> String {
    format!(
        "INSERT INTO contract_approvals
            (id, tool, arguments, digest, rule, reason, caller, created_ms, expires_ms, state,
             tenant)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NOW_MS, NOW_MS + ?8, 'pending', ?9)
         ON CONFLICT DO NOTHING
         RETURNING {APPROVAL_COLUMNS}"
    )
}

/// `?1` tool, `?2` caller, `?3` digest, `?4` tenant: a pending request
/// past its expiry is stored as `expired`, freeing its place in the unique
/// index.
pub(super) const RETIRE_EXPIRED_REQUEST: &str = "
UPDATE contract_approvals SET state = 'expired'
WHERE tool = ?1 AND caller = ?2 AND digest = ?3 AND tenant = ?4 AND state = 'pending'
  AND expires_ms <= NOW_MS";

/// `?1` tool, `?2` caller, `?3` digest, `?4` tenant: the one pending request.
pub(super) fn pending_request() -> String {
    format!(
        "SELECT {APPROVAL_COLUMNS} FROM contract_approvals
         WHERE tool = ?1 AND caller = ?2 AND digest = ?3 AND tenant = ?4 AND state = 'pending'"
    )
}

pub(super) fn get_approval() -> String {
    format!("SELECT {APPROVAL_COLUMNS} FROM contract_approvals WHERE id = ?1")
}

/// `?1` tool, `?2` caller, `?3` digest, `?4` tenant, `?5` state, each
/// optional (the casts give PostgreSQL a type for a parameter that may be
/// NULL): every field of an `ApprovalFilter`, so the rows are the answer.
/// The state is the state as shown ([`shown_state`]: `expired` for a
/// request past its time), filtered here, not after reading, so that asking
/// for one caller's pending requests (on every new request, to hold the
/// cap) reads those rows only, not every request the caller ever made.
pub(super) fn list_approvals() -> String {
    format!(
        "SELECT {APPROVAL_COLUMNS} FROM contract_approvals
         WHERE (CAST(?1 AS TEXT) IS NULL OR tool = ?1)
           AND (CAST(?2 AS TEXT) IS NULL OR caller = ?2)
           AND (CAST(?3 AS TEXT) IS NULL OR digest = ?3)
           AND (CAST(?4 AS TEXT) IS NULL OR tenant = ?4)
           AND (CAST(?5 AS TEXT) IS NULL OR {SHOWN_STATE} = ?5)
         ORDER BY created_ms, id"
    )
}

/// `?2` new state, `?3` by, `?4` reason.
pub(super) fn decide() -> String {
    format!(
        "UPDATE contract_approvals
         SET state = ?2, decided_by = ?3, decided_ms = NOW_MS, decision_reason = ?4
         WHERE id = ?1 AND state = 'pending' AND expires_ms > NOW_MS
         RETURNING {APPROVAL_COLUMNS}"
    )
}

/// The single-use grant: one conditional update, so two racing consumers
/// cannot both see `granted`.
pub(super) const CONSUME: &str = "
UPDATE contract_approvals SET state = 'used'
WHERE id = ?1 AND digest = ?2 AND state = 'granted' AND expires_ms > NOW_MS";

pub(super) const APPEND_JOURNAL: &str = "
INSERT INTO contract_journal
    (call_id, tool, event, caller, arguments, status, codes, retry_safe, replayed,
     started_ms, duration_us, tenant)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";

/// `?1` the time before which entries go (ms, the clock of `started_ms`).
pub(super) const PURGE_JOURNAL: &str = "DELETE FROM contract_journal WHERE started_ms < ?1";

/// `?1` call id, `?2` tool, `?3` since, `?4` until, `?6` tenant (each
/// optional), `?5` limit.
pub(super) const QUERY_JOURNAL: &str = "
SELECT call_id, tool, event, caller, arguments, status, codes, retry_safe, replayed,
       started_ms, duration_us, tenant
FROM contract_journal
WHERE (CAST(?1 AS TEXT) IS NULL OR call_id = ?1) AND (CAST(?2 AS TEXT) IS NULL OR tool = ?2)
  AND (CAST(?3 AS BIGINT) IS NULL OR started_ms >= ?3)
  AND (CAST(?4 AS BIGINT) IS NULL OR started_ms < ?4)
  AND (CAST(?6 AS TEXT) IS NULL OR tenant = ?6)
ORDER BY seq LIMIT ?5";

/// The cheapest write transaction of the benchmarks' floor: one insert and
/// one update. `?1` a fresh key.
pub(super) const FLOOR_INSERT: &str = "
INSERT INTO contract_idempotency
    (tool, tenant, key, digest, revision, call_id, state, token,
     claimed_ms, lease_until_ms, expires_ms, envelope)
VALUES ('floor', '', ?1, '', '', '', 'running', NULL, 0, 0, 0, NULL)";

pub(super) const FLOOR_UPDATE: &str = "
UPDATE contract_idempotency SET state = 'done', envelope = '{}'
WHERE tool = 'floor' AND tenant = '' AND key = ?1";

/// `?1` id, `?2` tool, `?3` tenant, `?4` subject, `?5` key (or NULL), `?6`
/// token, `?7` lease ms, `?8` ttl ms. Returns the creation time.
pub(super) const CREATE_TASK: &str = "
INSERT INTO contract_tasks
    (id, tool, tenant, subject, key, state, token, envelope,
     created_ms, updated_ms, lease_until_ms, expires_ms)
VALUES (?1, ?2, ?3, ?4, ?5, 'working', ?6, NULL, NOW_MS, NOW_MS, NOW_MS + ?7, NOW_MS + ?8)
RETURNING created_ms";

/// A task's columns, with its key's record when this task's call claimed
/// it (the record holds a keyed write's outcome), and the database's now.
const TASK_COLUMNS: &str = "t.id, t.tool, t.tenant, t.subject, t.key, t.state, t.envelope,
    t.token, t.lease_until_ms, t.created_ms, t.updated_ms, t.expires_ms, NOW_MS,
    r.state, r.envelope
FROM contract_tasks AS t LEFT JOIN contract_idempotency AS r
    ON r.tool = t.tool AND r.tenant = t.tenant AND r.key = t.key AND r.call_id = t.id";

/// `?1` id, `?2` tenant, `?3` subject: one task of its owner's.
pub(super) fn get_task() -> String {
    format!(
        "SELECT {TASK_COLUMNS}
         WHERE t.id = ?1 AND t.tenant = ?2 AND t.subject = ?3 AND t.expires_ms > NOW_MS"
    )
}

/// `?1` tenant, `?2` subject: the owner's tasks, newest first.
pub(super) fn list_tasks() -> String {
    format!(
        "SELECT {TASK_COLUMNS}
         WHERE t.tenant = ?1 AND t.subject = ?2 AND t.expires_ms > NOW_MS
         ORDER BY t.created_ms DESC, t.id"
    )
}

/// `?1` id, `?2` token, `?3` lease ms.
pub(super) const RENEW_TASK: &str = "
UPDATE contract_tasks SET lease_until_ms = NOW_MS + ?3
WHERE id = ?1 AND token = ?2 AND state = 'working'";

/// `?1` id, `?2` token, `?3` envelope: kept on the task only when its key's
/// record does not hold this call's outcome already.
pub(super) const FINISH_TASK: &str = "
UPDATE contract_tasks SET state = 'done', token = NULL, updated_ms = NOW_MS,
    envelope = CASE WHEN EXISTS (
        SELECT 1 FROM contract_idempotency AS r
        WHERE r.tool = contract_tasks.tool AND r.tenant = contract_tasks.tenant
          AND r.key = contract_tasks.key AND r.call_id = contract_tasks.id
          AND r.state IN ('done', 'unknown'))
    THEN NULL ELSE CAST(?3 AS TEXT) END
WHERE id = ?1 AND token = ?2 AND state = 'working'";

/// `?1` id, `?2` tenant, `?3` subject, `?4` the token of the worker that
/// was seen running it: cancels only that run, still `working`.
pub(super) const CANCEL_TASK: &str = "
UPDATE contract_tasks SET state = 'cancelled', token = NULL, updated_ms = NOW_MS
WHERE id = ?1 AND tenant = ?2 AND subject = ?3 AND state = 'working' AND token = ?4
  AND lease_until_ms > NOW_MS";

/// Tasks past their time, unless a worker still runs them.
pub(super) const PURGE_TASKS: &str = "
DELETE FROM contract_tasks
WHERE expires_ms <= NOW_MS AND NOT (state = 'working' AND lease_until_ms > NOW_MS)";

/// A row of either client, read by column index.
pub(super) trait Row {
    fn text(&self, i: usize) -> Result<String, StoreError>;
    fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError>;
    fn int(&self, i: usize) -> Result<i64, StoreError>;
    fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError>;
    fn flag(&self, i: usize) -> Result<bool, StoreError>;
}

/// A [`FIND`] row: the record and the database's now.
pub(super) fn existing(row: &impl Row) -> Result<(ExistingRecord, i64), StoreError> {
    Ok((
        ExistingRecord {
            digest: row.text(0)?,
            revision: row.text(1)?,
            state: RecordState::parse(&row.text(2)?)?,
            lease_until_ms: row.int(3)?,
            expires_ms: row.int(4)?,
            envelope: row.opt_text(5)?,
            token: row.opt_text(7)?,
        },
        row.int(6)?,
    ))
}

/// A [`LIVE_LEASES`] row: the key, the record and the database's now.
pub(super) fn live_lease(row: &impl Row) -> Result<(RecordKey, ExistingRecord, i64), StoreError> {
    let (record, now) = existing(row)?;
    let key = RecordKey {
        tool: row.text(8)?,
        tenant: row.text(9)?,
        key: row.text(10)?,
    };
    Ok((key, record, now))
}

/// A [`list_in_doubt`] row.
pub(super) fn doubtful(row: &impl Row) -> Result<DoubtfulRecord, StoreError> {
    Ok(DoubtfulRecord {
        key: RecordKey {
            tool: row.text(0)?,
            tenant: row.text(1)?,
            key: row.text(2)?,
        },
        doubt: match RecordState::parse(&row.text(3)?)? {
            RecordState::Unknown => Doubt::Recorded,
            _ => Doubt::LeaseExpired,
        },
        call_id: row.text(4)?,
        digest: row.text(5)?,
        claimed_ms: row.int(6)?,
    })
}

/// A [`list_records`] row.
pub(super) fn stored(row: &impl Row) -> Result<StoredRecord, StoreError> {
    Ok(StoredRecord {
        key: RecordKey {
            tool: row.text(0)?,
            tenant: row.text(1)?,
            key: row.text(2)?,
        },
        state: RecordState::parse(&row.text(3)?)?,
        call_id: row.text(4)?,
        digest: row.text(5)?,
        claimed_ms: row.int(6)?,
        expires_ms: row.int(7)?,
        status: StoredRecord::status_of(row.opt_text(8)?.as_deref()),
        in_doubt: row.flag(9)?,
    })
}

/// A row of [`APPROVAL_COLUMNS`].
pub(super) fn approval(row: &impl Row) -> Result<ApprovalRecord, StoreError> {
    Ok(ApprovalRecord {
        id: row.text(0)?,
        tool: row.text(1)?,
        arguments: parse_json(&row.text(2)?, "approval arguments")?,
        digest: row.text(3)?,
        rule: row.text(4)?,
        reason: row.text(5)?,
        caller: row.text(6)?,
        created_ms: row.int(7)?,
        expires_ms: row.int(8)?,
        state: ApprovalState::parse(&row.text(9)?)?,
        decided_by: row.opt_text(10)?,
        decided_ms: row.opt_int(11)?,
        decision_reason: row.opt_text(12)?,
        tenant: row.text(13)?,
    })
}

/// A [`QUERY_JOURNAL`] row.
pub(super) fn journal(row: &impl Row) -> Result<JournalRecord, StoreError> {
    Ok(JournalRecord {
        call_id: row.text(0)?,
        tool: row.text(1)?,
        event: row.text(2)?,
        caller: row.opt_text(3)?,
        arguments: parse_json(&row.text(4)?, "journal arguments")?,
        status: row.text(5)?,
        codes: parse_codes(&row.text(6)?)?,
        retry_safe: row.flag(7)?,
        replayed: row.flag(8)?,
        started_ms: row.int(9)?,
        duration_us: u64::try_from(row.int(10)?).unwrap_or(0),
        tenant: row.opt_text(11)?,
    })
}

/// The stored text of a journal entry's codes.
pub(super) fn codes_text(codes: &[String]) -> String {
    Value::from(codes.to_vec()).to_string()
}

/// A row of [`get_task`] or [`list_tasks`], judged at the database's now;
/// with the worker's token, which [`CANCEL_TASK`] names.
pub(super) fn task(row: &impl Row) -> Result<(TaskRecord, Option<String>), StoreError> {
    let record = match row.opt_text(13)? {
        Some(state) => Some((RecordState::parse(&state)?, row.opt_text(14)?)),
        None => None,
    };
    let token = row.opt_text(7)?;
    let judged = TaskRow {
        state: row.text(5)?,
        envelope: row.opt_text(6)?,
        token: token.clone(),
        lease_until_ms: row.int(8)?,
        record,
    };
    Ok((
        TaskRecord {
            id: row.text(0)?,
            tool: row.text(1)?,
            owner: TaskOwner {
                tenant: row.text(2)?,
                subject: row.text(3)?,
            },
            key: row.opt_text(4)?,
            state: judge_task(&judged, row.int(12)?)?,
            created_ms: row.int(9)?,
            updated_ms: row.int(10)?,
            expires_ms: row.int(11)?,
        },
        token,
    ))
}
