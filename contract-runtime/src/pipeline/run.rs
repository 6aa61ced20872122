//! The run stage: the handler runs with its timeout, a panic becomes an
//! outcome instead of a crash, and transient failures of retry-safe tools are
//! retried with backoff. The outcome goes on to the respond stage.

use std::ops::ControlFlow;

use super::idempotency::{self, beside};
use super::{Flow, Produced, Step};
use crate::failure::{FailureKind, Outcome};
use crate::guard::{self, CatchUnwind};
use crate::policy::retry;
use crate::tool::Running;

/// How one attempt ended.
// One value per attempt, moved once: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub(super) enum Attempt {
    Finished(Outcome),
    Panicked,
    TimedOut,
}

/// The last attempt, and whether its failure was a passing one with no
/// effect. The stage knows this from the failure's kind; the breaker and the
/// idempotency store take it from here rather than guessing it again from
/// error codes.
pub(super) struct Ran {
    pub(super) attempt: Attempt,
    pub(super) transient: bool,
}

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
    let (Some(ctx), Some(args)) = (f.ctx.take(), f.args.take()) else {
        return f.end(f.internal("the call reached the run stage undecoded"));
    };
    let spec = f.spec;
    // A held key's lease is renewed while the handler runs (and between
    // attempts), so only a worker that died loses it.
    let mut beat = idempotency::heartbeat(f);
    let mut args = Some(args);
    // The handler may pass its key on to the services it calls.
    let ctx = match &f.lease {
        Some(lease) => ctx.with_request_key(lease.key.clone()),
        None => ctx,
    };
    let mut ctx = Some(ctx);
    let mut number = 1u32;
    loop {
        // A retry decodes afresh from the tree (argument types need not be
        // Clone); the tree is parsed once, on the first retry, never per attempt.
        let mut a = match args.take() {
            Some(a) => a,
            None => {
                let tool = f.tool;
                match f.tree().and_then(|t| tool.decode_tree(t)) {
                    Some(a) => a,
                    None => {
                        return f.end(
                            f.internal("the arguments could not be decoded again for a retry"),
                        )
                    }
                }
            }
        };
        // From here the handler's effect may have happened.
        f.started = true;
        // The context is cloned only when another attempt may follow.
        let this = match &mut ctx {
            Some(c) if retry::may_retry(spec, number) => Some(c.clone()),
            c => c.take(),
        };
        let Some(this) = this else {
            return f.end(f.internal("the call context was used up"));
        };
        let attempt = match guard::catch(|| a.start(this)) {
            // Polling runs the handler and then serializes its output, both
            // the author's code: a panic in either is caught here.
            Some(true) => {
                let fut = CatchUnwind(Running(a));
                // The timer is boxed: only tools with a timeout carry its
                // state, not every call's future.
                let finished = match spec.timeout_ms {
                    Some(ms) => {
                        let timed = tokio::time::timeout(std::time::Duration::from_millis(ms), fut);
                        beside(Box::pin(timed), &mut beat).await.ok()
                    }
                    None => Some(beside(fut, &mut beat).await),
                };
                match finished {
                    None => Attempt::TimedOut,
                    Some(None) => Attempt::Panicked,
                    Some(Some(outcome)) => Attempt::Finished(outcome),
                }
            }
            Some(false) => {
                return f.end(f.internal("the arguments were used twice"));
            }
            None => Attempt::Panicked,
        };
        let transient = match &attempt {
            Attempt::Finished(Outcome::Failed(failure)) => failure.kind == FailureKind::Transient,
            Attempt::TimedOut => !spec.effect.is_write(),
            _ => false,
        };
        if transient && retry::may_retry(spec, number) {
            let pause = tokio::time::sleep(retry::backoff(spec, number));
            beside(Box::pin(pause), &mut beat).await;
            number += 1;
            continue;
        }
        f.produced = Produced::Ran(Ran { attempt, transient });
        return ControlFlow::Continue(());
    }
}
