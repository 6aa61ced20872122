//! The idempotency stage: a call carrying a key the store has seen is answered
//! from the store (the recorded outcome, an outcome in doubt, or a key reused
//! for other arguments) instead of running again. Every use of the store is
//! in this file: [`stage`] claims the key, [`release`] and [`settle`] give it
//! back or record the outcome.

use std::ops::ControlFlow;

use super::{Flow, Step};
use crate::codes;
use crate::contract::{Idempotency, ToolContract};
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::guard;
use crate::policy::idempotency::Begin;

pub(super) async fn stage<C: ToolContract>(f: &mut Flow<'_, C>) -> Step {
    let key = match (f.spec.idempotency, &f.args) {
        (Idempotency::Key(_), Some(args)) => C::idempotency_key(args).map(str::to_owned),
        _ => None,
    };
    let Some(key) = key else {
        return ControlFlow::Continue(());
    };
    let digest = f.digest();
    let store = &f.parts.store;
    let Some(begin) = guard::catch(|| store.begin(f.spec.name, &key, &digest)) else {
        return ControlFlow::Break(f.internal("the idempotency store crashed before the tool ran"));
    };
    match begin {
        Begin::Fresh => {
            f.key = Some(key);
            ControlFlow::Continue(())
        }
        Begin::Replay(mut env) => {
            env.call_id = f.call.id.clone();
            ControlFlow::Break(*env)
        }
        Begin::Unknown => {
            let e = ErrorEntry::new(
                codes::UNKNOWN_OUTCOME,
                "an earlier call with this idempotency key has not finished or ended with an unknown outcome".to_string(),
            )
            .with_hint("check whether the effect happened before sending a new key");
            // Replaying with this key is answered from the store and runs nothing.
            f.refuse(Status::Unknown, vec![e])
        }
        Begin::Mismatch => {
            let e = ErrorEntry::new(
                codes::IDEMPOTENCY_KEY_REUSED,
                "this idempotency key was first used with other arguments".to_string(),
            )
            .with_hint("send a new key for a new request, or repeat the first request exactly");
            f.refuse(Status::Invalid, vec![e])
        }
    }
}

/// Gives the key back: the call is known to have had no effect.
pub(super) async fn release<C: ToolContract>(f: &mut Flow<'_, C>) {
    if let Some(key) = f.key.take() {
        let store = &f.parts.store;
        if guard::catch(|| store.release(f.spec.name, &key)).is_none() {
            tracing::error!(
                tool = f.spec.name,
                "the idempotency store panicked releasing a key"
            );
        }
    }
}

/// Records the outcome under the key: a passing failure had no effect, so its
/// key may be used again; every other outcome is what a repeat gets back.
pub(super) async fn settle<C: ToolContract>(f: &mut Flow<'_, C>, env: &Envelope, transient: bool) {
    if transient {
        return release(f).await;
    }
    if let Some(key) = f.key.take() {
        let store = &f.parts.store;
        if guard::catch(|| store.finish(f.spec.name, &key, env)).is_none() {
            // The tool ran and its envelope stands; the key stays claimed, so
            // a repeat is answered as an outcome in doubt, never run twice.
            tracing::error!(
                tool = f.spec.name,
                "the idempotency store panicked recording an outcome"
            );
        }
    }
}
