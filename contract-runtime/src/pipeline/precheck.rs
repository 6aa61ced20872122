//! The precheck stage: the tool's own check of a decoded, authorized call
//! (`#[tool_contract(precheck = fn)]`), run before anyone is asked to approve
//! it. A refund larger than the payment can refund is refused here, with the
//! tool's typed failure, instead of going to a person who approves it only to
//! see it fail.
//!
//! It sits after idempotency and before approval:
//!
//! - before approval, so that a call the tool would refuse anyway makes no
//!   approval request and spends no person's attention (and no grant);
//! - after idempotency, so that a keyed call re-sent after it ran is answered
//!   from its record. Before it, the check would look at the world the first
//!   run changed (the payment already refunded) and refuse a call whose
//!   answer is on record. It runs inside the idempotency stage, which gives
//!   the key of a call refused here back: nothing ran.
//!
//! The check's failure is an envelope as the handler's would be, with the
//! status its kind says (`denied` for a `denied` failure, `failed`
//! otherwise). An `unknown` failure is answered `failed`: nothing ran, so no
//! effect is in doubt. The check is the tool author's code: a panic in it is
//! caught and refuses the call as `failed / internal`.

use std::ops::ControlFlow;

use super::flow::{Flow, Step};
use crate::envelope::{ErrorEntry, Status};
use crate::failure::{Failure, FailureKind};
use crate::guard;

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
    let (Some(ctx), Some(args)) = (&f.ctx, &f.args) else {
        return f.end(f.internal("the call reached the precheck undecoded"));
    };
    let refused = match guard::catch(|| args.precheck(ctx)) {
        Some(None) => return ControlFlow::Continue(()),
        Some(Some(failure)) => failure,
        None => {
            return f.end(f.internal("the precheck crashed before the tool ran"));
        }
    };
    let status = match refused.kind {
        FailureKind::Denied => Status::Denied,
        FailureKind::Domain | FailureKind::Transient | FailureKind::Unknown => Status::Failed,
    };
    f.refuse(status, vec![entry(refused)])
}

/// The failure as an error entry, as the handler's would be, but for one
/// thing: nothing ran, so a failure that speaks of replaying at all is safe
/// to send again.
fn entry(f: Failure) -> ErrorEntry {
    let mut e = f.into_entry(None);
    e.retry_safe = e.retry_safe.map(|_| true);
    e
}
