//! Approval is bound to the exact arguments: their digest
//! ([`crate::digest::digest`]), so an approval for `{"note":"a.md"}` cannot
//! be spent on `{"note":"b.md"}`.
//!
//! A person's approval is a request in the store (pending, then granted or
//! denied, then used or expired); this module reads those records for the
//! approval stage and gives the host [`Approvals`] to decide on them.

use serde_json::Value;

use std::fmt;
use std::sync::Arc;

use crate::context::Caller;
use crate::observe::journal_arguments;
use crate::store::{
    ApprovalFilter, ApprovalRecord, ApprovalState, Decided, Decision, JournalRecord, Store,
    StoreError,
};

/// The most approval requests one caller (of one tenant) may have waiting
/// for a person at once (100): past it a call that needs a new request is
/// `failed / too-many-approvals` and makes none, so that one caller cannot
/// bury everyone else's requests or fill the inbox's page.
pub const MAX_PENDING: usize = 100;

/// The longest reason a decision may give, in characters (2,000): it is
/// kept in the request, the journal, and the message the model reads on a
/// denial, whoever decides (the inbox, the operator's command, a person at
/// an MCP client).
pub const MAX_REASON: usize = 2000;

/// Whether the host pre-approved these exact arguments for every call of
/// this caller ([`Caller::approve`]): a standing approval, not a person's
/// one-off decision, so it is never used up. A person's decisions are
/// approval requests in the store ([`Approvals`]).
pub fn standing(caller: &Caller, tool: &str, digest: &str) -> bool {
    caller.approvals_for(tool).any(|a| a.digest == digest)
}

/// Whether the host approved this tool for this caller with other arguments
/// only: a call that changed its arguments after approval.
pub fn standing_for_other_arguments(caller: &Caller, tool: &str, digest: &str) -> bool {
    caller.approvals_for(tool).any(|a| a.digest != digest)
}

/// Whose an approval request is: the asking caller's tenant and name
/// ([`Caller::name`]). Only calls of the same owner find its grant, its
/// denial or its pending request, so one user's decision never answers
/// another user's call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owner {
    /// The tenant (empty when the caller named none).
    pub tenant: String,
    /// [`Caller::name`]: the subject, else the tenant, else `-`; a subject
    /// spelled like that fallback (or like this escape) is written
    /// `subject:` and the subject, so a caller without a subject and one
    /// whose subject reads like its name are never one owner.
    pub caller: String,
}

/// What marks a subject that would read as a caller without one.
const SUBJECT_ESCAPE: &str = "subject:";

impl Owner {
    /// The owner of the requests `caller` makes.
    pub fn of(caller: &Caller) -> Owner {
        let tenant = caller.tenant_name().unwrap_or_default().to_owned();
        let caller = match caller.subject_name() {
            // What `Caller::name` says of a caller without a subject.
            Some(subject)
                if subject == caller.tenant_name().unwrap_or("-")
                    || subject.starts_with(SUBJECT_ESCAPE) =>
            {
                format!("{SUBJECT_ESCAPE}{subject}")
            }
            _ => caller.name().to_owned(),
        };
        Owner { tenant, caller }
    }

    /// The owner of a stored request.
    pub fn of_record(r: &ApprovalRecord) -> Owner {
        Owner {
            tenant: r.tenant.clone(),
            caller: r.caller.clone(),
        }
    }

    /// A filter for this owner's requests.
    fn filter(&self) -> ApprovalFilter {
        ApprovalFilter {
            caller: Some(self.caller.clone()),
            tenant: Some(self.tenant.clone()),
            ..ApprovalFilter::default()
        }
    }
}

/// What the store says about one call that needs approval, read in one pass
/// over the requests for this caller, tool and digest.
#[derive(Debug, Default)]
pub struct OnRecord {
    /// Granted and unexpired: each may let one call run.
    pub granted: Vec<ApprovalRecord>,
    /// The newest pending, unexpired request for these arguments.
    pub pending: Option<ApprovalRecord>,
    /// The newest unexpired denial for these arguments.
    pub denied: Option<ApprovalRecord>,
    /// A grant for these arguments that expired before a call used it: the
    /// question asked again says so, where it would read as never asked.
    pub lapsed: Option<ApprovalRecord>,
}

/// Reads what the store holds for `(owner, tool, digest)`.
pub async fn on_record(
    store: &dyn Store,
    owner: &Owner,
    tool: &str,
    digest: &str,
) -> Result<OnRecord, StoreError> {
    let filter = ApprovalFilter {
        tool: Some(tool.to_string()),
        digest: Some(digest.to_string()),
        ..owner.filter()
    };
    let mut seen = OnRecord::default();
    for r in store.approvals(&filter).await? {
        match r.state {
            ApprovalState::Granted => seen.granted.push(r),
            ApprovalState::Pending => seen.pending = Some(r),
            // Only a denial that has not expired stands: after it, asking
            // again is a new question.
            ApprovalState::Denied if r.expires_ms > now_ms() => seen.denied = Some(r),
            // (an expired request a person decided was granted: a denial
            // keeps its state)
            ApprovalState::Expired if r.decided_by.is_some() => seen.lapsed = Some(r),
            _ => {}
        }
    }
    Ok(seen)
}

/// A grant for this tool and caller that covers other arguments, if any: a
/// call that changed its arguments after a person approved them is refused
/// (`denied / approval-mismatch`), naming the grant.
pub async fn grant_for_other_arguments(
    store: &dyn Store,
    owner: &Owner,
    tool: &str,
    digest: &str,
) -> Result<Option<ApprovalRecord>, StoreError> {
    let filter = ApprovalFilter {
        state: Some(ApprovalState::Granted),
        tool: Some(tool.to_string()),
        ..owner.filter()
    };
    Ok(store
        .approvals(&filter)
        .await?
        .into_iter()
        .find(|r| r.digest != digest))
}

/// A pending request of this caller and tool, for other arguments than
/// `digest`, whose request key (the argument `field`, as stored) is `key`:
/// one request key asks about one set of arguments. A key stored redacted
/// (a secret) matches nothing.
pub async fn pending_for_key(
    store: &dyn Store,
    owner: &Owner,
    tool: &str,
    field: &str,
    key: &str,
    digest: &str,
) -> Result<Option<ApprovalRecord>, StoreError> {
    let filter = ApprovalFilter {
        state: Some(ApprovalState::Pending),
        tool: Some(tool.to_string()),
        ..owner.filter()
    };
    // A UUID is one key in any letter case (`RecordKey::new`).
    let spelled = |k: &str| crate::store::RecordKey::new(tool, k).key;
    let key = spelled(key);
    Ok(store.approvals(&filter).await?.into_iter().find(|r| {
        r.digest != digest
            && r.arguments
                .get(field)
                .and_then(Value::as_str)
                .is_some_and(|k| spelled(k) == key)
    }))
}

/// The host's side of approvals: list what waits for a person, grant or deny
/// it by id. Every decision goes to the journal. Cheap to clone; get it from
/// [`crate::Dispatcher::approvals`], or build it over the store another
/// process's dispatcher uses.
///
/// A grant lets exactly one call with exactly the approved arguments run,
/// once, before the request expires: the caller re-sends the call (nothing
/// is rebuilt; the caller stays the same `Arc<Caller>`), and the dispatcher
/// uses the grant up in one conditional write, so of two racing calls one
/// runs and the other is asked again.
///
/// Serving many tenants, give each approver the view of their own tenant,
/// [`Approvals::for_tenant`]: it lists only that tenant's requests, and a
/// request of another tenant is, to it, a request that does not exist
/// (`get` answers `None`, `grant` and `deny` [`DecideError::Missing`]), so
/// an approver can neither see nor decide another tenant's calls, nor learn
/// that an id exists.
///
/// ```
/// # use std::sync::Arc;
/// use contract_runtime::{store::MemoryStore, Approvals};
/// # let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// # rt.block_on(async {
/// let all = Approvals::new(Arc::new(MemoryStore::new()));
/// let acme = all.for_tenant("acme");
/// assert_eq!(acme.tenant(), Some("acme"));
/// assert!(acme.pending().await.unwrap().is_empty());
/// # });
/// ```
#[derive(Clone)]
pub struct Approvals {
    store: Arc<dyn Store>,
    tenant: Option<Arc<str>>,
}

/// A decision could not be taken.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DecideError {
    /// No request has this id.
    Missing,
    /// The request is no longer pending (decided, used or expired): unchanged.
    NotPending(Box<ApprovalRecord>),
    /// The store could not be reached.
    Store(StoreError),
    /// The reason is longer than [`MAX_REASON`] characters: nothing decided.
    ReasonTooLong,
}

impl fmt::Display for DecideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecideError::Missing => f.write_str("no approval request has this id"),
            DecideError::NotPending(r) => write!(
                f,
                "approval request {} is {}, not pending",
                r.id,
                r.state.as_str()
            ),
            DecideError::Store(e) => write!(f, "{e}"),
            DecideError::ReasonTooLong => write!(
                f,
                "the reason is longer than {MAX_REASON} characters: nothing was decided"
            ),
        }
    }
}

impl std::error::Error for DecideError {}

impl Approvals {
    /// The approvals kept in `store`, of every tenant (an operator's view).
    pub fn new(store: Arc<dyn Store>) -> Approvals {
        Approvals {
            store,
            tenant: None,
        }
    }

    /// The same approvals seen by an approver of `tenant` only: every list
    /// is filtered to its requests, and another tenant's request is missing
    /// to `get`, `grant` and `deny`. `""` is the tenant of callers that
    /// named none.
    pub fn for_tenant(&self, tenant: &str) -> Approvals {
        Approvals {
            store: self.store.clone(),
            tenant: Some(Arc::from(tenant)),
        }
    }

    /// The tenant this view is limited to, if any.
    pub fn tenant(&self) -> Option<&str> {
        self.tenant.as_deref()
    }

    /// Whether this view may see `r`.
    fn sees(&self, r: &ApprovalRecord) -> bool {
        self.tenant.as_deref().is_none_or(|t| t == r.tenant)
    }

    /// Requests waiting for a decision, oldest first.
    pub async fn pending(&self) -> Result<Vec<ApprovalRecord>, StoreError> {
        self.list(ApprovalFilter {
            state: Some(ApprovalState::Pending),
            ..ApprovalFilter::default()
        })
        .await
    }

    /// Requests that pass `filter`, oldest first; a view for one tenant
    /// lists only that tenant's, whatever `filter.tenant` says.
    pub async fn list(&self, filter: ApprovalFilter) -> Result<Vec<ApprovalRecord>, StoreError> {
        let mut filter = filter;
        if let Some(t) = &self.tenant {
            filter.tenant = Some(t.to_string());
        }
        self.store.approvals(&filter).await
    }

    /// One request by id (`None` for another tenant's, in a tenant's view).
    pub async fn get(&self, id: &str) -> Result<Option<ApprovalRecord>, StoreError> {
        Ok(self.store.approval(id).await?.filter(|r| self.sees(r)))
    }

    /// Grants a pending request: one call with its exact arguments may run, once.
    pub async fn grant(
        &self,
        id: &str,
        by: &str,
        why: Option<&str>,
    ) -> Result<ApprovalRecord, DecideError> {
        self.decide(id, true, by, why).await
    }

    /// Denies a pending request: the call, re-sent, answers `denied` with `why`.
    pub async fn deny(
        &self,
        id: &str,
        by: &str,
        why: Option<&str>,
    ) -> Result<ApprovalRecord, DecideError> {
        self.decide(id, false, by, why).await
    }

    async fn decide(
        &self,
        id: &str,
        grant: bool,
        by: &str,
        why: Option<&str>,
    ) -> Result<ApprovalRecord, DecideError> {
        if why.is_some_and(|w| w.chars().count() > MAX_REASON) {
            return Err(DecideError::ReasonTooLong);
        }
        let decision = Decision {
            grant,
            by: by.to_string(),
            reason: why.map(str::to_string),
        };
        // A request's tenant never changes, so reading it first and then
        // deciding cannot decide another tenant's request.
        if self.tenant.is_some() {
            match self.get(id).await {
                Ok(Some(_)) => {}
                Ok(None) => return Err(DecideError::Missing),
                Err(e) => return Err(DecideError::Store(e)),
            }
        }
        match self.store.decide(id, &decision).await {
            Ok(Decided::Now(r)) => {
                journal(&*self.store, "approval-decision", &r, Some(by)).await;
                Ok(r)
            }
            Ok(Decided::Already(r)) => Err(DecideError::NotPending(Box::new(r))),
            Ok(Decided::Missing) => Err(DecideError::Missing),
            Err(e) => Err(DecideError::Store(e)),
        }
    }
}

/// Writes an approval event (a request, a decision, a grant used) to the
/// journal; a journal that cannot be written does not undo the event.
pub async fn journal(store: &dyn Store, event: &str, r: &ApprovalRecord, by: Option<&str>) {
    let mut codes = Vec::new();
    if let Some(by) = by {
        codes.push(format!("by:{by}"));
    }
    let record = JournalRecord {
        call_id: r.id.clone(),
        tool: r.tool.clone(),
        event: event.to_string(),
        caller: Some(r.caller.clone()),
        tenant: (!r.tenant.is_empty()).then(|| r.tenant.clone()),
        // The request holds the arguments (redacted) as a tree: their size
        // is that of their text, as a call's is.
        arguments: journal_arguments(
            serde_json::to_vec(&r.arguments).map_or(0, |text| text.len()),
            || r.arguments.clone(),
        ),
        status: r.state.as_str().to_string(),
        codes,
        retry_safe: true,
        replayed: false,
        started_ms: now_ms(),
        duration_us: 0,
    };
    if let Err(e) = store.append(&record).await {
        tracing::warn!(error = %e, approval = %r.id, "could not journal an approval event");
    }
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
