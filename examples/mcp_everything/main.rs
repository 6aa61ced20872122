//! `mcp_everything`: the server the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, its server scenarios) tests, built
//! only with this library.
//!
//!   cargo run --example mcp_everything -- --http 127.0.0.1:PORT
//!   cargo run --example mcp_everything -- --stdio [--store STORE] [--effects FILE]
//!
//! `--store` names where state lives (`memory`, the default; `sqlite:PATH`;
//! `postgres:URL`): idempotency records and the tasks of
//! `test_task_write`, which runs only as a task (the Tasks extension) and
//! writes one line per run to `--effects FILE`. With a file store, a task
//! outlives the process: a restarted server, or another one on the same
//! store, answers for it.
//!
//! Every tool is a `#[tool_contract]` (`tools.rs`) served by `McpServer`
//! through the dispatcher, so every call walks the same pipeline as any
//! other and answers an envelope; what the suite looks for rides beside it:
//! content (`WithContent`), progress and log lines (`CallContext::progress`,
//! `CallContext::log`), and questions to the client (`McpClient`). The
//! resources, prompts and completions are an rmcp `ServerHandler` of the
//! host's own (`beside.rs`), served beside the tools with
//! `McpServer::beside`. `.ci/conformance.sh` runs the suite against it.

mod beside;
mod tools;

use std::net::SocketAddr;
use std::sync::Arc;

use contract_runtime::mcp::{http, McpServer};
use contract_runtime::{Caller, Dispatcher};

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcp_everything: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    const USAGE: &str =
        "usage: mcp_everything (--http 127.0.0.1:PORT | --stdio) [--store STORE] [--effects FILE]";
    let mut args = std::env::args().skip(1);
    let (mut addr, mut stdio, mut store, mut effects) = (None, false, "memory".to_owned(), None);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--http" => {
                let a = args.next().ok_or(USAGE)?;
                let parsed: SocketAddr = a
                    .parse()
                    .map_err(|e| format!("--http {a}: not an address IP:PORT: {e}"))?;
                addr = Some(parsed);
            }
            "--stdio" => stdio = true,
            "--store" => store = args.next().ok_or(USAGE)?,
            "--effects" => effects = Some(std::path::PathBuf::from(args.next().ok_or(USAGE)?)),
            _ => return Err(USAGE.to_owned()),
        }
    }
    if addr.is_some() == stdio {
        return Err(USAGE.to_owned());
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let store = contract_runtime::store::open(&store)
            .await
            .map_err(|e| format!("--store {store}: {e}"))?;
        let dispatcher =
            Dispatcher::new(tools::registry_with(tools::Effects(effects))).with_store(store);
        let server = McpServer::new(dispatcher, Arc::new(Caller::new()))
            .map_err(|e| e.to_string())?
            .with_implementation("mcp-everything", env!("CARGO_PKG_VERSION"))
            .beside(beside::Beside::default());
        let Some(addr) = addr else {
            return server.serve_stdio().await.map_err(|e| e.to_string());
        };
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("{addr}: {e}"))?;
        // The bound address: with port 0 the system picked one.
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        eprintln!("mcp_everything: http://{}{}", bound, http::PATH);
        server
            .serve_http_on(listener, http::loopback())
            .await
            .map_err(|e| e.to_string())
    })
}
