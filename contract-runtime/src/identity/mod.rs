//! Who is calling over HTTP: an [`Authenticator`] turns each request (its
//! method, path and headers) into the [`Caller`] the dispatcher serves, or
//! into a [`Refusal`] the server answers without running anything.
//! Enabled by the `identity` feature (and by `mcp-http`, which uses it).
//!
//! A server that faces many users authenticates every request: the MCP
//! server over streamable HTTP ([`crate::mcp::McpServer::with_authenticator`])
//! and any page a host serves beside it (an approvals inbox) take the same
//! authenticator, so a person is the same caller everywhere. The caller's
//! subject and tenant ([`Caller::subject`], [`Caller::tenant`]) then scope
//! what the dispatcher keeps: request keys, approval requests, the breaker
//! and the journal (see `docs/security.md`).
//!
//! The kinds of authenticator:
//!
//! - a host's own function, `Fn(&http::request::Parts) -> Result<Arc<Caller>, Refusal>`
//!   (a closure is an authenticator), for a session cookie or a gateway's
//!   header;
//! - [`Fixed`]: one configured caller for every request, what stdio and a
//!   loopback-only server use;
//! - with the `oauth` feature, [`oauth::JwtAuthenticator`]: an OAuth 2.1
//!   resource server checking bearer JWTs against a JWKS (a file or an
//!   `https://` URL), as MCP's authorization spec asks of a server, and
//!   [`introspect::IntrospectionAuthenticator`]: opaque bearer tokens asked
//!   about at the authorization server's introspection endpoint (RFC 7662).
//!
//! ```
//! use std::sync::Arc;
//! use contract_runtime::identity::{http, Authenticator, Refusal};
//! use contract_runtime::Caller;
//!
//! // A gateway in front of the server has checked the user and names them.
//! let from_gateway = |req: &http::request::Parts| -> Result<Arc<Caller>, Refusal> {
//!     let user = req
//!         .headers
//!         .get("x-user")
//!         .and_then(|v| v.to_str().ok())
//!         .ok_or_else(|| Refusal::missing_token("no x-user header"))?;
//!     Ok(Arc::new(Caller::new().subject(user).tenant("acme").grant("notes:read")))
//! };
//! let (parts, ()) = http::Request::builder()
//!     .header("x-user", "ana")
//!     .body(())
//!     .unwrap()
//!     .into_parts();
//! # let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
//! let caller = rt.block_on(from_gateway.authenticate(&parts)).unwrap();
//! assert_eq!(caller.subject_name(), Some("ana"));
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::context::Caller;

#[cfg(feature = "oauth")]
mod fetch;
#[cfg(feature = "oauth")]
pub mod introspect;
#[cfg(feature = "oauth")]
mod jwks;
#[cfg(feature = "oauth")]
pub mod oauth;

/// The `http` crate whose request head authenticators read, so that a host
/// names the same version.
pub use http;

/// What [`Authenticator::authenticate`] returns: boxed, so that
/// `dyn Authenticator` works.
pub type AuthFuture<'a> = Pin<Box<dyn Future<Output = Result<Arc<Caller>, Refusal>> + Send + 'a>>;

/// Who makes a request, from the request itself.
///
/// Implementations must fail closed: a request they cannot judge (a key
/// server that cannot be reached, a header that cannot be read) is refused,
/// never served as some default caller.
pub trait Authenticator: Send + Sync + 'static {
    /// The caller of the request whose head is `request`, or why it is
    /// refused. Called once per HTTP request, before anything is run.
    fn authenticate<'a>(&'a self, request: &'a http::request::Parts) -> AuthFuture<'a>;

    /// The Protected Resource Metadata (RFC 9728) of the resource this
    /// authenticator guards, when it is an OAuth resource server: a server
    /// serves it at `/.well-known/oauth-protected-resource` and names it in
    /// every challenge. `None` (the default) for other authenticators.
    fn resource_metadata(&self) -> Option<ResourceMetadata> {
        None
    }
}

impl<F> Authenticator for F
where
    F: Fn(&http::request::Parts) -> Result<Arc<Caller>, Refusal> + Send + Sync + 'static,
{
    fn authenticate<'a>(&'a self, request: &'a http::request::Parts) -> AuthFuture<'a> {
        let answer = self(request);
        Box::pin(async move { answer })
    }
}

/// One configured caller for every request: what a server on a loopback
/// address serves when the host gave no authenticator (the one person at
/// this machine), and what stdio always serves.
#[derive(Clone)]
pub struct Fixed(pub Arc<Caller>);

impl Authenticator for Fixed {
    fn authenticate<'a>(&'a self, _request: &'a http::request::Parts) -> AuthFuture<'a> {
        let caller = self.0.clone();
        Box::pin(async move { Ok(caller) })
    }
}

/// Refuses an audience that cannot name a resource: a URL with a fragment
/// (RFC 8707, section 2: a resource indicator "MUST NOT include a fragment
/// component"), which the metadata and every challenge would repeat.
pub(crate) fn check_audience(audience: &str) -> Result<(), String> {
    if audience.contains("://") && audience.contains('#') {
        return Err(format!(
            "the audience `{audience}` has a fragment (`#...`): a resource's URL has none"
        ));
    }
    Ok(())
}

/// Protected Resource Metadata (RFC 9728): what an OAuth client reads to
/// learn where to get a token for this resource, and which scopes exist.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ResourceMetadata {
    /// The resource's identifier: its URL, the audience tokens must name
    /// (RFC 8707), e.g. `https://tools.example.com/mcp`.
    pub resource: String,
    /// The authorization servers that issue tokens for it (their issuer URLs).
    pub authorization_servers: Vec<String>,
    /// The scopes a token may carry for it. The MCP server fills this with
    /// the registry's declared authorities when it is empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes_supported: Vec<String>,
    /// How a token is sent: only in the `Authorization` header.
    pub bearer_methods_supported: Vec<String>,
}

impl ResourceMetadata {
    /// Metadata for `resource`, whose tokens `authorization_servers` issue.
    pub fn new(resource: impl Into<String>, authorization_servers: Vec<String>) -> Self {
        ResourceMetadata {
            resource: resource.into(),
            authorization_servers,
            scopes_supported: Vec::new(),
            bearer_methods_supported: vec!["header".to_owned()],
        }
    }

    /// Where this metadata is served (RFC 9728, section 3): the resource's
    /// origin, the well-known prefix, then the resource's path; the URL
    /// every challenge names.
    ///
    /// ```
    /// use contract_runtime::identity::ResourceMetadata;
    /// let m = ResourceMetadata::new("https://tools.example.com/mcp", vec![]);
    /// assert_eq!(m.metadata_url(), "https://tools.example.com/.well-known/oauth-protected-resource/mcp");
    /// let m = ResourceMetadata::new("http://127.0.0.1:8080", vec![]);
    /// assert_eq!(m.metadata_url(), "http://127.0.0.1:8080/.well-known/oauth-protected-resource");
    /// ```
    pub fn metadata_url(&self) -> String {
        let (scheme, authority, path) = self.parts();
        format!("{scheme}://{authority}{METADATA_PATH}{path}")
    }

    /// The resource's scheme, authority and path (no trailing `/`).
    fn parts(&self) -> (&str, &str, &str) {
        let (scheme, rest) = self
            .resource
            .split_once("://")
            .unwrap_or(("https", &self.resource));
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        (scheme, authority, path.trim_end_matches('/'))
    }

    /// The metadata as a server serves it (the MCP server, the approvals
    /// inbox): `scopes` fill `scopes_supported` when the host named none.
    pub(crate) fn served(mut self, scopes: impl FnOnce() -> Vec<String>) -> ServedMetadata {
        if self.scopes_supported.is_empty() {
            self.scopes_supported = scopes();
        }
        ServedMetadata {
            url: self.metadata_url(),
            path: format!("{METADATA_PATH}{}", self.parts().2),
            document: serde_json::to_vec(&self).unwrap_or_default(),
        }
    }
}

/// [`ResourceMetadata`] ready to serve: the URL every challenge names, the
/// path a GET of it arrives at, and the JSON document answered there.
#[derive(Clone, Debug)]
pub(crate) struct ServedMetadata {
    pub(crate) url: String,
    pub(crate) path: String,
    pub(crate) document: Vec<u8>,
}

/// Where Protected Resource Metadata is served (RFC 9728): this prefix,
/// then the resource's path.
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Why a request is not served: the HTTP status and the `WWW-Authenticate`
/// challenge (RFC 6750) a server answers it with. Its texts never contain
/// the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    status: u16,
    error: Option<&'static str>,
    description: String,
    scope: Option<String>,
}

impl Refusal {
    /// No credentials at all: 401, a challenge without `error` (RFC 6750,
    /// section 3.1: a request that did not try to authenticate).
    pub fn missing_token(description: impl Into<String>) -> Refusal {
        Refusal {
            status: 401,
            error: None,
            description: description.into(),
            scope: None,
        }
    }

    /// Credentials that do not hold (expired, forged, for another audience):
    /// 401 `invalid_token`.
    pub fn invalid_token(description: impl Into<String>) -> Refusal {
        Refusal {
            status: 401,
            error: Some("invalid_token"),
            description: description.into(),
            scope: None,
        }
    }

    /// A request that cannot be read as one (two `Authorization` headers,
    /// an oversized token): 400 `invalid_request`.
    pub fn invalid_request(description: impl Into<String>) -> Refusal {
        Refusal {
            status: 400,
            error: Some("invalid_request"),
            description: description.into(),
            scope: None,
        }
    }

    /// A valid token without the scope the request needs: 403
    /// `insufficient_scope`, naming `scope` so the client can ask for it
    /// (MCP's step-up authorization).
    pub fn insufficient_scope(scope: impl Into<String>, description: impl Into<String>) -> Refusal {
        Refusal {
            status: 403,
            error: Some("insufficient_scope"),
            description: description.into(),
            scope: Some(scope.into()),
        }
    }

    /// The authenticator cannot judge the request now (its key server does
    /// not answer): 503, and nothing is served. Fail closed, never open.
    pub fn unavailable(description: impl Into<String>) -> Refusal {
        Refusal {
            status: 503,
            error: None,
            description: description.into(),
            scope: None,
        }
    }

    /// The HTTP status to answer.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The RFC 6750 error code, when one applies.
    pub fn error(&self) -> Option<&'static str> {
        self.error
    }

    /// What went wrong, for the client's developer (never the token).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The scope a 403 asks for.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// The `WWW-Authenticate` value: `Bearer`, the metadata's URL when
    /// there is one (RFC 9728, section 5.1), then `error`,
    /// `error_description` and `scope` where they apply. `None` for a 503,
    /// which is not a challenge. Quotes and backslashes in the texts are
    /// escaped, and control characters dropped, so a header can always be
    /// built from it.
    ///
    /// ```
    /// use contract_runtime::identity::Refusal;
    /// let r = Refusal::insufficient_scope("notes:write", "`add_note` needs notes:write");
    /// assert_eq!(
    ///     r.www_authenticate(Some("https://h/.well-known/oauth-protected-resource/mcp")).unwrap(),
    ///     "Bearer resource_metadata=\"https://h/.well-known/oauth-protected-resource/mcp\", \
    ///      error=\"insufficient_scope\", error_description=\"`add_note` needs notes:write\", \
    ///      scope=\"notes:write\""
    /// );
    /// ```
    pub fn www_authenticate(&self, resource_metadata: Option<&str>) -> Option<String> {
        if self.status == 503 {
            return None;
        }
        let mut params = Vec::new();
        if let Some(url) = resource_metadata {
            params.push(format!("resource_metadata=\"{}\"", quoted(url)));
        }
        if let Some(error) = self.error {
            params.push(format!("error=\"{error}\""));
            if !self.description.is_empty() {
                params.push(format!(
                    "error_description=\"{}\"",
                    quoted(&self.description)
                ));
            }
        }
        if let Some(scope) = &self.scope {
            params.push(format!("scope=\"{}\"", quoted(scope)));
        }
        Some(if params.is_empty() {
            "Bearer".to_owned()
        } else {
            format!("Bearer {}", params.join(", "))
        })
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error {
            Some(e) => write!(f, "{} {e}: {}", self.status, self.description),
            None => write!(f, "{}: {}", self.status, self.description),
        }
    }
}

impl std::error::Error for Refusal {}

/// `s` as the inside of an RFC 7230 quoted string: `"` and `\` escaped,
/// control characters (which no header may carry) dropped.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The caller must hold `scope`, else the request is refused with the
/// scope challenge (403 `insufficient_scope` naming it). For pages a host
/// serves beside the tools (an approvals inbox needs `approvals:decide`).
///
/// ```
/// use contract_runtime::{identity::require_scope, Caller};
/// let ana = Caller::new().subject("ana").grant("approvals:decide");
/// assert!(require_scope(&ana, "approvals:decide").is_ok());
/// let bob = Caller::new().subject("bob");
/// assert_eq!(require_scope(&bob, "approvals:decide").unwrap_err().status(), 403);
/// ```
pub fn require_scope(caller: &Caller, scope: &str) -> Result<(), Refusal> {
    if caller.has_scope(scope) {
        Ok(())
    } else {
        Err(Refusal::insufficient_scope(
            scope,
            format!("this needs the scope {scope}, which the token does not carry"),
        ))
    }
}

/// The bearer token of a request: the one `Authorization: Bearer ...`
/// header (RFC 6750, section 2.1; the scheme in any case). A request with
/// none is [`Refusal::missing_token`]; two `Authorization` headers, another
/// scheme, or a token longer than `max_len` bytes, [`Refusal::invalid_request`]
/// or [`Refusal::invalid_token`]. Tokens in the query string or the body are
/// never read (MCP's authorization spec forbids the query string).
pub fn bearer_token(request: &http::request::Parts, max_len: usize) -> Result<&str, Refusal> {
    let mut values = request.headers.get_all(http::header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Err(Refusal::missing_token(
            "this resource needs a bearer token in the Authorization header",
        ));
    };
    if values.next().is_some() {
        return Err(Refusal::invalid_request(
            "more than one Authorization header",
        ));
    }
    if value.len() > max_len + 7 {
        return Err(Refusal::invalid_request(format!(
            "the Authorization header is longer than {max_len} bytes"
        )));
    }
    let value = value
        .to_str()
        .map_err(|_| Refusal::invalid_request("the Authorization header is not ASCII"))?;
    let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(Refusal::missing_token(
            "only bearer tokens are accepted (Authorization: Bearer ...)",
        ));
    }
    let token = token.trim();
    if token.is_empty() {
        return Err(Refusal::invalid_token("the bearer token is empty"));
    }
    Ok(token)
}
