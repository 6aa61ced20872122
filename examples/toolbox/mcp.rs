//! `toolbox mcp --root DIR [--store S] [--fault F]`: the same tools over MCP on stdio.

use std::path::PathBuf;
use std::sync::Arc;

use contract_runtime::mcp::McpServer;
use contract_runtime::Dispatcher;

use crate::state::StateOptions;
use toolbox::{caller, registry};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut root = None;
    let mut state = StateOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if state.take(a, &mut it)? {
            continue;
        }
        match a.as_str() {
            "--root" => root = Some(PathBuf::from(it.next().ok_or("--root needs a value")?)),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let root = root.ok_or("mcp needs --root DIR")?;
    let caller = Arc::new(state.caller(caller(&root, None, &[])?));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let dispatcher = rt.block_on(state.dispatcher(Dispatcher::new(registry()), &root))?;
    let server = McpServer::new(dispatcher, caller)
        .map_err(|e| e.to_string())?
        .with_implementation("toolbox", env!("CARGO_PKG_VERSION"));
    rt.block_on(server.serve_stdio())
        .map_err(|e| format!("mcp: {e}"))
}
