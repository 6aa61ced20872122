//! The breaker stage: the same failing call, repeated, does not run again for
//! a while, and a tool that keeps failing transiently is given a rest. It
//! owns its before and after: [`around`] refuses a call whose circuit is
//! open, runs the stages after it, and then learns from their envelope.

use std::ops::ControlFlow;
use std::time::Instant;

use super::flow::{Flow, Inner, Produced, Step};
use crate::codes;
use crate::envelope::{ErrorEntry, Status};
use crate::policy::breaker::Signature;

pub(super) async fn around<I: Inner>(f: &mut Flow<'_>) -> Step {
    check(f)?;
    let ended = I::run(f).await;
    learn(f);
    ended
}

/// Refuses the call while its circuit is open.
fn check(f: &mut Flow<'_>) -> Step {
    let breaker = &f.parts.breaker;
    let tenant = f.caller.tenant_name().unwrap_or_default();
    // Nothing remembered for this tool: skip the digest on the hot path.
    if !breaker.watching(tenant, f.spec.name) {
        return ControlFlow::Continue(());
    }
    f.watched = true;
    let digest = f.digest();
    let Some(open) = f
        .parts
        .breaker
        .open_circuit(tenant, f.spec.name, &digest, Instant::now())
    else {
        return ControlFlow::Continue(());
    };
    let mut e = if open.whole_tool {
        ErrorEntry::new(
            codes::CIRCUIT_OPEN,
            format!(
                "`{}` keeps failing with passing failures, whatever the arguments; it rests for now",
                f.spec.name
            ),
        )
        .with_hint("wait retry_after_ms before calling this tool again, or go on without it")
    } else {
        ErrorEntry::new(
            codes::CIRCUIT_OPEN,
            format!(
                "`{}` failed the same way too often; it will not run again for now",
                f.spec.name
            ),
        )
        .with_hint("change the arguments or the approach instead of repeating the call")
    };
    e.retry_after_ms = Some((open.retry_after.as_millis() as u64).max(1));
    e.retry_safe = Some(true);
    f.refuse(Status::Failed, vec![e])
}

/// The breaker learns of the outcome of a call that ran (the respond stage
/// wrapped it). An unknown outcome counts too: a model resending a write
/// whose effect is in doubt is exactly the repetition the breaker exists to
/// stop.
fn learn(f: &mut Flow<'_>) {
    let Some(passing) = f.passing else {
        return;
    };
    let Produced::Answer(answer) = &f.produced else {
        return;
    };
    let env = &answer.env;
    // Counted per tenant: one tenant's failures never rest a tool for all.
    let tenant = f.caller.tenant_name().unwrap_or_default();
    if matches!(env.status, Status::Failed | Status::Unknown) {
        let signature = Signature::of(env);
        let digest = f.digest();
        f.parts.breaker.record_failure(
            tenant,
            f.spec.name,
            &digest,
            &signature,
            passing,
            Instant::now(),
        );
    } else if f.watched {
        let digest = f.digest();
        f.parts.breaker.record_success(tenant, f.spec.name, &digest);
    }
}
