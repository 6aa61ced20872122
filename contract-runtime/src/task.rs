//! Calls that run in the background as tasks: a tool declared
//! `#[tool_contract(task = optional)]` (or `required`) may be started with
//! [`Tasks::start`], which records the task in the dispatcher's store, starts
//! the call and answers at once; its caller asks for it later
//! ([`Tasks::get`], [`Tasks::list`]) or cancels it ([`Tasks::cancel`]), from
//! this process or from any other serving the same store.
//!
//! The call itself is an ordinary dispatch, with the task's id as its call
//! id: the same pipeline (decoding, authority, idempotency, approval,
//! retries) and the same envelope, which is the task's outcome. What a task
//! reads as is the store's one rule ([`crate::store::judge_task`]): a keyed
//! write's outcome is its key's record; a task whose worker stopped before
//! recording an outcome is `unknown` and never runs again.
//!
//! ```
//! use std::sync::Arc;
//! use contract_runtime::prelude::*;
//! use contract_runtime::store::TaskState;
//! use contract_runtime::task::Tasks;
//!
//! #[derive(serde::Serialize, JsonSchema)]
//! struct Report { rows: u32 }
//!
//! /// Counts the rows of the report.
//! #[tool_contract(effect = read_only, task = optional)]
//! async fn count_rows() -> Result<Report, std::convert::Infallible> {
//!     Ok(Report { rows: 3 })
//! }
//!
//! # let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
//! # rt.block_on(async {
//! let registry = Registry::builder().tool(count_rows::contract()).build().unwrap();
//! let tasks = Tasks::new(Arc::new(Dispatcher::new(registry)));
//! let alice = Arc::new(Caller::new().subject("alice"));
//! let started = tasks.start(alice.clone(), "count_rows", "{}".into()).await.unwrap();
//! let done = loop {
//!     match tasks.get(&alice, &started.id).await.unwrap().unwrap().state {
//!         TaskState::Working => tokio::task::yield_now().await,
//!         other => break other,
//!     }
//! };
//! let TaskState::Done(envelope) = done else { panic!("{done:?}") };
//! assert_eq!(envelope.result["rows"], 3);
//! // Another caller is told it does not exist.
//! let bob = Arc::new(Caller::new().subject("bob"));
//! assert!(tasks.get(&bob, &started.id).await.unwrap().is_none());
//! # });
//! ```

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::codes;
use crate::context::Caller;
use crate::contract::{Idempotency, TaskSupport};
use crate::dispatch::Dispatcher;
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::store::{
    Doubt, NewTask, RecordKey, StoreError, TaskLease, TaskOwner, TaskRecord, TaskState, TaskStore,
};

/// Starts calls as tasks and answers for them. Cheap to clone: clones share
/// the dispatcher and the tasks this process runs.
#[derive(Clone)]
pub struct Tasks {
    dispatcher: Arc<Dispatcher>,
    /// The tasks this process runs, to stop one at once when its owner
    /// cancels it here (a cancel from another process reaches it at its
    /// next renewal).
    running: Arc<Mutex<HashMap<String, tokio::task::AbortHandle>>>,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks").finish_non_exhaustive()
    }
}

/// Why a task could not be started.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StartError {
    /// No tool of this name, or one not declared `task = ...`: call it
    /// within its request instead (where an unknown tool answers its
    /// envelope).
    NotATask,
    /// The store keeps no tasks ([`crate::store::Store::task_store`]).
    NoTaskStore,
    /// The store could not record the task; nothing ran.
    Store(StoreError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::NotATask => f.write_str("this tool does not run as a task"),
            StartError::NoTaskStore => f.write_str("the store keeps no tasks"),
            StartError::Store(e) => write!(f, "the task could not be recorded: {e}"),
        }
    }
}

impl std::error::Error for StartError {}

impl Tasks {
    /// Tasks run by `dispatcher`, kept in its store.
    pub fn new(dispatcher: Arc<Dispatcher>) -> Tasks {
        Tasks {
            dispatcher,
            running: Arc::default(),
        }
    }

    /// The dispatcher the tasks run on.
    pub fn dispatcher(&self) -> &Arc<Dispatcher> {
        &self.dispatcher
    }

    /// Whether `tool` may run as a task, and how.
    pub fn support(&self, tool: &str) -> TaskSupport {
        self.dispatcher
            .registry()
            .get(tool)
            .map_or(TaskSupport::Forbidden, |t| t.spec().task)
    }

    /// Whose tasks `caller`'s are: its tenant and subject.
    pub fn owner(caller: &Caller) -> TaskOwner {
        TaskOwner {
            tenant: caller.tenant_name().unwrap_or_default().to_owned(),
            subject: caller.subject_name().unwrap_or_default().to_owned(),
        }
    }

    /// Records a task for the call of `tool` with `arguments` (the JSON
    /// text as the client sent it), committed before this returns, then
    /// runs the call in the background on the current tokio runtime.
    /// Returns the task as it is now (`working`).
    pub async fn start(
        &self,
        caller: Arc<Caller>,
        tool: &str,
        arguments: String,
    ) -> Result<TaskRecord, StartError> {
        let Some(found) = self.dispatcher.registry().get(tool) else {
            return Err(StartError::NotATask);
        };
        let spec = found.spec();
        if spec.task == TaskSupport::Forbidden {
            return Err(StartError::NotATask);
        }
        let store = self.dispatcher.store().clone();
        let Some(tasks) = store.task_store() else {
            return Err(StartError::NoTaskStore);
        };
        let times = self.dispatcher.record_times();
        let owner = Tasks::owner(&caller);
        let new = NewTask {
            tool: spec.name.to_owned(),
            owner: owner.clone(),
            key: request_key(spec.name, spec.idempotency, &arguments),
            lease: times.lease,
            ttl: times.task_ttl,
        };
        let lease = tasks.create_task(&new).await.map_err(StartError::Store)?;
        let record = TaskRecord {
            id: lease.id.clone(),
            tool: new.tool,
            owner,
            key: new.key,
            state: TaskState::Working,
            created_ms: lease.created_ms,
            updated_ms: lease.created_ms,
            expires_ms: lease.created_ms.saturating_add(millis(times.task_ttl)),
        };
        let call = crate::ToolCall::new(lease.id.clone(), spec.name.to_owned(), arguments);
        let dispatcher = self.dispatcher.clone();
        let running = self.running.clone();
        let id = lease.id.clone();
        // The map's lock is held across the spawn, so the task cannot end
        // (and remove itself) before it is listed.
        let mut map = lock(&running);
        let handle = tokio::spawn(run(dispatcher, caller, call, lease, running.clone()));
        map.insert(id, handle.abort_handle());
        Ok(record)
    }

    /// One of `caller`'s tasks; `None` for an id that is not theirs,
    /// unknown or expired.
    pub async fn get(&self, caller: &Caller, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        let store = self.task_store()?;
        store.task(id, &Tasks::owner(caller)).await
    }

    /// `caller`'s tasks, newest first.
    pub async fn list(&self, caller: &Caller) -> Result<Vec<TaskRecord>, StoreError> {
        let store = self.task_store()?;
        store.tasks(&Tasks::owner(caller)).await
    }

    /// Cancels one of `caller`'s tasks while it runs, and stops its call
    /// where it stands when this process runs it (another process's worker
    /// stops at its next renewal). A task that ended or is in doubt keeps
    /// its state. Returns the task as it is now; `None` as [`Tasks::get`].
    pub async fn cancel(
        &self,
        caller: &Caller,
        id: &str,
    ) -> Result<Option<TaskRecord>, StoreError> {
        let store = self.task_store()?;
        let now = store.cancel_task(id, &Tasks::owner(caller)).await?;
        if matches!(&now, Some(t) if t.state == TaskState::Cancelled) {
            if let Some(handle) = lock(&self.running).remove(id) {
                handle.abort();
            }
        }
        Ok(now)
    }

    /// The envelope `task` answers with: its call's once it ended, or for a
    /// task in doubt (its worker stopped before recording an outcome) the
    /// `unknown` envelope a keyed call in doubt answers, `unknown-outcome`,
    /// safe to send again (`retry_safe`) only when the tool is read-only
    /// (the task itself never runs again); `None` while it works or once it
    /// was cancelled.
    pub fn outcome(&self, task: &TaskRecord) -> Option<Envelope> {
        let doubt = match &task.state {
            TaskState::Done(env) => return Some((**env).clone()),
            TaskState::Unknown(doubt) => doubt,
            _ => return None,
        };
        let read_only = (self.dispatcher.registry().get(&task.tool))
            .is_some_and(|t| !t.spec().effect.is_write());
        let why = match doubt {
            Doubt::LeaseExpired => {
                "the worker running this task stopped before it recorded an outcome"
            }
            _ => "this task's outcome was recorded as unknown, or its record is gone",
        };
        let hint = if read_only {
            "the tool is read-only: sending the call again is safe; this task never runs again"
        } else {
            "do not start it again blindly: check whether the effect happened; the task never runs again"
        };
        let e = ErrorEntry::new(codes::UNKNOWN_OUTCOME, why.to_string()).with_hint(hint);
        Some(Envelope::failure(
            &task.id,
            &task.tool,
            Status::Unknown,
            read_only,
            vec![e],
        ))
    }

    fn task_store(&self) -> Result<&dyn TaskStore, StoreError> {
        self.dispatcher
            .store()
            .task_store()
            .ok_or_else(|| StoreError::config("the store keeps no tasks"))
    }
}

/// The request key of a keyed tool's call, as its idempotency record names
/// it; `None` for other tools, or arguments without a readable key (the
/// call then fails to decode, and the task keeps that envelope).
fn request_key(tool: &str, idempotency: Idempotency, arguments: &str) -> Option<String> {
    let Idempotency::Key(field) = idempotency else {
        return None;
    };
    let v: Value = serde_json::from_str(arguments).ok()?;
    let key = v.get(field)?.as_str()?;
    Some(RecordKey::new(tool, key).key)
}

/// Runs one task's call, renewing its lease while it runs, and records
/// its envelope. Stops the call when the lease is lost (its owner
/// cancelled it from another process).
async fn run(
    dispatcher: Arc<Dispatcher>,
    caller: Arc<Caller>,
    call: crate::ToolCall,
    lease: TaskLease,
    running: Arc<Mutex<HashMap<String, tokio::task::AbortHandle>>>,
) {
    let store = dispatcher.store().clone();
    let every = (dispatcher.record_times().lease / 3).max(Duration::from_millis(10));
    let work = dispatcher.dispatch(&caller, &call);
    let beat = async {
        loop {
            tokio::time::sleep(every).await;
            let Some(tasks) = store.task_store() else {
                return;
            };
            match tasks
                .renew_task(&lease, dispatcher.record_times().lease)
                .await
            {
                Ok(true) => {}
                Ok(false) => return,
                // A missed beat is retried at the next; if the store stays
                // away, the task reads `unknown`, never runs twice.
                Err(e) => tracing::warn!(error = %e, "could not renew a task's lease"),
            }
        }
    };
    if let Some(envelope) = first(work, beat).await {
        if let Some(tasks) = store.task_store() {
            if let Err(e) = tasks.finish_task(&lease, &envelope).await {
                // The task reads `unknown` once its lease runs out.
                tracing::error!(error = %e, task = %lease.id, "could not record a task's outcome");
            }
        }
    }
    lock(&running).remove(&lease.id);
}

/// `work`'s output, or `None` when `stop` ends first (the call is dropped
/// where it stands).
async fn first<T>(work: impl Future<Output = T>, stop: impl Future<Output = ()>) -> Option<T> {
    let (mut work, mut stop) = (std::pin::pin!(work), std::pin::pin!(stop));
    std::future::poll_fn(move |cx| {
        if let std::task::Poll::Ready(v) = work.as_mut().poll(cx) {
            return std::task::Poll::Ready(Some(v));
        }
        if stop.as_mut().poll(cx).is_ready() {
            return std::task::Poll::Ready(None);
        }
        std::task::Poll::Pending
    })
    .await
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
