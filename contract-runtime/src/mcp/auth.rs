//! Who may send a request to the MCP server over HTTP: every request to
//! `/mcp` is authenticated before rmcp sees it, and its caller travels with
//! it to the handler; with an OAuth authenticator, the server is a resource
//! server as MCP's authorization spec says.
//!
//! - no valid credentials: 401 with `WWW-Authenticate: Bearer
//!   resource_metadata="..."` (and `error=` where one applies); the key set
//!   out of reach: 503; nothing reaches rmcp, so nothing runs;
//! - a `tools/call` of a tool whose authority the caller's scopes lack: 403
//!   `insufficient_scope` with `scope=` the tool's authority, so a client
//!   can step up. The body is the JSON-RPC answer the call would have had
//!   (the `denied / permission-denied` envelope naming the scope), for a
//!   client that reads it instead of stepping up;
//! - a session belongs to the caller that opened it: another caller sending
//!   its `Mcp-Session-Id` is answered 404, as for a session that does not
//!   exist, so elicitations and progress of one user's calls never reach
//!   another's client;
//! - Protected Resource Metadata (RFC 9728) at
//!   `/.well-known/oauth-protected-resource` and
//!   `/.well-known/oauth-protected-resource/mcp`, with `scopes_supported`
//!   the registry's declared authorities.
//!
//! `tools/list` lists every tool whatever the caller's scopes: a client
//! learns from it what exists and what each tool needs, which is what lets
//! it step up; the list stays one per server (built once, the same for every
//! session, as `notifications/tools/list_changed` assumes); and the 403
//! names the scope at the one place it is needed.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::header::{HeaderValue, CONTENT_TYPE, WWW_AUTHENTICATE};
use hyper::{Response, StatusCode};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::Value;

use crate::identity::{Authenticator, Refusal, ResourceMetadata, ServedMetadata, METADATA_PATH};
use crate::policy::approval::Owner;
use crate::{Caller, Registry};

type Answer = Response<BoxBody<Bytes, Infallible>>;

/// The caller an authenticator found for one HTTP request; rmcp hands the
/// request's head to the handler, and the handler reads it there.
#[derive(Clone)]
pub(crate) struct Authenticated(pub(crate) Arc<Caller>);

/// The caller of the HTTP request behind `context`, when it was authenticated.
pub(crate) fn caller_of(context: &RequestContext<RoleServer>) -> Option<Arc<Caller>> {
    context
        .extensions
        .get::<http::request::Parts>()?
        .extensions
        .get::<Authenticated>()
        .map(|a| a.0.clone())
}

/// The caller the gate put into a request's head.
pub(crate) fn caller_of_parts(parts: &http::request::Parts) -> Option<Arc<Caller>> {
    parts.extensions.get::<Authenticated>().map(|a| a.0.clone())
}

/// The authenticator and what the server derives from it.
pub(crate) struct Gate {
    auth: Arc<dyn Authenticator>,
    /// The metadata document, its URL for challenges and the path that URL
    /// names (the resource's own path after the well-known prefix).
    metadata: Option<ServedMetadata>,
    /// Mcp-Session-Id → the caller that opened it, and when it was last used.
    sessions: Mutex<HashMap<String, Session>>,
}

/// A session the gate has seen opened.
struct Session {
    /// Whose it is: the same owner as an approval request's, so a subject
    /// spelled like a caller's fallback name is someone else here too.
    owner: Owner,
    used: Instant,
}

/// The most sessions one caller holds open at once. Each costs the server
/// some 56 kB until it ends (a `DELETE`, or rmcp's idle limit), so without
/// a cap one token could open sessions until memory runs out.
pub(crate) const MAX_SESSIONS_PER_CALLER: usize = 64;

/// How long rmcp keeps an idle session: past it, a session no longer
/// counts against its caller.
const SESSION_IDLE: Duration =
    rmcp::transport::streamable_http_server::session::local::SessionConfig::DEFAULT_KEEP_ALIVE;

impl Gate {
    pub(crate) fn new(auth: Arc<dyn Authenticator>, registry: &Registry) -> Gate {
        let metadata = auth.resource_metadata().map(|m: ResourceMetadata| {
            m.served(|| {
                let mut scopes: Vec<String> = registry
                    .tools()
                    .flat_map(|t| t.spec().authority.iter().map(|s| s.to_string()))
                    .collect();
                scopes.sort();
                scopes.dedup();
                scopes
            })
        });
        Gate {
            auth,
            metadata,
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// The metadata document for a GET of one of its paths.
    pub(crate) fn well_known(&self, path: &str) -> Option<Answer> {
        let m = self.metadata.as_ref()?;
        // where challenges point (an audience of `https://host/v1/mcp`
        // names `.../oauth-protected-resource/v1/mcp`), and the two paths
        // clients try on their own
        let rest = path.strip_prefix(METADATA_PATH)?;
        if !(path == m.path || rest.is_empty() || rest == super::http::PATH) {
            return None;
        }
        let mut answer = Response::new(Full::new(Bytes::from(m.document.clone())).boxed());
        answer
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        Some(answer)
    }

    /// Authenticates the request: its caller goes into its extensions, or
    /// the refusal is the answer.
    pub(crate) async fn admit(&self, parts: &mut http::request::Parts) -> Result<(), Answer> {
        let caller = match self.auth.authenticate(parts).await {
            Ok(caller) => caller,
            Err(refusal) => return Err(self.refused(&refusal, None)),
        };
        let owner = Owner::of(&caller);
        let now = Instant::now();
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        match session_id(parts).map(|id| sessions.get_mut(id)) {
            // Another caller's session is answered as rmcp answers one it
            // does not know, so a caller cannot tell another's live id.
            Some(Some(s)) if s.owner != owner => {
                drop(sessions);
                return Err(if parts.method == hyper::Method::DELETE {
                    plain(StatusCode::NO_CONTENT, "")
                } else {
                    plain(StatusCode::NOT_FOUND, "Not Found: Session not found")
                });
            }
            Some(Some(s)) => s.used = now,
            Some(None) => {}
            // A request without a session opens one: at most so many each.
            None => {
                sessions.retain(|_, s| now.duration_since(s.used) < SESSION_IDLE);
                let open = sessions.values().filter(|s| s.owner == owner).count();
                if open >= MAX_SESSIONS_PER_CALLER {
                    drop(sessions);
                    return Err(plain(
                        StatusCode::TOO_MANY_REQUESTS,
                        format!("this caller holds the most MCP sessions it may ({MAX_SESSIONS_PER_CALLER}): end one (DELETE with its Mcp-Session-Id) or use one it holds"),
                    ));
                }
            }
        }
        drop(sessions);
        parts.extensions.insert(Authenticated(caller));
        Ok(())
    }

    /// After rmcp answered: a new session belongs to the caller that opened
    /// it; a closed one is forgotten.
    pub(crate) fn answered(
        &self,
        parts_session: Option<&str>,
        caller: Option<&Arc<Caller>>,
        delete: bool,
        answer: &Answer,
    ) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if delete {
            if let Some(s) = parts_session {
                sessions.remove(s);
            }
            return;
        }
        let opened = answer
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok());
        if let (Some(id), Some(caller), None) = (opened, caller, parts_session) {
            let session = Session {
                owner: Owner::of(caller),
                used: Instant::now(),
            };
            sessions.insert(id.to_owned(), session);
        }
    }

    /// The scope challenge for a `tools/call` whose tool needs a scope the
    /// caller lacks: 403 `insufficient_scope`, and the call's answer as
    /// the body.
    pub(crate) fn scope_challenge(
        &self,
        registry: &Registry,
        caller: &Caller,
        body: &[u8],
        version: Option<&str>,
    ) -> Option<Answer> {
        // Most requests are not calls: skip the parse.
        if !contains(body, b"tools/call") {
            return None;
        }
        // Only a single message (an object): a batch is not one call.
        if body.trim_ascii_start().first() != Some(&b'{') {
            return None;
        }
        // Read only what the challenge needs; the rest is skipped, not built
        // (a whole `Value` cost 18 k instructions per call).
        let request: CallHead = serde_json::from_slice(body).ok()?;
        if request.method.as_deref() != Some("tools/call") {
            return None;
        }
        let name = request.params.and_then(|p| p.name)?;
        let name: &str = &name;
        let tool = registry.get(name)?;
        let missing: Vec<&str> = tool
            .spec()
            .authority
            .iter()
            .copied()
            .filter(|s| !caller.has_scope(s))
            .collect();
        if missing.is_empty() {
            return None;
        }
        let scope = missing.join(" ");
        let refusal =
            Refusal::insufficient_scope(scope.clone(), format!("`{name}` needs the scope {scope}"));
        let id = request.id.unwrap_or(Value::Null);
        let e = crate::envelope::ErrorEntry::new(
            crate::codes::PERMISSION_DENIED,
            format!(
                "`{name}` needs the scope {} which this caller does not hold",
                missing.join(", ")
            ),
        )
        .with_hint("ask the user to grant the scope, or choose another tool");
        let call_id = match &id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let envelope = crate::envelope::Envelope::failure(
            &call_id,
            name,
            crate::Status::Denied,
            true,
            vec![e],
        );
        let mut result = super::call_tool_result(&envelope);
        // As rmcp's handler writes a result: `resultType` only for a session
        // of 2026-07-28 or later (the header names the session's version; a
        // request without it is of an older one).
        let modern = rmcp::model::ProtocolVersion::V_2026_07_28;
        if version.is_none_or(|v| v < modern.as_str()) {
            result.result_type = None;
        }
        let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
        Some(self.refused(&refusal, Some(body.to_string())))
    }

    /// The answer to a refused request: its status, its challenge, and a
    /// JSON body (`body`, else the RFC 6750 error).
    fn refused(&self, refusal: &Refusal, body: Option<String>) -> Answer {
        let url = self.metadata.as_ref().map(|m| m.url.as_str());
        let body = body.unwrap_or_else(|| {
            serde_json::json!({
                "error": refusal.error().unwrap_or(if refusal.status() == 503 {
                    "temporarily_unavailable"
                } else {
                    "unauthorized"
                }),
                "error_description": refusal.description(),
            })
            .to_string()
        });
        let mut answer = Response::new(Full::new(Bytes::from(body)).boxed());
        *answer.status_mut() =
            StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::UNAUTHORIZED);
        answer
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(challenge) = refusal.www_authenticate(url) {
            if let Ok(v) = HeaderValue::from_str(&challenge) {
                answer.headers_mut().insert(WWW_AUTHENTICATE, v);
            }
        }
        answer
    }
}

/// The session a request names.
pub(crate) fn session_id(parts: &http::request::Parts) -> Option<&str> {
    parts
        .headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn plain(status: StatusCode, text: impl Into<Bytes>) -> Answer {
    let mut answer = Response::new(Full::new(text.into()).boxed());
    *answer.status_mut() = status;
    answer
}
/// What the scope challenge reads of a JSON-RPC message.
#[derive(serde::Deserialize)]
struct CallHead<'a> {
    #[serde(default, borrow)]
    method: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    id: Option<Value>,
    #[serde(default, borrow)]
    params: Option<CallParams<'a>>,
}

/// The part of a `tools/call`'s parameters the scope challenge reads.
#[derive(serde::Deserialize)]
struct CallParams<'a> {
    #[serde(default, borrow)]
    name: Option<std::borrow::Cow<'a, str>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A resource server for `resource`, refusing every request.
    struct Guard(&'static str);

    impl Authenticator for Guard {
        fn authenticate<'a>(
            &'a self,
            _: &'a http::request::Parts,
        ) -> crate::identity::AuthFuture<'a> {
            Box::pin(async { Err(Refusal::missing_token("no token")) })
        }
        fn resource_metadata(&self) -> Option<ResourceMetadata> {
            Some(ResourceMetadata::new(
                self.0,
                vec!["https://as.test".into()],
            ))
        }
    }

    /// The metadata is served where every challenge says it is, whatever
    /// the resource's path (`/v1/mcp` named `.../oauth-protected-resource/v1/mcp`,
    /// which answered 404), and at the two paths clients try on their own.
    #[test]
    fn the_metadata_is_served_where_the_challenge_points() {
        let registry = Registry::builder().build().unwrap();
        let gate = Gate::new(Arc::new(Guard("https://tools.test/v1/mcp")), &registry);
        let url = &gate.metadata.as_ref().unwrap().url;
        assert_eq!(
            url,
            "https://tools.test/.well-known/oauth-protected-resource/v1/mcp"
        );
        for served in [
            "/.well-known/oauth-protected-resource/v1/mcp",
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
        ] {
            assert!(gate.well_known(served).is_some(), "{served}");
        }
        for not in [
            "/.well-known/oauth-protected-resource/v2/mcp",
            "/.well-known/other",
        ] {
            assert!(gate.well_known(not).is_none(), "{not}");
        }
    }
}
