//! What a tool declares: its effect, idempotency, authority, approval, retry
//! and timeout, gathered in one [`ToolSpec`] that `#[tool_contract]` writes.

use std::future::Future;
use std::pin::Pin;

use crate::args::ToolArgs;
use crate::context::CallContext;
use crate::failure::ToolOutput;

/// What running the tool does to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Effect {
    /// Reads only.
    ReadOnly,
    /// A local write that can be undone.
    Reversible,
    /// Visible outside the system (a message sent, a comment posted).
    External,
    /// Cannot be undone.
    Destructive,
}

impl Effect {
    /// The effect as written in the attribute and the canonical export.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::ReadOnly => "read_only",
            Effect::Reversible => "reversible",
            Effect::External => "external",
            Effect::Destructive => "destructive",
        }
    }

    /// Whether the tool writes anything.
    pub fn is_write(self) -> bool {
        self != Effect::ReadOnly
    }
}

/// Whether repeating a call can duplicate its effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Idempotency {
    /// Repeating the call is harmless by nature (reads, set-like writes).
    Natural,
    /// Calls carrying the same key run once; the argument field holds the key.
    Key(&'static str),
    /// Repeating the call repeats the effect.
    None,
}

/// When a person must approve a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ApprovalRule {
    /// Every call.
    Always,
    /// No call.
    Never,
    /// When the named predicate over the arguments says so.
    When(&'static str),
}

impl ApprovalRule {
    /// The rule's name as the envelope reports it.
    pub fn name(self) -> &'static str {
        match self {
            ApprovalRule::Always => "always",
            ApprovalRule::Never => "never",
            ApprovalRule::When(name) => name,
        }
    }
}

/// Automatic retries of transient failures (only for retry-safe tools).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RetryPolicy {
    /// Total attempts, the first included; 1 means no retry.
    pub attempts: u32,
    /// Wait before the first retry; doubled for each later one.
    pub backoff_ms: u64,
}

impl RetryPolicy {
    /// No automatic retry.
    pub const NONE: RetryPolicy = RetryPolicy {
        attempts: 1,
        backoff_ms: 0,
    };
}

/// Everything a tool declares besides its types.
#[derive(Clone, Copy, Debug)]
pub struct ToolSpec {
    /// The tool's name (the one every provider accepts).
    pub name: &'static str,
    /// When to choose this tool: its doc comment.
    pub description: &'static str,
    /// What it does to the world: the strictest of [`ToolSpec::effects`],
    /// which decides approval, idempotency, retries and unknown outcomes.
    pub effect: Effect,
    /// Every effect declared (`effect = destructive + external`), strictest
    /// first: cancelling an event both destroys it and emails the invitees.
    pub effects: &'static [Effect],
    /// A human-readable name (`title = "..."`), for MCP's `title`.
    pub title: Option<&'static str>,
    /// The host state the handler takes (`state(Db, Mailer)`): a registry
    /// whose host does not provide each fails to build.
    pub state: &'static [crate::context::StateNeed],
    /// Whether repeating it can duplicate its effect.
    pub idempotency: Idempotency,
    /// Scopes the caller must hold.
    pub authority: &'static [&'static str],
    /// When a person must approve.
    pub approval: ApprovalRule,
    /// Automatic retries of transient failures.
    pub retry: RetryPolicy,
    /// How long one attempt may take, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Why the tool's description is taken out of rule C12
    /// (`#[tool_contract(prose = "why")]`): the audit reports its findings
    /// as acknowledged.
    pub prose: Option<&'static str>,
    /// Whether a call may run in the background as a task
    /// (`task = optional | required`).
    pub task: TaskSupport,
}

/// Whether a tool's calls may run as tasks: answered at once with a task
/// whose outcome, the call's envelope, its caller asks for later
/// (`#[tool_contract(task = optional)]`; see `docs/mcp.md`, "Tasks").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Every call runs within its request (no `task = ...`).
    Forbidden,
    /// A client that can follow a task gets one; any other is answered
    /// within its request.
    Optional,
    /// The call runs only as a task: a client that cannot follow one is
    /// refused.
    Required,
}

impl TaskSupport {
    /// The word MCP's tool execution metadata uses (`taskSupport`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

impl ToolSpec {
    /// Whether replaying a call that ran cannot duplicate its effect.
    pub fn replay_safe(&self) -> bool {
        self.effect == Effect::ReadOnly || self.idempotency != Idempotency::None
    }
}

/// A boxed future, as tool handlers return through the contract.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// The typed contract `#[tool_contract]` implements for each tool.
pub trait ToolContract: Send + Sync + 'static {
    /// The argument type.
    type Args: ToolArgs;
    /// The handler's return type.
    type Output: ToolOutput;
    /// The declarations.
    const SPEC: ToolSpec;
    /// The examples of arguments declared in the contract
    /// (`examples(...)`), each as JSON text; checked when the registry is
    /// built, and exported where the provider takes examples.
    const EXAMPLES: &'static [&'static str] = &[];
    /// For `approval = when(pred)`: `Some(reason)` when this call needs a person.
    fn approval_reason(_ctx: &CallContext, _args: &Self::Args) -> Option<String> {
        None
    }
    /// For `precheck = fn`: the tool's own check of a decoded, authorized
    /// call, before anyone is asked to approve it; `Some(failure)` ends the
    /// call with that failure, and nothing runs.
    fn precheck(_ctx: &CallContext, _args: &Self::Args) -> Option<crate::failure::Failure> {
        None
    }
    /// For `idempotency = key(field)`: the key this call carries.
    fn idempotency_key(_args: &Self::Args) -> Option<&str> {
        None
    }
    /// Runs the handler.
    fn call(ctx: CallContext, args: Self::Args) -> BoxFuture<Self::Output>;
}
