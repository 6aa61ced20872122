//! What a running tool tells the people and programs waiting on it, and what
//! the transport serving a call lends it.
//!
//! A handler reports progress ([`CallContext::progress`]) and writes log
//! lines at a level ([`CallContext::log`]). Both always go to `tracing`
//! (target `contract_runtime::report`, with the call id and the tool), and,
//! when the transport serving the call set a [`Reporter`] in the call's
//! [`CallScope`], to it as well: the MCP server sends them to the client as
//! `notifications/progress` (when the request carried a `progressToken`) and
//! `notifications/message` (at or above the level the client set with
//! `logging/setLevel`). Secrets the caller registered are scrubbed from the
//! text before it goes anywhere.
//!
//! A transport sets the scope around the dispatch:
//!
//! ```
//! use std::sync::Arc;
//! use contract_runtime::report::{CallScope, LogLevel, Reporter};
//!
//! struct Printer;
//! impl Reporter for Printer {
//!     fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
//!         println!("{done}/{total:?} {message:?}");
//!     }
//!     fn log(&self, level: LogLevel, message: &str) {
//!         println!("{level:?}: {message}");
//!     }
//! }
//!
//! # async fn run(d: contract_runtime::Dispatcher, caller: Arc<contract_runtime::Caller>, call: contract_runtime::ToolCall) {
//! let envelope = CallScope::new()
//!     .reporter(Arc::new(Printer))
//!     .run(d.dispatch(&caller, &call))
//!     .await;
//! # }
//! ```
//!
//! The scope also carries what a transport lends a tool by type
//! ([`CallScope::extra`], read with [`CallContext::extra`]): the MCP server
//! lends the client connection (`mcp::McpClient`, feature `mcp`), through which a
//! tool may ask the client to sample a model or ask the person a question.
//!
//! [`CallContext::progress`]: crate::CallContext::progress
//! [`CallContext::log`]: crate::CallContext::log
//! [`CallContext::extra`]: crate::CallContext::extra

use std::any::Any;
use std::future::Future;
use std::sync::Arc;

/// A log line's level: syslog's eight (RFC 5424), as MCP names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detail for debugging.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part of the system failed.
    Critical,
    /// Act now.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// The level's name as MCP and syslog write it (`warning`, not `warn`).
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

/// Where a call's progress and log lines go besides `tracing`; set by the
/// transport serving the call ([`CallScope::reporter`]). Called from the
/// handler's thread, so it must not block: queue, do not send.
pub trait Reporter: Send + Sync + 'static {
    /// `done` of `total` (when known), with an optional message.
    fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>);
    /// One log line at `level`.
    fn log(&self, level: LogLevel, message: &str);
}

/// What the transport serving one call lends the handler: a [`Reporter`],
/// and values by type. Cheap to clone.
///
/// A transport makes one per call, so each thing lent costs one
/// allocation and nothing more: the scope is a chain of what was lent, the
/// latest first (a handful at most, read by a short walk), where a map
/// cost three allocations per call before a handler asked for anything.
/// A value lent again replaces the earlier one (the walk finds it first).
#[derive(Clone, Default)]
pub struct CallScope {
    top: Option<Arc<dyn Lent>>,
}

/// One thing lent, with what was lent before it (its `below`).
trait Lent: Send + Sync + 'static {
    fn below(&self) -> Option<&dyn Lent>;
    fn reporter(&self) -> Option<&dyn Reporter>;
    fn extra(&self) -> Option<&dyn Any>;
}

struct LentReporter {
    reporter: Arc<dyn Reporter>,
    below: Option<Arc<dyn Lent>>,
}

impl Lent for LentReporter {
    fn below(&self) -> Option<&dyn Lent> {
        self.below.as_deref()
    }
    fn reporter(&self) -> Option<&dyn Reporter> {
        Some(&*self.reporter)
    }
    fn extra(&self) -> Option<&dyn Any> {
        None
    }
}

/// A value lent by type, held in the same block as the link.
struct LentExtra<T> {
    value: T,
    below: Option<Arc<dyn Lent>>,
}

impl<T: Any + Send + Sync> Lent for LentExtra<T> {
    fn below(&self) -> Option<&dyn Lent> {
        self.below.as_deref()
    }
    fn reporter(&self) -> Option<&dyn Reporter> {
        None
    }
    fn extra(&self) -> Option<&dyn Any> {
        Some(&self.value)
    }
}

tokio::task_local! {
    static SCOPE: CallScope;
}

impl CallScope {
    /// An empty scope.
    pub fn new() -> CallScope {
        CallScope::default()
    }

    /// Sends the call's progress and log lines to `reporter` too (in place
    /// of a reporter set before).
    pub fn reporter(self, reporter: Arc<dyn Reporter>) -> CallScope {
        CallScope {
            top: Some(Arc::new(LentReporter {
                reporter,
                below: self.top,
            })),
        }
    }

    /// Lends the handler a value of type `T` ([`crate::CallContext::extra`]),
    /// in place of a `T` lent before.
    pub fn extra<T: Any + Send + Sync>(self, value: T) -> CallScope {
        CallScope {
            top: Some(Arc::new(LentExtra {
                value,
                below: self.top,
            })),
        }
    }

    /// What was lent, the latest first.
    fn items(&self) -> impl Iterator<Item = &dyn Lent> {
        std::iter::successors(self.top.as_deref(), |l| l.below())
    }

    /// Runs `fut` (a dispatch) with this scope: every call it dispatches
    /// sees it.
    pub async fn run<F: Future>(self, fut: F) -> F::Output {
        SCOPE.scope(self, fut).await
    }

    /// The scope the current task runs in, if any.
    pub(crate) fn current() -> Option<CallScope> {
        SCOPE.try_with(CallScope::clone).ok()
    }

    pub(crate) fn get_reporter(&self) -> Option<&dyn Reporter> {
        self.items().find_map(Lent::reporter)
    }

    pub(crate) fn get<T: Any>(&self) -> Option<&T> {
        self.items()
            .find_map(|l| l.extra().and_then(|v| v.downcast_ref::<T>()))
    }
}

impl std::fmt::Debug for CallScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // One per type, as before: a value lent again replaced the first.
        let mut types: Vec<std::any::TypeId> = self
            .items()
            .filter_map(|l| l.extra().map(Any::type_id))
            .collect();
        types.sort_unstable();
        types.dedup();
        let extras = types.len();
        f.debug_struct("CallScope")
            .field("reporter", &self.get_reporter().is_some())
            .field("extras", &extras)
            .finish()
    }
}

/// Writes a progress report to `tracing`.
pub(crate) fn trace_progress(
    call_id: &str,
    tool: &str,
    done: f64,
    total: Option<f64>,
    message: Option<&str>,
) {
    tracing::info!(target: "contract_runtime::report", call_id, tool, done, total, message, "progress");
}

/// Writes a log line to `tracing` at the nearest level.
pub(crate) fn trace_log(call_id: &str, tool: &str, level: LogLevel, message: &str) {
    let level_name = level.as_str();
    match level {
        LogLevel::Debug => {
            tracing::debug!(target: "contract_runtime::report", call_id, tool, level = level_name, "{message}")
        }
        LogLevel::Info | LogLevel::Notice => {
            tracing::info!(target: "contract_runtime::report", call_id, tool, level = level_name, "{message}")
        }
        LogLevel::Warning => {
            tracing::warn!(target: "contract_runtime::report", call_id, tool, level = level_name, "{message}")
        }
        _ => {
            tracing::error!(target: "contract_runtime::report", call_id, tool, level = level_name, "{message}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Quiet;
    impl Reporter for Quiet {
        fn progress(&self, _: f64, _: Option<f64>, _: Option<&str>) {}
        fn log(&self, _: LogLevel, _: &str) {}
    }

    /// A value lent again replaces the first, for lookups and for the
    /// count `Debug` shows, as the map the chain replaced did.
    #[test]
    fn a_value_lent_again_replaces_the_first() {
        let scope = CallScope::new()
            .extra(1u32)
            .reporter(Arc::new(Quiet))
            .extra("a")
            .extra(2u32);
        assert_eq!(scope.get::<u32>(), Some(&2));
        assert_eq!(scope.get::<&str>(), Some(&"a"));
        assert!(scope.get::<u64>().is_none());
        assert!(scope.get_reporter().is_some());
        assert_eq!(
            format!("{scope:?}"),
            "CallScope { reporter: true, extras: 2 }"
        );
        assert_eq!(
            format!("{:?}", CallScope::new()),
            "CallScope { reporter: false, extras: 0 }"
        );
    }
}
