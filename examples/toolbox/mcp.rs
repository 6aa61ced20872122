//! `toolbox mcp --root DIR [--http ADDR [--jwks FILE|URL | --introspect URL
//! --client-id-env NAME --client-secret-env NAME] --issuer ISS --audience AUD
//! [--tenant-claim NAME]] [STATE]`: the same tools over MCP, on stdio, or on
//! streamable HTTP: at a loopback address as one local caller holding every
//! scope, or, with `--jwks` (JWTs) or `--introspect` (opaque tokens), as an
//! OAuth 2.1 resource server where each request's caller comes from its
//! bearer token.

use std::path::PathBuf;
use std::sync::Arc;

use contract_runtime::identity::introspect::IntrospectionAuthenticator;
use contract_runtime::identity::oauth::{Identity, JwtAuthenticator};
use contract_runtime::identity::Refusal;
use contract_runtime::mcp::{http, McpServer};
use contract_runtime::Dispatcher;

use crate::state::StateOptions;
use crate::tokens::{TokenCheck, TokenOptions};
use toolbox::{all_scopes, caller, registry};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut root = None;
    let mut http = None;
    let mut state = StateOptions::default();
    let mut tokens = TokenOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if state.take(a, &mut it)? || tokens.take(a, &mut it)? {
            continue;
        }
        match a.as_str() {
            "--root" => root = Some(PathBuf::from(it.next().ok_or("--root needs a value")?)),
            "--http" => {
                let v = it
                    .next()
                    .ok_or("--http needs an address (127.0.0.1:PORT)")?;
                http = Some(crate::http_addr(v)?);
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let root = root.ok_or("mcp needs --root DIR")?;
    let jwt = tokens.check()?;
    match (http, &jwt) {
        (None, Some(_)) => {
            return Err("--jwks and --introspect check bearer tokens over HTTP: they need --http ADDR (stdio serves one local caller)".into())
        }
        // The toolbox's tools touch the local disk: without tokens, anyone
        // who reaches the port would hold every scope.
        (Some(addr), None) if !addr.ip().is_loopback() => {
            return Err(format!(
                "--http {addr}: only a loopback address is served without --jwks or --introspect (each request's caller then comes from its bearer token)"
            ))
        }
        _ => {}
    }
    // HTTP serves concurrent requests in parallel; stdio has one client.
    let rt = match http {
        Some(_) => tokio::runtime::Builder::new_multi_thread(),
        None => tokio::runtime::Builder::new_current_thread(),
    }
    .enable_all()
    .build()
    .map_err(|e| e.to_string())?;
    // The store (and a PostgreSQL connection) lives on the runtime that serves.
    let dispatcher = rt.block_on(state.dispatcher(Dispatcher::new(registry()), &root))?;
    let local = Arc::new(state.caller(caller(&root, None, &[])?));
    let mut server = McpServer::new(dispatcher, local)
        .map_err(|e| e.to_string())?
        .with_implementation("toolbox", env!("CARGO_PKG_VERSION"));
    let Some(addr) = http else {
        return rt
            .block_on(server.serve_stdio())
            .map_err(|e| format!("mcp: {e}"));
    };
    let mut config = http::loopback();
    if let Some(jwt) = jwt {
        // Each token's caller: the toolbox's roots and state, no scope but
        // the token's.
        let none: Vec<String> = all_scopes().into_iter().map(str::to_owned).collect();
        let resource = jwt.audience().to_owned();
        let root = root.clone();
        let build = move |id: &Identity| {
            let base = caller(&root, None, &none).map_err(|e| {
                Refusal::unavailable(format!("the server's folder cannot be opened: {e}"))
            })?;
            Ok(id.apply(state.caller(base)))
        };
        server = match jwt {
            TokenCheck::Jwt(c) => server.with_authenticator(
                JwtAuthenticator::new(c)
                    .map_err(|e| format!("--jwks: {e}"))?
                    .with_caller(build),
            ),
            TokenCheck::Introspect(c) => server.with_authenticator(
                IntrospectionAuthenticator::new(c)
                    .map_err(|e| format!("--introspect: {e}"))?
                    .with_caller(build),
            ),
        };
        // The resource's own host, beside the loopback names, may appear in
        // `Host` (a deployment behind its public name).
        let mut hosts = config.allowed_hosts.clone();
        if let Some(host) = url_host(&resource) {
            hosts.push(host);
        }
        config = config.with_allowed_hosts(hosts);
    }
    // The address served on may appear in `Host` too: `127.0.0.2` is
    // loopback as well, and rmcp's default list names only `127.0.0.1`.
    let ip = addr.ip().to_string();
    if !addr.ip().is_unspecified() && !config.allowed_hosts.contains(&ip) {
        let mut hosts = config.allowed_hosts.clone();
        hosts.push(ip);
        config = config.with_allowed_hosts(hosts);
    }
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("--http {addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        // One line a client (or a test that asked for port 0) can read.
        err!("toolbox: serving MCP on http://{bound}/mcp");
        server
            .serve_http_on(listener, config)
            .await
            .map_err(|e| format!("mcp --http: {e}"))
    })
}

/// The host of an `http(s)://` URL, without port or path.
fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    (!host.is_empty()).then(|| host.to_owned())
}
