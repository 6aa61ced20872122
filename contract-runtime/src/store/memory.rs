//! The in-memory store: one process, gone when it exits. Its clock is the
//! process's; one mutex per kind of record makes every update atomic.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::{
    judge_claim, millis, new_id, settled_envelope, ApprovalFilter, ApprovalRecord, ApprovalState,
    ApprovalStore, Claim, Claimed, Decided, Decision, Doubt, DoubtfulRecord, ExistingRecord,
    IdempotencyStore, JournalQuery, JournalRecord, JournalStore, Lease, NewApproval, RecordKey,
    RecordState, Resolution, Store, StoreFuture, StoredRecord,
};
use super::{judge_task, NewTask, TaskLease, TaskOwner, TaskRecord, TaskRow, TaskStore};
use crate::envelope::Envelope;

struct Record {
    existing: ExistingRecord,
    call_id: String,
    token: Option<String>,
    claimed_ms: i64,
}

/// Records in this process's memory. Cheap, and enough for tests and
/// single-process throwaway runs; nothing survives a restart.
#[derive(Default)]
pub struct MemoryStore {
    records: Mutex<HashMap<RecordKey, Record>>,
    approvals: Mutex<Vec<ApprovalRecord>>,
    journal: Mutex<Vec<JournalRecord>>,
    tasks: Mutex<HashMap<String, Task>>,
}

/// A task as this store keeps it.
struct Task {
    tool: String,
    owner: TaskOwner,
    key: Option<String>,
    row: TaskRow,
    created_ms: i64,
    updated_ms: i64,
    expires_ms: i64,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, millis)
}

// A panic while holding a lock cannot leave a record half-written (every
// update is one assignment), so a poisoned lock is still good to use.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn in_doubt(r: &Record, now: i64) -> Option<Doubt> {
    match r.existing.state {
        RecordState::Unknown => Some(Doubt::Recorded),
        RecordState::Running if r.existing.lease_until_ms <= now => Some(Doubt::LeaseExpired),
        _ => None,
    }
}

fn shown(mut r: ApprovalRecord, now: i64) -> ApprovalRecord {
    if matches!(r.state, ApprovalState::Pending | ApprovalState::Granted) && r.expires_ms <= now {
        r.state = ApprovalState::Expired;
    }
    r
}

impl IdempotencyStore for MemoryStore {
    fn claim<'a>(&'a self, claim: &'a Claim) -> StoreFuture<'a, Claimed> {
        Box::pin(async move {
            let now = now_ms();
            let mut map = lock(&self.records);
            if let Some(r) = map.get(&claim.key) {
                let expired = r.existing.state == RecordState::Done && r.existing.expires_ms <= now;
                if !expired {
                    return Ok(judge_claim(&r.existing, claim, now));
                }
            }
            let token = new_id("lease")?;
            map.insert(
                claim.key.clone(),
                Record {
                    existing: ExistingRecord {
                        digest: claim.digest.clone(),
                        revision: claim.revision.clone(),
                        state: RecordState::Running,
                        lease_until_ms: now.saturating_add(millis(claim.lease)),
                        expires_ms: now.saturating_add(millis(claim.retention)),
                        envelope: None,
                        // one process holds every lease of this store
                        token: None,
                    },
                    call_id: claim.call_id.clone(),
                    token: Some(token.clone()),
                    claimed_ms: now,
                },
            );
            Ok(Claimed::Run(Lease {
                key: claim.key.clone(),
                token,
            }))
        })
    }

    fn complete<'a>(&'a self, lease: &'a Lease, envelope: &'a Envelope) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut map = lock(&self.records);
            match map.get_mut(&lease.key) {
                Some(r)
                    if r.existing.state == RecordState::Running
                        && r.token.as_deref() == Some(lease.token.as_str()) =>
                {
                    r.existing.state = RecordState::of(envelope);
                    r.existing.envelope = Some(super::envelope_json(envelope));
                    r.token = None;
                    Ok(true)
                }
                _ => Ok(false),
            }
        })
    }

    fn renew<'a>(&'a self, lease: &'a Lease, lease_for: Duration) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let now = now_ms();
            let mut map = lock(&self.records);
            match map.get_mut(&lease.key) {
                Some(r)
                    if r.existing.state == RecordState::Running
                        && r.token.as_deref() == Some(lease.token.as_str()) =>
                {
                    r.existing.lease_until_ms = now.saturating_add(millis(lease_for));
                    Ok(true)
                }
                _ => Ok(false),
            }
        })
    }

    fn release<'a>(&'a self, lease: &'a Lease) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut map = lock(&self.records);
            let held = map.get(&lease.key).is_some_and(|r| {
                r.existing.state == RecordState::Running
                    && r.token.as_deref() == Some(lease.token.as_str())
            });
            if held {
                map.remove(&lease.key);
            }
            Ok(held)
        })
    }

    fn resolve<'a>(&'a self, key: &'a RecordKey, as_: Resolution) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let now = now_ms();
            let mut map = lock(&self.records);
            let Some(r) = map.get_mut(key) else {
                return Ok(false);
            };
            if in_doubt(r, now).is_none() {
                return Ok(false);
            }
            match as_ {
                Resolution::Done => {
                    let retention = r.existing.expires_ms - r.claimed_ms;
                    r.existing.state = RecordState::Done;
                    r.existing.envelope = Some(super::envelope_json(&settled_envelope(&key.tool)));
                    r.existing.expires_ms = now.saturating_add(retention);
                    r.token = None;
                }
                Resolution::Failed => {
                    map.remove(key);
                }
            }
            Ok(true)
        })
    }

    fn in_doubt(&self) -> StoreFuture<'_, Vec<DoubtfulRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let map = lock(&self.records);
            let mut out: Vec<DoubtfulRecord> = map
                .iter()
                .filter_map(|(k, r)| {
                    in_doubt(r, now).map(|doubt| DoubtfulRecord {
                        key: k.clone(),
                        doubt,
                        call_id: r.call_id.clone(),
                        digest: r.existing.digest.clone(),
                        claimed_ms: r.claimed_ms,
                    })
                })
                .collect();
            out.sort_by(|a, b| (a.claimed_ms, &a.key).cmp(&(b.claimed_ms, &b.key)));
            Ok(out)
        })
    }

    fn records(&self) -> StoreFuture<'_, Vec<StoredRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let map = lock(&self.records);
            let mut out: Vec<StoredRecord> = map
                .iter()
                .map(|(k, r)| StoredRecord {
                    key: k.clone(),
                    state: r.existing.state,
                    in_doubt: in_doubt(r, now).is_some(),
                    call_id: r.call_id.clone(),
                    digest: r.existing.digest.clone(),
                    status: StoredRecord::status_of(r.existing.envelope.as_deref()),
                    claimed_ms: r.claimed_ms,
                    expires_ms: r.existing.expires_ms,
                })
                .collect();
            out.sort_by(|a, b| (a.claimed_ms, &a.key).cmp(&(b.claimed_ms, &b.key)));
            Ok(out)
        })
    }

    fn purge(&self) -> StoreFuture<'_, u64> {
        Box::pin(async move {
            let now = now_ms();
            let mut map = lock(&self.records);
            let before = map.len();
            map.retain(|_, r| {
                !(r.existing.state == RecordState::Done && r.existing.expires_ms <= now)
            });
            let mut gone = (before - map.len()) as u64;
            // Tasks lock before records (`read_task`): never the other way.
            drop(map);
            let mut approvals = lock(&self.approvals);
            let before = approvals.len();
            approvals.retain(|a| a.expires_ms > now);
            gone += (before - approvals.len()) as u64;
            drop(approvals);
            let mut tasks = lock(&self.tasks);
            let before = tasks.len();
            // A task past its time goes, unless its worker still runs it.
            tasks.retain(|_, t| {
                t.expires_ms > now || (t.row.state == "working" && t.row.lease_until_ms > now)
            });
            gone += (before - tasks.len()) as u64;
            Ok(gone)
        })
    }
}

impl ApprovalStore for MemoryStore {
    fn create_approval<'a>(&'a self, new: &'a NewApproval) -> StoreFuture<'a, ApprovalRecord> {
        Box::pin(async move {
            let now = now_ms();
            let record = ApprovalRecord {
                id: new_id("apr")?,
                tool: new.tool.clone(),
                arguments: new.arguments.clone(),
                digest: new.digest.clone(),
                rule: new.rule.clone(),
                reason: new.reason.clone(),
                caller: new.caller.clone(),
                tenant: new.tenant.clone(),
                created_ms: now,
                expires_ms: now.saturating_add(millis(new.ttl)),
                state: ApprovalState::Pending,
                decided_by: None,
                decided_ms: None,
                decision_reason: None,
            };
            let mut approvals = lock(&self.approvals);
            // One pending request per question, as the SQL stores' unique
            // index keeps it.
            if let Some(open) = approvals.iter().find(|a| {
                a.state == ApprovalState::Pending
                    && a.expires_ms > now
                    && (&a.tool, &a.tenant, &a.caller, &a.digest)
                        == (&new.tool, &new.tenant, &new.caller, &new.digest)
            }) {
                return Ok(open.clone());
            }
            approvals.push(record.clone());
            Ok(record)
        })
    }

    fn approval<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<ApprovalRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let list = lock(&self.approvals);
            Ok(list
                .iter()
                .find(|a| a.id == id)
                .map(|a| shown(a.clone(), now)))
        })
    }

    fn approvals<'a>(&'a self, filter: &'a ApprovalFilter) -> StoreFuture<'a, Vec<ApprovalRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let list = lock(&self.approvals);
            Ok(list
                .iter()
                .map(|a| shown(a.clone(), now))
                .filter(|a| filter.accepts(a))
                .collect())
        })
    }

    fn decide<'a>(&'a self, id: &'a str, decision: &'a Decision) -> StoreFuture<'a, Decided> {
        Box::pin(async move {
            let now = now_ms();
            let mut list = lock(&self.approvals);
            let Some(a) = list.iter_mut().find(|a| a.id == id) else {
                return Ok(Decided::Missing);
            };
            if a.state != ApprovalState::Pending || a.expires_ms <= now {
                return Ok(Decided::Already(shown(a.clone(), now)));
            }
            a.state = if decision.grant {
                ApprovalState::Granted
            } else {
                ApprovalState::Denied
            };
            a.decided_by = Some(decision.by.clone());
            a.decided_ms = Some(now);
            a.decision_reason = decision.reason.clone();
            Ok(Decided::Now(a.clone()))
        })
    }

    fn consume<'a>(&'a self, id: &'a str, digest: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let now = now_ms();
            let mut list = lock(&self.approvals);
            match list.iter_mut().find(|a| a.id == id) {
                Some(a)
                    if a.state == ApprovalState::Granted
                        && a.digest == digest
                        && a.expires_ms > now =>
                {
                    a.state = ApprovalState::Used;
                    Ok(true)
                }
                _ => Ok(false),
            }
        })
    }
}

impl JournalStore for MemoryStore {
    fn append<'a>(&'a self, record: &'a JournalRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            lock(&self.journal).push(record.clone());
            Ok(())
        })
    }

    fn query<'a>(&'a self, query: &'a JournalQuery) -> StoreFuture<'a, Vec<JournalRecord>> {
        Box::pin(async move {
            let list = lock(&self.journal);
            let limit = usize::try_from(query.limit_or_all()).unwrap_or(usize::MAX);
            Ok(list
                .iter()
                .filter(|r| query.accepts(r))
                .take(limit)
                .cloned()
                .collect())
        })
    }

    fn purge_journal(&self, before_ms: i64) -> StoreFuture<'_, u64> {
        Box::pin(async move {
            let mut list = lock(&self.journal);
            let before = list.len();
            list.retain(|r| r.started_ms >= before_ms);
            Ok((before - list.len()) as u64)
        })
    }
}

impl MemoryStore {
    /// `task` as its owner reads it: its key's record is looked up while
    /// `records` is held, so the two are read at one instant.
    fn read_task(&self, id: &str, task: &Task, now: i64) -> Result<TaskRecord, super::StoreError> {
        let mut row = task.row.clone();
        if let Some(key) = &task.key {
            let k = RecordKey {
                tool: task.tool.clone(),
                tenant: task.owner.tenant.clone(),
                key: key.clone(),
            };
            row.record = lock(&self.records)
                .get(&k)
                .filter(|r| r.call_id == id)
                .map(|r| (r.existing.state, r.existing.envelope.clone()));
        }
        Ok(TaskRecord {
            id: id.to_string(),
            tool: task.tool.clone(),
            owner: task.owner.clone(),
            key: task.key.clone(),
            state: judge_task(&row, now)?,
            created_ms: task.created_ms,
            updated_ms: task.updated_ms,
            expires_ms: task.expires_ms,
        })
    }

    /// Whether `lease` still holds its task `working`.
    fn held<'t>(tasks: &'t mut HashMap<String, Task>, lease: &TaskLease) -> Option<&'t mut Task> {
        tasks.get_mut(&lease.id).filter(|t| {
            t.row.state == "working" && t.row.token.as_deref() == Some(lease.token.as_str())
        })
    }
}

impl TaskStore for MemoryStore {
    fn create_task<'a>(&'a self, new: &'a NewTask) -> StoreFuture<'a, TaskLease> {
        Box::pin(async move {
            let now = now_ms();
            let lease = TaskLease {
                id: new_id("task")?,
                token: new_id("lease")?,
                created_ms: now,
            };
            lock(&self.tasks).insert(
                lease.id.clone(),
                Task {
                    tool: new.tool.clone(),
                    owner: new.owner.clone(),
                    key: new.key.clone(),
                    row: TaskRow {
                        state: "working".to_string(),
                        envelope: None,
                        token: Some(lease.token.clone()),
                        lease_until_ms: now.saturating_add(millis(new.lease)),
                        record: None,
                    },
                    created_ms: now,
                    updated_ms: now,
                    expires_ms: now.saturating_add(millis(new.ttl)),
                },
            );
            Ok(lease)
        })
    }

    fn renew_task<'a>(
        &'a self,
        lease: &'a TaskLease,
        lease_for: Duration,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let now = now_ms();
            let mut tasks = lock(&self.tasks);
            Ok(match Self::held(&mut tasks, lease) {
                Some(t) => {
                    t.row.lease_until_ms = now.saturating_add(millis(lease_for));
                    true
                }
                None => false,
            })
        })
    }

    fn finish_task<'a>(
        &'a self,
        lease: &'a TaskLease,
        envelope: &'a Envelope,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let now = now_ms();
            let mut tasks = lock(&self.tasks);
            let Some(t) = Self::held(&mut tasks, lease) else {
                return Ok(false);
            };
            let under_key = t.key.as_ref().is_some_and(|key| {
                let k = RecordKey {
                    tool: t.tool.clone(),
                    tenant: t.owner.tenant.clone(),
                    key: key.clone(),
                };
                lock(&self.records).get(&k).is_some_and(|r| {
                    r.call_id == lease.id && r.existing.state != RecordState::Running
                })
            });
            t.row.state = "done".to_string();
            t.row.token = None;
            t.row.envelope = (!under_key).then(|| super::envelope_json(envelope));
            t.updated_ms = now;
            Ok(true)
        })
    }

    fn task<'a>(
        &'a self,
        id: &'a str,
        owner: &'a TaskOwner,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let tasks = lock(&self.tasks);
            match tasks.get(id) {
                Some(t) if t.owner == *owner && t.expires_ms > now => {
                    self.read_task(id, t, now).map(Some)
                }
                _ => Ok(None),
            }
        })
    }

    fn tasks<'a>(&'a self, owner: &'a TaskOwner) -> StoreFuture<'a, Vec<TaskRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let tasks = lock(&self.tasks);
            let mut out = tasks
                .iter()
                .filter(|(_, t)| t.owner == *owner && t.expires_ms > now)
                .map(|(id, t)| self.read_task(id, t, now))
                .collect::<Result<Vec<_>, _>>()?;
            out.sort_by(|a, b| (b.created_ms, &a.id).cmp(&(a.created_ms, &b.id)));
            Ok(out)
        })
    }

    fn cancel_task<'a>(
        &'a self,
        id: &'a str,
        owner: &'a TaskOwner,
    ) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(async move {
            let now = now_ms();
            let mut tasks = lock(&self.tasks);
            let Some(t) = tasks
                .get_mut(id)
                .filter(|t| t.owner == *owner && t.expires_ms > now)
            else {
                return Ok(None);
            };
            if self.read_task(id, t, now)?.state == super::TaskState::Working {
                t.row.state = "cancelled".to_string();
                t.row.token = None;
                t.updated_ms = now;
            }
            self.read_task(id, t, now).map(Some)
        })
    }
}

impl Store for MemoryStore {
    fn describe(&self) -> String {
        "memory".to_string()
    }

    fn task_store(&self) -> Option<&dyn TaskStore> {
        Some(self)
    }
}
