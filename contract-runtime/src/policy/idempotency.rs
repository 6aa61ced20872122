//! Idempotency keys: a repeated key returns the recorded outcome instead of
//! running again. Records sit behind [`IdempotencyStore`] so a host can move
//! them out of process.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::envelope::Envelope;

/// What the store knows about a key when a call arrives.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Begin {
    /// First use: the key is now reserved for this call.
    Fresh,
    /// Already completed: here is the recorded outcome.
    Replay(Box<Envelope>),
    /// A call with this key is running, or ended with an unknown outcome.
    Unknown,
    /// The key was first used with other arguments.
    Mismatch,
}

/// Where idempotency records live.
pub trait IdempotencyStore: Send + Sync {
    /// Reserves `key` for a call with arguments `digest`, or says what it already holds.
    fn begin(&self, tool: &str, key: &str, digest: &str) -> Begin;
    /// Records the outcome of the call that reserved `key`.
    fn finish(&self, tool: &str, key: &str, envelope: &Envelope);
    /// Drops the reservation: the call is known to have had no effect and may run again.
    fn release(&self, tool: &str, key: &str);
}

#[derive(Clone)]
enum Record {
    Running {
        digest: String,
    },
    Done {
        digest: String,
        envelope: Box<Envelope>,
    },
}

/// Records in memory, for one process.
#[derive(Default)]
pub struct MemoryStore {
    records: Mutex<HashMap<(String, String), Record>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

impl IdempotencyStore for MemoryStore {
    fn begin(&self, tool: &str, key: &str, digest: &str) -> Begin {
        let mut map = self.records.lock().unwrap_or_else(|e| e.into_inner());
        match map.get(&(tool.to_owned(), key.to_owned())) {
            None => {
                map.insert(
                    (tool.to_owned(), key.to_owned()),
                    Record::Running {
                        digest: digest.to_owned(),
                    },
                );
                Begin::Fresh
            }
            Some(Record::Running { digest: d } | Record::Done { digest: d, .. }) if d != digest => {
                Begin::Mismatch
            }
            Some(Record::Running { .. }) => Begin::Unknown,
            Some(Record::Done { envelope, .. }) if envelope.status == crate::Status::Unknown => {
                Begin::Unknown
            }
            Some(Record::Done { envelope, .. }) => Begin::Replay(envelope.clone()),
        }
    }

    fn finish(&self, tool: &str, key: &str, envelope: &Envelope) {
        let mut map = self.records.lock().unwrap_or_else(|e| e.into_inner());
        let k = (tool.to_owned(), key.to_owned());
        let digest = match map.get(&k) {
            Some(Record::Running { digest } | Record::Done { digest, .. }) => digest.clone(),
            None => return,
        };
        map.insert(
            k,
            Record::Done {
                digest,
                envelope: Box::new(envelope.clone()),
            },
        );
    }

    fn release(&self, tool: &str, key: &str) {
        let mut map = self.records.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(&(tool.to_owned(), key.to_owned()));
    }
}
