//! `toolbox mcp --root DIR [--http ADDR] [--store S] [--fault F]`: the same
//! tools over MCP, on stdio or on streamable HTTP at a loopback address.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use contract_runtime::mcp::{http, McpServer};
use contract_runtime::Dispatcher;

use crate::state::StateOptions;
use toolbox::{caller, registry};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut root = None;
    let mut http = None;
    let mut state = StateOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if state.take(a, &mut it)? {
            continue;
        }
        match a.as_str() {
            "--root" => root = Some(PathBuf::from(it.next().ok_or("--root needs a value")?)),
            "--http" => {
                let v = it
                    .next()
                    .ok_or("--http needs an address (127.0.0.1:PORT)")?;
                let addr: SocketAddr = v
                    .parse()
                    .map_err(|e| format!("--http {v}: not an address IP:PORT: {e}"))?;
                // The toolbox's tools touch the local disk: never offer them
                // to the network.
                if !addr.ip().is_loopback() {
                    return Err(format!("--http {v}: only a loopback address is served"));
                }
                http = Some(addr);
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let root = root.ok_or("mcp needs --root DIR")?;
    let caller = Arc::new(state.caller(caller(&root, None, &[])?));
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
    let server = McpServer::new(dispatcher, caller)
        .map_err(|e| e.to_string())?
        .with_implementation("toolbox", env!("CARGO_PKG_VERSION"));
    let Some(addr) = http else {
        return rt
            .block_on(server.serve_stdio())
            .map_err(|e| format!("mcp: {e}"));
    };
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("--http {addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        // One line a client (or a test that asked for port 0) can read.
        eprintln!("toolbox: serving MCP on http://{bound}/mcp");
        server
            .serve_http_on(listener, http::loopback())
            .await
            .map_err(|e| format!("mcp --http: {e}"))
    })
}
