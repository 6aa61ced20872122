//! An MCP server over a [`Registry`], built on the official Rust SDK
//! ([`rmcp`]); enabled by the `mcp` cargo feature.
//!
//! `tools/list` answers with the [`Dialect::Mcp`] export of the registry.
//! `tools/call` goes through the [`Dispatcher`] like every other call, with the
//! JSON-RPC request id as the call id, and always ends in a `CallToolResult`
//! (`docs/envelope.md`, "Per provider"): the envelope in `structuredContent`, its JSON
//! text in `content`, and `isError` for every status but `ok` and `partial`.
//! The dispatcher reads each call's arguments as the client sent them, not
//! as rmcp's serde_json read them (`raw`): a repeated key, `1e400`, a
//! lone surrogate or arguments that are not an object are `invalid /
//! malformed-arguments`, as for every provider, where rmcp alone would run
//! the last key, drop the message or answer a JSON-RPC error. Malformed
//! arguments, schema violations and unknown tools are results with
//! `isError: true`, never JSON-RPC errors, so that the model sees them and
//! can repair the call.
//!
//! A call that needs approval asks the person at the client through MCP
//! elicitation when the client declared it (see `docs/approvals.md`).
//!
//! Since `structuredContent` is the envelope, a listed `outputSchema` describes
//! the envelope, with the tool's own output schema (from the export) as its
//! `result`: MCP clients check structured content against the output schema.
//!
//! ```no_run
//! use std::sync::Arc;
//! use contract_runtime::{mcp::McpServer, Caller, Dispatcher, Registry};
//!
//! # async fn run(registry: Registry) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//! let server = McpServer::new(Dispatcher::new(registry), Arc::new(Caller::new()))?;
//! server.serve_stdio().await?;
//! # Ok(())
//! # }
//! ```
//!
//! With the `mcp-http` feature, [`McpServer::serve_http`] serves the same
//! handler over MCP's streamable HTTP transport (rmcp's tower service, on
//! hyper's HTTP/1.1 server). Each request runs on its own task, so calls from
//! concurrent clients, or concurrent calls from one client, run concurrently.

mod approval;
#[cfg(feature = "mcp-http")]
mod auth;
mod compose;
mod content;
mod progress;
mod raw;
mod task;

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::task::Poll;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    CompleteRequestParams, CompleteResult, ContentBlock, CustomRequest, CustomResult,
    GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult, Implementation,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SubscribeRequestParams, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
// Logging is legacy in rmcp (SEP-2577); 2025 clients still set a level.
#[allow(deprecated)]
use rmcp::model::SetLevelRequestParams;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use crate::dialect::{self, Dialect, ExportError, ExportOptions};
use crate::envelope::Envelope;
use crate::{Caller, Dispatcher, Registry, ToolCall};

use self::approval::{Approver, Asked};
use self::compose::Beside;
use self::progress::{Notifier, SessionLevel};
use crate::report::CallScope;

/// The MCP client of the call a tool is running for, lent to the handler
/// ([`crate::CallContext::extra`]): through rmcp's [`Peer`] a tool may ask
/// the client to sample a model (`create_message`) or ask the person a
/// question (`create_elicitation`) while it runs. Outside MCP a handler
/// finds none, and should answer a failure that says so.
#[derive(Clone, Debug)]
pub struct McpClient(pub Peer<RoleServer>);

/// Serves a registry's tools over MCP. Cheap to clone: clones share the
/// dispatcher (and so its idempotency store) and the caller.
#[derive(Clone)]
pub struct McpServer {
    dispatcher: Arc<Dispatcher>,
    caller: Arc<Caller>,
    tools: Arc<Vec<Tool>>,
    implementation: Implementation,
    approver: Arc<Approver>,
    /// The calls of tools declared `task = ...` that run in the background.
    tasks: crate::task::Tasks,
    /// The host's resources, prompts and completions ([`McpServer::beside`]).
    beside: Option<Arc<dyn Beside>>,
    /// The level the client chose with `logging/setLevel`: one per session
    /// ([`McpServer::for_session`]).
    level: Arc<SessionLevel>,
    /// Who may send requests over HTTP ([`McpServer::with_authenticator`]).
    #[cfg(feature = "mcp-http")]
    gate: Option<Arc<auth::Gate>>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .field("implementation", &self.implementation)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// A server that runs every call through `dispatcher` as `caller`. Fails
    /// when a tool cannot be exported for MCP (see [`dialect::export`]).
    pub fn new(dispatcher: Dispatcher, caller: Arc<Caller>) -> Result<McpServer, ExportError> {
        let tools = list(dispatcher.registry())?;
        let dispatcher = Arc::new(dispatcher);
        Ok(McpServer {
            tasks: crate::task::Tasks::new(dispatcher.clone()),
            dispatcher,
            caller,
            tools: Arc::new(tools),
            implementation: Implementation::new("contract-runtime", env!("CARGO_PKG_VERSION")),
            approver: Arc::new(Approver::new()),
            beside: None,
            level: Arc::default(),
            #[cfg(feature = "mcp-http")]
            gate: None,
        })
    }

    /// Serves each HTTP request as the caller `authenticator` finds for it
    /// (see [`crate::identity`]) instead of the one configured caller, which
    /// stdio keeps. A request it refuses is answered with its status and
    /// challenge and runs nothing; a `tools/call` whose tool needs a scope
    /// the caller lacks answers 403 `insufficient_scope` naming it; a
    /// session belongs to the caller that opened it. With an OAuth
    /// authenticator (`identity::oauth`), the Protected Resource Metadata is
    /// served too, its `scopes_supported` the registry's authorities.
    /// Required to serve an address that is not loopback.
    #[cfg(feature = "mcp-http")]
    pub fn with_authenticator(
        mut self,
        authenticator: impl crate::identity::Authenticator,
    ) -> Self {
        let gate = auth::Gate::new(Arc::new(authenticator), self.dispatcher.registry());
        self.gate = Some(Arc::new(gate));
        self
    }

    /// Serves `handler`'s resources, prompts and completions beside the
    /// contract tools: `resources/*`, `prompts/*` and `completion/complete`
    /// go to it, and `initialize` announces its capabilities for them. The
    /// tools, their calls (approval flows and all), logging and the
    /// transports stay this server's; `handler`'s own tools are not served.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use contract_runtime::{mcp::McpServer, Caller, Dispatcher, Registry};
    /// use rmcp::model::{ServerCapabilities, ServerConfig};
    ///
    /// struct Prompts;
    /// impl rmcp::ServerHandler for Prompts {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    ///     }
    /// }
    ///
    /// let registry = Registry::builder().build().unwrap();
    /// let server = McpServer::new(Dispatcher::new(registry), Arc::new(Caller::new()))
    ///     .unwrap()
    ///     .beside(Prompts);
    /// ```
    pub fn beside<H: ServerHandler>(mut self, handler: H) -> Self {
        self.beside = Some(Arc::new(handler));
        self
    }

    /// A server for one more session: it shares everything with this one but
    /// the session's state (the logging level). `serve_http` makes one per
    /// session itself.
    pub fn for_session(&self) -> McpServer {
        McpServer {
            level: Arc::default(),
            ..self.clone()
        }
    }

    /// Sets the name and version announced in `initialize` (`serverInfo`).
    pub fn with_implementation(mut self, name: &str, version: &str) -> Self {
        self.implementation = Implementation::new(name, version);
        self
    }

    /// The `tools/list` entries.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Who sends this request: over HTTP with an authenticator, the
    /// request's own caller (there for every request the gate let through;
    /// a request without one is never served as the configured caller);
    /// otherwise the configured caller.
    fn caller_of(&self, context: &RequestContext<RoleServer>) -> Result<Arc<Caller>, ErrorData> {
        // Without a gate no request carries a caller of its own: the
        // request's extensions are not searched.
        #[cfg(feature = "mcp-http")]
        return match &self.gate {
            None => Ok(self.caller.clone()),
            Some(_) => auth::caller_of(context).ok_or_else(|| {
                ErrorData::invalid_request("this request was not authenticated", None)
            }),
        };
        #[cfg(not(feature = "mcp-http"))]
        {
            let _ = context;
            Ok(self.caller.clone())
        }
    }

    /// Dispatches one `tools/call` and returns its result; `call_id` is the
    /// JSON-RPC request id. Absent arguments are `{}`.
    pub async fn call(
        &self,
        call_id: &str,
        name: &str,
        arguments: Option<&Map<String, Value>>,
    ) -> CallToolResult {
        let call = ToolCall::new(
            call_id.to_owned(),
            name.to_owned(),
            crate::mcp::raw::arguments_text(arguments),
        );
        let envelope = self.dispatcher.dispatch(&self.caller, &call).await;
        into_call_tool_result(envelope)
    }

    /// Serves MCP on standard input and output until the client disconnects.
    /// Must run inside a tokio runtime.
    pub async fn serve_stdio(self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let io = crate::mcp::raw::stdio();
        let running = self.serve((io.read, io.write)).await?;
        running.waiting().await?;
        // Everything rmcp wrote reaches standard output before the server
        // returns (and the process, most likely, exits).
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), io.done).await;
        Ok(())
    }

    /// Binds `addr` and serves MCP's streamable HTTP transport on it, at
    /// [`http::PATH`] (`/mcp`; other paths answer 404), until the process ends. Must run inside a tokio runtime; give it
    /// a multi-threaded one for calls to run in parallel, not just interleaved.
    ///
    /// Only requests whose `Host` header names a loopback address, and whose
    /// `Origin` (when a browser sends one) is a loopback page, are answered
    /// ([`http::loopback`], against DNS rebinding and other sites' pages); to
    /// serve other hosts, use [`McpServer::serve_http_on`] with a
    /// configuration that lists them.
    ///
    /// ```no_run
    /// # use std::sync::Arc;
    /// # use contract_runtime::{mcp::McpServer, Caller, Dispatcher, Registry};
    /// # async fn run(registry: Registry) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    /// let server = McpServer::new(Dispatcher::new(registry), Arc::new(Caller::new()))?;
    /// server.serve_http("127.0.0.1:8080".parse()?).await?;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// Without an authenticator ([`McpServer::with_authenticator`]) only a
    /// loopback address is served: anything that reaches the port would
    /// act as the one configured caller. A non-loopback `addr` without one
    /// is an error, and nothing is bound.
    #[cfg(feature = "mcp-http")]
    pub async fn serve_http(
        self,
        addr: std::net::SocketAddr,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        if self.gate.is_none() && !addr.ip().is_loopback() {
            return Err(format!(
                "{addr} is not a loopback address: serving it needs an authenticator (McpServer::with_authenticator)"
            )
            .into());
        }
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_http_on(listener, http::loopback()).await?;
        Ok(())
    }

    /// Serves MCP's streamable HTTP transport on a bound listener (bind to
    /// port 0 and read [`tokio::net::TcpListener::local_addr`] to learn the
    /// port), with rmcp's transport configuration. Returns only when
    /// accepting a connection fails.
    ///
    /// ```no_run
    /// # use std::sync::Arc;
    /// # use contract_runtime::{mcp::{http::HttpConfig, McpServer}, Caller, Dispatcher, Registry};
    /// # async fn run(registry: Registry) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    /// let server = McpServer::new(Dispatcher::new(registry), Arc::new(Caller::new()))?;
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// println!("http://{}/mcp", listener.local_addr()?);
    /// server.serve_http_on(listener, contract_runtime::mcp::http::loopback()).await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "mcp-http")]
    pub async fn serve_http_on(
        self,
        listener: tokio::net::TcpListener,
        config: http::HttpConfig,
    ) -> std::io::Result<()> {
        http::serve(self, listener, config).await
    }
}

/// MCP over streamable HTTP: rmcp's tower service on hyper's HTTP/1.1 server.
#[cfg(feature = "mcp-http")]
pub mod http {
    use std::sync::Arc;

    use std::convert::Infallible;

    use bytes::Bytes;
    use http_body_util::combinators::BoxBody;
    use http_body_util::{BodyExt, Full, Limited};
    use hyper::body::Incoming;
    use hyper::service::Service as _;
    use hyper::{Request, Response};
    use hyper_util::rt::TokioIo;
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::StreamableHttpService;

    use super::McpServer;

    /// rmcp's transport configuration: sessions, allowed hosts, body limit.
    /// The default keeps MCP sessions (`Mcp-Session-Id`, answers as
    /// server-sent events), which every streamable HTTP client speaks, and
    /// answers loopback `Host`s only.
    pub use rmcp::transport::streamable_http_server::StreamableHttpServerConfig as HttpConfig;

    /// The configuration for a server on a loopback address: loopback `Host`s
    /// only (rmcp's default), and an `Origin`, when a browser sends one, only
    /// from a page on a loopback address (any port), as MCP's transport asks
    /// servers to validate it. A request without `Origin` (not a browser)
    /// passes.
    pub fn loopback() -> HttpConfig {
        let origins = ["localhost", "127.0.0.1", "[::1]"]
            .into_iter()
            .flat_map(|host| ["http", "https"].map(|scheme| format!("{scheme}://{host}:*")));
        HttpConfig::default()
            .with_allowed_origins(origins)
            .enforce_origin_validation()
    }

    pub(super) async fn serve(
        server: McpServer,
        listener: tokio::net::TcpListener,
        config: HttpConfig,
    ) -> std::io::Result<()> {
        if server.gate.is_none() {
            let local = listener.local_addr()?;
            if !local.ip().is_loopback() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    format!("{local} is not a loopback address: serving it needs an authenticator (McpServer::with_authenticator)"),
                ));
            }
        }
        let limit = config.max_request_body_bytes;
        let gate = server.gate.clone();
        let registry = server.dispatcher.clone();
        // The factory runs once per session (or per request when sessions are
        // off); a clone shares the dispatcher, its stores and the tool list.
        let service = StreamableHttpService::new(
            move || Ok(server.for_session()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        loop {
            let (stream, _peer) = crate::listen::accept(&listener).await;
            // Answers are small and written whole: waiting for Nagle's
            // algorithm to coalesce them would add up to 40 ms per call.
            let _ = stream.set_nodelay(true);
            // Shared by the connection's requests: cloning rmcp's service
            // copies its configuration (the allowed hosts and origins), and
            // hyper's adapter already takes one copy per request.
            let service = Arc::new(TowerToHyperService::new(service.clone()));
            let (gate, registry) = (gate.clone(), registry.clone());
            let handler = hyper::service::service_fn(move |req: Request<Incoming>| {
                let service = Arc::clone(&service);
                let (gate, registry) = (gate.clone(), registry.clone());
                async move {
                    if let Some(answer) = gate.as_ref().and_then(|g| g.well_known(req.uri().path()))
                    {
                        return Ok(answer);
                    }
                    // One endpoint, the one the server announces: any other
                    // path serving MCP too would be a second door nobody
                    // meant to open.
                    if req.uri().path() != PATH {
                        return Ok(plain(
                            hyper::StatusCode::NOT_FOUND,
                            format!("MCP is served at {PATH}"),
                        ));
                    }
                    let delete = req.method() == hyper::Method::DELETE;
                    let post = req.method() == hyper::Method::POST;
                    // Taken apart once and put together once: each move of
                    // a request's parts is code that runs on every call.
                    let (mut parts, body) = req.into_parts();
                    // Who is calling, before anything is read or run.
                    let (mut caller, mut session) = (None, None);
                    if let Some(g) = &gate {
                        if let Err(mut refused) = g.admit(&mut parts).await {
                            // The body is left unread, so hyper closes the
                            // connection after this answer: say so, or a
                            // client that reuses it fails its next request.
                            refused.headers_mut().insert(
                                hyper::header::CONNECTION,
                                hyper::header::HeaderValue::from_static("close"),
                            );
                            return Ok(refused);
                        }
                        caller = super::auth::caller_of_parts(&parts);
                        // what the gate binds to the caller once answered
                        session = super::auth::session_id(&parts).map(str::to_owned);
                    }
                    let (body, sent) = match rewritten(&mut parts, body, limit).await {
                        Ok(read) => read,
                        Err(refused) => return Ok(refused),
                    };
                    // The revision the client speaks, read once: for the
                    // scope challenge, and for the priming event (sent from
                    // 2025-11-25; `initialize` names no version: its answer
                    // is one message, which no client resumes).
                    let version = parts
                        .headers
                        .get("mcp-protocol-version")
                        .and_then(|v| v.to_str().ok());
                    let primed = version.is_some_and(|v| v >= PRIMED_FROM);
                    if let (Some(g), Some(c)) = (&gate, &caller) {
                        if let Some(challenge) =
                            g.scope_challenge(registry.registry(), c, &body, version)
                        {
                            return Ok(challenge);
                        }
                    }
                    let answer = service
                        .call(Request::from_parts(parts, Full::new(body)))
                        .await
                        .map(|a| finished(a, delete, post.then_some(&sent), primed));
                    if let (Some(g), Ok(a)) = (&gate, &answer) {
                        g.answered(session.as_deref(), caller.as_ref(), delete, a);
                    }
                    answer
                }
            });
            tokio::spawn(async move {
                // A connection that fails (a client that went away mid-request)
                // ends that connection only.
                let _ = crate::listen::http1()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    }

    /// The one path MCP is served at.
    pub const PATH: &str = "/mcp";

    /// The first revision whose clients are sent a priming event.
    const PRIMED_FROM: &str = "2025-11-25";

    /// An event stream without its opening priming event (see [`finished`]).
    struct Unprimed {
        inner: BoxBody<Bytes, Infallible>,
        first: bool,
    }

    impl hyper::body::Body for Unprimed {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: std::pin::Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
            loop {
                let frame = std::task::ready!(std::pin::Pin::new(&mut self.inner).poll_frame(cx));
                if std::mem::take(&mut self.first) {
                    // an event whose `data` is empty: no message has one
                    let priming = |data: &Bytes| {
                        data.strip_prefix(b"data:").is_some_and(|rest| {
                            rest.split(|&b| b == b'\n')
                                .next()
                                .is_some_and(|line| line.trim_ascii().is_empty())
                        })
                    };
                    if let Some(Ok(f)) = &frame {
                        if f.data_ref().is_some_and(priming) {
                            continue;
                        }
                    }
                }
                return std::task::Poll::Ready(frame);
            }
        }

        fn is_end_stream(&self) -> bool {
            self.inner.is_end_stream()
        }
    }

    /// A plain-text answer with `status`.
    fn plain(status: hyper::StatusCode, text: String) -> Response<BoxBody<Bytes, Infallible>> {
        let mut answer = Response::new(Full::new(Bytes::from(text)).boxed());
        *answer.status_mut() = status;
        answer
    }

    /// The request's body read whole (rmcp reads it whole too, up to the
    /// same limit) and passed through [`crate::mcp::raw::rewrite`], with
    /// the body as sent for [`finished`] (a `Bytes` shares it, no copy);
    /// `Content-Length` in `parts` follows the body.
    async fn rewritten(
        parts: &mut hyper::http::request::Parts,
        body: Incoming,
        limit: usize,
    ) -> Result<(Bytes, Bytes), Response<BoxBody<Bytes, Infallible>>> {
        let sent = match whole(body, limit).await {
            Ok(bytes) => bytes,
            Err(e) => {
                return Err(plain(
                    hyper::StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request body could not be read whole: {e}"),
                ));
            }
        };
        let body = match crate::mcp::raw::rewrite(&sent) {
            Some(new) => {
                // The length changed with the body, and the header says the
                // new one: updated in place, where removing it took the
                // header map's slowest code on every call.
                if let Some(length) = parts.headers.get_mut(hyper::header::CONTENT_LENGTH) {
                    *length = hyper::header::HeaderValue::from(new.len());
                }
                Bytes::from(new)
            }
            None => sent.clone(),
        };
        Ok((body, sent))
    }

    /// A body read whole, up to `limit` bytes, as `collect` reads it (data
    /// frames joined, trailers left out), but a body that arrives as one
    /// frame, as almost every request does, is kept as it came: no copy,
    /// and no list of frames allocated for it.
    async fn whole(
        body: Incoming,
        limit: usize,
    ) -> Result<Bytes, Box<dyn std::error::Error + Send + Sync>> {
        let mut body = Limited::new(body, limit);
        let mut first = Bytes::new();
        let mut joined: Option<Vec<u8>> = None;
        while let Some(frame) = body.frame().await {
            let Ok(data) = frame?.into_data() else {
                continue;
            };
            match &mut joined {
                Some(all) => all.extend_from_slice(&data),
                None if first.is_empty() => first = data,
                None => {
                    let mut all = Vec::with_capacity(first.len() + data.len());
                    all.extend_from_slice(&first);
                    all.extend_from_slice(&data);
                    joined = Some(all);
                }
            }
        }
        Ok(joined.map_or(first, Bytes::from))
    }

    /// rmcp's answer, mended where MCP's clients read it otherwise:
    ///
    /// - rmcp ends a session with 202; MCP's clients (the official Python
    ///   one) take only 200 or 204 as a success and log a failure on every
    ///   close;
    /// - a POST body that is not JSON at all gets rmcp's 415 with a line of
    ///   plain text; JSON-RPC asks for a parse error with a null id, as on
    ///   stdio. The body is checked only once rmcp has refused it: a
    ///   second parse of every message that rmcp reads anyway cost about
    ///   2.8 k instructions per call.
    /// - an event stream opens with a priming event (empty `data`, an id and
    ///   `retry`, SEP-1699) only for a client of `2025-11-25` or later
    ///   (`primed`), as the official SDKs send it: a client of an earlier
    ///   revision reads each `data` as a message and fails on the empty one
    ///   (the TypeScript client's `JSON.parse("")`). rmcp sends it to all.
    fn finished(
        mut answer: Response<BoxBody<Bytes, Infallible>>,
        delete: bool,
        post: Option<&Bytes>,
        primed: bool,
    ) -> Response<BoxBody<Bytes, Infallible>> {
        if delete && answer.status() == hyper::StatusCode::ACCEPTED {
            *answer.status_mut() = hyper::StatusCode::NO_CONTENT;
        }
        let events = answer
            .headers()
            .get(hyper::header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
        if events && !primed {
            answer = answer.map(|body| {
                Unprimed {
                    inner: body,
                    first: true,
                }
                .boxed()
            });
        }
        if answer.status() == hyper::StatusCode::UNSUPPORTED_MEDIA_TYPE {
            if let Some(error) = post.and_then(|sent| crate::mcp::raw::parse_error(sent)) {
                let mut answer = plain(hyper::StatusCode::BAD_REQUEST, String::new())
                    .map(|_| Full::new(Bytes::from(error)).boxed());
                answer.headers_mut().insert(
                    hyper::header::CONTENT_TYPE,
                    hyper::header::HeaderValue::from_static("application/json"),
                );
                return answer;
            }
        }
        answer
    }
}

/// The `CallToolResult` of an envelope (`docs/envelope.md`, "Per provider").
///
/// ```
/// use contract_runtime::{mcp::call_tool_result, Envelope, Status};
///
/// let envelope = Envelope::failure("7", "f", Status::Denied, true, vec![]);
/// let result = call_tool_result(&envelope);
/// assert_eq!(result.is_error, Some(true));
/// assert_eq!(result.structured_content.unwrap()["status"], "denied");
/// ```
pub fn call_tool_result(envelope: &Envelope) -> CallToolResult {
    blocks_of(
        envelope.status.is_error(),
        envelope.to_json_string(),
        &envelope.content,
        envelope.to_value(),
    )
}

/// [`call_tool_result`] of an envelope the caller is done with: its
/// strings and `result` are moved into the structured content where the
/// borrowed form copies them ([`Envelope::into_value`]).
///
/// The text is written from the structured content, not from the
/// envelope: the same characters (a test holds it), and the code that
/// writes it is serde_json's writer of a `Value`, which rmcp runs on the
/// same answer moments later to write the structured content. At one
/// client, where each call meets caches another process has used since
/// the last, the code a call runs costs more than its instruction count
/// (`docs/performance.md`).
fn into_call_tool_result(mut envelope: Envelope) -> CallToolResult {
    let content = std::mem::take(&mut envelope.content);
    let is_error = envelope.status.is_error();
    let value = envelope.into_value();
    let text = crate::envelope::compact_text(&value);
    blocks_of(is_error, text, &content, value)
}

/// The result's blocks: the envelope as text first, then its content.
fn blocks_of(
    is_error: bool,
    text: String,
    beside: &[crate::content::Content],
    value: Value,
) -> CallToolResult {
    let mut blocks = Vec::with_capacity(1 + beside.len());
    blocks.push(ContentBlock::text(text));
    blocks.extend(beside.iter().filter_map(content::block));
    let mut result = if is_error {
        CallToolResult::error(blocks)
    } else {
        CallToolResult::success(blocks)
    };
    result.structured_content = Some(value);
    result
}

/// The `tools/list` entries of a registry: its [`Dialect::Mcp`] export, whose
/// `outputSchema` describes the envelope (see the module docs).
pub fn list(registry: &Registry) -> Result<Vec<Tool>, ExportError> {
    let export = dialect::export(
        registry.canonical(),
        Dialect::Mcp,
        &ExportOptions::default(),
    )?;
    rmcp_tools(export)
}

/// The MCP SDK's tools of a [`Dialect::Mcp`] export, as [`list`] gives them.
///
/// rmcp holds each `outputSchema` as an `Arc`, whole: tools whose outputs
/// have the same schema share one (about 45 KB of `Value` each; every tool
/// without an output schema has the same one), and each other one is built
/// once, straight from the export's parts. Input schemas are moved, not
/// copied.
pub fn rmcp_tools(export: dialect::Export) -> Result<Vec<Tool>, ExportError> {
    let mut shared: HashMap<String, Arc<Map<String, Value>>> = HashMap::new();
    export
        .tools
        .into_iter()
        .map(|tool| {
            let (mut value, output) = match tool.into_mcp_parts() {
                Ok((value, output)) => (value, Some(output)),
                Err(tool) => (tool.into_value(), None),
            };
            let name = value["name"].as_str().unwrap_or_default().to_owned();
            // The input schema is moved into the SDK's tool: read through
            // serde, it would be built again, map by map.
            let input = match value.get_mut("inputSchema") {
                Some(Value::Object(input)) => Some(std::mem::take(input)),
                _ => None,
            };
            let mut tool = serde_json::from_value::<Tool>(value).map_err(|e| ExportError {
                tool: name,
                dialect: Dialect::Mcp,
                pointer: String::new(),
                reason: format!("the MCP SDK cannot read the exported tool: {e}"),
                limit: None,
                malformed: false,
            })?;
            if let Some(input) = input {
                tool.input_schema = Arc::new(input);
            }
            if let Some(output) = output {
                let schema = shared.entry(output.own_key()).or_insert_with(|| {
                    Arc::new(match output.into_value() {
                        Value::Object(m) => m,
                        _ => Map::new(),
                    })
                });
                tool.output_schema = Some(Arc::clone(schema));
            }
            Ok(tool)
        })
        .collect()
}

pub use crate::envelope::envelope_schema;

impl ServerHandler for McpServer {
    // Logging is legacy in rmcp (SEP-2577); 2025 clients still set a level.
    #[allow(deprecated)]
    fn get_info(&self) -> ServerConfig {
        // The host's capabilities for what it serves; tools and logging are
        // this server's.
        let mut info = match &self.beside {
            Some(b) => b.info(),
            None => ServerConfig::new(ServerCapabilities::default()),
        };
        let own = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        info.capabilities.tools = own.tools;
        info.capabilities.logging = own.logging;
        let runs_tasks = self
            .dispatcher
            .registry()
            .tools()
            .any(|t| t.spec().task != crate::contract::TaskSupport::Forbidden);
        if runs_tasks {
            info.capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(
                    rmcp::model::TASKS_EXTENSION_ID.to_owned(),
                    rmcp::model::JsonObject::new(),
                );
        }
        info.server_info = self.implementation.clone();
        info
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.level.set(request.level);
        Ok(())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        match &self.beside {
            Some(b) => b.list_resources(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::ListResourcesRequestMethod,
            >()),
        }
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        match &self.beside {
            Some(b) => b.list_resource_templates(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::ListResourceTemplatesRequestMethod,
            >()),
        }
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match &self.beside {
            Some(b) => b.read_resource(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::ReadResourceRequestMethod,
            >()),
        }
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        match &self.beside {
            Some(b) => b.subscribe(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::SubscribeRequestMethod,
            >()),
        }
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        match &self.beside {
            Some(b) => b.unsubscribe(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::UnsubscribeRequestMethod,
            >()),
        }
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        match &self.beside {
            Some(b) => b.list_prompts(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::ListPromptsRequestMethod,
            >()),
        }
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        match &self.beside {
            Some(b) => b.get_prompt(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::GetPromptRequestMethod,
            >()),
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        match &self.beside {
            Some(b) => b.complete(request, context).await,
            None => Err(ErrorData::method_not_found::<
                rmcp::model::CompleteRequestMethod,
            >()),
        }
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        task::get(&self.tasks, &*self.caller_of(&context)?, &request.task_id).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        task::cancel(&self.tasks, &*self.caller_of(&context)?, &request.task_id).await
    }

    async fn update_task(
        &self,
        _request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Err(ErrorData::invalid_params(
            "a contract tool's task never asks for input",
            None,
        ))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let caller = self.caller_of(&context)?;
        match task::custom(&self.tasks, &caller, &request).await {
            Some(answer) => answer,
            None => Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            )),
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A call that needs approval asks the person at the client, when it
        // can (`approval`); every other call is `self.call`'s answer.
        // Boxed: rmcp spawns a task per request around this future, and
        // tokio moves a task's future whole (into its cell, between stages);
        // unboxed, the approval flow's state (elicitation requests and all)
        // made that a `memcpy` of tens of kilobytes per call.
        // What the handler may use of this call's client: its reports go
        // there when the client asked for them (`progress`), and the
        // connection is lent to it (`McpClient`).
        let caller = self.caller_of(&context)?;
        // A tool that runs as a task is answered with the task at once
        // (`task`); its call reports to `tracing` only. Boxed, and only for
        // such a tool: every other call's future stays as it was.
        if self.tasks.support(&request.name) != crate::contract::TaskSupport::Forbidden {
            if let Some(started) =
                Box::pin(task::start(&self.tasks, &caller, &request, &context)).await
            {
                return started;
            }
        }
        let token = context.meta.get_progress_token();
        // From 2026-07-28 (SEP-2575) a request carries its own log level
        // in `_meta`, and one without it gets no log line (the session's
        // `logging/setLevel` is for earlier revisions).
        let own_level = context
            .meta
            .protocol_version()
            .is_some_and(|v| v >= rmcp::model::ProtocolVersion::V_2026_07_28);
        let level = if own_level {
            Arc::new(progress::SessionLevel::of(context.meta.log_level()))
        } else {
            self.level.clone()
        };
        let sending = (token.is_some() || level.any()).then(|| {
            Notifier::start(
                context.peer.clone(),
                token,
                level,
                &self.implementation.name,
            )
        });
        let mut scope = CallScope::new().extra(McpClient(context.peer.clone()));
        if let Some(s) = &sending {
            scope = scope.reporter(s.reporter());
        }
        // The call's name and arguments are moved out of the request (the
        // rest of it, a retry's state and answers, stays for the approver).
        let call = ToolCall::new(
            context.id.to_string(),
            std::mem::take(&mut request.name).into_owned(),
            raw::take_arguments_text(request.arguments.as_mut()),
        );
        // rmcp does not stop a handler whose request the client cancelled
        // (`notifications/cancelled`): it cancels the request's token and
        // drops the answer. So the call stops here, where it stands: a call
        // waiting for a person's answer to an approval question never runs
        // when that answer comes after all, and a keyed call's key is
        // settled as the dispatcher settles a dropped call's.
        //
        // The call is polled first, and the token only while the call
        // waits, so a call that ends at its first poll (most do) never
        // registers with the token (`run_until_cancelled` polls the token
        // first: a lock on every call).
        let mut asked = std::pin::pin!(scope.run(Box::pin(self.approver.call(
            &self.dispatcher,
            &caller,
            &self.tools,
            &request,
            call,
            &context,
        ))));
        let mut cancelled = std::pin::pin!(context.ct.cancelled());
        let asked = std::future::poll_fn(|cx| {
            if let Poll::Ready(asked) = Future::poll(asked.as_mut(), cx) {
                return Poll::Ready(Some(asked));
            }
            Future::poll(cancelled.as_mut(), cx).map(|()| None)
        })
        .await;
        if let Some(s) = sending {
            s.finish().await;
        }
        let Some(asked) = asked else {
            // Nobody reads it: rmcp drops the answer to a cancelled request.
            return Err(ErrorData::new(
                rmcp::model::ErrorCode(-32800),
                "the request was cancelled",
                None,
            ));
        };
        Ok(match asked {
            Asked::Done(envelope) => into_call_tool_result(envelope).into(),
            Asked::InputRequired(question) => question.into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moving form answers exactly what the borrowing one does: the same
    /// text, the same structured content, its keys in the same order.
    #[test]
    fn an_envelope_moved_into_its_result_reads_as_one_borrowed() {
        let mut envelope = Envelope::failure("7", "search", crate::Status::Ok, true, vec![]);
        envelope.result = serde_json::json!({"matches": [{"note": "a.md", "line": 1}]});
        let borrowed = call_tool_result(&envelope);
        let moved = into_call_tool_result(envelope);
        assert_eq!(
            serde_json::to_string(&moved).unwrap(),
            serde_json::to_string(&borrowed).unwrap()
        );
        let text = serde_json::to_string(&moved.structured_content).unwrap();
        assert!(text.starts_with(r#"{"call_id":"7","tool":"search","status":"ok","retry_safe":true,"result":{"matches""#), "{text}");
    }

    /// The moved form writes its text from the structured content; every
    /// optional part of an envelope (errors with a constraint and a
    /// repair, counts, an artifact, a replay) reads as the envelope's own
    /// `Serialize` writes it.
    #[test]
    fn a_full_envelope_moved_reads_as_its_own_text() {
        let mut error =
            crate::ErrorEntry::new("schema-violation", "`/year` is outside \"2001\" to 2026\n")
                .with_field("/year")
                .with_hint("tell the user");
        error.constraint = Some(crate::envelope::ConstraintInfo {
            keyword: "minimum".into(),
            limit: Some(serde_json::json!(2001)),
            actual: Some(serde_json::json!(-1.5e300)),
            served: true,
        });
        error.retry_after_ms = Some(u64::MAX);
        let mut envelope = Envelope::failure(
            "call_4",
            "list_filings",
            crate::Status::Partial,
            false,
            vec![error],
        );
        envelope.result = serde_json::json!({"filings": ["a", "é\u{1F600}"], "n": 3});
        envelope.completed = Some(3);
        envelope.failed = Some(1);
        envelope.artifact = Some("out/filings.json".into());
        envelope.replayed = true;
        let own = envelope.to_json_string();
        let moved = into_call_tool_result(envelope.clone());
        let text = moved.content[0].as_text().map(|t| t.text.clone());
        assert_eq!(text.as_deref(), Some(own.as_str()));
        assert_eq!(moved.structured_content, Some(envelope.to_value()));
    }
}
