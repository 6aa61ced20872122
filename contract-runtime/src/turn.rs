//! A model turn: every tool call of one model response, dispatched by effect,
//! and the provider adapters' one-call path from a response body to the
//! message that answers it.
//!
//! # Order
//!
//! A call is a *read* when it cannot change anything: its tool is
//! `read_only`, or no tool has its name (the registry is the allowlist, so it
//! runs nothing). Every other call is a *write*.
//!
//! - Reads run concurrently, at most [`Dispatcher::read_concurrency`] at a time.
//! - A write starts only after every call before it has finished, and runs
//!   alone: the calls after it start only once it has finished.
//!
//! So the writes cut a turn into runs of reads: `R1 R2 W1 R3 W2 W3 R4 R5` runs
//! as `{R1 R2}`, then `W1`, then `{R3}`, then `W2`, then `W3`, then
//! `{R4 R5}`. A model that reads and then writes wrote what it had read; a
//! read placed after a write expects to see it; reads between two writes
//! cannot affect one another, so their order is free. Writes keep the model's
//! order among themselves.
//!
//! The envelopes come back in call order, whichever finished first.
//!
//! # Identical calls
//!
//! A model can emit the same call twice in one parallel turn (same tool,
//! same arguments once parsed: key order, spacing and `1.0` against `1` do
//! not make calls different). Running each would read twice, or write twice.
//!
//! - Identical reads in one run of reads run once; every call gets that
//!   answer under its own call id. (Reads on both sides of a write are not
//!   identical: the later one expects to see the write.)
//! - A write whose tool takes a request key is already one effect: the
//!   second call is answered from the first one's idempotency record
//!   (`replayed`).
//! - Any other write runs once; each repeat of it in the same turn answers
//!   `invalid` with the code `duplicate-call`, naming the call that ran, and
//!   runs nothing. Sending it again in a later turn runs it again.
//!
//! Arguments that do not parse strictly are never identical to anything: each
//! such call gets its own `malformed-arguments`.
//!
//! # What runs in parallel
//!
//! The calls of a run of reads are polled together by the task that awaits
//! the turn: asynchronous handlers overlap while they wait (I/O, timers), and
//! synchronous handlers run on tokio's blocking pool, so they overlap too.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::args::decode::{parse_strict, Limits};
use crate::codes;
use crate::context::Caller;
use crate::contract::Idempotency;
use crate::digest::canonical_json;
use crate::dispatch::Dispatcher;
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::provider::{parse_calls, render_results, AdapterError, CallResult, Provider};
use crate::ToolCall;

impl Dispatcher {
    /// Sets how many reads of one turn run at once (at least 1; default
    /// [`DEFAULT_READ_CONCURRENCY`](crate::dispatch::DEFAULT_READ_CONCURRENCY), 8).
    ///
    /// ```
    /// use contract_runtime::{Dispatcher, Registry};
    ///
    /// let d = Dispatcher::new(Registry::builder().build()?).with_read_concurrency(0);
    /// assert_eq!(d.read_concurrency(), 1);
    /// # Ok::<(), contract_runtime::RegistryError>(())
    /// ```
    pub fn with_read_concurrency(mut self, n: usize) -> Self {
        self.read_concurrency = n.max(1);
        self
    }

    /// How many reads of one turn run at once.
    ///
    /// ```
    /// use contract_runtime::{dispatch::DEFAULT_READ_CONCURRENCY, Dispatcher, Registry};
    ///
    /// let d = Dispatcher::new(Registry::builder().build()?);
    /// assert_eq!(d.read_concurrency(), DEFAULT_READ_CONCURRENCY);
    /// # Ok::<(), contract_runtime::RegistryError>(())
    /// ```
    pub fn read_concurrency(&self) -> usize {
        self.read_concurrency
    }

    /// Dispatches every call of one model turn by effect (see the [module
    /// docs](crate::turn) for the order) and returns one envelope per call,
    /// in call order. Never panics. Must run inside a tokio runtime.
    ///
    /// ```no_run
    /// # use contract_runtime::{Dispatcher, Registry, Caller, ToolCall};
    /// # use std::sync::Arc;
    /// # async fn demo(dispatcher: Dispatcher, caller: Arc<Caller>) {
    /// let calls = [
    ///     ToolCall::new("c1", "search_notes", r#"{"query":"kv"}"#),
    ///     ToolCall::new("c2", "search_notes", r#"{"query":"cache"}"#),
    /// ];
    /// let envelopes = dispatcher.dispatch_turn(&caller, &calls).await;
    /// assert_eq!(envelopes[1].call_id, "c2");
    /// # }
    /// ```
    pub async fn dispatch_turn(&self, caller: &Arc<Caller>, calls: &[ToolCall]) -> Vec<Envelope> {
        let same: Vec<Option<String>> = calls.iter().map(identity).collect();
        let mut out: Vec<Option<Envelope>> = vec![None; calls.len()];
        // Writes without a request key that ran in this turn, by identity.
        let mut written: HashMap<&str, usize> = HashMap::new();
        let mut i = 0;
        while i < calls.len() {
            if self.is_write(&calls[i]) {
                let repeat = same[i]
                    .as_deref()
                    .filter(|_| !self.is_keyed(&calls[i]))
                    .and_then(|id| written.get(id).copied());
                out[i] = Some(match repeat {
                    Some(first) => {
                        duplicate_write(&calls[i], &calls[first], self.is_natural(&calls[i]))
                    }
                    None => {
                        if let Some(id) = same[i].as_deref() {
                            written.insert(id, i);
                        }
                        self.dispatch(caller, &calls[i]).await
                    }
                });
                i += 1;
                continue;
            }
            let end = calls[i..]
                .iter()
                .position(|c| self.is_write(c))
                .map_or(calls.len(), |n| i + n);
            // Identical reads of this run: each repeat takes the answer of
            // the first, which alone runs.
            let mut first_of: HashMap<&str, usize> = HashMap::new();
            let mut copy_of: Vec<(usize, usize)> = Vec::new();
            let mut runs: Vec<usize> = Vec::new();
            for (k, id) in same.iter().enumerate().take(end).skip(i) {
                match id.as_deref() {
                    Some(id) => match first_of.get(id) {
                        Some(&first) => copy_of.push((k, first)),
                        None => {
                            first_of.insert(id, k);
                            runs.push(k);
                        }
                    },
                    None => runs.push(k),
                }
            }
            let reads = runs
                .iter()
                .map(|&k| Box::pin(self.dispatch(caller, &calls[k])) as Pending<'_>);
            let done = JoinBounded::new(reads, self.read_concurrency()).await;
            for (k, env) in runs.into_iter().zip(done) {
                out[k] = Some(env);
            }
            for (k, first) in copy_of {
                let mut env = out[first].clone().unwrap_or_else(|| {
                    Envelope::failure(
                        &calls[k].id,
                        &calls[k].name,
                        Status::Failed,
                        true,
                        Vec::new(),
                    )
                });
                env.call_id.clone_from(&calls[k].id);
                out[k] = Some(env);
            }
            i = end;
        }
        out.into_iter().flatten().collect()
    }

    /// From a provider's response body to the message that answers it: its
    /// tool calls parsed ([`parse_calls`]), dispatched as one turn
    /// ([`Dispatcher::dispatch_turn`]) and rendered ([`render_results`]).
    /// A body without calls renders no results: an empty array for OpenAI,
    /// and for Anthropic and Gemini a message with empty content, which their
    /// APIs refuse, so a host sends the answer only after a turn with calls
    /// (`parse_calls(..)` not empty). Fails only when the body does not have
    /// the provider's shape; a bad call is an envelope in the answer.
    ///
    /// ```no_run
    /// # use contract_runtime::{Dispatcher, Caller};
    /// # use contract_runtime::provider::Provider;
    /// # use std::sync::Arc;
    /// # async fn demo(dispatcher: Dispatcher, caller: Arc<Caller>, body: serde_json::Value) {
    /// let reply = dispatcher.answer_turn(Provider::OpenAiResponses, &caller, &body).await;
    /// // OpenAI Responses: the `function_call_output` items to send next.
    /// # }
    /// ```
    pub async fn answer_turn(
        &self,
        provider: Provider,
        caller: &Arc<Caller>,
        body: &Value,
    ) -> Result<Value, AdapterError> {
        let calls = parse_calls(provider, body)?;
        let envelopes: Vec<Value> = self
            .dispatch_turn(caller, &calls)
            .await
            .iter()
            .map(Envelope::to_value)
            .collect();
        let results: Vec<CallResult> = calls
            .iter()
            .zip(&envelopes)
            .map(|(call, env)| CallResult::new(call, env))
            .collect();
        Ok(render_results(provider, &results))
    }

    /// Whether the call's tool takes a request key (its writes are one effect
    /// per key already).
    fn is_keyed(&self, call: &ToolCall) -> bool {
        self.registry()
            .get(&call.name)
            .is_some_and(|t| matches!(t.spec().idempotency, Idempotency::Key(_)))
    }

    /// Whether a repeat of the call has no further effect: its tool is
    /// known and declares `idempotency = natural`.
    fn is_natural(&self, call: &ToolCall) -> bool {
        self.registry()
            .get(&call.name)
            .is_some_and(|t| t.spec().idempotency == Idempotency::Natural)
    }

    /// Whether the call may change something: its tool is known and not
    /// read-only.
    fn is_write(&self, call: &ToolCall) -> bool {
        self.registry()
            .get(&call.name)
            .is_some_and(|t| t.spec().effect.is_write())
    }
}

/// What makes two calls of one turn the same call: the tool's name and the
/// arguments in canonical form. `None` for arguments that do not parse
/// strictly (a repeated key, trailing text): those are never the same as
/// another call, so each gets its own error.
fn identity(call: &ToolCall) -> Option<String> {
    let args = parse_strict(&call.arguments, &Limits::default()).ok()?;
    Some(format!("{}\u{0}{}", call.name, canonical_json(&args)))
}

/// The answer to a repeat of a write without a request key: it did not
/// run. Sending it again is safe only for a tool whose repeats have no
/// further effect (`natural`).
fn duplicate_write(call: &ToolCall, first: &ToolCall, retry_safe: bool) -> Envelope {
    let error = ErrorEntry::new(
        codes::DUPLICATE_CALL,
        format!(
            "this call repeats call `{}` of the same turn (same tool, same arguments), which ran once; nothing ran for this one",
            first.id
        ),
    )
    .with_hint(format!(
        "read the answer to call `{}`; to make the change a second time on purpose, send the call again in a later turn",
        first.id
    ));
    Envelope::failure(
        &call.id,
        &call.name,
        Status::Invalid,
        retry_safe,
        vec![error],
    )
}

type Pending<'a> = Pin<Box<dyn Future<Output = Envelope> + Send + 'a>>;

/// Runs futures at most `limit` at a time on the awaiting task and yields
/// their outputs in the order the futures were given.
struct JoinBounded<'a, I> {
    waiting: I,
    running: Vec<(usize, Pending<'a>)>,
    done: Vec<Option<Envelope>>,
    limit: usize,
}

impl<'a, I: Iterator<Item = Pending<'a>>> JoinBounded<'a, I> {
    fn new(waiting: I, limit: usize) -> Self {
        JoinBounded {
            waiting,
            running: Vec::new(),
            done: Vec::new(),
            limit: limit.max(1),
        }
    }
}

impl<'a, I: Iterator<Item = Pending<'a>> + Unpin> Future for JoinBounded<'a, I> {
    type Output = Vec<Envelope>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<Envelope>> {
        let this = self.get_mut();
        loop {
            // Start what the limit allows; a started future is polled at once
            // below, so it registers its waker.
            while this.running.len() < this.limit {
                let Some(f) = this.waiting.next() else { break };
                this.running.push((this.done.len(), f));
                this.done.push(None);
            }
            if this.running.is_empty() {
                // Nothing left to start and nothing running: every slot is filled.
                return Poll::Ready(this.done.drain(..).flatten().collect());
            }
            let before = this.running.len();
            let mut k = 0;
            while k < this.running.len() {
                if let Poll::Ready(env) = this.running[k].1.as_mut().poll(cx) {
                    let (slot, _) = this.running.swap_remove(k);
                    this.done[slot] = Some(env);
                } else {
                    k += 1;
                }
            }
            // Nothing finished: every running future is waiting on its waker.
            // Something finished: there is room to start more (or all is done).
            if this.running.len() == before {
                return Poll::Pending;
            }
        }
    }
}
