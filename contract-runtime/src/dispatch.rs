//! The dispatcher: looks the tool up (the registry is the allowlist), walks
//! the call through the pipeline, scrubs secrets from the answer, and logs and
//! journals the call. Every complete call ends in exactly one envelope, and
//! nothing the dispatcher calls can make it unwind.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use crate::args::decode::{parse_strict, Limits};
use crate::call::ToolCall;
use crate::codes;
use crate::context::Caller;
use crate::envelope::{Envelope, ErrorEntry, Repair, Status};
use crate::guard::{self, CatchUnwind};
use crate::observe::{journal_arguments, Journal, JournalEntry, Secrets};
use crate::pipeline::{run_pipeline, Answer, Parts};
use crate::policy::breaker::{Breaker, BreakerConfig};
use crate::registry::Registry;
use crate::store::{JournalRecord, MemoryStore, RecordTimes, Store};
use crate::tool::{redacted, Tool};

/// How many reads of one model turn run at once unless the dispatcher is
/// told otherwise ([`Dispatcher::with_read_concurrency`]).
#[cfg(feature = "providers")]
pub const DEFAULT_READ_CONCURRENCY: usize = 8;

/// Runs calls against a registry.
///
/// ```no_run
/// # use contract_runtime::{Dispatcher, Registry, Caller, ToolCall};
/// # use std::sync::Arc;
/// # async fn demo(registry: Registry) {
/// let dispatcher = Dispatcher::new(registry);
/// let caller = Arc::new(Caller::new().grant("notes:read"));
/// let call = ToolCall::new("call_1", "search_notes", r#"{"query":"kv"}"#);
/// let envelope = dispatcher.dispatch(&caller, &call).await;
/// println!("{}", envelope.to_json_string());
/// # }
/// ```
pub struct Dispatcher {
    registry: Registry,
    parts: Parts,
    journal: Option<Arc<dyn Journal>>,
    /// Set by [`Dispatcher::with_store`]: the journal goes there too.
    journal_store: bool,
    /// How many reads of one model turn run at once (`turn.rs`).
    #[cfg(feature = "providers")]
    pub(crate) read_concurrency: usize,
    /// When this dispatcher last purged its store (ms, host clock; 0: never).
    last_purge: AtomicI64,
}

impl Dispatcher {
    /// A dispatcher with default limits and an in-memory idempotency store.
    pub fn new(registry: Registry) -> Dispatcher {
        Dispatcher {
            parts: Parts {
                limits: Limits::default(),
                store: Arc::new(MemoryStore::new()),
                times: RecordTimes::default(),
                breaker: Breaker::default(),
                host: registry.host_state().clone(),
            },
            registry,
            journal: None,
            journal_store: false,
            #[cfg(feature = "providers")]
            read_concurrency: DEFAULT_READ_CONCURRENCY,
            last_purge: AtomicI64::new(0),
        }
    }

    /// Sets when the breaker for unproductive retries opens.
    pub fn with_breaker(mut self, config: BreakerConfig) -> Self {
        self.parts.breaker = Breaker::new(config);
        self
    }

    /// Records every call, arguments redacted, in `journal`.
    pub fn with_journal(mut self, journal: Arc<dyn Journal>) -> Self {
        self.journal = Some(journal);
        self
    }

    /// Sets the argument size and depth limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.parts.limits = limits;
        self
    }

    /// Sets where idempotency records live, and journals every call there
    /// (arguments redacted). Several processes given the same store (SQLite
    /// file, PostgreSQL database) act as one: a request key has one effect
    /// in all. See [`crate::store`].
    pub fn with_store(mut self, store: Arc<dyn Store>) -> Self {
        self.parts.store = store;
        self.journal_store = true;
        self
    }

    /// Sets how long claims and records last.
    pub fn with_record_times(mut self, times: RecordTimes) -> Self {
        self.parts.times = times;
        self
    }

    /// How long its claims, records and tasks last.
    pub fn record_times(&self) -> RecordTimes {
        self.parts.times
    }

    /// The store records and the journal live in.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.parts.store
    }

    /// The approval requests this dispatcher's calls raise: list the pending
    /// ones, grant or deny them by id. Another process can do the same over
    /// the same store ([`crate::policy::approval::Approvals::new`]).
    pub fn approvals(&self) -> crate::policy::approval::Approvals {
        crate::policy::approval::Approvals::new(self.parts.store.clone())
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Dispatches one complete call. Never panics; always one envelope.
    /// Must run inside a tokio runtime (timeouts and backoff use its timer).
    pub async fn dispatch(&self, caller: &Arc<Caller>, call: &ToolCall) -> Envelope {
        let span = tracing::info_span!("tool_call", call_id = %call.id, tool = %call.name, effect = tracing::field::Empty, status = tracing::field::Empty, codes = tracing::field::Empty, duration_us = tracing::field::Empty);
        // A span no subscriber listens to has nothing to enter: the call
        // runs without the wrapper, whose code would run on every call.
        if span.is_disabled() {
            return self.dispatch_in(caller, call, &span).await;
        }
        // Instrumented, not entered: a guard held across `.await` would leak
        // this span into other calls polled on the same thread (a turn's
        // concurrent reads).
        tracing::Instrument::instrument(self.dispatch_in(caller, call, &span), span.clone()).await
    }

    async fn dispatch_in(
        &self,
        caller: &Arc<Caller>,
        call: &ToolCall,
        span: &tracing::Span,
    ) -> Envelope {
        // The clock is read only when someone will see the duration.
        let journaled = self.journal.is_some() || self.journal_store;
        let started = (!span.is_disabled() || journaled).then(Instant::now);
        let started_ms = if self.journal_store { now_ms() } else { 0 };
        // Lookup: the registry is the allowlist.
        let tool = self.registry.get(&call.name);
        // One statement, so that no envelope outlives it in this future's
        // state while the journal is written.
        let journal = match self.finish(
            tool,
            caller,
            call,
            match tool {
                Some(t) => self.run(t, caller, call).await,
                None => Box::new(Answer {
                    env: self.unknown_tool(call),
                    tree: None,
                }),
            },
            span,
            started,
            started_ms,
        ) {
            Ok(env) => return env,
            Err(journal) => journal,
        };
        journal.await
    }

    /// After the pipeline: secrets scrubbed, the span and the log written;
    /// `Err` with the journal's write, which hands the envelope back, when
    /// the call is journaled.
    #[allow(clippy::too_many_arguments)]
    fn finish<'a>(
        &'a self,
        tool: Option<&Tool>,
        caller: &'a Arc<Caller>,
        call: &'a ToolCall,
        answer: Box<Answer>,
        span: &tracing::Span,
        started: Option<Instant>,
        started_ms: i64,
    ) -> Result<Envelope, Pin<Box<dyn Future<Output = Envelope> + Send + 'a>>> {
        let journaled = self.journal.is_some() || self.journal_store;
        let Answer { mut env, tree } = *answer;
        // Secrets: the caller's registered values, and this call's
        // `#[arg(secret)]` values, which only a redacting pass can find.
        let arg_secrets = tool.is_some_and(|t| t.inner.has_secrets());
        let wants_args = arg_secrets || journaled || tracing::enabled!(tracing::Level::DEBUG);
        let mut found = Secrets::default();
        let redacted = match tool {
            Some(t) if wants_args => {
                let mut args = self.redact(t, &call.arguments, tree, &mut found);
                // A caller's own secret (its bearer token) sent as an
                // argument value is scrubbed from the log and the journal
                // as from the envelope.
                caller.secrets().scrub_value(&mut args);
                Some(args)
            }
            _ => None,
        };
        env.keep_messages_on_one_line();
        if found.is_empty() {
            caller.secrets().scrub_envelope(&mut env);
        } else {
            let mut all = caller.secrets().clone();
            all.extend(&found);
            all.scrub_envelope(&mut env);
        }

        let duration_us = started.map_or(0, |t| t.elapsed().as_micros() as u64);
        if !span.is_disabled() {
            if let Some(t) = tool {
                span.record("effect", t.spec().effect.as_str());
            }
            span.record("status", env.status.as_str());
            span.record("codes", tracing::field::debug(env.codes()));
            span.record("duration_us", duration_us);
        }
        if let Some(args) = &redacted {
            tracing::debug!(arguments = %args, "tool call arguments (redacted)");
        }
        tracing::info!(status = env.status.as_str(), "tool call");
        if !journaled {
            return Ok(env);
        }
        // Boxed, and given everything it needs: the journal's state (the
        // record, the store's future) is not carried by every call's future.
        Err(Box::pin(self.journal(
            caller,
            call,
            env,
            redacted,
            started_ms,
            duration_us,
        )))
    }

    /// Records the call in the journal and the store's journal; hands the
    /// envelope back.
    async fn journal(
        &self,
        caller: &Arc<Caller>,
        call: &ToolCall,
        env: Envelope,
        redacted: Option<Value>,
        started_ms: i64,
        duration_us: u64,
    ) -> Envelope {
        let arguments = journal_arguments(call.arguments.len(), || {
            redacted.unwrap_or_else(|| Value::from("[unknown tool: arguments not recorded]"))
        });
        let codes: Vec<String> = env.errors.iter().map(|e| e.code.clone()).collect();
        if self.journal_store {
            let record = JournalRecord {
                call_id: call.id.clone(),
                tool: call.name.clone(),
                event: "call".to_string(),
                caller: (caller.name() != "-").then(|| caller.name().to_owned()),
                tenant: caller.tenant_name().map(str::to_owned),
                arguments: arguments.clone(),
                status: env.status.as_str().to_string(),
                codes: codes.clone(),
                retry_safe: env.retry_safe,
                replayed: env.replayed,
                started_ms,
                duration_us,
            };
            // A journal that cannot be written must not fail the call it
            // records; nor may a panic in the host's store unwind from here.
            let store = &self.parts.store;
            match guard::catch(|| store.append(&record)) {
                Some(fut) => match CatchUnwind(fut).await {
                    Some(Ok(())) => {}
                    Some(Err(e)) => tracing::warn!(error = %e, "call journal write failed"),
                    None => tracing::error!("the store panicked journaling a call"),
                },
                None => tracing::error!("the store panicked journaling a call"),
            };
            self.purge_if_due(started_ms).await;
        }
        if let Some(j) = &self.journal {
            let entry = JournalEntry {
                ts_ms: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_millis())
                    .unwrap_or(0),
                call_id: call.id.clone(),
                tool: call.name.clone(),
                arguments,
                status: env.status.as_str().to_string(),
                codes,
                retry_safe: env.retry_safe,
                duration_us,
            };
            // The journal is the host's code: a panic in it loses the entry,
            // not the envelope.
            if guard::catch(|| j.record(&entry)).is_none() {
                tracing::error!("the journal panicked recording a call");
            }
        }
        env
    }

    /// Deletes what is past its time from the store (completed records past
    /// their retention, approval requests past their expiry, journal
    /// entries past [`RecordTimes::journal_retention`]) when
    /// [`RecordTimes::purge_every`] has passed since this dispatcher last
    /// did. One call of the many that find it due wins the swap and pays
    /// for the deletes; the store stays the size of its retention however
    /// long the server runs. Records in doubt are never purged.
    async fn purge_if_due(&self, now_ms: i64) {
        let every = i64::try_from(self.parts.times.purge_every.as_millis()).unwrap_or(i64::MAX);
        let last = self.last_purge.load(Ordering::Relaxed);
        if now_ms.saturating_sub(last) < every
            || self
                .last_purge
                .compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let keep =
            i64::try_from(self.parts.times.journal_retention.as_millis()).unwrap_or(i64::MAX);
        let store = &self.parts.store;
        let purged = async {
            let records = guarded(|| store.purge()).await?;
            let entries = guarded(|| store.purge_journal(now_ms.saturating_sub(keep))).await?;
            Ok::<_, String>((records, entries))
        };
        match purged.await {
            Ok((records, entries)) => {
                tracing::debug!(records, entries, "purged the store of expired state")
            }
            // Tried again once `purge_every` passed: the store only grows meanwhile.
            Err(e) => tracing::warn!(error = %e, "could not purge the store"),
        }
    }

    /// Runs the pipeline of `tool`, with a last panic capture around all of
    /// it: every user-supplied piece the stages call is guarded where it is
    /// called, and this catches anything else.
    async fn run(&self, tool: &Tool, caller: &Arc<Caller>, call: &ToolCall) -> Box<Answer> {
        // Boxed: the host moves the dispatch future around (into a task, a
        // join), and it stays a few words long instead of carrying the
        // pipeline's state.
        let pipeline = Box::pin(run_pipeline(&*tool.inner, &self.parts, caller, call));
        match CatchUnwind(pipeline).await {
            Some(answer) => answer,
            None => {
                let spec = tool.spec();
                // Where it panicked is lost, so whether the tool ran is too.
                let write = spec.effect.is_write();
                let mut errors = vec![ErrorEntry::new(
                    codes::INTERNAL,
                    format!("`{}` crashed while the call was dispatched", spec.name),
                )];
                let status = if write {
                    errors.push(ErrorEntry::new(
                        codes::UNKNOWN_OUTCOME,
                        "the call may or may not have taken effect".to_string(),
                    ));
                    Status::Unknown
                } else {
                    Status::Failed
                };
                Box::new(Answer {
                    env: Envelope::failure(&call.id, spec.name, status, spec.replay_safe(), errors),
                    tree: None,
                })
            }
        }
    }

    /// The call's arguments with secret values replaced, parsed under this
    /// dispatcher's limits (or taken from the pipeline's tree); collects the
    /// values it replaced into `secrets`.
    fn redact(&self, tool: &Tool, raw: &str, tree: Option<Value>, secrets: &mut Secrets) -> Value {
        let original = match tree {
            Some(v) => v,
            None => match parse_strict(raw, &self.parts.limits) {
                Ok(v) => v,
                Err(_) => return Value::from("[unparseable arguments]"),
            },
        };
        redacted(&*tool.inner, &original, secrets)
    }

    fn unknown_tool(&self, call: &ToolCall) -> Envelope {
        let names = self.registry.names().collect::<Vec<_>>().join(", ");
        let mut e = ErrorEntry::new(
            codes::UNKNOWN_TOOL,
            format!("no tool is named `{}`", call.name.escape_debug()),
        );
        e.repair = Some(Repair {
            hint: format!("call one of the available tools: {names}"),
            call: None,
        });
        Envelope::failure(&call.id, &call.name, Status::Invalid, true, vec![e])
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A store call of the purge, with a panic in the store read as an error.
async fn guarded<'a, T>(
    call: impl FnOnce() -> crate::store::StoreFuture<'a, T>,
) -> Result<T, String> {
    match guard::catch(call) {
        Some(fut) => match CatchUnwind(fut).await {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("the store panicked".to_string()),
        },
        None => Err("the store panicked".to_string()),
    }
}

/// The arguments of a call with secret values replaced, for logs and journals,
/// parsed under the default limits.
pub fn redacted_arguments(tool: &Tool, raw: &str) -> Value {
    match parse_strict(raw, &Limits::default()) {
        Ok(v) => redacted(&*tool.inner, &v, &mut Secrets::default()),
        Err(_) => Value::from("[unparseable arguments]"),
    }
}
