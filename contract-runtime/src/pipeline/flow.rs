//! One call on its way through the stages ([`Flow`]), and what a stage
//! answers ([`Step`]): the state the stages share, and the only way a call
//! ends (`Flow::end`, which keeps the envelope in the flow).

use std::future::Future;
use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::Value;

use crate::args::decode::{parse_strict, Limits};
use crate::call::ToolCall;
use crate::codes;
use crate::context::{CallContext, Caller};
use crate::contract::ToolSpec;
use crate::digest::digest;
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::failure::Outcome;
use crate::policy::breaker::Breaker;
use crate::store::{Lease, RecordTimes, Store, StoreError};
use crate::tool::{Decoded, ErasedTool};

/// What a stage does with a call: pass it on, or end it ([`Flow::end`]).
pub(super) type Step = ControlFlow<Ended>;

/// The stages that run inside another stage's before and after, as a
/// service runs inside a layer: the idempotency stage holds its claim, and
/// the breaker watches, while the stages after them run.
pub(super) trait Inner {
    /// Runs these stages on the call.
    fn run<'f, 'a>(f: &'f mut Flow<'a>) -> impl Future<Output = Step> + Send + 'f;
}

/// The call has ended, and its envelope is in the flow. Only [`Flow::end`]
/// makes one, so a stage cannot end a call without an envelope.
pub(super) struct Ended(());

/// The parts of a dispatcher the stages use.
pub(crate) struct Parts {
    pub(crate) limits: Limits,
    /// Idempotency records (and, when the host set one, the journal).
    pub(crate) store: Arc<dyn Store>,
    /// How long claims and records last.
    pub(crate) times: RecordTimes,
    pub(crate) breaker: Breaker,
    /// The registry's host state, for every call's context.
    pub(crate) host: crate::context::HostState,
}

/// What the pipeline hands back: the envelope, and the argument tree when a
/// stage parsed it, so that the dispatcher's redaction does not parse again.
pub(crate) struct Answer {
    pub(crate) env: Envelope,
    pub(crate) tree: Option<Value>,
}

/// One call on its way through the stages.
pub(super) struct Flow<'a> {
    pub(super) tool: &'a dyn ErasedTool,
    pub(super) parts: &'a Parts,
    pub(super) caller: &'a Arc<Caller>,
    pub(super) call: &'a ToolCall,
    pub(super) spec: &'static ToolSpec,
    /// The decoded arguments, from the decode stage until the run stage takes them.
    pub(super) args: Option<Decoded>,
    /// What the handler sees; built once the call passed authority.
    pub(super) ctx: Option<CallContext>,
    pub(super) tree: Tree,
    pub(super) digest: Option<String>,
    /// The idempotency key this call holds in the store.
    pub(super) lease: Option<Box<Lease>>,
    /// Whether the breaker remembers failures of this tool.
    pub(super) watched: bool,
    /// Whether the handler was started (so its effect may have happened).
    pub(super) started: bool,
    /// Once the respond stage wrapped the run's outcome: whether it is a
    /// passing failure with no effect. The breaker learns from it, and the
    /// idempotency stage gives such a call's key back.
    pub(super) passing: Option<bool>,
    /// What the call has produced so far.
    pub(super) produced: Produced,
}

/// What a call has produced: nothing yet, then the run stage's outcome (for
/// the respond stage), then its answer. Each replaces the one before, so
/// they share one field and the flow stays small.
///
/// The answer is boxed when the call ends ([`Flow::end`]): that box is the
/// one the pipeline hands back, so it costs no allocation, and the
/// envelope (328 bytes) stays out of every call's future: glibc's
/// per-thread cache serves blocks up to 1,032 bytes, and a larger future
/// goes to the allocator's slow path on every call.
#[derive(Default)]
// One per call, moved only with the flow: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub(super) enum Produced {
    #[default]
    Nothing,
    Ran(Ran),
    Answer(Box<Answer>),
}

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

/// The argument text parsed into a tree, at most once and only when a stage
/// needs it (the typed decode does not build one on its fast path).
pub(super) enum Tree {
    Unparsed,
    Parsed(Value),
    Unparseable,
}

impl Tree {
    fn into_value(self) -> Option<Value> {
        match self {
            Tree::Parsed(v) => Some(v),
            _ => None,
        }
    }
}

impl<'a> Flow<'a> {
    pub(super) fn new(
        tool: &'a dyn ErasedTool,
        parts: &'a Parts,
        caller: &'a Arc<Caller>,
        call: &'a ToolCall,
    ) -> Self {
        Flow {
            tool,
            parts,
            caller,
            call,
            spec: tool.spec(),
            args: None,
            ctx: None,
            tree: Tree::Unparsed,
            digest: None,
            lease: None,
            watched: false,
            started: false,
            passing: None,
            produced: Produced::Nothing,
        }
    }

    /// The argument tree; `None` only if the text does not parse, which the
    /// decode stage has refused already.
    pub(super) fn tree(&mut self) -> Option<&Value> {
        if let Tree::Unparsed = self.tree {
            self.tree = match parse_strict(&self.call.arguments, &self.parts.limits) {
                Ok(v) => Tree::Parsed(v),
                Err(_) => Tree::Unparseable,
            };
        }
        match &self.tree {
            Tree::Parsed(v) => Some(v),
            _ => None,
        }
    }

    /// The digest of the exact arguments (approvals, idempotency keys and the
    /// breaker are all bound to it), computed once.
    pub(super) fn digest(&mut self) -> String {
        if let Some(d) = &self.digest {
            return d.clone();
        }
        let d = digest(self.tree().unwrap_or(&Value::Null));
        self.digest = Some(d.clone());
        d
    }

    /// Ends the call with this envelope.
    #[inline]
    pub(super) fn end(&mut self, env: Envelope) -> Step {
        self.produced = Produced::Answer(Box::new(Answer { env, tree: None }));
        ControlFlow::Break(Ended(()))
    }

    /// Ends the call before the tool ran.
    pub(super) fn refuse(&mut self, status: Status, errors: Vec<ErrorEntry>) -> Step {
        let env = self.refusal(status, errors);
        self.end(env)
    }

    /// The envelope of a call refused before the tool ran: replaying it cannot
    /// duplicate an effect.
    pub(super) fn refusal(&self, status: Status, errors: Vec<ErrorEntry>) -> Envelope {
        Envelope::failure(&self.call.id, self.spec.name, status, true, errors)
    }

    /// The envelope for a panic or a broken invariant in the dispatcher's own
    /// machinery (not the handler): nothing of the tool ran before the run
    /// stage, so the status says so.
    pub(super) fn internal(&self, message: &str) -> Envelope {
        let ran = self.started;
        let unknown = ran && self.spec.effect.is_write();
        let status = if unknown {
            Status::Unknown
        } else {
            Status::Failed
        };
        let mut errors = vec![ErrorEntry::new(
            codes::INTERNAL,
            format!("`{}`: {message}", self.spec.name),
        )];
        if unknown {
            errors.push(ErrorEntry::new(
                codes::UNKNOWN_OUTCOME,
                "the call may or may not have taken effect".to_string(),
            ));
        }
        let retry_safe = !ran || self.spec.replay_safe();
        Envelope::failure(&self.call.id, self.spec.name, status, retry_safe, errors)
    }

    /// A store that cannot be reached never lets a call that depends on it
    /// run: the call is refused as a passing failure. `keeps` says what the
    /// store keeps for this tool (its request keys, its approvals).
    pub(super) fn store_unavailable(&self, keeps: &str, error: &StoreError) -> Envelope {
        tracing::warn!(tool = self.spec.name, error = %error, "store unavailable");
        let mut e = ErrorEntry::new(
            codes::STORE_UNAVAILABLE,
            format!(
                "`{}` did not run: the store that keeps {keeps} cannot be reached",
                self.spec.name
            ),
        )
        .with_hint("send the same call again later");
        e.retry_after_ms = Some(1000);
        e.retry_safe = Some(true);
        self.refusal(Status::Failed, vec![e])
    }

    /// The step of stages that ended, with the envelope in the flow: a call
    /// that came out of its stages without one (`respond` always ends the
    /// call; this answers if a stage is ever added after it by mistake) ends
    /// here as a broken invariant.
    pub(super) fn ensure_answer(&mut self, step: Step) -> Step {
        match (step, &self.produced) {
            (ControlFlow::Break(ended), Produced::Answer(_)) => ControlFlow::Break(ended),
            _ => {
                let env = self.internal("the call ended without an answer");
                self.end(env)
            }
        }
    }

    /// What the call answers once its stages ended.
    pub(super) fn answer(mut self, ended: Step) -> Box<Answer> {
        // Either way the envelope is in the flow now.
        let _ = self.ensure_answer(ended);
        // Boxed (since `end`): the answer travels out through the
        // dispatcher's futures, and a pointer moves where the envelope would
        // be copied at every step.
        let mut answer = match std::mem::take(&mut self.produced) {
            Produced::Answer(answer) => answer,
            // `ensure_answer` left one.
            _ => Box::new(Answer {
                env: self.internal("the call ended without an answer"),
                tree: None,
            }),
        };
        answer.tree = std::mem::replace(&mut self.tree, Tree::Unparsed).into_value();
        answer
    }
}
