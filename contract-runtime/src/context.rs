//! Who is calling: the subject and tenant they act as, the scopes they hold,
//! the approvals a person gave, the roots their paths resolve in, and host
//! state the tools read.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::path::Root;
use crate::report::{CallScope, LogLevel};
use crate::store::RecordKey;

/// A standing approval of one tool call, bound to the digest of its exact
/// arguments (see [`Caller::approve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approval {
    /// The tool approved.
    pub tool: String,
    /// `sha256:` digest of the approved arguments, as `needs-approval` reported it.
    pub digest: String,
}

/// Who makes a call: built by the host, once for a session (stdio, a local
/// program) or once per request from its credentials (an authenticator over
/// HTTP, see the `identity` module), and shared by every call it makes.
///
/// Two names place a caller among many:
///
/// - the **tenant** ([`Caller::tenant`]): the account whose state the call
///   touches. Request keys are scoped to it (two tenants sending one key
///   never meet), the breaker counts its failures apart from other tenants',
///   and approval requests are filed under it, so an approver of one tenant
///   never sees another's;
/// - the **subject** ([`Caller::subject`]): the person or agent calling (a
///   token's `sub`). Approval requests, grants and denials belong to the
///   subject within its tenant: one user's decision never answers another
///   user's call.
///
/// Both reach the handler ([`CallContext::subject`], [`CallContext::tenant`])
/// and the journal.
///
/// ```
/// use contract_runtime::{Caller, Approval};
/// let caller = Caller::new()
///     .grant("notes:read")
///     .approve(Approval { tool: "delete_note".into(), digest: "sha256:00".into() });
/// assert!(caller.has_scope("notes:read"));
/// ```
#[derive(Default)]
pub struct Caller {
    scopes: HashSet<String>,
    approvals: Vec<Approval>,
    roots: HashMap<String, Root>,
    secrets: crate::observe::Secrets,
    state: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    tenant: Option<String>,
    subject: Option<String>,
}

impl Caller {
    /// A caller with no scope, approval, root or state.
    pub fn new() -> Caller {
        Caller::default()
    }

    /// Names the tenant (or user) this caller acts for. Idempotency keys are
    /// then scoped to it, so two tenants sending the same key never meet,
    /// and the journal records it as the caller.
    pub fn tenant(mut self, name: impl Into<String>) -> Self {
        self.tenant = Some(name.into());
        self
    }

    /// The tenant named with [`Caller::tenant`].
    pub fn tenant_name(&self) -> Option<&str> {
        self.tenant.as_deref()
    }

    /// Names the subject (the user or agent, a token's `sub`) this caller is.
    /// Approval requests, grants and denials are then its own, apart from
    /// other subjects of the same tenant.
    pub fn subject(mut self, name: impl Into<String>) -> Self {
        self.subject = Some(name.into());
        self
    }

    /// The subject named with [`Caller::subject`].
    pub fn subject_name(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// How this caller is named where one name is recorded (an approval
    /// request's `caller`, the journal's `caller`): the subject, else the
    /// tenant, else `-`. With [`Caller::tenant_name`] it identifies whose an
    /// approval request is.
    ///
    /// ```
    /// use contract_runtime::Caller;
    /// assert_eq!(Caller::new().tenant("acme").subject("ana").name(), "ana");
    /// assert_eq!(Caller::new().tenant("acme").name(), "acme");
    /// assert_eq!(Caller::new().name(), "-");
    /// ```
    pub fn name(&self) -> &str {
        self.subject
            .as_deref()
            .or(self.tenant.as_deref())
            .unwrap_or("-")
    }

    /// The scopes held, in no particular order.
    pub fn scopes(&self) -> impl Iterator<Item = &str> + '_ {
        self.scopes.iter().map(String::as_str)
    }

    /// Grants a scope.
    pub fn grant(mut self, scope: impl Into<String>) -> Self {
        self.scopes.insert(scope.into());
        self
    }

    /// Pre-approves one digest for every call of this caller: a standing
    /// approval by host policy, never used up, fixed when the caller is
    /// built. A person's one-off decision is not this: it is an approval
    /// request in the store, granted with
    /// [`Dispatcher::approvals`](crate::Dispatcher::approvals) while the
    /// caller stays the same `Arc<Caller>`, and it lets one call run once.
    pub fn approve(mut self, approval: Approval) -> Self {
        self.approvals.push(approval);
        self
    }

    /// Adds a named root for confined paths (`#[arg(root = "name")]`).
    pub fn root(mut self, name: impl Into<String>, root: Root) -> Self {
        self.roots.insert(name.into(), root);
        self
    }

    /// Registers a secret value (an API token, a password): it is scrubbed from
    /// every envelope, log line and journal entry, whatever tool returns it.
    pub fn secret(mut self, value: impl Into<String>) -> Self {
        self.secrets.add(value);
        self
    }

    /// The registered secret values.
    pub fn secrets(&self) -> &crate::observe::Secrets {
        &self.secrets
    }

    /// Adds host state that tools read with [`CallContext::state`].
    pub fn state<T: Any + Send + Sync>(mut self, value: T) -> Self {
        self.state.insert(TypeId::of::<T>(), Arc::new(value));
        self
    }

    /// Whether the caller holds `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }

    /// The approvals given for `tool`.
    pub fn approvals_for<'a>(&'a self, tool: &'a str) -> impl Iterator<Item = &'a Approval> + 'a {
        self.approvals.iter().filter(move |a| a.tool == tool)
    }

    /// The root named `name`.
    pub fn get_root(&self, name: &str) -> Option<&Root> {
        self.roots.get(name)
    }
}

/// Host state the registry holds for every call (`RegistryBuilder::state`),
/// by type.
#[derive(Clone, Default)]
pub struct HostState {
    values: Arc<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl HostState {
    pub(crate) fn insert<T: Any + Send + Sync>(&mut self, value: T) {
        Arc::make_mut(&mut self.values).insert(TypeId::of::<T>(), Arc::new(value));
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.values.contains_key(&id)
    }

    fn get(&self, id: TypeId) -> Option<&Arc<dyn Any + Send + Sync>> {
        self.values.get(&id)
    }
}

impl std::fmt::Debug for HostState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostState({} values)", self.values.len())
    }
}

/// One type of host state a tool declares with `state(...)`.
#[derive(Clone, Copy, Debug)]
pub struct StateNeed {
    /// The type's name as written (for errors).
    pub name: &'static str,
    /// The type's id.
    pub id: fn() -> TypeId,
}

/// What a tool handler sees of its call.
#[derive(Clone)]
pub struct CallContext {
    caller: Arc<Caller>,
    host: HostState,
    call_id: Arc<str>,
    tool: &'static str,
    /// What the transport serving this call lends it (`report`).
    scope: Option<CallScope>,
    request_key: Option<Arc<RecordKey>>,
    /// A person approved this very call (set by the approval stage).
    approved: bool,
}

impl CallContext {
    pub(crate) fn new(
        caller: Arc<Caller>,
        host: HostState,
        call_id: &str,
        tool: &'static str,
    ) -> CallContext {
        CallContext {
            caller,
            host,
            call_id: Arc::from(call_id),
            tool,
            scope: CallScope::current(),
            request_key: None,
            approved: false,
        }
    }

    /// Reports progress: `done` of `total` (when known), with an optional
    /// message. It goes to `tracing`, and to the client when the transport
    /// can carry it and the client asked (MCP: a `progressToken`); see
    /// [`crate::report`]. Report increasing values.
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        let message = message.map(|m| self.scrubbed(m));
        let message = message.as_deref();
        crate::report::trace_progress(&self.call_id, self.tool, done, total, message);
        if let Some(r) = self.scope.as_ref().and_then(CallScope::get_reporter) {
            r.progress(done, total, message);
        }
    }

    /// Writes a log line at `level`. It goes to `tracing`, and to the client
    /// when the transport can carry it and the client asked (MCP: at or above
    /// the level set with `logging/setLevel`); see [`crate::report`].
    pub fn log(&self, level: LogLevel, message: &str) {
        let message = self.scrubbed(message);
        crate::report::trace_log(&self.call_id, self.tool, level, &message);
        if let Some(r) = self.scope.as_ref().and_then(CallScope::get_reporter) {
            r.log(level, &message);
        }
    }

    /// The caller's secrets never leave in a report.
    fn scrubbed<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        match self.caller.secrets().scrub_str(text) {
            Some(s) => std::borrow::Cow::Owned(s),
            None => std::borrow::Cow::Borrowed(text),
        }
    }

    /// A value of type `T` the transport serving this call lends it
    /// ([`CallScope::extra`]); `None` outside such a transport.
    pub fn extra<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.scope.as_ref().and_then(CallScope::get::<T>)
    }

    /// Marks the call as approved by a person (the approval stage).
    pub(crate) fn with_approval(mut self) -> CallContext {
        self.approved = true;
        self
    }

    /// Whether this call runs on a person's approval: its approval rule
    /// asked, and a grant (or a standing approval of these arguments) let
    /// it run. `false` for a call its rule let run without asking. A
    /// handler that acts on what its rule judged (where a path leads) can
    /// check again that a call nobody approved still stays within the rule,
    /// in case the world changed between the two (a link swapped).
    pub fn approved(&self) -> bool {
        self.approved
    }

    /// The claimed key the call runs under (set by the idempotency stage).
    pub(crate) fn with_request_key(mut self, key: RecordKey) -> CallContext {
        self.request_key = Some(Arc::new(key));
        self
    }

    /// The request key this call runs under, as its record names it: scoped
    /// to the tool and the caller's tenant, a UUID in lower case. `None`
    /// when the tool declares no `idempotency = key(..)` or the call sent
    /// no key. The call holds the key's claim while the handler runs.
    pub fn request_key(&self) -> Option<&RecordKey> {
        self.request_key.as_deref()
    }

    /// The key to hand a service this handler calls as that service's own
    /// idempotency key (a payment API's `Idempotency-Key` header): the same
    /// for every call under this request key, so a retry that an operator
    /// allows after an `unknown` outcome is one request downstream too;
    /// different for another tenant or tool sending the same key, so they
    /// never meet downstream either. `rk_` and 64 hex digits (a SHA-256 of
    /// the tenant, the tool and the key), which every header and API takes.
    pub fn downstream_key(&self) -> Option<String> {
        use sha2::{Digest, Sha256};
        let k = self.request_key()?;
        let mut h = Sha256::new();
        // Each part length-prefixed, so no two triples hash the same bytes.
        for part in [&k.tenant, &k.tool, &k.key] {
            h.update((part.len() as u64).to_be_bytes());
            h.update(part.as_bytes());
        }
        let mut s = String::with_capacity(3 + 64);
        s.push_str("rk_");
        for b in h.finalize() {
            s.push_str(&format!("{b:02x}"));
        }
        Some(s)
    }

    /// The provider's call id.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The tool being called.
    pub fn tool(&self) -> &'static str {
        self.tool
    }

    /// The caller.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// The subject calling ([`Caller::subject`]), when the host or the
    /// caller's token named one.
    pub fn subject(&self) -> Option<&str> {
        self.caller.subject_name()
    }

    /// The tenant the call acts for ([`Caller::tenant`]), when named.
    pub fn tenant(&self) -> Option<&str> {
        self.caller.tenant_name()
    }

    /// The root named `name`; every confined path argument was checked against it before the tool ran.
    pub fn root(&self, name: &str) -> Option<&Root> {
        self.caller.get_root(name)
    }

    /// Host state of type `T`, if the host added it: the caller's
    /// ([`Caller::state`]), else the registry's (`RegistryBuilder::state`).
    pub fn state<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.shared::<T>().and_then(|v| v.downcast_ref::<T>())
    }

    fn shared<T: Any>(&self) -> Option<&Arc<dyn Any + Send + Sync>> {
        let id = TypeId::of::<T>();
        self.caller.state.get(&id).or_else(|| self.host.get(id))
    }

    /// Whether host state of this type is there (the caller's or the registry's).
    pub(crate) fn has_state(&self, id: TypeId) -> bool {
        self.caller.state.contains_key(&id) || self.host.contains(id)
    }

    /// Host state of type `T` as a handle the handler can keep (`state(...)`
    /// parameters are filled from it).
    pub fn state_arc<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.shared::<T>()
            .cloned()
            .and_then(|v| v.downcast::<T>().ok())
    }
}
