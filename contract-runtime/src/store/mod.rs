//! Durable state: idempotency records, approval requests, the call journal
//! and tasks.
//!
//! Three traits say what the dispatcher needs from a store; [`Store`] is all
//! three at once, which is what a host hands over. Three implementations pass
//! one conformance suite:
//!
//! - [`MemoryStore`]: one process, gone when it exits (tests, throwaway runs);
//! - [`SqliteStore`] (feature `sqlite`, on by default): one file that several
//!   processes on one host share safely (WAL, a busy timeout, conditional
//!   writes);
//! - [`PostgresStore`] (feature `postgres`): many workers on many hosts.
//!
//! Every decision that depends on time (a lease running out, a record or an
//! approval expiring) is taken against the database's clock inside the
//! statement that acts on it, so the clocks of the hosts running workers do
//! not matter. The rules for what a record answers live once, in
//! [`judge_claim`]; each store only fetches the row and writes conditionally.
//!
//! ```
//! use std::time::Duration;
//! use contract_runtime::store::{Claim, Claimed, IdempotencyStore, MemoryStore, RecordKey};
//!
//! # let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
//! # rt.block_on(async {
//! let store = MemoryStore::new();
//! let claim = Claim::new(RecordKey::new("post_comment", "k-1"), "sha256:ab", "r1", "call_1");
//! let Ok(Claimed::Run(lease)) = store.claim(&claim).await else { panic!("first arrival runs") };
//! // ... the tool runs once, then its envelope is recorded:
//! # let envelope = contract_runtime::Envelope::failure("call_1", "post_comment", contract_runtime::Status::Ok, true, vec![]);
//! assert!(store.complete(&lease, &envelope).await.unwrap());
//! assert!(matches!(store.claim(&claim).await, Ok(Claimed::Replay(_))));
//! # });
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::envelope::{Envelope, Status};

mod holder;
mod memory;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod sql;
#[cfg(feature = "sqlite")]
mod sqlite;

pub use memory::MemoryStore;
#[cfg(feature = "postgres")]
pub use postgres::{PostgresOptions, PostgresStore};
#[cfg(feature = "sqlite")]
pub use sqlite::{SqliteOptions, SqliteStore};

/// How long a completed idempotency record is kept unless the host says otherwise.
pub const DEFAULT_RETENTION: Duration = Duration::from_secs(24 * 60 * 60);

/// How long a journal entry is kept unless the host says otherwise.
pub const DEFAULT_JOURNAL_RETENTION: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// How long an approval request waits for a decision, and a grant for its use.
pub const DEFAULT_APPROVAL_TTL: Duration = Duration::from_secs(15 * 60);

/// How long the dispatcher's claims and records last
/// ([`crate::Dispatcher::with_record_times`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordTimes {
    /// A claim's lease (default 10 s). It is renewed every third of it while
    /// the tool runs, so only a worker that died or hung loses its claim, and
    /// after a crash its key answers `unknown` once the lease ran out.
    pub lease: Duration,
    /// How long a completed record is kept (default 24 hours).
    pub retention: Duration,
    /// How long a call whose key another worker holds waits for that
    /// worker's outcome before answering `in-flight` (default 2 s).
    pub in_flight_wait: Duration,
    /// How long an approval request waits for a decision and a grant for
    /// its one use (default 15 minutes, [`DEFAULT_APPROVAL_TTL`]).
    pub approval_ttl: Duration,
    /// How long a journal entry is kept (default 30 days,
    /// [`DEFAULT_JOURNAL_RETENTION`]).
    pub journal_retention: Duration,
    /// How often a dispatcher with a store deletes what is past its time
    /// (completed records past their retention, approval requests past
    /// their expiry, journal entries past theirs), at most (default one
    /// minute): the store's size stays flat however long it serves.
    pub purge_every: Duration,
    /// How long a task stays readable after it was created (default 24
    /// hours, [`DEFAULT_TASK_TTL`]): at most the retention of the key
    /// records a keyed task reads its outcome from.
    pub task_ttl: Duration,
}

impl Default for RecordTimes {
    fn default() -> RecordTimes {
        RecordTimes {
            lease: Duration::from_secs(10),
            retention: DEFAULT_RETENTION,
            in_flight_wait: Duration::from_secs(2),
            approval_ttl: DEFAULT_APPROVAL_TTL,
            journal_retention: DEFAULT_JOURNAL_RETENTION,
            purge_every: Duration::from_secs(60),
            task_ttl: DEFAULT_TASK_TTL,
        }
    }
}

/// What every store method returns: boxed so that `dyn Store` works.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A store could not do what was asked. The dispatcher answers a keyed write
/// with a transient failure instead of running it without a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    /// What kind of trouble.
    pub kind: StoreErrorKind,
    /// What went wrong, for logs and operators (never contains arguments).
    pub message: String,
}

/// The kinds of [`StoreError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// The store cannot be reached or is busy: network, file, lock timeout.
    Unavailable,
    /// The store answered with something this version cannot read.
    Invalid,
    /// The store was named wrongly: not a store, no path, not a URL.
    Config,
}

impl StoreError {
    /// An unreachable or busy store.
    pub fn unavailable(message: impl Into<String>) -> StoreError {
        StoreError {
            kind: StoreErrorKind::Unavailable,
            message: message.into(),
        }
    }

    /// A store whose contents or answers cannot be read.
    pub fn invalid(message: impl Into<String>) -> StoreError {
        StoreError {
            kind: StoreErrorKind::Invalid,
            message: message.into(),
        }
    }

    /// A store named wrongly: the fix is in the configuration, not the store.
    pub fn config(message: impl Into<String>) -> StoreError {
        StoreError {
            kind: StoreErrorKind::Config,
            message: message.into(),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            StoreErrorKind::Unavailable => "store unavailable",
            StoreErrorKind::Invalid => "store answered something unreadable",
            StoreErrorKind::Config => "not a usable store",
        };
        write!(f, "{kind}: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

// ---------------------------------------------------------------------------
// Idempotency records

/// Where an idempotency key lives: keys are scoped by tool, and by tenant when
/// the host says keys of different tenants (or callers) must not meet.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RecordKey {
    /// The tool's name.
    pub tool: String,
    /// The tenant or caller the key belongs to; empty when keys are shared.
    pub tenant: String,
    /// The key the model sent.
    pub key: String,
}

impl RecordKey {
    /// A key shared by every caller of `tool`. A key that is a UUID is
    /// taken in lower case: it is one key in any letter case (RFC 9562),
    /// whether the dispatcher or an operator's `resolve` names it.
    ///
    /// ```
    /// use contract_runtime::store::RecordKey;
    /// let k = RecordKey::new("post_comment", "0B9F7A52-8C1E-4E5B-9A53-2F6D0C1E7A10");
    /// assert_eq!(k.key, "0b9f7a52-8c1e-4e5b-9a53-2f6d0c1e7a10");
    /// assert_eq!(RecordKey::new("t", "Order-42").key, "Order-42");
    /// ```
    pub fn new(tool: impl Into<String>, key: impl Into<String>) -> RecordKey {
        let key = key.into();
        RecordKey {
            tool: tool.into(),
            tenant: String::new(),
            key: lowercase_uuid(&key).unwrap_or(key),
        }
    }

    /// The same key, scoped to `tenant`.
    pub fn for_tenant(mut self, tenant: impl Into<String>) -> RecordKey {
        self.tenant = tenant.into();
        self
    }
}

/// `key` in lower case when it is a UUID written with some capitals
/// (8-4-4-4-12 hex digits); `None` for any other key, whose case counts.
pub(crate) fn lowercase_uuid(key: &str) -> Option<String> {
    let b = key.as_bytes();
    let uuid = b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        });
    (uuid && b.iter().any(u8::is_ascii_uppercase)).then(|| key.to_ascii_lowercase())
}

/// A call that wants to run under an idempotency key.
#[derive(Clone, Debug)]
pub struct Claim {
    /// The scoped key.
    pub key: RecordKey,
    /// Digest of the canonical arguments (`sha256:...`).
    pub digest: String,
    /// The contract's revision: a key is bound to the contract it ran under.
    pub revision: String,
    /// The call that claims the key (recorded for operators).
    pub call_id: String,
    /// How long the claim holds before its worker counts as dead: longer than
    /// the tool's timeout, so a live worker never loses it.
    pub lease: Duration,
    /// How long the completed record is kept (then the key is new again).
    pub retention: Duration,
}

impl Claim {
    /// A claim with a one-minute lease and the default retention.
    pub fn new(
        key: RecordKey,
        digest: impl Into<String>,
        revision: impl Into<String>,
        call_id: impl Into<String>,
    ) -> Claim {
        Claim {
            key,
            digest: digest.into(),
            revision: revision.into(),
            call_id: call_id.into(),
            lease: Duration::from_secs(60),
            retention: DEFAULT_RETENTION,
        }
    }
}

/// The right to run a claimed call and record its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The key claimed.
    pub key: RecordKey,
    /// Unguessable; only the claimant can complete or release.
    pub token: String,
}

/// What a claim is answered.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Claimed {
    /// First arrival: the key is now held; run the tool once, then
    /// [`IdempotencyStore::complete`] or [`IdempotencyStore::release`].
    Run(Lease),
    /// Completed before: this is the recorded envelope; run nothing.
    Replay(Box<Envelope>),
    /// The key was first used with other arguments or another revision of the contract.
    Reused {
        /// The arguments were the same; the contract changed since.
        revision_changed: bool,
    },
    /// Another worker holds the key right now; run nothing, ask again later.
    InFlight {
        /// When the holder's lease runs out at the latest.
        retry_after_ms: u64,
    },
    /// The outcome is in doubt; run nothing until an operator resolves it.
    Unknown(Doubt),
}

/// Why a record's outcome is in doubt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Doubt {
    /// The worker's lease ran out without an outcome: it died or hung mid-call.
    LeaseExpired,
    /// The run itself ended `unknown` (a write that timed out or panicked).
    Recorded,
}

/// An operator's verdict on a record in doubt. Closed: the effect happened
/// or it did not, so it is not `#[non_exhaustive]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The effect happened: the key answers a replay (`ok`, no result).
    Done,
    /// The effect did not happen: the record goes, and the key may run again.
    Failed,
}

/// A record whose outcome is in doubt, as an operator sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DoubtfulRecord {
    /// The scoped key.
    pub key: RecordKey,
    /// Why it is in doubt.
    pub doubt: Doubt,
    /// The call that claimed it.
    pub call_id: String,
    /// Digest of its arguments.
    pub digest: String,
    /// When it was claimed (ms since the Unix epoch, database clock).
    pub claimed_ms: i64,
}

/// The state a stored idempotency record is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum RecordState {
    /// Claimed; its worker holds a lease.
    Running,
    /// Completed; the envelope is stored.
    Done,
    /// The run ended `unknown`; the envelope is stored.
    Unknown,
}

impl RecordState {
    /// The state as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordState::Running => "running",
            RecordState::Done => "done",
            RecordState::Unknown => "unknown",
        }
    }

    /// Reads a stored state.
    pub fn parse(s: &str) -> Result<RecordState, StoreError> {
        match s {
            "running" => Ok(RecordState::Running),
            "done" => Ok(RecordState::Done),
            "unknown" => Ok(RecordState::Unknown),
            other => Err(StoreError::invalid(format!(
                "idempotency record in state `{other}`"
            ))),
        }
    }

    /// The state an outcome is recorded in.
    pub fn of(envelope: &Envelope) -> RecordState {
        if envelope.status == Status::Unknown {
            RecordState::Unknown
        } else {
            RecordState::Done
        }
    }
}

/// An idempotency record as an operator lists it
/// ([`IdempotencyStore::records`], `toolbox state records`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoredRecord {
    /// The scoped key.
    pub key: RecordKey,
    /// Its state as stored.
    pub state: RecordState,
    /// Whether its outcome is in doubt now (`unknown`, or `running` past its
    /// lease): exactly the records [`IdempotencyStore::in_doubt`] lists.
    pub in_doubt: bool,
    /// The call that claimed it.
    pub call_id: String,
    /// Digest of its arguments.
    pub digest: String,
    /// The recorded envelope's status (`ok`, `failed`, ...), for `done` and
    /// `unknown` records.
    pub status: Option<String>,
    /// When it was claimed (ms since the Unix epoch, database clock).
    pub claimed_ms: i64,
    /// When a completed record expires (ms, database clock).
    pub expires_ms: i64,
}

impl StoredRecord {
    /// The status of a recorded envelope's JSON text (`None` if unreadable).
    pub(crate) fn status_of(envelope: Option<&str>) -> Option<String> {
        let v: Value = serde_json::from_str(envelope?).ok()?;
        v.get("status")?.as_str().map(str::to_string)
    }
}

/// A stored record, as a claim that could not insert finds it.
#[derive(Clone, Debug)]
pub struct ExistingRecord {
    /// Digest of the arguments it was claimed with.
    pub digest: String,
    /// The contract revision it was claimed under.
    pub revision: String,
    /// Its state.
    pub state: RecordState,
    /// When the claimant's lease runs out (ms, database clock).
    pub lease_until_ms: i64,
    /// When the record expires (ms, database clock).
    pub expires_ms: i64,
    /// The recorded envelope (JSON), for `done` and `unknown`.
    pub envelope: Option<String>,
    /// The lease token of a `running` record: it names the process that
    /// holds it, where that can be named (see [`ExistingRecord::holder_gone`]).
    pub token: Option<String>,
}

impl ExistingRecord {
    /// A `running` record whose lease is live but whose holder is known to
    /// be gone (killed on this machine mid-call): it can never finish, so
    /// the store ends its lease now and the key answers `unknown` at once
    /// instead of `in-flight` until the lease runs out. Returns the token
    /// to end.
    pub fn holder_gone(&self, now_ms: i64) -> Option<&str> {
        let token = self.token.as_deref()?;
        (self.state == RecordState::Running
            && self.lease_until_ms > now_ms
            && holder::holder_gone(token))
        .then_some(token)
    }
}

/// A fresh lease token, naming this process as its holder where it can be
/// named (see [`ExistingRecord::holder_gone`]).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) use holder::lease_token;

/// What a record answers a claim that found it, at the database's `now_ms`:
/// the one table of `docs/state.md`, shared by every store.
pub fn judge_claim(existing: &ExistingRecord, claim: &Claim, now_ms: i64) -> Claimed {
    // A key in doubt answers `unknown` to every call, whatever its
    // arguments: the first call's effect may have happened, and "send a new
    // key" would invite the model to make it again under one.
    match existing.state {
        RecordState::Running if existing.lease_until_ms <= now_ms => {
            return Claimed::Unknown(Doubt::LeaseExpired)
        }
        RecordState::Unknown => return Claimed::Unknown(Doubt::Recorded),
        _ => {}
    }
    // Stripe's rule otherwise: the same key with other arguments is an
    // error, so a model learns to send a new key.
    if existing.digest != claim.digest {
        return Claimed::Reused {
            revision_changed: false,
        };
    }
    if existing.revision != claim.revision {
        return Claimed::Reused {
            revision_changed: true,
        };
    }
    match existing.state {
        RecordState::Running if existing.lease_until_ms > now_ms => Claimed::InFlight {
            retry_after_ms: (existing.lease_until_ms - now_ms).max(1) as u64,
        },
        RecordState::Running => Claimed::Unknown(Doubt::LeaseExpired),
        RecordState::Unknown => Claimed::Unknown(Doubt::Recorded),
        RecordState::Done => match existing.envelope.as_deref().map(serde_json::from_str) {
            Some(Ok(env)) => Claimed::Replay(Box::new(env)),
            // A done record without a readable envelope cannot be replayed,
            // and running again could duplicate the effect.
            _ => Claimed::Unknown(Doubt::Recorded),
        },
    }
}

/// The envelope a key answers after an operator resolved it as done: the
/// effect happened, but the tool's output was never recorded.
pub fn settled_envelope(tool: &str) -> Envelope {
    Envelope::failure("", tool, Status::Ok, true, Vec::new())
}

/// Where idempotency records live.
///
/// A key is claimed atomically before the tool runs; exactly one of many
/// concurrent claims of one key gets [`Claimed::Run`]. See `docs/state.md`.
pub trait IdempotencyStore: Send + Sync {
    /// Claims `claim.key`, or says what the record already there answers.
    /// A completed record past its retention counts as absent.
    fn claim<'a>(&'a self, claim: &'a Claim) -> StoreFuture<'a, Claimed>;

    /// Records the outcome of the run that holds `lease` (an `unknown`
    /// envelope leaves the record in doubt). `false` when the lease is no
    /// longer held: an operator resolved the record meanwhile.
    fn complete<'a>(&'a self, lease: &'a Lease, envelope: &'a Envelope) -> StoreFuture<'a, bool>;

    /// Extends a held lease to `lease` from now (database clock), so a live
    /// worker whose tool runs long keeps its claim while a dead one loses it
    /// soon. `false` when the lease is no longer held.
    fn renew<'a>(&'a self, lease: &'a Lease, lease_for: Duration) -> StoreFuture<'a, bool>;

    /// Drops the claim: the run is known to have had no effect (a transient
    /// failure), so the key may run again. `false` when the lease is not held.
    fn release<'a>(&'a self, lease: &'a Lease) -> StoreFuture<'a, bool>;

    /// Settles a record in doubt. `false` when `key` has no record in doubt
    /// (absent, completed, or still running within its lease).
    fn resolve<'a>(&'a self, key: &'a RecordKey, as_: Resolution) -> StoreFuture<'a, bool>;

    /// Records whose outcome is in doubt, oldest first.
    fn in_doubt(&self) -> StoreFuture<'_, Vec<DoubtfulRecord>>;

    /// Every record, oldest first: what an operator or a test compares with
    /// the effects and the journal. Records whose holder is known to be gone
    /// are in doubt here too, as in [`IdempotencyStore::in_doubt`].
    fn records(&self) -> StoreFuture<'_, Vec<StoredRecord>>;

    /// Deletes completed records past their retention, approval requests
    /// past their expiry and tasks past theirs (a task whose worker still
    /// runs it stays); returns how many went. Records in doubt stay.
    fn purge(&self) -> StoreFuture<'_, u64>;
}

// ---------------------------------------------------------------------------
// Approval requests

/// Where an approval request is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ApprovalState {
    /// Waiting for a person.
    Pending,
    /// Granted: exactly one call with these arguments may run, before expiry.
    Granted,
    /// Refused; the decision's reason says why.
    Denied,
    /// Granted and consumed by the one call it allowed.
    Used,
    /// Nobody decided, or the grant was not used, in time.
    Expired,
}

impl ApprovalState {
    /// The state as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalState::Pending => "pending",
            ApprovalState::Granted => "granted",
            ApprovalState::Denied => "denied",
            ApprovalState::Used => "used",
            ApprovalState::Expired => "expired",
        }
    }

    /// Reads a stored state.
    pub fn parse(s: &str) -> Result<ApprovalState, StoreError> {
        Ok(match s {
            "pending" => ApprovalState::Pending,
            "granted" => ApprovalState::Granted,
            "denied" => ApprovalState::Denied,
            "used" => ApprovalState::Used,
            "expired" => ApprovalState::Expired,
            other => {
                return Err(StoreError::invalid(format!(
                    "approval request in state `{other}`"
                )))
            }
        })
    }
}

/// An approval request as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRecord {
    /// Unguessable id (`apr_` and 32 hex digits).
    pub id: String,
    /// The tool to run.
    pub tool: String,
    /// Its arguments, secrets redacted.
    pub arguments: Value,
    /// Digest of the exact arguments the approval binds to.
    pub digest: String,
    /// The contract's approval rule.
    pub rule: String,
    /// Why approval is needed, in words for the person.
    pub reason: String,
    /// Who asked: [`Caller::name`](crate::Caller::name), the subject (else
    /// the tenant, else `-`). With `tenant`, it says whose the request is:
    /// only calls of that caller find its grant or denial.
    pub caller: String,
    /// The tenant of the caller who asked (empty when the caller named
    /// none): an approver of one tenant lists and decides only its requests
    /// ([`crate::Approvals::for_tenant`]).
    #[serde(default)]
    pub tenant: String,
    /// When it was asked (ms since the Unix epoch, database clock).
    pub created_ms: i64,
    /// When it stops being decidable or usable.
    pub expires_ms: i64,
    /// Where it is now (`expired` is reported once `expires_ms` passed).
    pub state: ApprovalState,
    /// Who decided.
    pub decided_by: Option<String>,
    /// When they decided.
    pub decided_ms: Option<i64>,
    /// Why, in their words.
    pub decision_reason: Option<String>,
}

/// A new approval request.
#[derive(Clone, Debug)]
pub struct NewApproval {
    /// The tool to run.
    pub tool: String,
    /// Its arguments, secrets redacted.
    pub arguments: Value,
    /// Digest of the exact arguments.
    pub digest: String,
    /// The contract's approval rule.
    pub rule: String,
    /// Why approval is needed.
    pub reason: String,
    /// Who asks ([`Caller::name`](crate::Caller::name)).
    pub caller: String,
    /// The asking caller's tenant (empty when it named none).
    pub tenant: String,
    /// How long until it expires.
    pub ttl: Duration,
}

/// A person's decision on a pending request.
#[derive(Clone, Debug)]
pub struct Decision {
    /// Grant (`true`) or deny.
    pub grant: bool,
    /// Who decides.
    pub by: String,
    /// Why, in their words.
    pub reason: Option<String>,
}

/// What a decision came to.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Decided {
    /// The request was pending and now carries the decision.
    Now(ApprovalRecord),
    /// The request was no longer pending (decided before, used or expired); unchanged.
    Already(ApprovalRecord),
    /// No request has this id.
    Missing,
}

/// Which approval requests to list.
#[derive(Clone, Debug, Default)]
pub struct ApprovalFilter {
    /// Only in this state.
    pub state: Option<ApprovalState>,
    /// Only for this tool.
    pub tool: Option<String>,
    /// Only from this caller ([`ApprovalRecord::caller`]).
    pub caller: Option<String>,
    /// Only for these exact arguments.
    pub digest: Option<String>,
    /// Only of this tenant (`Some("")`: of callers that named none).
    pub tenant: Option<String>,
}

impl ApprovalFilter {
    /// Whether `r` passes (used by stores that filter in Rust).
    pub fn accepts(&self, r: &ApprovalRecord) -> bool {
        self.state.is_none_or(|s| s == r.state)
            && self.tool.as_ref().is_none_or(|t| *t == r.tool)
            && self.caller.as_ref().is_none_or(|c| *c == r.caller)
            && self.digest.as_ref().is_none_or(|d| *d == r.digest)
            && self.tenant.as_ref().is_none_or(|t| *t == r.tenant)
    }
}

/// Where approval requests live.
pub trait ApprovalStore: Send + Sync {
    /// Records a pending request with a fresh unguessable id.
    fn create_approval<'a>(&'a self, new: &'a NewApproval) -> StoreFuture<'a, ApprovalRecord>;

    /// One request by id.
    fn approval<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<ApprovalRecord>>;

    /// Requests that pass `filter`, oldest first (those created in the same
    /// millisecond in no particular order).
    fn approvals<'a>(&'a self, filter: &'a ApprovalFilter) -> StoreFuture<'a, Vec<ApprovalRecord>>;

    /// Grants or denies a pending, unexpired request.
    fn decide<'a>(&'a self, id: &'a str, decision: &'a Decision) -> StoreFuture<'a, Decided>;

    /// Uses a grant up: one atomic conditional update from `granted` to
    /// `used`, only for `digest` and before expiry. `true` for exactly one of
    /// any number of concurrent consumers.
    fn consume<'a>(&'a self, id: &'a str, digest: &'a str) -> StoreFuture<'a, bool>;
}

// ---------------------------------------------------------------------------
// The call journal

/// One journal entry: a call, an approval request or a decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalRecord {
    /// The provider's call id (or the approval id for approval events).
    pub call_id: String,
    /// The tool requested.
    pub tool: String,
    /// `call`, `approval-request`, `approval-decision` or `approval-used`.
    pub event: String,
    /// Who called: [`Caller::name`](crate::Caller::name), the subject, else
    /// the tenant (`None` for a caller that names neither).
    pub caller: Option<String>,
    /// The caller's tenant, when it named one.
    #[serde(default)]
    pub tenant: Option<String>,
    /// The arguments, secrets redacted.
    pub arguments: Value,
    /// The envelope status (or the approval state).
    pub status: String,
    /// The error codes.
    pub codes: Vec<String>,
    /// Whether replaying is safe.
    pub retry_safe: bool,
    /// Answered from an idempotency record.
    pub replayed: bool,
    /// When the call started (ms since the Unix epoch, the host's clock).
    pub started_ms: i64,
    /// How long it took.
    pub duration_us: u64,
}

/// Which journal entries to read.
#[derive(Clone, Debug, Default)]
pub struct JournalQuery {
    /// Only this call.
    pub call_id: Option<String>,
    /// Only this tool.
    pub tool: Option<String>,
    /// Started at or after (ms since the Unix epoch).
    pub since_ms: Option<i64>,
    /// Started before.
    pub until_ms: Option<i64>,
    /// At most this many, oldest first.
    pub limit: Option<u32>,
    /// Only of this tenant.
    pub tenant: Option<String>,
}

impl JournalQuery {
    /// Whether `r` passes (used by stores that filter in Rust).
    pub fn accepts(&self, r: &JournalRecord) -> bool {
        self.call_id.as_ref().is_none_or(|c| *c == r.call_id)
            && self.tool.as_ref().is_none_or(|t| *t == r.tool)
            && self.since_ms.is_none_or(|t| r.started_ms >= t)
            && self.until_ms.is_none_or(|t| r.started_ms < t)
            && self
                .tenant
                .as_ref()
                .is_none_or(|t| Some(t) == r.tenant.as_ref())
    }

    fn limit_or_all(&self) -> i64 {
        self.limit.map_or(i64::MAX, i64::from)
    }
}

/// Where the call journal lives.
pub trait JournalStore: Send + Sync {
    /// Appends one entry.
    fn append<'a>(&'a self, record: &'a JournalRecord) -> StoreFuture<'a, ()>;

    /// Entries that pass `query`, oldest first.
    fn query<'a>(&'a self, query: &'a JournalQuery) -> StoreFuture<'a, Vec<JournalRecord>>;

    /// Deletes the entries that started before `before_ms` (ms since the
    /// Unix epoch, the clock `started_ms` was taken by); returns how many
    /// went. The dispatcher calls it with [`RecordTimes::journal_retention`].
    fn purge_journal(&self, before_ms: i64) -> StoreFuture<'_, u64>;
}

// ---------------------------------------------------------------------------
// Tasks

/// How long a finished task stays readable unless the host says otherwise.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Whose a task is: only a caller of the same tenant and subject reads,
/// lists or cancels it (empty strings for a caller that names none).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TaskOwner {
    /// The caller's tenant.
    pub tenant: String,
    /// The caller's subject.
    pub subject: String,
}

/// A task about to run in the background.
#[derive(Clone, Debug)]
pub struct NewTask {
    /// The tool it runs.
    pub tool: String,
    /// Whose it is.
    pub owner: TaskOwner,
    /// The request key of a keyed write, as its idempotency record names it
    /// (the record is `(tool, owner.tenant, key)`): that record, not the
    /// task, holds the outcome once the call recorded it.
    pub key: Option<String>,
    /// How long the running worker's lease holds before it counts as dead
    /// (renewed while it runs, as a keyed call's claim is).
    pub lease: Duration,
    /// How long the task stays readable after it was created.
    pub ttl: Duration,
}

/// The right to renew and finish a task: held by the worker that runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskLease {
    /// The task's id (`task_` and 32 hex digits), unguessable.
    pub id: String,
    /// Names the worker's process where it can be named, as a claim's
    /// lease token does.
    pub token: String,
    /// When it was created (ms since the Unix epoch, database clock).
    pub created_ms: i64,
}

/// Where a task is, as a reader sees it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TaskState {
    /// Its worker runs it.
    Working,
    /// It ended; this is the call's envelope (whatever its status).
    Done(Box<Envelope>),
    /// Its owner cancelled it before it ended.
    Cancelled,
    /// Its worker stopped (killed, or its lease ran out) before recording an
    /// outcome, or the record of its outcome is gone: the effect may have
    /// happened, and the task never runs again.
    Unknown(Doubt),
}

/// A task as its owner reads it ([`TaskStore::task`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TaskRecord {
    /// The task's id.
    pub id: String,
    /// The tool it runs.
    pub tool: String,
    /// Whose it is.
    pub owner: TaskOwner,
    /// The request key of a keyed write.
    pub key: Option<String>,
    /// Where it is now.
    pub state: TaskState,
    /// When it was created (ms since the Unix epoch, database clock).
    pub created_ms: i64,
    /// When its state last changed.
    pub updated_ms: i64,
    /// When it stops being readable.
    pub expires_ms: i64,
}

/// A stored task row, with the idempotency record of its key when that
/// record was claimed by this task's call: what [`judge_task`] reads.
#[derive(Clone, Debug)]
pub struct TaskRow {
    /// `working`, `done` or `cancelled`.
    pub state: String,
    /// The envelope, for a `done` task whose outcome is not under its key.
    pub envelope: Option<String>,
    /// The worker's lease token while `working`.
    pub token: Option<String>,
    /// When the worker's lease runs out.
    pub lease_until_ms: i64,
    /// The key's record, when this task's call claimed it: its state and
    /// envelope.
    pub record: Option<(RecordState, Option<String>)>,
}

/// What a stored task reads as at the database's `now_ms`: the one rule
/// every store shares. A keyed write's outcome is read from its key's
/// record (the one source of it); a worker that stopped leaves the task
/// `unknown`, exactly as its key's record reads.
pub fn judge_task(row: &TaskRow, now_ms: i64) -> Result<TaskState, StoreError> {
    // The key's record holds the outcome once the call recorded it, even
    // when the worker died before it could mark the task done. A cancelled
    // task stays cancelled when its call, stopped by the cancel, left the
    // key in doubt (the key itself reads `unknown`).
    let stopped = row.state == "cancelled";
    if let Some((state @ (RecordState::Done | RecordState::Unknown), Some(env))) = &row.record {
        if stopped && *state == RecordState::Unknown {
            return Ok(TaskState::Cancelled);
        }
        return Ok(match serde_json::from_str::<Envelope>(env) {
            Ok(env) => TaskState::Done(Box::new(env)),
            Err(_) => TaskState::Unknown(Doubt::Recorded),
        });
    }
    match row.state.as_str() {
        "cancelled" => Ok(TaskState::Cancelled),
        "done" => Ok(match row.envelope.as_deref().map(serde_json::from_str) {
            Some(Ok(env)) => TaskState::Done(Box::new(env)),
            // Recorded under its key, whose record an operator settled or
            // retention removed since: the outcome is no longer known here.
            _ => TaskState::Unknown(Doubt::Recorded),
        }),
        "working" => {
            let gone = row.token.as_deref().is_some_and(holder::holder_gone);
            Ok(if row.lease_until_ms <= now_ms || gone {
                TaskState::Unknown(Doubt::LeaseExpired)
            } else {
                TaskState::Working
            })
        }
        other => Err(StoreError::invalid(format!("task in state `{other}`"))),
    }
}

/// Where tasks live. A task's outcome is its call's envelope; a keyed
/// write's is its key's idempotency record, which the task points at.
pub trait TaskStore: Send + Sync {
    /// Records a new `working` task, before anyone is told of it.
    fn create_task<'a>(&'a self, new: &'a NewTask) -> StoreFuture<'a, TaskLease>;

    /// Extends the worker's lease to `lease_for` from now. `false` when the
    /// task is no longer the worker's to run: its owner cancelled it.
    fn renew_task<'a>(&'a self, lease: &'a TaskLease, lease_for: Duration)
        -> StoreFuture<'a, bool>;

    /// Marks the task done with `envelope`, unless its key's record already
    /// holds this call's outcome (then the task points at it). `false` when
    /// the lease is no longer held (cancelled meanwhile).
    fn finish_task<'a>(
        &'a self,
        lease: &'a TaskLease,
        envelope: &'a Envelope,
    ) -> StoreFuture<'a, bool>;

    /// One task of `owner`'s; `None` for an id that is not theirs, unknown
    /// or expired (the same answer, so ids of others cannot be probed).
    fn task<'a>(&'a self, id: &'a str, owner: &'a TaskOwner)
        -> StoreFuture<'a, Option<TaskRecord>>;

    /// `owner`'s unexpired tasks, newest first.
    fn tasks<'a>(&'a self, owner: &'a TaskOwner) -> StoreFuture<'a, Vec<TaskRecord>>;

    /// Cancels `owner`'s task while its worker runs it (a conditional
    /// update; a task that ended or is in doubt keeps its state); returns
    /// the task as it is now, `None` as [`TaskStore::task`] does.
    fn cancel_task<'a>(
        &'a self,
        id: &'a str,
        owner: &'a TaskOwner,
    ) -> StoreFuture<'a, Option<TaskRecord>>;
}

/// Everything the dispatcher keeps: what a host hands over.
pub trait Store: IdempotencyStore + ApprovalStore + JournalStore {
    /// Where the state lives, for a line on stderr (`sqlite:/path`, never a password).
    fn describe(&self) -> String;

    /// Where its tasks live, for a store that keeps them (the three of this
    /// crate do); `None` by default, and a tool that runs as a task then
    /// runs within its request.
    fn task_store(&self) -> Option<&dyn TaskStore> {
        None
    }
}

/// Opens a store from its command-line form: `memory`, `sqlite:PATH` or
/// `postgres:URL` (the URL as libpq takes it, `postgres://user@host:port/db`).
pub async fn open(spec: &str) -> Result<Arc<dyn Store>, StoreError> {
    open_spec(spec, false).await
}

/// [`open`] for a view of a store a server made (an operator's commands):
/// a missing SQLite file, one without the store's tables, or a database
/// without them is refused and nothing is created in it; `memory` is
/// refused, since it lives inside one process.
pub async fn open_existing(spec: &str) -> Result<Arc<dyn Store>, StoreError> {
    if spec == "memory" {
        return Err(StoreError::config(
            "a memory store lives inside one process and cannot be opened from another",
        ));
    }
    open_spec(spec, true).await
}

async fn open_spec(spec: &str, existing: bool) -> Result<Arc<dyn Store>, StoreError> {
    if spec == "memory" {
        return Ok(Arc::new(MemoryStore::new()));
    }
    if let Some(path) = spec.strip_prefix("sqlite:") {
        if path.is_empty() {
            return Err(StoreError::config(
                "`sqlite:` needs the path of its file: sqlite:PATH",
            ));
        }
        #[cfg(feature = "sqlite")]
        return Ok(Arc::new(SqliteStore::open_with(
            path,
            SqliteOptions {
                existing,
                ..SqliteOptions::default()
            },
        )?));
        #[cfg(not(feature = "sqlite"))]
        return Err(StoreError::unavailable(format!(
            "`sqlite:{path}` needs contract-runtime's `sqlite` feature"
        )));
    }
    if spec.starts_with("postgres:") || spec.starts_with("postgresql:") {
        #[cfg(feature = "postgres")]
        return Ok(Arc::new(
            PostgresStore::connect_with(
                spec,
                PostgresOptions {
                    existing,
                    ..PostgresOptions::default()
                },
            )
            .await?,
        ));
        #[cfg(not(feature = "postgres"))]
        return Err(StoreError::unavailable(
            "a `postgres:` store needs contract-runtime's `postgres` feature",
        ));
    }
    let _ = existing;
    Err(StoreError::config(format!(
        "`{spec}` is not a store: use memory, sqlite:PATH or postgres:URL"
    )))
}

/// A fresh unguessable id: `prefix`, `_`, and 128 random bits in hex.
pub fn new_id(prefix: &str) -> Result<String, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::unavailable(format!("no randomness for an id: {e}")))?;
    let mut s = String::with_capacity(prefix.len() + 33);
    s.push_str(prefix);
    s.push('_');
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    Ok(s)
}

/// Milliseconds in a duration, saturating (a lease of centuries is still a
/// lease) well below `i64::MAX`: the stores add it to their clock, and the
/// sum must not overflow there (PostgreSQL refuses it, SQLite turns it into
/// a float).
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis())
        .unwrap_or(i64::MAX)
        .min(i64::MAX / 4)
}

fn envelope_json(envelope: &Envelope) -> String {
    envelope.to_json_string()
}

#[cfg_attr(not(any(feature = "sqlite", feature = "postgres")), allow(dead_code))]
fn json_text(v: &Value) -> String {
    v.to_string()
}

#[cfg_attr(not(any(feature = "sqlite", feature = "postgres")), allow(dead_code))]
fn parse_json(s: &str, what: &str) -> Result<Value, StoreError> {
    serde_json::from_str(s).map_err(|e| StoreError::invalid(format!("{what} is not JSON: {e}")))
}

#[cfg_attr(not(any(feature = "sqlite", feature = "postgres")), allow(dead_code))]
fn parse_codes(s: &str) -> Result<Vec<String>, StoreError> {
    serde_json::from_str(s).map_err(|e| StoreError::invalid(format!("journal codes: {e}")))
}

#[cfg(test)]
mod uuid_keys {
    use super::lowercase_uuid;

    #[test]
    fn only_a_uuid_loses_its_case() {
        assert_eq!(
            lowercase_uuid("123E4567-E89B-12D3-A456-426614174ABC").as_deref(),
            Some("123e4567-e89b-12d3-a456-426614174abc")
        );
        for kept in [
            "123e4567-e89b-12d3-a456-426614174abc",
            "Order-42",
            "123E4567E89B12D3A456426614174ABC",
            "123E4567-E89B-12D3-A456-426614174ABG",
        ] {
            assert_eq!(lowercase_uuid(kept), None, "{kept}");
        }
    }
}
