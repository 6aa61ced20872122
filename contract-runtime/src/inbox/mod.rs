//! The approvals inbox: a web page where a person sees what waits for their
//! approval and grants or denies it (feature `inbox`).
//!
//! [`Inbox`] is a tower service over `http::Request`s, so a host mounts it in
//! its own router (axum: `Router::new().nest_service("/approvals", inbox)`),
//! or serves it alone with [`Inbox::serve`] on hyper's HTTP/1.1 server (what
//! `toolbox approvals serve` does). It answers two requests at its root:
//!
//! - `GET /`: the page. Pending requests newest first, each an element with
//!   `data-approval-id="apr_..."` showing the tool and what it does, who
//!   asked, the arguments as stored (secrets redacted) as formatted JSON, the
//!   rule's reason, the digest and the time left; then the recent decisions.
//!   Each pending request has a form with a `reason` field and two buttons
//!   named `decision` (`grant`, `deny`);
//! - `POST /`: one decision, the same single conditional write as
//!   [`Approvals::grant`] and [`Approvals::deny`] (the CLI's and the host
//!   API's), answered with a redirect to the page, which says what became of
//!   the request, and says so when someone decided it first.
//!
//! Who may decide: with an [`Authenticator`] (the identity module's, for
//! example a bearer JWT checked by `identity::oauth`), each approver is a
//! caller holding the scope [`SCOPE`], and sees and decides only their
//! tenant's requests; without one, the page serves one local
//! operator who sees every request, and [`Inbox::serve`] binds only loopback
//! addresses (a host that mounts it must do the same).
//!
//! What keeps a page from being turned against its approver: every form
//! carries a CSRF token (an HMAC over the approver, with a key random per
//! inbox) and a post whose `Origin` is not the page's own is refused (403);
//! responses carry a Content-Security-Policy that allows no script at all
//! and only the page's own stylesheet (by its hash), no framing, and forms
//! posting only to the page's origin; every value shown (arguments, reasons,
//! names) is escaped, so an argument holding `<script>` is text. The page has
//! no JavaScript and works as plain HTML forms.

mod form;
mod page;

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Body;
use hyper::http::request::Parts;
use hyper::{header, HeaderMap, Method, Request, Response, StatusCode};

use crate::identity::{require_scope, Authenticator, ServedMetadata};
use crate::policy::approval::{now_ms, Approvals, DecideError, MAX_REASON};
use crate::registry::Registry;
use crate::store::{ApprovalFilter, ApprovalRecord, ApprovalState};

use self::form::Csrf;
use self::page::{Notice, Page};

/// The `http` crate of the inbox's requests and answers, so that a host
/// (and an [`Authenticator`]) names the same version.
pub use hyper::http;

/// The scope an approver's token must carry to use the inbox (the
/// authenticator's caller must hold it, else 403 `insufficient_scope`).
pub const SCOPE: &str = "approvals:decide";

/// The largest decision form read (an id, a token, a reason of at most
/// [`MAX_REASON`] characters, percent-encoded).
const MAX_FORM: usize = 32 * 1024;

/// How many decisions the page lists under "recent decisions".
const RECENT: usize = 20;

/// Pending requests on one page (newest first): many callers of a tenant
/// together can leave thousands waiting, and a page of them all would be
/// megabytes a person cannot read. The rest are on the next pages
/// (`?page=2`, ...).
pub const PAGE: usize = 50;

/// Who is deciding: the local operator, or an authenticated caller (its
/// subject, within its tenant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approver {
    name: String,
    view: View,
}

/// Whose requests an approver sees.
#[derive(Clone, Debug, PartialEq, Eq)]
enum View {
    /// The local operator of an inbox without an authenticator: everyone's.
    Everything,
    /// One tenant's (`None`: requests of callers that name no tenant).
    Tenant(Option<String>),
}

impl Approver {
    /// The one person of an inbox without an authenticator: sees every
    /// tenant's requests. `name` is recorded as who decided.
    pub fn local(name: impl Into<String>) -> Approver {
        Approver {
            name: name.into(),
            view: View::Everything,
        }
    }

    /// An authenticated approver of `tenant` (`None`: the requests of
    /// callers that name no tenant); sees and decides only those.
    pub fn of_tenant(name: impl Into<String>, tenant: Option<String>) -> Approver {
        Approver {
            name: name.into(),
            view: View::Tenant(tenant),
        }
    }

    /// The name recorded as who decided.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tenant whose requests an authenticated approver sees (`None` for
    /// the local operator, who sees everyone's, and for callers without one).
    pub fn tenant(&self) -> Option<&str> {
        match &self.view {
            View::Tenant(t) => t.as_deref(),
            View::Everything => None,
        }
    }

    /// Whether this approver may see and decide `r`.
    fn sees(&self, r: &ApprovalRecord) -> bool {
        match &self.view {
            View::Everything => true,
            View::Tenant(t) => r.tenant == t.as_deref().unwrap_or_default(),
        }
    }

    /// The store filter for what this approver sees.
    fn filter(&self) -> ApprovalFilter {
        ApprovalFilter {
            tenant: match &self.view {
                View::Everything => None,
                // A request records its caller's tenant, `""` for none.
                View::Tenant(t) => Some(t.clone().unwrap_or_default()),
            },
            ..ApprovalFilter::default()
        }
    }

    /// What the CSRF token binds to: the approver and what they see.
    fn binding(&self) -> String {
        let view = match &self.view {
            View::Everything => "*".to_owned(),
            View::Tenant(Some(t)) => format!("tenant:{t}"),
            View::Tenant(None) => "no-tenant".to_owned(),
        };
        format!("{}\n{}", self.name, view)
    }
}

/// Why a request may not use the inbox: the page's answer to it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Refusal {
    /// 401 (no valid credentials), 403 (valid, but not allowed), 503.
    status: StatusCode,
    /// The `WWW-Authenticate` challenge to send with it, if any.
    challenge: Option<String>,
    /// What the person is told (shown escaped; never a token).
    message: String,
}

/// The address of the peer a request came from, when the server knows it
/// ([`Inbox::serve`] puts it in each request's extensions). Without an
/// authenticator, a request from a peer that is not on a loopback address is
/// refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub SocketAddr);

/// The approvals inbox page over an [`Approvals`] (see the module docs).
/// Cheap to clone: clones share everything.
#[derive(Clone)]
pub struct Inbox {
    inner: Arc<Inner>,
}

struct Inner {
    approvals: Approvals,
    /// What each tool does, shown beside its requests.
    descriptions: BTreeMap<String, String>,
    auth: Option<Arc<dyn Authenticator>>,
    /// The authenticator's resource metadata: its URL, named in
    /// challenges, and the document, served at that URL's path before any
    /// token is asked for (a client learns from it where to get one).
    metadata: Option<ServedMetadata>,
    local: Approver,
    csrf: Csrf,
    /// Origins besides the page's own (its `Host`) whose posts are accepted:
    /// the public origin of a proxy in front of the inbox.
    origins: Vec<String>,
}

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inbox")
            .field("authenticated", &self.inner.auth.is_some())
            .field("origins", &self.inner.origins)
            .finish_non_exhaustive()
    }
}

impl Inbox {
    /// An inbox over `approvals` (`dispatcher.approvals()`, or
    /// `Approvals::new(store)` in another process than the one that asks),
    /// with no authenticator: one local operator, named `operator` in the
    /// decisions it records, who sees every request. Fails only when the
    /// system has no randomness for the CSRF key.
    pub fn new(approvals: Approvals) -> Result<Inbox, crate::store::StoreError> {
        Ok(Inbox {
            inner: Arc::new(Inner {
                approvals,
                descriptions: BTreeMap::new(),
                auth: None,
                metadata: None,
                local: Approver::local("operator"),
                csrf: Csrf::new()?,
                origins: Vec::new(),
            }),
        })
    }

    fn inner_mut(&mut self) -> &mut Inner {
        // Configured before it is cloned or served; a clone made earlier
        // keeps its own configuration.
        if Arc::get_mut(&mut self.inner).is_none() {
            let i = &self.inner;
            self.inner = Arc::new(Inner {
                approvals: i.approvals.clone(),
                descriptions: i.descriptions.clone(),
                auth: i.auth.clone(),
                metadata: i.metadata.clone(),
                local: i.local.clone(),
                csrf: i.csrf.clone(),
                origins: i.origins.clone(),
            });
        }
        Arc::get_mut(&mut self.inner).expect("just made unique")
    }

    /// Shows what each tool of `registry` does beside its requests.
    pub fn describe(mut self, registry: &Registry) -> Inbox {
        let d = registry
            .tools()
            .map(|t| (t.name().to_owned(), t.spec().description.to_owned()))
            .collect();
        self.inner_mut().descriptions = d;
        self
    }

    /// Names the local operator (without an authenticator) in the decisions
    /// recorded: who decided.
    pub fn local_approver(mut self, name: impl Into<String>) -> Inbox {
        self.inner_mut().local = Approver::local(name);
        self
    }

    /// Authenticates every request with `auth`, the same authenticator as
    /// the MCP server's ([`crate::mcp::McpServer::with_authenticator`]), so
    /// an approver is a caller like any other: the caller must hold
    /// [`SCOPE`] (`approvals:decide`, else 403 `insufficient_scope`), is
    /// recorded as who decided by its subject, and sees and decides only its
    /// tenant's requests. A refusal is answered with its status and, for an
    /// OAuth authenticator, the challenge naming the resource metadata.
    pub fn authenticate_with(mut self, auth: impl Authenticator) -> Inbox {
        let inner = self.inner_mut();
        // (the one scope the inbox asks for, when the host named none)
        inner.metadata = auth
            .resource_metadata()
            .map(|m| m.served(|| vec![SCOPE.to_owned()]));
        inner.auth = Some(Arc::new(auth));
        self
    }

    /// Accepts posts from `origin` (`https://inbox.example.com`) as well as
    /// from the page's own `Host`: the public origin of a proxy in front.
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Inbox {
        let origin = origin.into().trim_end_matches('/').to_ascii_lowercase();
        self.inner_mut().origins.push(origin);
        self
    }

    /// Whether requests are authenticated (else: loopback only).
    pub fn is_authenticated(&self) -> bool {
        self.inner.auth.is_some()
    }

    /// Answers one request (its path relative to where the inbox is mounted).
    pub async fn handle<B>(&self, request: Request<B>) -> Response<Full<Bytes>>
    where
        B: Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let (parts, body) = request.into_parts();
        if let Some(m) = &self.inner.metadata {
            if parts.method == Method::GET && parts.uri.path() == m.path {
                let mut answer = Response::new(Full::new(Bytes::from(m.document.clone())));
                answer.headers_mut().insert(
                    header::CONTENT_TYPE,
                    header::HeaderValue::from_static("application/json"),
                );
                return answer;
            }
        }
        let approver = match self.approver(&parts).await {
            Ok(a) => a,
            Err(refusal) => return refused(refusal),
        };
        if !matches!(parts.uri.path(), "/" | "") {
            return page::message(
                StatusCode::NOT_FOUND,
                "Not here: the inbox is its root page.",
            );
        }
        match parts.method {
            Method::GET | Method::HEAD => self.show(&approver, &parts).await,
            Method::POST => self.decide(&approver, &parts, body).await,
            _ => {
                let mut r = page::message(
                    StatusCode::METHOD_NOT_ALLOWED,
                    "The inbox answers GET and POST.",
                );
                r.headers_mut().insert(
                    header::ALLOW,
                    header::HeaderValue::from_static("GET, HEAD, POST"),
                );
                r
            }
        }
    }

    /// The approver behind a request: the authenticator's answer, or the
    /// local operator for a loopback request when there is none.
    async fn approver(&self, parts: &Parts) -> Result<Approver, Refusal> {
        if let Some(auth) = &self.inner.auth {
            let turned = |r: crate::identity::Refusal| Refusal {
                status: StatusCode::from_u16(r.status()).unwrap_or(StatusCode::UNAUTHORIZED),
                challenge: r.www_authenticate(self.inner.metadata.as_ref().map(|m| &m.url[..])),
                message: r.description().to_owned(),
            };
            let caller = auth.authenticate(parts).await.map_err(turned)?;
            require_scope(&caller, SCOPE).map_err(turned)?;
            let name = caller.subject_name().unwrap_or(caller.name());
            return Ok(Approver::of_tenant(
                name,
                caller.tenant_name().map(str::to_owned),
            ));
        }
        let peer_is_local = parts
            .extensions
            .get::<Peer>()
            .is_none_or(|p| p.0.ip().is_loopback());
        // The Host check stops a page on another site from reaching a
        // loopback inbox through DNS rebinding.
        if !peer_is_local || !host_is_loopback(&parts.headers) {
            return Err(Refusal {
                status: StatusCode::FORBIDDEN,
                challenge: None,
                message: "This inbox has no authenticator and answers loopback requests only."
                    .to_owned(),
            });
        }
        Ok(self.inner.local.clone())
    }

    /// The page, with a notice about the request named in the query (the
    /// redirect after a decision).
    async fn show(&self, approver: &Approver, parts: &Parts) -> Response<Full<Bytes>> {
        let query = form::parse(parts.uri.query().unwrap_or(""));
        let approvals = &self.inner.approvals;
        let all = match approvals.list(approver.filter()).await {
            Ok(all) => all,
            Err(e) => {
                tracing::warn!(error = %e, "the approvals inbox cannot read the store");
                return page::message(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "The store that keeps approval requests cannot be reached; reload in a moment.",
                );
            }
        };
        let mut pending: Vec<ApprovalRecord> = Vec::new();
        let mut decided: Vec<ApprovalRecord> = Vec::new();
        for r in all.into_iter().filter(|r| approver.sees(r)) {
            match r.state {
                ApprovalState::Pending => pending.push(r),
                _ if r.decided_ms.is_some() => decided.push(r),
                _ => {}
            }
        }
        // Newest first: the store lists the oldest first
        // (`ApprovalStore::approvals`), so reversed, not sorted again.
        pending.reverse();
        decided.sort_by_key(|r| std::cmp::Reverse(r.decided_ms));
        decided.truncate(RECENT);
        // A page past the last (the requests on it were decided since the
        // link was followed) shows the last; one that is not a number, the
        // first.
        let pages = pending.len().div_ceil(PAGE).max(1);
        let number = form::field(&query, "page")
            .and_then(|p| p.parse::<usize>().ok())
            .unwrap_or(1)
            .clamp(1, pages);
        let shown = &pending[(number - 1) * PAGE..pending.len().min(number * PAGE)];
        let notice = match form::field(&query, "id") {
            Some(id) => match approvals.get(id).await {
                Ok(Some(r)) if approver.sees(&r) => Some(Notice {
                    already: form::field(&query, "already").is_some(),
                    record: r,
                }),
                _ => None,
            },
            None => None,
        };
        let page = Page {
            approver: approver.name(),
            tenant: approver.tenant(),
            csrf: &self.inner.csrf.token(&approver.binding()),
            pending: shown,
            waiting: pending.len(),
            page: number,
            pages,
            decided: &decided,
            notice: notice.as_ref(),
            descriptions: &self.inner.descriptions,
            now_ms: now_ms(),
        };
        page::html(StatusCode::OK, page.render())
    }

    /// One decision from the form: checked (origin, CSRF token, fields,
    /// the approver's tenant), written once, answered with a redirect.
    async fn decide<B>(&self, approver: &Approver, parts: &Parts, body: B) -> Response<Full<Bytes>>
    where
        B: Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        if !self.same_origin(&parts.headers) {
            return page::message(
                StatusCode::FORBIDDEN,
                "Refused: this decision was sent from another site.",
            );
        }
        let bytes = match Limited::new(body, MAX_FORM).collect().await {
            Ok(c) => c.to_bytes(),
            Err(_) => {
                return page::message(StatusCode::PAYLOAD_TOO_LARGE, "The form is too large.")
            }
        };
        let fields = form::parse(&String::from_utf8_lossy(&bytes));
        let token = form::field(&fields, "csrf").unwrap_or("");
        if !self.inner.csrf.verify(&approver.binding(), token) {
            return page::message(
                StatusCode::FORBIDDEN,
                "Refused: the form's token is missing or not this page's. Reload the inbox and decide again.",
            );
        }
        let grant = match form::field(&fields, "decision") {
            Some("grant") => true,
            Some("deny") => false,
            _ => return page::message(StatusCode::BAD_REQUEST, "A decision is `grant` or `deny`."),
        };
        let id = form::field(&fields, "id").unwrap_or("");
        if !is_approval_id(id) {
            return page::message(
                StatusCode::BAD_REQUEST,
                "That is not an approval request id.",
            );
        }
        let reason = form::field(&fields, "reason")
            .map(str::trim)
            .filter(|r| !r.is_empty());
        let approvals = &self.inner.approvals;
        // Another tenant's request is answered as one that does not exist.
        match approvals.get(id).await {
            Ok(Some(r)) if approver.sees(&r) => {}
            Ok(_) => return page::message(StatusCode::NOT_FOUND, "No such approval request here."),
            Err(_) => return unavailable(),
        }
        let decided = if grant {
            approvals.grant(id, approver.name(), reason).await
        } else {
            approvals.deny(id, approver.name(), reason).await
        };
        // Back to the page the person decided on (a number, or none).
        let page = match form::field(&fields, "page").and_then(|p| p.parse::<usize>().ok()) {
            Some(n) if n > 1 => format!("&page={n}"),
            _ => String::new(),
        };
        match decided {
            Ok(_) => see_other(&format!("?id={id}{page}")),
            Err(DecideError::NotPending(_)) => see_other(&format!("?id={id}&already=1{page}")),
            Err(DecideError::Missing) => {
                page::message(StatusCode::NOT_FOUND, "No such approval request here.")
            }
            Err(DecideError::ReasonTooLong) => page::message(
                StatusCode::BAD_REQUEST,
                &format!("The reason is too long ({MAX_REASON} characters at most)."),
            ),
            Err(_) => unavailable(),
        }
    }

    /// Whether a post comes from the page itself: a browser's `Origin` (and
    /// `Sec-Fetch-Site`, when sent) must name this inbox. A client that is
    /// not a browser sends neither, and still needs the CSRF token.
    fn same_origin(&self, headers: &HeaderMap) -> bool {
        if let Some(site) = headers.get("sec-fetch-site") {
            if !matches!(site.to_str(), Ok("same-origin" | "none")) {
                return false;
            }
        }
        let Some(origin) = headers.get(header::ORIGIN) else {
            return true;
        };
        let Ok(origin) = origin.to_str() else {
            return false;
        };
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        if self.inner.origins.contains(&origin) {
            return true;
        }
        let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
            return false;
        };
        let host = host.to_ascii_lowercase();
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|authority| authority == host)
    }

    /// Serves the inbox at `/` on a bound listener, one task per connection,
    /// until accepting fails. Without an authenticator, a listener that is
    /// not on a loopback address is refused (an error, before serving).
    pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        let local = listener.local_addr()?;
        if self.inner.auth.is_none() && !local.ip().is_loopback() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "{local}: an inbox without an authenticator serves loopback addresses only"
                ),
            ));
        }
        loop {
            let (stream, peer) = crate::listen::accept(&listener).await;
            let inbox = self.clone();
            let handler =
                hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
                    let inbox = inbox.clone();
                    req.extensions_mut().insert(Peer(peer));
                    async move { Ok::<_, Infallible>(inbox.handle(req).await) }
                });
            tokio::spawn(async move {
                let _ = crate::listen::http1()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                    .await;
            });
        }
    }
}

impl<B> tower_service::Service<Request<B>> for Inbox
where
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let inbox = self.clone();
        Box::pin(async move { Ok(inbox.handle(request).await) })
    }
}

/// `apr_` and 32 lowercase hex digits, as the stores make them.
fn is_approval_id(id: &str) -> bool {
    id.strip_prefix("apr_")
        .is_some_and(|hex| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether the `Host` header names a loopback address (any port).
fn host_is_loopback(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _port)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn refused(r: Refusal) -> Response<Full<Bytes>> {
    let mut answer = page::message(r.status, &r.message);
    if let Some(challenge) = r
        .challenge
        .and_then(|c| header::HeaderValue::from_str(&c).ok())
    {
        answer
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, challenge);
    }
    answer
}

fn unavailable() -> Response<Full<Bytes>> {
    page::message(
        StatusCode::SERVICE_UNAVAILABLE,
        "The store that keeps approval requests cannot be reached; nothing was decided. Try again in a moment.",
    )
}

/// A redirect to the page (a relative reference: the query only), so that
/// reloading it does not post the decision again.
fn see_other(location: &str) -> Response<Full<Bytes>> {
    let mut r = page::html(StatusCode::SEE_OTHER, String::new());
    if let Ok(v) = header::HeaderValue::from_str(location) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, header::HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_loopback_hosts_pass_without_an_authenticator() {
        for host in [
            "127.0.0.1:8080",
            "localhost",
            "[::1]:9",
            "LOCALHOST:1",
            "127.3.4.5",
        ] {
            assert!(host_is_loopback(&headers(&[("host", host)])), "{host}");
        }
        for host in [
            "example.com",
            "10.0.0.1:80",
            "127.0.0.1.evil.example",
            "[::2]:1",
            "",
        ] {
            assert!(!host_is_loopback(&headers(&[("host", host)])), "{host}");
        }
        assert!(!host_is_loopback(&HeaderMap::new()));
    }

    #[test]
    fn a_post_from_another_origin_is_not_the_page_s() {
        let approvals = Approvals::new(Arc::new(crate::store::MemoryStore::new()));
        let inbox = Inbox::new(approvals)
            .unwrap()
            .allow_origin("https://inbox.example.com/");
        let host = ("host", "127.0.0.1:8080");
        assert!(inbox.same_origin(&headers(&[host])), "not a browser");
        assert!(inbox.same_origin(&headers(&[host, ("origin", "http://127.0.0.1:8080")])));
        assert!(inbox.same_origin(&headers(&[host, ("origin", "https://inbox.example.com")])));
        for (origin, site) in [
            ("http://127.0.0.1:8081", "same-origin"),
            ("null", "same-origin"),
            ("http://evil.example", "cross-site"),
            ("http://127.0.0.1:8080", "cross-site"),
            ("http://127.0.0.1:8080", "same-site"),
        ] {
            let h = headers(&[host, ("origin", origin), ("sec-fetch-site", site)]);
            assert!(!inbox.same_origin(&h), "{origin} {site}");
        }
    }

    #[test]
    fn approval_ids_are_the_stores_shape() {
        assert!(is_approval_id("apr_0123456789abcdef0123456789abcdef"));
        for bad in [
            "apr_",
            "apr_xyz",
            "0123456789abcdef0123456789abcdef",
            "apr_0123456789abcdef0123456789abcde",
        ] {
            assert!(!is_approval_id(bad), "{bad}");
        }
    }
}
