//! The respond stage: the run's outcome becomes the envelope, and batch
//! failures point at their items. It always ends the call; the stages it runs
//! inside (the breaker, idempotency) learn of the envelope from the flow.

use serde_json::Value;

use super::flow::{Attempt, Flow, Produced, Ran, Step};
use super::output;
use crate::call::ToolCall;
use crate::codes;
use crate::contract::{Idempotency, ToolSpec};
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::failure::{batch_result, FailureKind, Outcome};

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
    wrap(f)
}

/// Ends the call with the run's outcome as its envelope, and notes whether
/// the failure was a passing one. Not async, so that the stage's future
/// holds no envelope of its own.
fn wrap(f: &mut Flow<'_>) -> Step {
    let Produced::Ran(Ran { attempt, transient }) = std::mem::take(&mut f.produced) else {
        return f.end(f.internal("the call reached the respond stage without running"));
    };
    let attempt = check_output(f, attempt);
    let mut env = envelope_for(f.call, f.spec, attempt);
    point_at_items(f, &mut env);
    f.passing = Some(transient);
    f.end(env)
}

/// A batch failure names its item (`"item": "b.md"`) and the list it came from
/// (`"field": "/notes"`); where the item is a string of that list, the field
/// points at it exactly (`/notes/1`), as every other field pointer does.
fn point_at_items(f: &mut Flow<'_>, env: &mut Envelope) {
    if !env
        .errors
        .iter()
        .any(|e| e.item.is_some() && e.field.is_some())
    {
        return;
    }
    let Some(args) = f.tree() else {
        return;
    };
    for e in &mut env.errors {
        let (Some(item), Some(field)) = (&e.item, &e.field) else {
            continue;
        };
        let Some(Value::Array(list)) = args.pointer(field) else {
            continue;
        };
        if let Some(i) = list.iter().position(|v| v.as_str() == Some(item.as_str())) {
            e.field = Some(format!("{field}/{i}"));
        }
    }
}
/// A keyed tool remembers the first outcome of each request key, so a
/// repair that changes the arguments (it names an argument, or proposes a
/// call) needs a new key: resent with the old one, the call would get this
/// failure back, or a key conflict.
fn new_key_needed(spec: &ToolSpec, e: &mut ErrorEntry) {
    let Idempotency::Key(key) = spec.idempotency else {
        return;
    };
    let changes_arguments = e
        .field
        .as_deref()
        .is_some_and(|f| f.trim_start_matches('/') != key)
        || e.repair.as_ref().is_some_and(|r| r.call.is_some());
    let Some(repair) = e.repair.as_mut().filter(|_| changes_arguments) else {
        return;
    };
    let note = format!("send it with a new `{key}`: the old one stands for the failed arguments");
    repair.hint = if repair.hint.is_empty() {
        note
    } else {
        format!("{}; {note}", repair.hint.trim_end_matches('.'))
    };
}

/// A result with a `null` its output schema does not allow (a NaN, most
/// likely) is the tool breaking its own contract, not an `ok`.
fn check_output(f: &Flow<'_>, attempt: Attempt) -> Attempt {
    if let Attempt::Finished(Outcome::Done(v) | Outcome::Rich(v, _)) = &attempt {
        if let Some(at) = f
            .tool
            .checked_output_schema()
            .and_then(|schema| output::null_breaking(v, schema))
        {
            return Attempt::Finished(Outcome::OutputBroken(format!(
                "`{}` returned null at `{at}`, where its output schema allows none (a NaN or infinite number is written as null)",
                f.spec.name
            )));
        }
    }
    attempt
}

fn envelope_for(call: &ToolCall, spec: &ToolSpec, attempt: Attempt) -> Envelope {
    let write = spec.effect.is_write();
    let replay_safe = spec.replay_safe();
    let mut env = Envelope::failure(&call.id, spec.name, Status::Ok, replay_safe, Vec::new());
    match attempt {
        Attempt::Finished(Outcome::Done(v)) => env.result = v,
        Attempt::Finished(Outcome::Rich(v, content)) => {
            env.result = v;
            env.content = content;
        }
        Attempt::Finished(Outcome::Failed(f)) => {
            let unknown = f.kind == FailureKind::Unknown;
            env.status = match f.kind {
                FailureKind::Unknown => Status::Unknown,
                FailureKind::Denied => Status::Denied,
                FailureKind::Domain | FailureKind::Transient => Status::Failed,
            };
            // A known failure had no effect, so replaying cannot duplicate one.
            env.retry_safe = if unknown { replay_safe } else { true };
            let domain = f.kind == FailureKind::Domain;
            let mut entry = f.into_entry(None);
            if domain {
                new_key_needed(spec, &mut entry);
            }
            env.errors.push(entry);
        }
        Attempt::Finished(Outcome::Batch(items)) => {
            let completed = items.iter().filter(|i| i.result.is_ok()).count() as u64;
            let failed = items.len() as u64 - completed;
            env.result = batch_result(&items);
            env.completed = Some(completed);
            env.failed = Some(failed);
            // An item whose failure is `unknown` may have had its effect:
            // a batch of nothing else is `unknown`, not `failed`, and one
            // with completed items is `partial` but no longer safe to replay
            // unless the tool is naturally idempotent.
            let unknown = items
                .iter()
                .any(|i| matches!(&i.result, Err(f) if f.kind == FailureKind::Unknown));
            env.status = match (completed, failed) {
                (_, 0) => Status::Ok,
                (0, _) if unknown => Status::Unknown,
                (0, _) => Status::Failed,
                _ => Status::Partial,
            };
            match env.status {
                Status::Failed => {
                    env.result = Value::Null;
                    env.retry_safe = true;
                }
                Status::Unknown => env.result = Value::Null,
                _ if unknown => env.retry_safe = spec.idempotency == Idempotency::Natural,
                _ => {}
            }
            for i in items {
                if let Err(f) = i.result {
                    let maybe = f.kind == FailureKind::Unknown;
                    env.errors.push(f.into_entry(Some(i.item.clone())));
                    if maybe {
                        let mut e = ErrorEntry::new(
                            codes::UNKNOWN_OUTCOME,
                            "this item may or may not have taken effect".to_string(),
                        );
                        e.item = Some(i.item);
                        env.errors.push(e);
                    }
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
    if env.status == Status::Unknown {
        // Only a naturally idempotent write can be sent again after an
        // unknown outcome: a keyed one answers `unknown` from its record
        // until an operator settles it, and a `none` one may do it twice.
        // The first answer says what every replay will say.
        let safe = spec.idempotency == Idempotency::Natural;
        env.retry_safe = safe;
        for e in &mut env.errors {
            if e.retry_safe.is_some() {
                e.retry_safe = Some(safe);
            }
        }
        if !env.codes().contains(&codes::UNKNOWN_OUTCOME) {
            env.errors.push(ErrorEntry::new(
                codes::UNKNOWN_OUTCOME,
                "the call may or may not have taken effect".to_string(),
            ));
        }
    }
    env
}
