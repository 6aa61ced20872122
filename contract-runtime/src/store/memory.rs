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
            let mut approvals = lock(&self.approvals);
            let before = approvals.len();
            approvals.retain(|a| a.expires_ms > now);
            gone += (before - approvals.len()) as u64;
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

impl Store for MemoryStore {
    fn describe(&self) -> String {
        "memory".to_string()
    }
}
