//! The approval stage: a call the tool's rule marks for a person runs only
//! with a grant for the digest of its exact arguments, and uses that grant up.
//!
//! The person's side lives in the store as approval requests (pending,
//! granted, denied, used, expired). For a call that needs approval this stage:
//!
//! 1. runs it if the host pre-approved the digest for this caller
//!    ([`crate::Caller::approve`], a standing approval);
//! 2. runs it if a grant for this caller, tool and digest is on record and
//!    this call wins the one conditional write `granted -> used` (of two
//!    racing calls, in one process or two, one runs and the other is asked
//!    again);
//! 3. answers `denied / approval-denied` with the person's reason if they
//!    denied these arguments and the denial has not expired;
//! 4. answers `denied / approval-mismatch` if an approval on record (a grant,
//!    or the host's standing approval) covers other arguments of this tool
//!    only: the arguments changed after a person approved them. A pending
//!    request for these arguments is still made, and the answer names it,
//!    so that a person can approve them too;
//! 5. otherwise answers `needs-approval` with the id of the pending request
//!    for these arguments (created on first sight, reused on repeats), unless
//!    the call's request key already waits on a request for other arguments:
//!    one pending request per request key, the key being bound to its first
//!    arguments (`invalid / idempotency-key-reused`, naming that request).
//!
//! It runs inside the idempotency stage: a re-sent call with a request key is
//! answered from its record and never reaches for a second use of the grant,
//! and a call that does not pass here never started, so the idempotency
//! stage gives its key back.

use std::ops::ControlFlow;

use super::flow::{Flow, Step};
use crate::codes;
use crate::context::CallContext;
use crate::contract::{ApprovalRule, Idempotency};
use crate::envelope::{ApprovalRequest, Envelope, ErrorEntry, Status};
use crate::guard::{self, guarded};
use crate::observe::Secrets;
use crate::policy::approval::{
    grant_for_other_arguments, journal, on_record, pending_for_key, standing,
    standing_for_other_arguments, Owner, MAX_PENDING,
};
use crate::store::{ApprovalFilter, ApprovalRecord, ApprovalState, NewApproval, StoreError};
use crate::tool::redacted;

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
    let spec = f.spec;
    let reason = match spec.approval {
        ApprovalRule::Never => return ControlFlow::Continue(()),
        ApprovalRule::Always => Some(format!("`{}` always needs a person's approval", spec.name)),
        ApprovalRule::When(_) => {
            let (Some(ctx), Some(args)) = (&f.ctx, &f.args) else {
                return f.end(f.internal("the call reached approval undecoded"));
            };
            // The predicate is the tool author's code: a panic in it refuses
            // the call instead of unwinding through the dispatcher.
            match guard::catch(|| args.approval_reason(ctx)) {
                Some(reason) => reason,
                None => {
                    return f.end(f.internal("the approval rule crashed before the tool ran"));
                }
            }
        }
    };
    let Some(reason) = reason else {
        return ControlFlow::Continue(());
    };
    // Boxed: only calls that need a person carry the store's state.
    Box::pin(decide(f, reason)).await
}

/// A person must approve this call: a standing approval or a grant on
/// record lets it run; otherwise it ends here.
async fn decide(f: &mut Flow<'_>, reason: String) -> Step {
    let digest = f.digest();
    let approved = |f: &mut Flow<'_>| {
        f.ctx = f.ctx.take().map(CallContext::with_approval);
        ControlFlow::Continue(())
    };
    if standing(f.caller, f.spec.name, &digest) {
        return approved(f);
    }
    match ask(f, reason, &digest).await {
        Ok(None) => approved(f),
        Ok(Some(env)) => f.end(env),
        Err(e) => f.end(f.store_unavailable("its approvals", &e)),
    }
}

/// Uses a grant up (`None`: the call runs), or says why it cannot run yet.
async fn ask(
    f: &mut Flow<'_>,
    reason: String,
    digest: &str,
) -> Result<Option<Envelope>, StoreError> {
    let store = f.parts.store.clone();
    let tool = f.spec.name;
    let who = Owner::of(f.caller);
    let seen = guarded(|| Box::pin(on_record(&*store, &who, tool, digest))).await?;
    let mut lost_race = false;
    for grant in &seen.granted {
        if guarded(|| store.consume(&grant.id, digest)).await? {
            let mut used = grant.clone();
            used.state = crate::store::ApprovalState::Used;
            journal(&*store, "approval-used", &used, None).await;
            return Ok(None);
        }
        lost_race = true;
    }
    if let Some(denial) = seen.denied {
        return Ok(Some(denied(f, &denial)));
    }
    let lapsed = seen.lapsed;
    let (request, fresh) = match seen.pending {
        Some(r) => (r, false),
        None => {
            // One pending request per request key: the key is bound to the
            // arguments it first asked about, as it is to those it first ran.
            // This stage still holds the key's claim, so two calls with one
            // key cannot both get here at once.
            if let Some((field, key)) = request_key(f) {
                let waiting =
                    guarded(|| Box::pin(pending_for_key(&*store, &who, tool, field, &key, digest)))
                        .await?;
                if let Some(waiting) = waiting {
                    return Ok(Some(key_waits(f, field, &waiting)));
                }
            }
            // One caller's requests wait for people, who read each: a
            // flood of them would bury the others' and fill the inbox.
            let theirs = ApprovalFilter {
                state: Some(ApprovalState::Pending),
                caller: Some(who.caller.clone()),
                tenant: Some(who.tenant.clone()),
                ..ApprovalFilter::default()
            };
            let waiting = guarded(|| store.approvals(&theirs)).await?;
            if waiting.len() >= MAX_PENDING {
                let e = ErrorEntry::new(
                    codes::TOO_MANY_APPROVALS,
                    format!(
                        "{} approval requests of this caller already wait for a person, the most there may be; no new one was made, and nothing ran",
                        waiting.len()
                    ),
                )
                .with_hint("wait until a person has decided some of the requests waiting, then send this call again");
                return Ok(Some(f.refusal(Status::Failed, vec![e])));
            }
            let (arguments, secrets) = shown(f);
            let new = NewApproval {
                tool: tool.to_string(),
                arguments,
                digest: digest.to_string(),
                rule: f.spec.approval.name().to_string(),
                // The rule wrote it from the arguments, secret ones too.
                reason: secrets.scrub_str(&reason).unwrap_or_else(|| reason.clone()),
                caller: who.caller.clone(),
                tenant: who.tenant.clone(),
                ttl: f.parts.times.approval_ttl,
            };
            (guarded(|| store.create_approval(&new)).await?, true)
        }
    };
    if fresh {
        journal(&*store, "approval-request", &request, None).await;
    }
    let approval = ApprovalRequest {
        rule: request.rule,
        reason: reason.clone(),
        digest: digest.to_string(),
        id: Some(request.id.clone()),
    };
    // A grant that another racing call used up says nothing about a change
    // of arguments; an approval for other arguments does.
    let other = match lost_race {
        true => None,
        false if standing_for_other_arguments(f.caller, tool, digest) => {
            Some("the host's standing approval".to_string())
        }
        false => guarded(|| Box::pin(grant_for_other_arguments(&*store, &who, tool, digest)))
            .await?
            .map(|g| format!("the approval on record ({})", g.id)),
    };
    if let Some(other) = other {
        let e = ErrorEntry::new(
            codes::APPROVAL_MISMATCH,
            format!("{other} was given for other arguments of `{tool}`; these arguments are not approved, and nothing ran"),
        )
        .with_hint(format!(
            "send the call with the arguments the person approved; or, if these are the ones meant, ask a person to grant approval request {} and then send this exact call again",
            request.id
        ));
        let mut env = f.refusal(Status::Denied, vec![e]);
        env.approval = Some(approval);
        return Ok(Some(env));
    }
    let message = match (lost_race, &lapsed) {
        (true, _) => format!(
            "the grant for these arguments was used by another call; {}",
            lower_first(&reason)
        ),
        (false, Some(g)) => format!(
            "the grant of approval request {} by {} expired before a call used it; {}",
            g.id,
            g.decided_by.as_deref().unwrap_or("a person"),
            lower_first(&reason)
        ),
        (false, None) => reason,
    };
    let e = ErrorEntry::new(codes::APPROVAL_REQUIRED, message).with_hint(format!(
        "ask a person to grant approval request {}; then send this exact call again, and it runs once",
        request.id
    ));
    let mut env = f.refusal(Status::NeedsApproval, vec![e]);
    env.approval = Some(approval);
    Ok(Some(env))
}

/// The request key's field and value, for a tool that declares one.
fn request_key(f: &Flow<'_>) -> Option<(&'static str, String)> {
    match f.spec.idempotency {
        Idempotency::Key(field) => Some((field, f.args.as_ref()?.idempotency_key()?.to_owned())),
        _ => None,
    }
}

/// This call's request key already waits for a person's decision on other
/// arguments: the key is refused as reused, naming that request, so a model
/// sends a new key for new arguments instead of piling up questions.
fn key_waits(f: &Flow<'_>, field: &str, waiting: &ApprovalRecord) -> Envelope {
    let mut e = ErrorEntry::new(
        codes::IDEMPOTENCY_KEY_REUSED,
        format!(
            "this idempotency key waits for a person's decision on other arguments (approval request {}); nothing ran",
            waiting.id
        ),
    )
    .with_hint("send a new key for new arguments, or repeat the first request exactly");
    e.field = Some(format!("/{field}"));
    f.refusal(Status::Invalid, vec![e])
}

/// A person said no to these exact arguments: the call ends, with their reason.
fn denied(f: &Flow<'_>, denial: &ApprovalRecord) -> Envelope {
    let by = denial.decided_by.as_deref().unwrap_or("a person");
    let message = match denial.decision_reason.as_deref() {
        Some(why) if !why.is_empty() => format!("{by} denied this call: {why}"),
        _ => format!("{by} denied this call"),
    };
    let e = ErrorEntry::new(codes::APPROVAL_DENIED, message)
        .with_hint("do not send these arguments again; change the approach or ask the person");
    f.refusal(Status::Denied, vec![e])
}

/// The arguments as the person will see them, secret values redacted, and
/// every secret value of this call (the caller's and the redacted ones).
fn shown(f: &mut Flow<'_>) -> (serde_json::Value, Secrets) {
    let mut secrets = f.caller.secrets().clone();
    let tool = f.tool;
    let mut v = redacted(
        tool,
        f.tree().unwrap_or(&serde_json::Value::Null),
        &mut secrets,
    );
    secrets.scrub_value(&mut v);
    (v, secrets)
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}
