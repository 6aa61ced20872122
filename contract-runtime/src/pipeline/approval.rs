//! The approval stage: a call the tool's rule marks for a person runs only
//! with an approval on record for the digest of its exact arguments.

use std::ops::ControlFlow;

use super::{Flow, Step};
use crate::codes;
use crate::contract::{ApprovalRule, ToolContract};
use crate::envelope::{ApprovalRequest, ErrorEntry, Status};
use crate::guard;
use crate::policy::approval::{verdict, Verdict};

pub(super) async fn stage<C: ToolContract>(f: &mut Flow<'_, C>) -> Step {
    let spec = f.spec;
    let reason = match spec.approval {
        ApprovalRule::Never => return ControlFlow::Continue(()),
        ApprovalRule::Always => Some(format!("`{}` always needs a person's approval", spec.name)),
        ApprovalRule::When(_) => {
            let (Some(ctx), Some(args)) = (&f.ctx, &f.args) else {
                return ControlFlow::Break(f.internal("the call reached approval undecoded"));
            };
            // The predicate is the tool author's code: a panic in it refuses
            // the call instead of unwinding through the dispatcher.
            match guard::catch(|| C::approval_reason(ctx, args)) {
                Some(reason) => reason,
                None => {
                    return ControlFlow::Break(
                        f.internal("the approval rule crashed before the tool ran"),
                    )
                }
            }
        }
    };
    let Some(reason) = reason else {
        return ControlFlow::Continue(());
    };
    let digest = f.digest();
    match verdict(f.caller, spec.name, &digest) {
        Verdict::Approved => ControlFlow::Continue(()),
        Verdict::Mismatch => {
            let e = ErrorEntry::new(
                codes::APPROVAL_MISMATCH,
                "the approval on record was given for other arguments".to_string(),
            )
            .with_hint("ask a person to approve these exact arguments");
            f.refuse(Status::Denied, vec![e])
        }
        Verdict::Required => {
            let e = ErrorEntry::new(codes::APPROVAL_REQUIRED, reason.clone())
                .with_hint("ask a person to approve this call; it runs once the approval for this digest is on record");
            let mut env = f.refusal(Status::NeedsApproval, vec![e]);
            env.approval = Some(ApprovalRequest {
                rule: spec.approval.name().to_string(),
                reason,
                digest,
            });
            ControlFlow::Break(env)
        }
    }
}
