//! The dispatcher: every complete call walks the pipeline of `design.md` in
//! order (lookup → decode/validate → authority → approval → idempotency →
//! run → envelope) and ends in exactly one envelope.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use crate::args::{ArgValue, ToolArgs};
use crate::codes;
use crate::constraint::Constraints;
use crate::context::{CallContext, Caller};
use crate::contract::{ApprovalRule, Idempotency, ToolContract, ToolSpec};
use crate::decode::{decode_args, parse_strict, Limits};
use crate::envelope::{ApprovalRequest, Envelope, ErrorEntry, Repair, Status};
use crate::failure::ToolOutput;
use crate::observe::{Journal, JournalEntry, Secrets};
use crate::policy::approval::{self, Verdict};
use crate::policy::authority;
use crate::policy::breaker::{Breaker, BreakerConfig};
use crate::policy::idempotency::{Begin, IdempotencyStore, MemoryStore};
use crate::provider::ToolCall;
use crate::registry::Registry;
use crate::run;

/// The object-safe face of a tool, implemented once for every contract.
pub(crate) trait ErasedTool: Send + Sync {
    fn spec(&self) -> &'static ToolSpec;
    fn input_schema(&self) -> Value;
    fn output_schema(&self) -> Option<Value>;
    fn redact(&self, args: &mut Value);
    fn has_secrets(&self) -> bool;
    fn dispatch<'a>(
        &'a self,
        d: &'a Dispatcher,
        caller: &'a Arc<Caller>,
        call: &'a ToolCall,
    ) -> Pin<Box<dyn Future<Output = Envelope> + Send + 'a>>;
}

pub(crate) struct Typed<C>(PhantomData<fn() -> C>);

impl<C> Typed<C> {
    pub(crate) fn new() -> Self {
        Typed(PhantomData)
    }
}

impl<C: ToolContract> ErasedTool for Typed<C> {
    fn spec(&self) -> &'static ToolSpec {
        &C::SPEC
    }
    fn input_schema(&self) -> Value {
        C::Args::input_schema()
    }
    fn output_schema(&self) -> Option<Value> {
        C::Output::output_schema()
    }
    fn redact(&self, args: &mut Value) {
        C::Args::redact(args, &Constraints::NONE);
    }
    fn has_secrets(&self) -> bool {
        C::Args::has_secrets(&Constraints::NONE)
    }
    fn dispatch<'a>(
        &'a self,
        d: &'a Dispatcher,
        caller: &'a Arc<Caller>,
        call: &'a ToolCall,
    ) -> Pin<Box<dyn Future<Output = Envelope> + Send + 'a>> {
        Box::pin(run_pipeline::<C>(d, caller, call))
    }
}

/// Runs calls against a registry.
///
/// ```no_run
/// # use contract_runtime::{Dispatcher, Registry, Caller, ToolCall};
/// # use std::sync::Arc;
/// # async fn demo(registry: Registry) {
/// let dispatcher = Dispatcher::new(registry);
/// let caller = Arc::new(Caller::new().grant("notes:read"));
/// let call = ToolCall { id: "call_1".into(), name: "search_notes".into(), arguments: r#"{"query":"kv"}"#.into() };
/// let envelope = dispatcher.dispatch(&caller, &call).await;
/// println!("{}", envelope.to_json_string());
/// # }
/// ```
pub struct Dispatcher {
    registry: Registry,
    limits: Limits,
    store: Arc<dyn IdempotencyStore>,
    breaker: Breaker,
    journal: Option<Arc<dyn Journal>>,
}

impl Dispatcher {
    /// A dispatcher with default limits and an in-memory idempotency store.
    pub fn new(registry: Registry) -> Dispatcher {
        Dispatcher {
            registry,
            limits: Limits::default(),
            store: Arc::new(MemoryStore::new()),
            breaker: Breaker::default(),
            journal: None,
        }
    }

    /// Sets when the breaker for unproductive retries opens.
    pub fn with_breaker(mut self, config: BreakerConfig) -> Self {
        self.breaker = Breaker::new(config);
        self
    }

    /// Records every call, arguments redacted, in `journal`.
    pub fn with_journal(mut self, journal: Arc<dyn Journal>) -> Self {
        self.journal = Some(journal);
        self
    }

    /// Sets the argument size and depth limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets where idempotency records live.
    pub fn with_store(mut self, store: Arc<dyn IdempotencyStore>) -> Self {
        self.store = store;
        self
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Dispatches one complete call. Never panics; always one envelope.
    /// Must run inside a tokio runtime (timeouts and backoff use its timer).
    pub async fn dispatch(&self, caller: &Arc<Caller>, call: &ToolCall) -> Envelope {
        let started = Instant::now();
        let span = tracing::info_span!("tool_call", call_id = %call.id, tool = %call.name, effect = tracing::field::Empty, status = tracing::field::Empty, codes = tracing::field::Empty, duration_us = tracing::field::Empty);
        let _entered = span.enter();
        // 1. lookup: the registry is the allowlist.
        let tool = self.registry.get(&call.name);
        let mut env = match tool {
            Some(t) => t.inner.dispatch(self, caller, call).await,
            None => self.unknown_tool(call),
        };

        // Secrets: the caller's registered values, and this call's
        // `#[arg(secret)]` values, which only a redacting parse can find.
        let arg_secrets = tool.is_some_and(|t| t.inner.has_secrets());
        let wants_args =
            arg_secrets || self.journal.is_some() || tracing::enabled!(tracing::Level::DEBUG);
        let mut found = Secrets::default();
        let redacted = if wants_args {
            tool.map(|t| redacted_arguments_with(t, &call.arguments, &mut found))
        } else {
            None
        };
        if found.is_empty() {
            caller.secrets().scrub_envelope(&mut env);
        } else {
            let mut all = caller.secrets().clone();
            all.extend(&found);
            all.scrub_envelope(&mut env);
        }

        let duration_us = started.elapsed().as_micros() as u64;
        if let Some(t) = tool {
            span.record("effect", t.spec().effect.as_str());
        }
        span.record("status", env.status.as_str());
        span.record("codes", tracing::field::debug(env.codes()));
        span.record("duration_us", duration_us);
        if let Some(args) = &redacted {
            tracing::debug!(arguments = %args, "tool call arguments (redacted)");
        }
        tracing::info!(status = env.status.as_str(), "tool call");
        if let Some(j) = &self.journal {
            j.record(&JournalEntry {
                ts_ms: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_millis())
                    .unwrap_or(0),
                call_id: call.id.clone(),
                tool: call.name.clone(),
                arguments: redacted
                    .unwrap_or_else(|| Value::from("[unknown tool: arguments not recorded]")),
                status: env.status.as_str().to_string(),
                codes: env.errors.iter().map(|e| e.code.clone()).collect(),
                retry_safe: env.retry_safe,
                duration_us,
            });
        }
        env
    }

    fn unknown_tool(&self, call: &ToolCall) -> Envelope {
        let names = self.registry.names().collect::<Vec<_>>().join(", ");
        let mut e = ErrorEntry::new(
            codes::UNKNOWN_TOOL,
            format!("no tool is named `{}`", call.name.escape_debug()),
        );
        e.repair = Some(Repair {
            hint: format!("call one of the available tools: {names}"),
            call: None,
        });
        Envelope::failure(&call.id, &call.name, Status::Invalid, true, vec![e])
    }
}

pub(crate) fn refuse(
    call: &ToolCall,
    spec: &ToolSpec,
    status: Status,
    errors: Vec<ErrorEntry>,
) -> Envelope {
    // Nothing ran, so replaying cannot duplicate an effect.
    Envelope::failure(&call.id, spec.name, status, true, errors)
}

async fn run_pipeline<C: ToolContract>(
    d: &Dispatcher,
    caller: &Arc<Caller>,
    call: &ToolCall,
) -> Envelope {
    let spec = &C::SPEC;

    // 2-3. strict parse and validation against the contract.
    let args = match decode_args::<C::Args>(&call.arguments, &d.limits) {
        Ok(a) => a,
        Err(e) => return refuse(call, spec, Status::Invalid, e.into_errors()),
    };

    // 4. authority: scopes, then every confined path against its root.
    if let Err((status, errors)) = authority::check(spec, caller, &args) {
        return refuse(call, spec, status, errors);
    }

    let ctx = CallContext::new(caller.clone(), &call.id, spec.name);

    // 5. approval, bound to the digest of the exact arguments.
    let mut digest = None;
    let reason = match spec.approval {
        ApprovalRule::Never => None,
        ApprovalRule::Always => Some(format!("`{}` always needs a person's approval", spec.name)),
        ApprovalRule::When(_) => C::approval_reason(&ctx, &args),
    };
    if let Some(reason) = reason {
        let dg = args_digest(call, &d.limits);
        match approval::verdict(caller, spec.name, &dg) {
            Verdict::Approved => {}
            Verdict::Mismatch => {
                let e = ErrorEntry::new(
                    codes::APPROVAL_MISMATCH,
                    "the approval on record was given for other arguments".to_string(),
                )
                .with_hint("ask a person to approve these exact arguments");
                return refuse(call, spec, Status::Denied, vec![e]);
            }
            Verdict::Required => {
                let e = ErrorEntry::new(codes::APPROVAL_REQUIRED, reason.clone())
                    .with_hint("ask a person to approve this call; it runs once the approval for this digest is on record");
                let mut env = refuse(call, spec, Status::NeedsApproval, vec![e]);
                env.approval = Some(ApprovalRequest {
                    rule: spec.approval.name().to_string(),
                    reason,
                    digest: dg,
                });
                return env;
            }
        }
        // Kept for the idempotency stage, which binds keys to the same digest.
        digest = Some(dg);
    }

    // 6. idempotency: a repeated key returns the recorded outcome.
    let key = match spec.idempotency {
        Idempotency::Key(_) => C::idempotency_key(&args).map(str::to_owned),
        _ => None,
    };
    if let Some(key) = &key {
        let dg = digest
            .take()
            .unwrap_or_else(|| args_digest(call, &d.limits));
        match d.store.begin(spec.name, key, &dg) {
            Begin::Fresh => {}
            Begin::Replay(mut env) => {
                env.call_id = call.id.clone();
                return *env;
            }
            Begin::Unknown => {
                let e = ErrorEntry::new(
                    codes::UNKNOWN_OUTCOME,
                    "an earlier call with this idempotency key has not finished or ended with an unknown outcome".to_string(),
                )
                .with_hint("check whether the effect happened before sending a new key");
                // Replaying with this key is answered from the store and runs nothing.
                return Envelope::failure(&call.id, spec.name, Status::Unknown, true, vec![e]);
            }
            Begin::Mismatch => {
                let e = ErrorEntry::new(
                    codes::IDEMPOTENCY_KEY_REUSED,
                    "this idempotency key was first used with other arguments".to_string(),
                )
                .with_hint("send a new key for a new request, or repeat the first request exactly");
                return refuse(call, spec, Status::Invalid, vec![e]);
            }
        }
    }

    // The breaker: the same failing call, repeated, does not run again.
    let watching = d.breaker.watching(spec.name);
    let mut breaker_digest = None;
    if watching {
        let dg = digest
            .clone()
            .unwrap_or_else(|| args_digest(call, &d.limits));
        if let Some(wait) = d.breaker.check(spec.name, &dg, Instant::now()) {
            if let Some(key) = &key {
                d.store.release(spec.name, key);
            }
            let mut e = ErrorEntry::new(
                codes::CIRCUIT_OPEN,
                format!(
                    "`{}` failed the same way too often; it will not run again for now",
                    spec.name
                ),
            )
            .with_hint("change the arguments or the approach instead of repeating the call");
            let ms = wait.as_millis() as u64;
            e.retry_after_ms = Some(ms.max(1));
            e.retry_safe = Some(true);
            return Envelope::failure(&call.id, spec.name, Status::Failed, true, vec![e]);
        }
        breaker_digest = Some(dg);
    }

    // 7. run, with timeout, panic capture and retries of transient failures.
    let run::Ran { mut env, transient } =
        run::run_with_retries::<C>(call, spec, ctx, args, &d.limits).await;
    point_at_items(&mut env, call, &d.limits);
    // An unknown outcome counts too: a model resending a write whose effect is
    // in doubt is exactly the repetition the breaker exists to stop.
    if matches!(env.status, Status::Failed | Status::Unknown) {
        let dg = breaker_digest.unwrap_or_else(|| args_digest(call, &d.limits));
        let signature = env.codes().join(",");
        d.breaker
            .record_failure(spec.name, &dg, &signature, transient, Instant::now());
    } else if let Some(dg) = breaker_digest {
        d.breaker.record_success(spec.name, &dg);
    }

    // 8. record: a passing failure had no effect, so its key may be used again;
    // every other outcome is what a repeat of the key gets back.
    if let Some(key) = &key {
        if transient {
            d.store.release(spec.name, key);
        } else {
            d.store.finish(spec.name, key, &env);
        }
    }
    env
}

/// A batch failure names its item (`"item": "b.md"`) and the list it came from
/// (`"field": "/notes"`); where the item is a string of that list, the field
/// points at it exactly (`/notes/1`), as wire.md's pointers do.
fn point_at_items(env: &mut Envelope, call: &ToolCall, limits: &Limits) {
    if !env
        .errors
        .iter()
        .any(|e| e.item.is_some() && e.field.is_some())
    {
        return;
    }
    let Ok(args) = parse_strict(&call.arguments, limits) else {
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

fn args_digest(call: &ToolCall, limits: &Limits) -> String {
    // The arguments were decoded already, so this parse succeeds.
    let v = parse_strict(&call.arguments, limits).unwrap_or(Value::Null);
    approval::digest(&v)
}

/// The arguments of a call with secret values replaced, for logs and journals.
pub fn redacted_arguments(tool: &crate::Tool, raw: &str) -> Value {
    redacted_arguments_with(tool, raw, &mut Secrets::default())
}

/// Redacts, and collects the secret values it replaced into `secrets`.
fn redacted_arguments_with(tool: &crate::Tool, raw: &str, secrets: &mut Secrets) -> Value {
    let original = match parse_strict(raw, &Limits::default()) {
        Ok(v) => v,
        Err(_) => return Value::from("[unparseable arguments]"),
    };
    let mut v = original.clone();
    tool.inner.redact(&mut v);
    secrets.collect_redacted(&original, &v);
    v
}
