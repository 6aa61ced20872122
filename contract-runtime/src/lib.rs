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
//! let call = ToolCall { id: "call_1".into(), name: "search_notes".into(), arguments: r#"{"query":""}"#.into() };
//! let env = rt.block_on(Dispatcher::new(registry).dispatch(&caller, &call));
//! assert_eq!(env.status, Status::Invalid);
//! assert_eq!(env.errors[0].code, "schema-violation");
//! assert_eq!(env.errors[0].field.as_deref(), Some("/query"));
//! ```

#![warn(missing_docs)]

pub mod args;
pub mod codes;
pub mod command;
pub mod constraint;
pub mod context;
pub mod contract;
pub mod decode;
pub mod dialect;
pub mod dispatch;
pub mod envelope;
pub mod failure;
mod format;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod observe;
pub mod path;
pub mod policy;
pub mod provider;
pub mod registry;
mod run;
pub mod schema;
pub mod store;
pub mod validate;

pub use contract_macros::{tool_contract, ToolArgs, ToolFailure};
pub use schemars::{self, JsonSchema};

pub use args::{ArgValue, ToolArgs};
pub use context::{Approval, CallContext, Caller};
pub use contract::{ApprovalRule, Effect, Idempotency, RetryPolicy, Tool, ToolContract, ToolSpec};
pub use decode::Limits;
pub use dispatch::Dispatcher;
pub use envelope::{
    ApprovalRequest, ConstraintInfo, Envelope, ErrorEntry, Repair, RepairCall, Status,
};
pub use failure::{Batch, Failure, FailureKind, ToolFailure, ToolOutput};
pub use path::{ConfinedPath, Root};
pub use provider::ToolCall;
pub use registry::{Registry, RegistryError};

/// What replaces a secret value wherever arguments are shown.
pub const REDACTED: &str = "[redacted]";

/// Everything a tool author needs, in one `use`.
pub mod prelude {
    pub use crate::{
        tool_contract, Approval, Batch, CallContext, Caller, ConfinedPath, Dispatcher, Envelope,
        JsonSchema, Registry, RepairCall, Root, Status, ToolArgs, ToolCall, ToolFailure,
    };
}

// The guide's and the README's examples run as doc tests, so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../docs/quickstart.md")]
pub struct QuickstartDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// What generated code calls. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private;
