//! The breaker stage: the same failing call, repeated, does not run again for
//! a while, and a tool that keeps failing transiently is given a rest.

use std::ops::ControlFlow;
use std::time::Instant;

use super::{idempotency, Flow, Step};
use crate::codes;
use crate::envelope::{ErrorEntry, Status};

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
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
    // The call does not run, so the key it claimed is free again.
    idempotency::release(f).await;
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
