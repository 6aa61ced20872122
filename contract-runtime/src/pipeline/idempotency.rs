//! The idempotency stage: a call carrying a request key claims it in the
//! store before the tool runs, atomically, so that of any number of calls
//! with one key (in this process or in others sharing the store) exactly one
//! runs. The others are answered from the record: the stored envelope
//! replayed, in flight elsewhere, in doubt, or a key reused for other
//! arguments (the table in `docs/state.md`).
//!
//! The stage owns its before and after, as a layer wraps the service inside
//! it: [`around`] claims the key, runs the stages after it while a heartbeat
//! keeps the claim alive, and then, in one place ([`finish`]), gives the key
//! back if the handler never started (or failed in passing, with no effect)
//! or records the envelope under it. No stage after it touches the claim, and
//! no way out of them leaves it behind.

use std::future::Future;
use std::ops::ControlFlow;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::flow::{Flow, Inner, Produced, Step};
use crate::codes;
use crate::contract::Idempotency;
use crate::digest::digest;
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::guard::guarded;
use crate::store::{Claim, Claimed, Doubt, RecordKey, Store};
use crate::tool::ErasedTool;

pub(super) async fn around<I: Inner>(f: &mut Flow<'_>) -> Step {
    let (field, key) = match (f.spec.idempotency, &f.args) {
        (Idempotency::Key(field), Some(args)) => match args.idempotency_key() {
            Some(key) => (field, key.to_owned()),
            None => return I::run(f).await,
        },
        _ => return I::run(f).await,
    };
    // Boxed: the claim's state (store futures, the wait, the heartbeat) is
    // only ever needed by keyed calls, and every other call's future stays
    // small without it.
    Box::pin(keyed::<I>(f, field, key)).await
}

/// Claims the key, runs the stages after this one while the claim is kept
/// alive, then releases or settles it.
async fn keyed<I: Inner>(f: &mut Flow<'_>, field: &'static str, key: String) -> Step {
    claim(f, field, key).await?;
    // The lease is renewed while the later stages run (the handler, and the
    // pauses between its attempts), so only a worker that died loses it.
    let mut beat = heartbeat(f);
    let ended = beside(Box::pin(I::run(f)), &mut beat).await;
    let ended = f.ensure_answer(ended);
    drop(beat);
    finish(f).await;
    ended
}

/// Claims `key` in the store, or ends the call with what its record says.
async fn claim(f: &mut Flow<'_>, field: &'static str, key: String) -> Step {
    // The record names the key as `RecordKey` spells it (a UUID in lower
    // case: one key in any letter case); when that spelling differs from
    // the one sent, the digest takes it too, so a resend that only changed
    // the key's case replays instead of running a second time.
    let mut record = RecordKey::new(f.spec.name, key.as_str());
    let digest = if record.key == key {
        f.digest()
    } else {
        let mut tree = f.tree().cloned().unwrap_or(Value::Null);
        if let Some(v) = tree.get_mut(field) {
            *v = Value::String(record.key.clone());
        }
        digest(&tree)
    };
    if let Some(tenant) = f.caller.tenant_name() {
        record = record.for_tenant(tenant);
    }
    let times = f.parts.times;
    let claim = Claim {
        key: record,
        digest,
        revision: f.tool.revision().get_or_init(|| revision(f.tool)).clone(),
        call_id: f.call.id.clone(),
        lease: times.lease,
        retention: times.retention,
    };
    let store = f.parts.store.clone();
    // A key held elsewhere is usually a concurrent duplicate of a quick call:
    // waiting briefly for its outcome answers with it instead of a refusal.
    let waited_until = Instant::now() + times.in_flight_wait;
    let mut pause = Duration::from_millis(5);
    let claimed = loop {
        match guarded(|| store.claim(&claim)).await {
            Ok(Claimed::InFlight { .. }) if Instant::now() + pause < waited_until => {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            other => break other,
        }
    };
    match claimed {
        Ok(Claimed::Run(lease)) => {
            f.lease = Some(Box::new(lease));
            ControlFlow::Continue(())
        }
        Ok(Claimed::Replay(mut env)) => {
            env.call_id = f.call.id.clone();
            env.replayed = true;
            f.end(*env)
        }
        Ok(Claimed::Reused { revision_changed }) => {
            let first = if revision_changed {
                "an earlier revision of this tool's contract"
            } else {
                "other arguments"
            };
            let mut e = ErrorEntry::new(
                codes::IDEMPOTENCY_KEY_REUSED,
                format!("this idempotency key was first used with {first}"),
            )
            .with_hint("send a new key for new arguments, or repeat the first request exactly");
            e.field = Some(format!("/{field}"));
            f.refuse(Status::Invalid, vec![e])
        }
        Ok(Claimed::InFlight { retry_after_ms }) => {
            let mut e = ErrorEntry::new(
                codes::IN_FLIGHT,
                "a call with this idempotency key is running elsewhere; nothing ran".to_string(),
            )
            .with_hint("send the same call again later: it gets that call's outcome");
            e.retry_after_ms = Some(retry_after_ms.max(1));
            e.retry_safe = Some(true);
            f.refuse(Status::Failed, vec![e])
        }
        Ok(Claimed::Unknown(doubt)) => {
            let why = match doubt {
                Doubt::LeaseExpired => {
                    "an earlier call with this idempotency key started, and its worker stopped before recording an outcome"
                }
                Doubt::Recorded => {
                    "an earlier call with this idempotency key ended with an unknown outcome"
                }
            };
            let e = ErrorEntry::new(codes::UNKNOWN_OUTCOME, why.to_string()).with_hint(
                "do not resend this key: nothing runs under it until an operator checks whether the effect happened and resolves it",
            );
            // Resending runs nothing, but the model must not take this for a
            // failure with no effect and try again under a new key blindly.
            f.end(Envelope::failure(
                &f.call.id,
                f.spec.name,
                Status::Unknown,
                false,
                vec![e],
            ))
        }
        Err(e) => f.end(f.store_unavailable("its request keys", &e)),
    }
}

/// The contract's revision: what a call means (its arguments, its effect, its
/// idempotency). A changed description does not invalidate recorded outcomes.
fn revision(tool: &dyn ErasedTool) -> String {
    let spec = tool.spec();
    digest(&json!({
        "name": spec.name,
        "input_schema": tool.input_schema(),
        "effect": spec.effect.as_str(),
        "idempotency": format!("{:?}", spec.idempotency),
    }))
}

/// Keeps the claim of this call alive while its tool runs: renews the lease
/// every third of it. `None` when the call holds no key.
fn heartbeat(f: &Flow<'_>) -> Option<Beat> {
    let lease = f.lease.clone()?;
    let store: Arc<dyn Store> = f.parts.store.clone();
    let every = f.parts.times.lease;
    Some(Box::pin(async move {
        loop {
            tokio::time::sleep(every / 3).await;
            match guarded(|| store.renew(&lease, every)).await {
                Ok(true) => {}
                // Settled by an operator meanwhile: nothing to keep.
                Ok(false) => return std::future::pending().await,
                // A missed beat is retried at the next; if the store stays
                // away, the key reads `unknown`, never runs twice.
                Err(e) => tracing::warn!(error = %e, "could not renew an idempotency lease"),
            }
        }
    }))
}

/// A claim's heartbeat ([`heartbeat`]).
type Beat = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Runs `work` with `beat`, when there is one, beside it, until `work` ends.
fn beside<'b, F: Future + Unpin + 'b>(
    mut work: F,
    beat: &'b mut Option<Beat>,
) -> impl Future<Output = F::Output> + 'b {
    std::future::poll_fn(move |cx| {
        if let Poll::Ready(v) = Pin::new(&mut work).poll(cx) {
            return Poll::Ready(v);
        }
        if let Some(beat) = beat {
            // It never ends: it renews until the call drops it.
            let _ = beat.as_mut().poll(cx);
        }
        Poll::Pending
    })
}

/// The one place a claim ends. A call whose handler never started (a later
/// stage refused it), or whose outcome is a passing failure with no effect,
/// gives its key back so that the key may be used again; every other call's
/// envelope is recorded under the key, and is what a repeat gets back (an
/// outcome in doubt included: a repeat is answered `unknown`, never run
/// twice).
async fn finish(f: &mut Flow<'_>) {
    let Some(lease) = f.lease.take() else {
        return;
    };
    let store = f.parts.store.clone();
    let no_effect = !f.started || f.passing == Some(true);
    match &f.produced {
        Produced::Answer(answer) if !no_effect => {
            match guarded(|| store.complete(&lease, &answer.env)).await {
                Ok(true) => {}
                Ok(false) => tracing::warn!(
                    tool = f.spec.name,
                    "an operator settled this key while its call ran; the outcome was not recorded"
                ),
                // The tool ran and its envelope stands; the key stays claimed,
                // so a repeat is answered as an outcome in doubt, never run twice.
                Err(e) => tracing::error!(
                    tool = f.spec.name,
                    error = %e,
                    "could not record an outcome under its idempotency key"
                ),
            }
        }
        _ => {
            if let Err(e) = guarded(|| store.release(&lease)).await {
                // The claim stays and reads `unknown` after its lease: a lost
                // release costs an operator's look, never a second run.
                tracing::error!(tool = f.spec.name, error = %e, "could not release an idempotency key");
            }
        }
    }
}

/// A call dropped while it holds its key (the client cancelled the request,
/// its task was cancelled, the server is shutting down) never reaches
/// [`finish`]. Its claim is settled here instead, as `finish` settles a call
/// that ended without an answer: given back when the handler never started
/// (a call dropped while it waited for a person's approval ran nothing), and
/// recorded in doubt when it had (its effect may have happened). Left alone,
/// the key would read in flight until its lease ran out, and then in doubt
/// even when nothing ran.
impl Drop for Flow<'_> {
    fn drop(&mut self) {
        let Some(lease) = self.lease.take() else {
            return;
        };
        // Outside a runtime nothing can be awaited: the lease runs out, and
        // the key reads in doubt, as after a crash.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let store = self.parts.store.clone();
        let tool = self.spec.name;
        let in_doubt = self.started.then(|| {
            let e = ErrorEntry::new(
                codes::UNKNOWN_OUTCOME,
                "the call was stopped while its tool ran; it may or may not have taken effect"
                    .to_string(),
            );
            Envelope::failure(&self.call.id, tool, Status::Unknown, false, vec![e])
        });
        runtime.spawn(async move {
            let settled = match &in_doubt {
                Some(env) => guarded(|| store.complete(&lease, env)).await,
                None => guarded(|| store.release(&lease)).await,
            };
            if let Err(e) = settled {
                tracing::error!(tool, error = %e, "could not settle the key of a call that was stopped");
            }
        });
    }
}

/// The one place a claim ends, for every way the stages inside it can end:
/// each stub below ends the call as one of the former exits did (several
/// of which left the key claimed), and a second call with the same key then
/// shows whether the key was given back (it runs) or its envelope recorded
/// (it is replayed).
#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::args::ToolArgs;
    use crate::call::ToolCall;
    use crate::context::{CallContext, Caller, HostState};
    use crate::contract::{ApprovalRule, BoxFuture, Effect, RetryPolicy, ToolContract, ToolSpec};
    use crate::decode::Limits;
    use crate::pipeline::flow::Parts;
    use crate::policy::breaker::{Breaker, BreakerConfig};
    use crate::store::{MemoryStore, RecordTimes};
    use crate::tool::Tool;
    use std::convert::Infallible;

    impl ToolArgs for BTreeMap<String, String> {}

    struct SendOnce;

    impl ToolContract for SendOnce {
        type Args = BTreeMap<String, String>;
        type Output = Result<(), Infallible>;
        const SPEC: ToolSpec = ToolSpec {
            name: "send_once",
            description: "Sends a message once per key.",
            effect: Effect::External,
            effects: &[],
            title: None,
            state: &[],
            idempotency: Idempotency::Key("key"),
            authority: &[],
            approval: ApprovalRule::Never,
            retry: RetryPolicy::NONE,
            timeout_ms: None,
            prose: None,
            task: crate::contract::TaskSupport::Forbidden,
        };
        fn idempotency_key(args: &Self::Args) -> Option<&str> {
            args.get("key").map(String::as_str)
        }
        fn call(_: CallContext, _: Self::Args) -> BoxFuture<Self::Output> {
            Box::pin(async { Ok(()) })
        }
    }

    /// The second call: when its stages run, it ends `denied`.
    struct Counts;
    impl Inner for Counts {
        async fn run(f: &mut Flow<'_>) -> Step {
            f.refuse(Status::Denied, Vec::new())
        }
    }

    /// A later stage refused the call (approval, the breaker).
    struct Refused;
    impl Inner for Refused {
        async fn run(f: &mut Flow<'_>) -> Step {
            f.refuse(Status::NeedsApproval, Vec::new())
        }
    }

    /// A broken invariant before the handler started (approval or run
    /// reached undecoded, the approval rule crashed).
    struct BrokenBeforeStart;
    impl Inner for BrokenBeforeStart {
        async fn run(f: &mut Flow<'_>) -> Step {
            f.end(f.internal("the call reached the run stage undecoded"))
        }
    }

    /// A broken invariant after the handler started (arguments used
    /// twice, not decodable again for a retry, the context used up).
    struct BrokenAfterStart;
    impl Inner for BrokenAfterStart {
        async fn run(f: &mut Flow<'_>) -> Step {
            f.started = true;
            f.end(f.internal("the arguments were used twice"))
        }
    }

    /// The stages came out without an answer (respond reached without a
    /// run, or a stage added after it).
    struct NoAnswer;
    impl Inner for NoAnswer {
        async fn run(_: &mut Flow<'_>) -> Step {
            ControlFlow::Continue(())
        }
    }

    /// The handler ran and failed in passing: no effect.
    struct Passing;
    impl Inner for Passing {
        async fn run(f: &mut Flow<'_>) -> Step {
            f.started = true;
            f.passing = Some(true);
            f.refuse(Status::Failed, Vec::new())
        }
    }

    /// The handler ran and the respond stage wrapped its outcome.
    struct Responded;
    impl Inner for Responded {
        async fn run(f: &mut Flow<'_>) -> Step {
            f.started = true;
            f.passing = Some(false);
            let env = Envelope::failure(&f.call.id, f.spec.name, Status::Ok, true, Vec::new());
            f.end(env)
        }
    }

    /// The handler started and has not ended (a long effect) when the call
    /// is dropped.
    struct DroppedWhileRunning;
    impl Inner for DroppedWhileRunning {
        async fn run(f: &mut Flow<'_>) -> Step {
            f.started = true;
            std::future::pending().await
        }
    }

    /// A stage before the handler waits (for a person's approval) when the
    /// call is dropped.
    struct DroppedBeforeStart;
    impl Inner for DroppedBeforeStart {
        async fn run(_: &mut Flow<'_>) -> Step {
            std::future::pending().await
        }
    }

    async fn once<I: Inner>(parts: &Parts, tool: &Tool, key: &str) -> Envelope {
        let caller = Arc::new(Caller::new());
        let call = ToolCall::new("c1", "send_once", format!(r#"{{"key":"{key}"}}"#));
        let mut f = Flow::new(&*tool.inner, parts, &caller, &call);
        let ended = async {
            super::super::decode::stage(&mut f).await?;
            around::<I>(&mut f).await
        }
        .await;
        f.answer(ended).env
    }

    fn parts() -> Parts {
        Parts {
            limits: Limits::default(),
            store: Arc::new(MemoryStore::new()),
            times: RecordTimes::default(),
            breaker: Breaker::new(BreakerConfig::default()),
            host: HostState::default(),
        }
    }

    /// Ends a first call with `I`, then sends the same key again: whether
    /// the second call ran, and its envelope.
    async fn then_again<I: Inner>(key: &str) -> (bool, Envelope, Envelope) {
        let parts = parts();
        let tool = Tool::of::<SendOnce>();
        let first = once::<I>(&parts, &tool, key).await;
        let second = once::<Counts>(&parts, &tool, key).await;
        let ran = second.status == Status::Denied && !second.replayed;
        (ran, first, second)
    }

    /// Drops a first call while `I` waits, then sends the same key again
    /// (well within the lease): whether the second call ran, and its
    /// envelope.
    async fn dropped_then_again<I: Inner>(key: &str) -> (bool, Envelope) {
        let parts = parts();
        let tool = Tool::of::<SendOnce>();
        let first =
            tokio::time::timeout(Duration::from_millis(50), once::<I>(&parts, &tool, key)).await;
        assert!(first.is_err(), "the first call was meant to be dropped");
        // The drop settles the claim on a task of its own.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let second = once::<Counts>(&parts, &tool, key).await;
        (second.status == Status::Denied && !second.replayed, second)
    }

    #[tokio::test]
    async fn a_call_dropped_while_its_tool_runs_leaves_its_key_in_doubt_at_once() {
        let (ran, second) = dropped_then_again::<DroppedWhileRunning>("dropped").await;
        assert!(!ran, "a call whose effect may have happened ran again");
        // Not `in-flight` until the 10 s lease runs out: in doubt now.
        assert_eq!(second.status, Status::Unknown, "{second:?}");
        assert_eq!(second.errors[0].code, codes::UNKNOWN_OUTCOME);
        assert!(!second.retry_safe);
    }

    #[tokio::test]
    async fn a_call_dropped_before_its_tool_started_gives_its_key_back() {
        let (ran, second) = dropped_then_again::<DroppedBeforeStart>("waiting").await;
        assert!(
            ran,
            "a call that never ran left its key claimed: {second:?}"
        );
    }

    #[tokio::test]
    async fn a_refused_call_gives_its_key_back() {
        let (ran, first, _) = then_again::<Refused>("refused").await;
        assert_eq!(first.status, Status::NeedsApproval);
        assert!(ran, "the key stayed claimed after a refusal");
    }

    #[tokio::test]
    async fn a_broken_invariant_before_the_handler_gives_its_key_back() {
        let (ran, first, _) = then_again::<BrokenBeforeStart>("before").await;
        assert_eq!(first.status, Status::Failed);
        assert_eq!(first.errors[0].code, codes::INTERNAL);
        assert!(
            ran,
            "the key stayed claimed after an internal error before the run"
        );
    }

    #[tokio::test]
    async fn a_broken_invariant_after_the_handler_started_is_recorded_in_doubt() {
        let (ran, first, second) = then_again::<BrokenAfterStart>("after").await;
        assert_eq!(first.status, Status::Unknown);
        assert!(!ran, "a call whose effect may have happened ran again");
        // A recorded unknown outcome is answered as in doubt until an
        // operator settles it.
        assert_eq!(second.status, Status::Unknown);
        assert_eq!(second.errors[0].code, codes::UNKNOWN_OUTCOME);
    }

    #[tokio::test]
    async fn stages_that_end_without_an_answer_give_the_key_back() {
        let (ran, first, _) = then_again::<NoAnswer>("none").await;
        assert_eq!(first.errors[0].code, codes::INTERNAL);
        assert!(
            ran,
            "the key stayed claimed after the stages ended without an answer"
        );
    }

    #[tokio::test]
    async fn a_passing_failure_gives_its_key_back() {
        let (ran, first, _) = then_again::<Passing>("passing").await;
        assert_eq!(first.status, Status::Failed);
        assert!(ran, "the key stayed claimed after a passing failure");
    }

    #[tokio::test]
    async fn an_outcome_is_recorded_and_replayed() {
        let (ran, first, second) = then_again::<Responded>("done").await;
        assert_eq!(first.status, Status::Ok);
        assert!(!ran, "a recorded call ran again");
        assert!(second.replayed);
        assert_eq!(second.status, Status::Ok);
    }
}
