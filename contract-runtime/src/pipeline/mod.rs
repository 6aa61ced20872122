//! The pipeline every complete call walks, one stage per file, in order:
//!
//! | stage         | file             | ends the call when                                  |
//! |---------------|------------------|-----------------------------------------------------|
//! | decode        | `decode.rs`      | the arguments are malformed or break the contract   |
//! | authority     | `authority.rs`   | a scope is missing or a path leaves its root        |
//! | idempotency   | `idempotency.rs` | the key was seen before (replay, in doubt, reused)  |
//! | precheck      | `precheck.rs`    | the tool's own check refuses the call               |
//! | approval      | `approval.rs`    | a person must approve (or denied) these arguments   |
//! | breaker       | `breaker.rs`     | the same call keeps failing the same way            |
//! | run           | `run.rs`         | never: it runs the handler and passes the outcome on|
//! | respond       | `respond.rs`     | always: it wraps the outcome and records it         |
//!
//! Every stage has the same shape, `async fn stage(&mut Flow) -> Step`: it
//! passes the call on ([`ControlFlow::Continue`]) or ends it with an envelope
//! ([`Flow::end`], which keeps the envelope in the flow and answers
//! [`ControlFlow::Break`]: what travels back through every stage's `?` is one
//! byte, not the envelope). Stages are async so that ones backed by an
//! out-of-process store (idempotency records, pending approvals) fit the same
//! list. What more than one stage needs (the parsed argument tree, its digest)
//! lives in [`Flow`] and is computed at most once, on first use.
//!
//! The pipeline is not generic: it is compiled once, whatever the number of
//! tools. What a stage needs of the tool itself (decoding its arguments, its
//! approval predicate, its request key, its handler) it asks through the
//! erased tool and the erased arguments of `tool.rs`.

mod approval;
mod authority;
mod breaker;
mod decode;
mod idempotency;
mod output;
mod precheck;
mod respond;
mod run;

use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::Value;

use crate::call::ToolCall;
use crate::codes;
use crate::context::{CallContext, Caller};
use crate::contract::ToolSpec;
use crate::decode::{parse_strict, Limits};
use crate::envelope::{Envelope, ErrorEntry, Status};
use crate::policy::approval::digest;
use crate::policy::breaker::Breaker;
use crate::store::{Lease, RecordTimes, Store};
use crate::tool::{Decoded, ErasedTool};

/// What a stage does with a call: pass it on, or end it ([`Flow::end`]).
pub(crate) type Step = ControlFlow<Ended>;

/// The call has ended, and its envelope is in the flow. Only [`Flow::end`]
/// makes one, so a stage cannot end a call without an envelope.
pub(crate) struct Ended(());

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

/// Runs one call of `tool` through every stage.
pub(crate) async fn run_pipeline(
    tool: &dyn ErasedTool,
    parts: &Parts,
    caller: &Arc<Caller>,
    call: &ToolCall,
) -> Box<Answer> {
    let mut f = Flow::new(tool, parts, caller, call);
    let ended = async {
        decode::stage(&mut f).await?;
        authority::stage(&mut f).await?;
        // Idempotency before approval: a re-sent keyed call is answered from
        // its record and never reaches for a second use of a grant.
        idempotency::stage(&mut f).await?;
        // The tool's own check before a person is asked (and after
        // idempotency, so a re-sent keyed call is answered from its record).
        precheck::stage(&mut f).await?;
        approval::stage(&mut f).await?;
        breaker::stage(&mut f).await?;
        run::stage(&mut f).await?;
        respond::stage(&mut f).await
    }
    .await;
    let env = match (ended, std::mem::take(&mut f.produced)) {
        (ControlFlow::Break(Ended(())), Produced::Answer(env)) => env,
        // `respond` always ends the call; this answers if a stage is ever
        // added after it by mistake.
        _ => f.internal("the call ended without an answer"),
    };
    // Boxed: the answer travels out through the dispatcher's futures, and a
    // pointer moves where the envelope would be copied at every step.
    Box::new(Answer {
        env,
        tree: f.tree.into_value(),
    })
}

/// One call on its way through the stages.
pub(crate) struct Flow<'a> {
    tool: &'a dyn ErasedTool,
    parts: &'a Parts,
    caller: &'a Arc<Caller>,
    call: &'a ToolCall,
    spec: &'static ToolSpec,
    /// The decoded arguments, from the decode stage until the run stage takes them.
    args: Option<Decoded>,
    /// What the handler sees; built once the call passed authority.
    ctx: Option<CallContext>,
    tree: Tree,
    digest: Option<String>,
    /// The idempotency key this call holds in the store.
    lease: Option<Box<Lease>>,
    /// Whether the breaker remembers failures of this tool.
    watched: bool,
    /// Whether the handler was started (so its effect may have happened).
    started: bool,
    /// What the call has produced so far.
    produced: Produced,
}

/// What a call has produced: nothing yet, then the run stage's outcome (for
/// the respond stage), then its envelope. Each replaces the one before, so
/// they share one field and the flow stays small.
#[derive(Default)]
// One per call, moved only with the flow: boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Produced {
    #[default]
    Nothing,
    Ran(run::Ran),
    Answer(Envelope),
}

/// The argument text parsed into a tree, at most once and only when a stage
/// needs it (the typed decode does not build one on its fast path).
enum Tree {
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
    fn new(
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
            produced: Produced::Nothing,
        }
    }

    /// The argument tree; `None` only if the text does not parse, which the
    /// decode stage has refused already.
    fn tree(&mut self) -> Option<&Value> {
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
    fn digest(&mut self) -> String {
        if let Some(d) = &self.digest {
            return d.clone();
        }
        let d = digest(self.tree().unwrap_or(&Value::Null));
        self.digest = Some(d.clone());
        d
    }

    /// Ends the call with this envelope.
    #[inline]
    fn end(&mut self, env: Envelope) -> Step {
        self.produced = Produced::Answer(env);
        ControlFlow::Break(Ended(()))
    }

    /// Ends the call before the tool ran.
    fn refuse(&mut self, status: Status, errors: Vec<ErrorEntry>) -> Step {
        let env = self.refusal(status, errors);
        self.end(env)
    }

    /// The envelope of a call refused before the tool ran: replaying it cannot
    /// duplicate an effect.
    fn refusal(&self, status: Status, errors: Vec<ErrorEntry>) -> Envelope {
        Envelope::failure(&self.call.id, self.spec.name, status, true, errors)
    }

    /// The envelope for a panic or a broken invariant in the dispatcher's own
    /// machinery (not the handler): nothing of the tool ran before the run
    /// stage, so the status says so.
    fn internal(&self, message: &str) -> Envelope {
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
}
