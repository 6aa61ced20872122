//! The fair MCP comparison: one in-memory tool (`tools.rs`) served by bare
//! rmcp and by `contract_runtime::mcp`, each in its own server process, driven
//! by the load generator below:
//!
//! - stdio, pipelined: `N` `tools/call` requests written without waiting,
//!   time until the last answer;
//! - streamable HTTP with 1, 16 and 64 concurrent clients, each its own
//!   connection and MCP session, calling in a loop: calls answered per second.
//!
//! - the cost of authentication (`auth`): the contract server over HTTP at
//!   1 and 16 clients without an authenticator, with `JwtAuthenticator`
//!   (each client its own RS256 bearer token, a JWKS file; accepted tokens
//!   remembered, the default) and with the token's signature checked on
//!   every request (`with_token_cache(0)`), as ratios to the first in the
//!   same run.
//!
//! It also shows what the two servers do with an empty `query` (the listed
//! schema's `minLength: 1` broken): bare rmcp runs the tool and answers
//! success; the contract server refuses it.
//!
//! ```text
//! cargo bench -p mcp-bench                 # everything; writes target/mcp-bench.json
//! MCP_BENCH_SECS=2 MCP_BENCH_ROUNDS=3 MCP_BENCH_CALLS=20000 cargo bench -p mcp-bench
//! cargo bench -p mcp-bench -- auth         # one run only (refuse, stdio, http, auth)
//! ```
//!
//! The same binary is the server: `... serve bare|contract stdio|http`, and
//! one client alone: `... client SERVER N` (N calls one after another on
//! one session; prints calls per second and the calls' latency
//! percentiles). Over HTTP, SERVER may also be `contract-sync`,
//! `contract-jwt`, `contract-handler` (the contract's handler on bare
//! rmcp's HTTP layer, to tell the two layers' costs apart) or `floor`
//! (rmcp's transport and session around a handler that does no work: what
//! a call costs before any tool is run).

mod auth;
mod load;
mod tools;

use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServiceExt;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        let server = args.get(1).map(String::as_str).unwrap_or("");
        let transport = args.get(2).map(String::as_str).unwrap_or("");
        if let Err(e) = serve(server, transport) {
            eprintln!("mcp-bench serve: {e}");
            std::process::exit(2);
        }
        return;
    }
    // One client alone: `client SERVER N` makes N calls on one session of
    // a server it starts and prints their rate and latency; under callgrind
    // (`callgrind_http.py --client`) the client's side only (valgrind
    // follows no child unless told).
    if args.first().map(String::as_str) == Some("client") {
        let server = args.get(1).map(String::as_str).unwrap_or("");
        let calls = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(0);
        load::client(server, calls);
        return;
    }
    // `cargo bench` passes `--bench`; anything else is a filter on the runs
    // ("stdio", "http", "refuse").
    let filter: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    load::run(&filter);
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn serve(server: &str, transport: &str) -> Result<(), BoxError> {
    match transport {
        // stdio: one client, current-thread runtime (as `toolbox mcp`).
        "stdio" => {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async {
                match server {
                    "bare" => {
                        let running = tools::Bare.serve(rmcp::transport::stdio()).await?;
                        running.waiting().await?;
                        Ok(())
                    }
                    "contract" => tools::contract_server().serve_stdio().await,
                    other => Err(format!("unknown server `{other}`").into()),
                }
            })
        }
        // HTTP: both on rmcp's streamable HTTP service with the same
        // configuration, on the same accept loop (the contract server's is
        // `McpServer::serve_http_on`; the bare one repeats it here).
        "http" => {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()?;
            rt.block_on(async {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                println!("{}", listener.local_addr()?);
                match server {
                    "bare" => serve_rmcp_http(listener, || tools::Bare).await?,
                    // rmcp's transport and session around a handler that
                    // does nothing: the floor of a call over HTTP.
                    "floor" => serve_rmcp_http(listener, || tools::Floor).await?,
                    // The contract's handler on bare rmcp's accept loop:
                    // no strict reading of the raw arguments, no gate. What
                    // `McpServer::serve_http_on`'s own layer costs, by
                    // difference (not a way to serve: the arguments are
                    // read by serde_json first).
                    "contract-handler" => {
                        let server = tools::contract_server();
                        serve_rmcp_http(listener, move || server.for_session()).await?
                    }
                    "contract" => {
                        tools::contract_server()
                            .serve_http_on(listener, cfg())
                            .await?
                    }
                    "contract-sync" => {
                        tools::contract_sync_server()
                            .serve_http_on(listener, cfg())
                            .await?
                    }
                    "contract-jwt" | "contract-jwt-nocache" => {
                        let cache = if server == "contract-jwt" { 4096 } else { 0 };
                        tools::contract_server()
                            .with_authenticator(auth::authenticator(cache)?)
                            .serve_http_on(listener, cfg())
                            .await?
                    }
                    other => return Err(format!("unknown server `{other}`").into()),
                }
                Ok(())
            })
        }
        other => Err(format!("unknown transport `{other}`").into()),
    }
}

/// rmcp's streamable HTTP service on hyper, as `serve_http_on` runs it
/// (one task per connection, `TCP_NODELAY`), for a handler `make` gives
/// each session.
async fn serve_rmcp_http<S>(
    listener: tokio::net::TcpListener,
    make: impl Fn() -> S + Send + Sync + 'static,
) -> std::io::Result<()>
where
    S: rmcp::ServerHandler,
{
    let service = StreamableHttpService::new(
        move || Ok(make()),
        Arc::new(LocalSessionManager::default()),
        cfg(),
    );
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

/// rmcp's transport configuration, the same for every server; with
/// `MCP_BENCH_KEEPALIVE=off`, no SSE keep-alive timer (rmcp re-arms it at
/// each poll of an answer's stream: ruled out as the one-client gap's
/// cause with it, see docs/performance.md).
fn cfg() -> StreamableHttpServerConfig {
    let mut c = StreamableHttpServerConfig::default();
    if std::env::var("MCP_BENCH_KEEPALIVE").as_deref() == Ok("off") {
        c.sse_keep_alive = None;
    }
    c
}
