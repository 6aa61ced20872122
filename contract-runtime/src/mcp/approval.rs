//! How the MCP server asks the person at the client to approve a call.
//!
//! A `tools/call` that answers `needs-approval` is put to the person when the
//! client declared form elicitation, with what the tool does, its arguments
//! (secrets redacted), the reason and the digest:
//!
//! - on a 2026-07-28 connection, as the multi-round-trip flow says: the call
//!   answers `InputRequiredResult` with one elicitation and a `requestState`
//!   naming the approval request. The state is sealed with an HMAC
//!   (`rmcp`'s `RequestStateCodec`, a key per server) bound to the tool, the
//!   digest of the exact arguments and the caller, and it expires with the
//!   request, so a forged or tampered state, or one replayed for other
//!   arguments, opens nothing. The client's retry carries the person's
//!   answer; a replay of a state already answered finds its request used or
//!   decided and changes nothing, so one grant still runs one call;
//! - on older connections, as a server-to-client `elicitation/create` request
//!   inside the call, whose answer the call waits for.
//!
//! Either way the answer becomes a decision on the request in the store
//! (`mcp-client:NAME` decided), and the same call goes through the dispatcher
//! again: a grant is used up by that one run, a denial answers `denied` with
//! the reason the person gave. Without the capability the call answers
//! `needs-approval` with the request's id, for the host to decide on.
//!
//! A call refused because an approval on record covers other arguments of
//! the tool (`approval-mismatch`) is asked about the same way, the question
//! saying that an earlier approval covered other arguments; that approval
//! stays as it is. Without the capability the refusal stands, naming the
//! pending request for these arguments.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientResult, ElicitRequest, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationSchema, InputRequest, InputRequiredResult,
    InputResponses, ProtocolVersion, RequestStateCodec, SealOptions, ServerRequest, Tool,
};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::Value;

use crate::codes;
use crate::digest::digest;
use crate::envelope::{Envelope, Status};
use crate::policy::approval::{now_ms, Approvals, Owner, MAX_REASON};
use crate::store::ApprovalRecord;
use crate::{Caller, Dispatcher, ToolCall};

/// The key an input request is filed under in `inputRequests` and `inputResponses`.
const KEY: &str = "approval";

/// The first protocol version with the multi-round-trip flow.
const MRTR: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// How a `tools/call` ends: with an envelope, or (2026-07-28) with the
/// question for the person, to be answered on the client's retry.
pub(crate) enum Asked {
    Done(Envelope),
    InputRequired(InputRequiredResult),
}

/// Asks people at MCP clients; holds the key that seals request states.
pub(crate) struct Approver {
    codec: Option<RequestStateCodec>,
}

impl Approver {
    /// An approver with a fresh random key: a state sealed by this server
    /// opens only here, never in a restarted or another server.
    pub(crate) fn new() -> Approver {
        let mut key = [0u8; 32];
        let codec = match getrandom::fill(&mut key) {
            Ok(()) => RequestStateCodec::try_new(key.to_vec()).ok(),
            Err(_) => None,
        };
        if codec.is_none() {
            tracing::warn!("no key for MCP request states: approvals are not asked in-band");
        }
        Approver { codec }
    }

    /// One `tools/call`, asking the person when it needs approval.
    ///
    /// Most calls are neither a retry of the flow nor asked about: their
    /// future holds the dispatch and nothing else. The flow's own steps are
    /// boxed, so that their state (elicitation requests, the store's
    /// futures) is allocated only by a call that takes them, and not carried,
    /// moved and freed by every call (4 KiB per call when it was inline).
    pub(crate) async fn call(
        &self,
        dispatcher: &Dispatcher,
        caller: &Arc<Caller>,
        tools: &[Tool],
        request: &CallToolRequestParams,
        call: ToolCall,
        context: &RequestContext<RoleServer>,
    ) -> Asked {
        let mut dismissed = false;
        if let Some(state) = request.request_state.as_deref() {
            dismissed = Box::pin(self.resume(
                dispatcher,
                caller,
                &call,
                state,
                request.input_responses.as_ref(),
                context,
            ))
            .await
                == Some(Decision::Dismissed);
        }
        let envelope = dispatcher.dispatch(caller, &call).await;
        // The person closed the question: asked again at once, they would
        // be shown it again at once. The request stays pending.
        if dismissed {
            return Asked::Done(envelope);
        }
        // The client's capabilities (a copy, see `who`) only for a call that
        // may be asked about.
        match to_ask(&envelope, || context.client_capabilities()) {
            None => Asked::Done(envelope),
            Some(ask) => {
                Box::pin(self.ask(dispatcher, caller, tools, &call, context, envelope, ask)).await
            }
        }
    }

    /// Puts a call that answered `needs-approval` (or an approval mismatch)
    /// to the person; `envelope` stands when they cannot be asked.
    #[allow(clippy::too_many_arguments)]
    async fn ask(
        &self,
        dispatcher: &Dispatcher,
        caller: &Arc<Caller>,
        tools: &[Tool],
        call: &ToolCall,
        context: &RequestContext<RoleServer>,
        envelope: Envelope,
        ask: Ask,
    ) -> Asked {
        let approvals = approvals_of(dispatcher, caller);
        let id = ask.id;
        let Ok(Some(record)) = approvals.get(&id).await else {
            return Asked::Done(envelope);
        };
        let Some(question) = question(&record, tools, ask.stale) else {
            return Asked::Done(envelope);
        };
        let modern = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= MRTR.as_str());
        if modern {
            if let Some(state) = self.seal(&record) {
                let mut requests = BTreeMap::new();
                requests.insert(
                    KEY.to_owned(),
                    InputRequest::Elicitation(ElicitRequest::new(question)),
                );
                return Asked::InputRequired(InputRequiredResult::new(Some(requests), Some(state)));
            }
            return Asked::Done(envelope);
        }
        // The person has until the request expires; a client that never
        // answers leaves the call `needs-approval`, not hanging.
        let asked = tokio::time::timeout(
            remaining(&record),
            context
                .peer
                .send_request(ServerRequest::ElicitRequest(ElicitRequest::new(question))),
        )
        .await;
        if let Ok(Ok(ClientResult::ElicitResult(answer))) = asked {
            if decide(&approvals, &id, &answer, &who(caller, context)).await == Decision::Taken {
                return Asked::Done(dispatcher.dispatch(caller, call).await);
            }
        }
        Asked::Done(envelope)
    }

    /// The request state for `record`: its id, sealed and bound to the tool,
    /// the digest and the caller, expiring with the request.
    fn seal(&self, record: &ApprovalRecord) -> Option<String> {
        let codec = self.codec.as_ref()?;
        let bound = binding(&record.tool, &record.digest, &Owner::of_record(record));
        Some(
            codec.seal_with(
                record.id.as_bytes(),
                &SealOptions::new()
                    .associated_data(&bound)
                    .ttl(remaining(record)),
            ),
        )
    }

    /// A retry of the flow: opens the state against this call's tool,
    /// arguments and caller, and records the person's answer on the request
    /// it names. A state that does not open (forged, tampered, expired, or
    /// sealed for other arguments or another caller) decides nothing: the
    /// call is then asked about afresh. What became of the answer, when a
    /// state opened and carried one.
    async fn resume(
        &self,
        dispatcher: &Dispatcher,
        caller: &Arc<Caller>,
        call: &ToolCall,
        state: &str,
        responses: Option<&InputResponses>,
        context: &RequestContext<RoleServer>,
    ) -> Option<Decision> {
        let codec = self.codec.as_ref()?;
        let args = serde_json::from_str::<Value>(&call.arguments).ok()?;
        let bound = binding(&call.name, &digest(&args), &Owner::of(caller));
        let id = match codec.open_with(state, &bound) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                tracing::warn!(tool = %call.name, error = %e, "an MCP request state did not open; nothing decided");
                return None;
            }
        };
        let answer = responses
            .and_then(|r| r.get(KEY))
            .and_then(|v| serde_json::from_value::<ElicitResult>(v.clone()).ok())?;
        Some(
            decide(
                &approvals_of(dispatcher, caller),
                &id,
                &answer,
                &who(caller, context),
            )
            .await,
        )
    }
}

/// The requests this caller may decide: only their own tenant's (the
/// sealed state is bound to the caller too).
fn approvals_of(dispatcher: &Dispatcher, caller: &Caller) -> Approvals {
    dispatcher
        .approvals()
        .for_tenant(caller.tenant_name().unwrap_or_default())
}

/// The person deciding: the caller at this session's client, named by
/// their subject when the server knows it. rmcp hands out the client's
/// details as a copy: made when a person answers, not on every call.
fn who(caller: &Caller, context: &RequestContext<RoleServer>) -> String {
    let client = context
        .client_info()
        .map(|i| format!("mcp-client:{}", i.name))
        .unwrap_or_else(|| "mcp-client".to_owned());
    match caller.subject_name() {
        Some(subject) => format!("{subject} at {client}"),
        None => client,
    }
}

/// How long `record` can still be decided (at least a millisecond).
fn remaining(record: &ApprovalRecord) -> Duration {
    let left = record.expires_ms.saturating_sub(now_ms()).max(1);
    Duration::from_millis(u64::try_from(left).unwrap_or(1))
}

/// What a request state is bound to: the tool, the digest of the exact
/// arguments and the owner (tenant and caller; JSON keeps the parts apart
/// whatever they contain).
fn binding(tool: &str, digest: &str, owner: &Owner) -> Vec<u8> {
    let parts = serde_json::json!([tool, digest, owner.tenant, owner.caller]);
    format!("contract-runtime approval\n{parts}").into_bytes()
}

/// An approval request to put to the person.
struct Ask {
    id: String,
    /// An approval on record covers other arguments of this tool only.
    stale: bool,
}

/// The approval request to put to the person: the client declared form
/// elicitation, and the call needs approval, or was refused because an
/// approval on record covers other arguments only (`approval-mismatch`,
/// which names a pending request for these arguments). Asked, the person
/// decides on these arguments knowing of the other approval, which stays
/// as it is; only a caller that cannot be asked is left with the refusal
/// and the request's id.
fn to_ask(
    envelope: &Envelope,
    capabilities: impl FnOnce() -> Option<ClientCapabilities>,
) -> Option<Ask> {
    let stale = match envelope.status {
        Status::NeedsApproval => false,
        Status::Denied
            if envelope
                .errors
                .first()
                .is_some_and(|e| e.code == codes::APPROVAL_MISMATCH) =>
        {
            true
        }
        _ => return None,
    };
    let elicitation = capabilities()?.elicitation?;
    // A client that declares neither mode supports forms (the first version
    // of the capability had no modes).
    if elicitation.form.is_none() && elicitation.url.is_some() {
        return None;
    }
    let id = envelope.approval.as_ref()?.id.clone()?;
    Some(Ask { id, stale })
}

/// The question: what the tool does, the arguments as stored (secrets
/// redacted), the reason and the digest; an optional reason to give. When
/// an earlier approval covers other arguments (`stale`), the person is told
/// so: these arguments are not the ones approved before.
fn question(record: &ApprovalRecord, tools: &[Tool], stale: bool) -> Option<ElicitRequestParams> {
    let does = tools
        .iter()
        .find(|t| t.name == record.tool)
        .and_then(|t| t.description.as_deref())
        .unwrap_or("");
    let earlier = if stale {
        format!(
            "Note: an earlier approval covered other arguments of `{}`; it stays as it is. These arguments are different and need their own decision.\n",
            record.tool
        )
    } else {
        String::new()
    };
    let message = format!(
        "Approve `{}`?\n{}\n{earlier}Arguments: {}\nWhy approval is needed: {}\nDigest: {}\nAccept runs it once with exactly these arguments; decline refuses it (you may say why).",
        record.tool, does, record.arguments, record.reason, record.digest
    );
    let schema = ElicitationSchema::builder()
        .optional_string("reason")
        .build()
        .ok()?;
    Some(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: schema,
    })
}

/// What became of a person's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    /// Recorded now: a grant or a denial.
    Taken,
    /// Not recorded: the request was decided already, or is gone.
    NotTaken,
    /// The person closed the question without choosing (`cancel`, or an
    /// action this release does not know): no decision, the request stays
    /// pending for them or another approver (the inbox, the operator's
    /// command), and the call answers `needs-approval`.
    Dismissed,
}

/// Records the person's answer: `accept` grants, `decline` denies, and a
/// dismissal (`cancel`: the dialog closed, a client's timeout) decides
/// nothing. It was recorded as a denial, which the person never made and
/// the model was told not to retry.
async fn decide(approvals: &Approvals, id: &str, answer: &ElicitResult, who: &str) -> Decision {
    let why = answer
        .content
        .as_ref()
        .and_then(|c| c.get("reason"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        // (a client may send any length: the decision keeps the first part)
        .map(|s| s.chars().take(MAX_REASON).collect::<String>());
    let decided = match answer.action {
        ElicitationAction::Accept => approvals.grant(id, who, why.as_deref()).await,
        ElicitationAction::Decline => {
            let why = why.unwrap_or_else(|| "declined at the MCP client".to_owned());
            approvals.deny(id, who, Some(&why)).await
        }
        // Cancel, and whatever later versions add: neither a grant nor a denial.
        _ => return Decision::Dismissed,
    };
    if decided.is_ok() {
        Decision::Taken
    } else {
        Decision::NotTaken
    }
}
