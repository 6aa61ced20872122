//! The run stage: the handler runs with its timeout, a panic becomes an
//! outcome instead of a crash, and transient failures of retry-safe tools are
//! retried with backoff. The outcome goes on to the respond stage.

use std::ops::ControlFlow;

use super::flow::{Attempt, Flow, Produced, Ran, Step};
use crate::failure::{FailureKind, Outcome};
use crate::guard::{self, CatchUnwind};
use crate::policy::retry;
use crate::tool::Running;

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
    // The context and the arguments stay in the flow until an attempt takes
    // them: held here too, they would make every call's future larger.
    let (Some(ctx), Some(_)) = (f.ctx.take(), &f.args) else {
        return f.end(f.internal("the call reached the run stage undecoded"));
    };
    let spec = f.spec;
    // The handler may pass its key on to the services it calls.
    f.ctx = Some(match &f.lease {
        Some(lease) => ctx.with_request_key(lease.key.clone()),
        None => ctx,
    });
    let mut number = 1u32;
    loop {
        // A retry decodes afresh from the tree (argument types need not be
        // Clone); the tree is parsed once, on the first retry, never per attempt.
        let mut a = match f.args.take() {
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
        let this = match &mut f.ctx {
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
                        Box::pin(timed).await.ok()
                    }
                    None => Some(fut.await),
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
        let declared_transient = matches!(&attempt,
            Attempt::Finished(Outcome::Failed(failure)) if failure.kind == FailureKind::Transient);
        // A read that timed out failed in passing, with no effect (the
        // breaker counts it so); but it is not retried: the tool's
        // `timeout_ms` bounds the call, and the attempt that timed out may
        // still be running on the blocking pool, where a retry would add a
        // second one beside it.
        let transient =
            declared_transient || (matches!(attempt, Attempt::TimedOut) && !spec.effect.is_write());
        if declared_transient && retry::may_retry(spec, number) {
            // Not kept across the pause: the next attempt makes its own.
            drop(attempt);
            let pause = tokio::time::sleep(retry::backoff(spec, number));
            // Boxed: only a retry carries the timer, not every call's future.
            Box::pin(pause).await;
            number += 1;
            continue;
        }
        f.produced = Produced::Ran(Ran { attempt, transient });
        return ControlFlow::Continue(());
    }
}
