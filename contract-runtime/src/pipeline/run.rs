//! The run stage: the handler runs with its timeout, a panic becomes an
//! outcome instead of a crash, and transient failures of retry-safe tools are
//! retried with backoff. The outcome goes on to the respond stage.

use std::ops::ControlFlow;

use super::{Flow, Step};
use crate::args::ArgValue;
use crate::constraint::Constraints;
use crate::contract::ToolContract;
use crate::failure::{FailureKind, Outcome, ToolOutput};
use crate::guard::{self, CatchUnwind};
use crate::policy::retry;
use crate::validate::{Ptr, Violations};

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

pub(super) async fn stage<C: ToolContract>(f: &mut Flow<'_, C>) -> Step {
    let (Some(ctx), Some(args)) = (f.ctx.take(), f.args.take()) else {
        return ControlFlow::Break(f.internal("the call reached the run stage undecoded"));
    };
    let spec = f.spec;
    let mut args = Some(args);
    let mut number = 1u32;
    loop {
        // A retry decodes afresh from the tree (argument types need not be
        // Clone); the tree is parsed once, on the first retry, never per attempt.
        let a = match args.take() {
            Some(a) => a,
            None => match f.tree().and_then(decode_again::<C::Args>) {
                Some(a) => a,
                None => {
                    return ControlFlow::Break(
                        f.internal("the arguments could not be decoded again for a retry"),
                    )
                }
            },
        };
        let fut = CatchUnwind(C::call(ctx.clone(), a));
        let finished = match spec.timeout_ms {
            Some(ms) => tokio::time::timeout(std::time::Duration::from_millis(ms), fut)
                .await
                .ok(),
            None => Some(fut.await),
        };
        let attempt = match finished {
            None => Attempt::TimedOut,
            Some(None) => Attempt::Panicked,
            // Serializing the output runs the author's `Serialize` code.
            Some(Some(out)) => match guard::catch(|| out.into_outcome()) {
                Some(outcome) => Attempt::Finished(outcome),
                None => Attempt::Panicked,
            },
        };
        let transient = match &attempt {
            Attempt::Finished(Outcome::Failed(failure)) => failure.kind == FailureKind::Transient,
            Attempt::TimedOut => !spec.effect.is_write(),
            _ => false,
        };
        if transient && retry::may_retry(spec, number) {
            tokio::time::sleep(retry::backoff(spec, number)).await;
            number += 1;
            continue;
        }
        f.ran = Some(Ran { attempt, transient });
        return ControlFlow::Continue(());
    }
}

fn decode_again<A: ArgValue>(tree: &serde_json::Value) -> Option<A> {
    let mut out = Violations::new();
    A::decode_value(tree, &Constraints::NONE, &Ptr::ROOT, &mut out).filter(|_| out.is_empty())
}
