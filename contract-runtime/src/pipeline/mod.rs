//! The pipeline every complete call walks, one stage per file, in order:
//!
//! | stage         | file             | ends the call when                                  |
//! |---------------|------------------|-----------------------------------------------------|
//! | decode        | `decode.rs`      | the arguments are malformed or break the contract   |
//! | authority     | `authority.rs`   | a scope is missing or a path leaves its root        |
//! | idempotency   | `idempotency.rs` | the key was seen before (replay, in doubt, reused)  |
//! | precheck      | `precheck.rs`    | the tool's own check refuses the call               |
//! | breaker       | `breaker.rs`     | the same call keeps failing the same way            |
//! | approval      | `approval.rs`    | a person must approve (or denied) these arguments   |
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

mod flow;

// The stages, in the order a call walks them (a blank line between each, so
// that rustfmt keeps the order).
mod decode;

mod authority;

mod idempotency;

mod precheck;

mod breaker;

mod approval;

mod run;

mod output;
mod respond;

use std::sync::Arc;

use crate::call::ToolCall;
use crate::context::Caller;
use crate::tool::ErasedTool;
pub(crate) use flow::{Answer, Parts};
use flow::{Flow, Inner, Step};

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
        // its record and never reaches for a second use of a grant. The
        // stages after it run inside it, and it settles the claim after them.
        idempotency::around::<Claimed>(&mut f).await
    }
    .await;
    f.answer(ended)
}

/// What runs while the call holds its request key: the tool's precheck,
/// then the breaker around approval and the run.
struct Claimed;

impl Inner for Claimed {
    async fn run(f: &mut Flow<'_>) -> Step {
        // The tool's own check before a person is asked (and after
        // idempotency, so a re-sent keyed call is answered from its record).
        precheck::stage(f).await?;
        // The breaker before approval: a person is never asked about (and
        // a grant never spent on) a call whose circuit is open.
        breaker::around::<Watched>(f).await
    }
}

/// What runs under the breaker's watch: approval, the handler, then its
/// envelope, which the breaker learns from (only a call that ran teaches it).
struct Watched;

impl Inner for Watched {
    async fn run(f: &mut Flow<'_>) -> Step {
        approval::stage(f).await?;
        run::stage(f).await?;
        respond::stage(f).await
    }
}
