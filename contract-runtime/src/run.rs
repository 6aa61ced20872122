//! The run stage: the handler runs with its timeout, a panic becomes an
//! outcome instead of a crash, transient failures of retry-safe tools are
//! retried, and the outcome is wrapped in the envelope.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::codes;
use crate::context::CallContext;
use crate::contract::{ToolContract, ToolSpec};
use crate::decode::{decode_args, Limits};
use crate::dispatch::refuse;
use crate::envelope::{Envelope, ErrorEntry, Repair, Status};
use crate::failure::{batch_result, Failure, FailureKind, Outcome, ToolOutput};
use crate::policy::retry;
use crate::provider::ToolCall;

// One value per attempt, moved once: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Attempt {
    Finished(Outcome),
    Panicked,
    TimedOut,
}

/// What the run stage hands back: the envelope, and whether its failure was a
/// passing one with no effect. The stage knows this from the failure's kind;
/// later stages (the breaker, the idempotency store) take it from here rather
/// than guessing it again from error codes.
pub(crate) struct Ran {
    pub(crate) env: Envelope,
    pub(crate) transient: bool,
}

pub(crate) async fn run_with_retries<C: ToolContract>(
    call: &ToolCall,
    spec: &ToolSpec,
    ctx: CallContext,
    args: C::Args,
    limits: &Limits,
) -> Ran {
    let mut args = Some(args);
    let mut attempt = 1u32;
    loop {
        // Each retry decodes afresh: argument types need not be Clone, and the
        // text was validated already.
        let a = match args.take() {
            Some(a) => a,
            None => match decode_args::<C::Args>(&call.arguments, limits) {
                Ok(a) => a,
                Err(e) => {
                    let env = refuse(call, spec, Status::Invalid, e.into_errors());
                    return Ran {
                        env,
                        transient: false,
                    };
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
        let outcome = match finished {
            None => Attempt::TimedOut,
            Some(None) => Attempt::Panicked,
            Some(Some(out)) => Attempt::Finished(out.into_outcome()),
        };
        let transient = match &outcome {
            Attempt::Finished(Outcome::Failed(f)) => f.kind == FailureKind::Transient,
            Attempt::TimedOut => !spec.effect.is_write(),
            _ => false,
        };
        if transient && retry::may_retry(spec, attempt) {
            tokio::time::sleep(retry::backoff(spec, attempt)).await;
            attempt += 1;
            continue;
        }
        return Ran {
            env: envelope_for(call, spec, outcome),
            transient,
        };
    }
}

/// Catches a panic in the handler so it becomes an envelope, not a crash.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    /// `None` when the handler panicked.
    type Output = Option<F::Output>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(v)) => Poll::Ready(Some(v)),
            Err(_) => Poll::Ready(None),
        }
    }
}

fn failure_entry(f: Failure, item: Option<String>) -> ErrorEntry {
    ErrorEntry {
        code: f.code.into_owned(),
        message: f.message,
        field: f.field.map(|c| c.into_owned()),
        item,
        constraint: None,
        repair: match (f.hint, f.call) {
            (None, None) => None,
            (hint, call) => Some(Repair {
                hint: hint.map(|h| h.into_owned()).unwrap_or_default(),
                call,
            }),
        },
        retry_safe: f
            .retry_safe
            .or((f.kind == FailureKind::Transient).then_some(true)),
        retry_after_ms: f.retry_after_ms,
    }
}

fn envelope_for(call: &ToolCall, spec: &ToolSpec, attempt: Attempt) -> Envelope {
    let write = spec.effect.is_write();
    let replay_safe = spec.replay_safe();
    let mut env = Envelope::failure(&call.id, spec.name, Status::Ok, replay_safe, Vec::new());
    match attempt {
        Attempt::Finished(Outcome::Done(v)) => env.result = v,
        Attempt::Finished(Outcome::Failed(f)) => {
            let unknown = f.kind == FailureKind::Unknown;
            env.status = match f.kind {
                FailureKind::Unknown => Status::Unknown,
                FailureKind::Denied => Status::Denied,
                FailureKind::Domain | FailureKind::Transient => Status::Failed,
            };
            // A known failure had no effect, so replaying cannot duplicate one.
            env.retry_safe = if unknown { replay_safe } else { true };
            env.errors.push(failure_entry(f, None));
        }
        Attempt::Finished(Outcome::Batch(items)) => {
            let completed = items.iter().filter(|i| i.result.is_ok()).count() as u64;
            let failed = items.len() as u64 - completed;
            env.result = batch_result(&items);
            env.completed = Some(completed);
            env.failed = Some(failed);
            env.status = match (completed, failed) {
                (_, 0) => Status::Ok,
                (0, _) => Status::Failed,
                _ => Status::Partial,
            };
            if env.status == Status::Failed {
                env.result = Value::Null;
                env.retry_safe = true;
            }
            for i in items {
                if let Err(f) = i.result {
                    env.errors.push(failure_entry(f, Some(i.item)));
                }
            }
        }
        Attempt::Finished(Outcome::OutputBroken(msg)) => {
            env.status = if write {
                Status::Unknown
            } else {
                Status::Failed
            };
            env.errors
                .push(ErrorEntry::new(codes::OUTPUT_CONTRACT_VIOLATION, msg));
        }
        Attempt::Panicked => {
            env.status = if write {
                Status::Unknown
            } else {
                Status::Failed
            };
            env.errors.push(ErrorEntry::new(
                codes::INTERNAL,
                format!(
                    "`{}` crashed before it finished{}",
                    spec.name,
                    if write {
                        "; its effect may have happened"
                    } else {
                        ""
                    }
                ),
            ));
        }
        Attempt::TimedOut => {
            env.status = if write {
                Status::Unknown
            } else {
                Status::Failed
            };
            env.retry_safe = replay_safe;
            let mut e = ErrorEntry::new(
                codes::TIMEOUT,
                format!(
                    "`{}` did not finish within {} ms{}",
                    spec.name,
                    spec.timeout_ms.unwrap_or(0),
                    if write {
                        "; its effect may have happened"
                    } else {
                        ""
                    }
                ),
            );
            e.retry_safe = Some(replay_safe);
            env.errors.push(e);
        }
    }
    if env.status == Status::Unknown && !env.codes().contains(&codes::UNKNOWN_OUTCOME) {
        env.errors.push(ErrorEntry::new(
            codes::UNKNOWN_OUTCOME,
            "the call may or may not have taken effect".to_string(),
        ));
    }
    env
}
