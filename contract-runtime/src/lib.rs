//! # contract-runtime: machine-checkable tool contracts for AI agents
//!
//! A tool is an authority boundary presented as a function. This crate and its
//! `#[tool_contract]` attribute make the boundary checkable: every constraint is
//! declared once and produces both the published schema and the runtime check;
//! effect, idempotency, authority and approval are part of the signature; and
//! every call ends in one typed [`Envelope`].
//!
//! ```
//! use contract_runtime::prelude::*;
//!
//! /// Words to look for in the approved public-note index.
//! #[derive(ToolArgs)]
//! pub struct SearchNotes {
//!     /// Text to search for; matched case-insensitively.
//!     #[arg(length(min = 1, max = 200))]
//!     pub query: String,
//! }
//!
//! #[derive(serde::Serialize, JsonSchema)]
//! pub struct Matches { pub matches: Vec<String> }
//!
//! #[derive(Debug, ToolFailure)]
//! pub enum SearchError {
//!     /// The index is being rebuilt.
//!     #[failure(code = "index-busy", transient)]
//!     Busy,
//! }
//!
//! /// Search the approved public-note index. An empty list means that this
//! /// search found no match, not that the topic does not exist.
//! #[tool_contract(effect = read_only, authority = "notes:read")]
//! pub fn search_notes(ctx: &CallContext, args: SearchNotes) -> Result<Matches, SearchError> {
//!     let _ = ctx;
//!     Ok(Matches { matches: vec![] })
//! }
//!
//! let registry = Registry::builder().tool(search_notes::contract()).build().unwrap();
//! let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
//! let caller = std::sync::Arc::new(Caller::new().grant("notes:read"));
//! let call = ToolCall::new("call_1", "search_notes", r#"{"query":""}"#);
//! let env = rt.block_on(Dispatcher::new(registry).dispatch(&caller, &call));
//! assert_eq!(env.status, Status::Invalid);
//! assert_eq!(env.errors[0].code, "schema-violation");
//! assert_eq!(env.errors[0].field.as_deref(), Some("/query"));
//! ```
//!
//! ## One call, stage by stage
//!
//! A provider's bytes become a [`ToolCall`] at the edge ([`provider`], or the
//! `mcp` server); the [`Dispatcher`] looks the tool up in the
//! [`Registry`] and walks the call through the pipeline, one function per
//! stage, each either passing the call on or ending it with the envelope:
//!
//! | stage       | module                                      | ends the call with                          |
//! |-------------|---------------------------------------------|---------------------------------------------|
//! | lookup      | [`registry`], [`dispatch`]                  | `unknown-tool`                              |
//! | decode      | `pipeline::decode` ([`decode`], `args/`)    | `malformed-arguments`, `schema-violation` |
//! | authority   | `pipeline::authority` ([`path`])           | `permission-denied`, `path-outside-scope`   |
//! | idempotency | `pipeline::idempotency` ([`store`]) | the recorded outcome (`replayed`), `idempotency-key-reused`, `in-flight`, `unknown-outcome`, `store-unavailable` |
//! | approval    | `pipeline::approval` ([`policy::approval`], [`store`]) | `approval-required` (with the request's id), `approval-denied` |
//! | breaker     | `pipeline::breaker` ([`policy::breaker`])   | `circuit-open`                              |
//! | run         | `pipeline::run` ([`policy::retry`])         | (passes the outcome on: timeout, panic and retries included) |
//! | respond     | `pipeline::respond` ([`failure`], [`envelope`]) | the tool's own envelope                 |
//!
//! Then the dispatcher scrubs secrets ([`observe`]) and journals the call; the
//! edge renders the envelope for the provider ([`provider::render_results`]).
//! Every call ends in exactly one [`Envelope`], and a panic in anything
//! user-supplied (handler, approval predicate, store, journal, `Serialize` of
//! an output) ends in one too: `dispatch` never unwinds.
//!
//! The modules form layers, each using only those below it: the leaves
//! (`codes`, `envelope`, `path`, `observe`, `digest`, `store`); then the
//! arguments (`args/`: argument types, their constraints, the strict
//! decoder); then `call` and `context`; then `contract` and `failure` (what
//! a tool declares); then `policy` and the `pipeline`; then `tool` and
//! `registry`; then `dispatch`. `provider`, `dialect`, `mcp`, `inbox` and
//! `command` are edges: they use the core, and the core never uses them (checking a
//! registry's names against one provider's rule, `Registry::check_names`, is
//! defined in `dialect::names`). `docs/architecture.md` has the table, and a
//! test holds every module's imports to it.

#![warn(missing_docs, unreachable_pub)]
#![forbid(unsafe_code)]

// The core, bottom-up: each module uses only those above it.
pub mod codes;
pub mod content;
pub mod digest;
pub mod envelope;
pub mod observe;
pub mod path;
pub mod schema;
pub mod store;

mod args;
pub use args::decode;

pub mod call;
pub mod context;
pub mod report;

pub mod contract;
pub mod failure;

mod guard;
mod pipeline;
pub mod policy;

pub mod registry;
pub mod tool;

pub mod dispatch;
pub mod task;

// The edges: they use the core, and the core never uses them.
#[cfg(feature = "audit")]
pub mod audit;
#[cfg(feature = "command")]
pub mod command;
#[cfg(feature = "providers")]
pub mod dialect;
#[cfg(feature = "identity")]
pub mod identity;
#[cfg(feature = "inbox")]
pub mod inbox;
#[cfg(any(feature = "mcp-http", feature = "inbox"))]
mod listen;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "providers")]
pub mod provider;
#[cfg(feature = "providers")]
pub mod turn;

pub use contract_macros::{tool_contract, ToolArgs, ToolFailure};
pub use schemars::{self, JsonSchema};

pub use args::rules::RuleViolation;
pub use args::{ArgValue, ToolArgs};
pub use call::ToolCall;
pub use context::{Approval, CallContext, Caller};
pub use contract::{
    ApprovalRule, Effect, Idempotency, RetryPolicy, TaskSupport, ToolContract, ToolSpec,
};
pub use decode::Limits;
pub use dispatch::Dispatcher;
pub use envelope::{
    ApprovalRequest, ConstraintInfo, Envelope, ErrorEntry, Repair, RepairCall, Status,
};
pub use failure::{Batch, Failure, FailureKind, ToolFailure, ToolOutput};
pub use observe::REDACTED;
pub use path::{ConfinedPath, Root};
pub use policy::approval::Approvals;
pub use registry::{Registry, RegistryError};
pub use tool::Tool;

/// Everything a tool author needs, in one `use`.
pub mod prelude {
    pub use crate::content::{Content, WithContent};
    pub use crate::report::LogLevel;
    pub use crate::{
        tool_contract, Approval, Batch, CallContext, Caller, ConfinedPath, Dispatcher, Envelope,
        JsonSchema, Registry, RepairCall, Root, RuleViolation, Status, ToolArgs, ToolCall,
        ToolFailure,
    };
}

// The guide's and the README's examples run as doc tests, so they cannot rot.
#[cfg(all(doctest, feature = "providers"))]
#[doc = include_str!("../../docs/quickstart.md")]
pub struct QuickstartDoctests;

#[cfg(all(doctest, feature = "providers"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// What generated code calls. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private;

/// `docs/wiring.md` ("Wiring your own host"), whose code blocks are compiled
/// as doctests so that the page stays true to the code.
#[cfg(all(doctest, feature = "inbox", feature = "mcp-http"))]
#[doc = include_str!("../../docs/wiring.md")]
pub struct WiringDoc;

/// `docs/serving.md` ("Serving many users"), compiled as doctests.
#[cfg(all(doctest, feature = "oauth", feature = "mcp-http"))]
#[doc = include_str!("../../docs/serving.md")]
pub struct ServingDoc;
