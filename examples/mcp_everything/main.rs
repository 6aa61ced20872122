//! `mcp_everything`: the server the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, its server scenarios) tests, built
//! only with this library.
//!
//!   cargo run --example mcp_everything -- --http 127.0.0.1:PORT
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addr: SocketAddr = match args.as_slice() {
        [flag, addr] if flag == "--http" => addr
            .parse()
            .map_err(|e| format!("--http {addr}: not an address IP:PORT: {e}"))?,
        _ => return Err("usage: mcp_everything --http 127.0.0.1:PORT".to_owned()),
    };
    let server = McpServer::new(Dispatcher::new(tools::registry()), Arc::new(Caller::new()))
        .map_err(|e| e.to_string())?
        .with_implementation("mcp-everything", env!("CARGO_PKG_VERSION"))
        .beside(beside::Beside::default());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("{addr}: {e}"))?;
        eprintln!("mcp_everything: http://{}{}", addr, http::PATH);
        server
            .serve_http_on(listener, http::loopback())
            .await
            .map_err(|e| e.to_string())
    })
}
