//! `toolbox mcp --root DIR`: the same tools over MCP on stdio.

use std::path::PathBuf;
use std::sync::Arc;

use contract_runtime::mcp::McpServer;
use contract_runtime::Dispatcher;

use toolbox::{caller, registry};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut root = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--root" => root = Some(PathBuf::from(it.next().ok_or("--root needs a value")?)),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let root = root.ok_or("mcp needs --root DIR")?;
    let caller = Arc::new(caller(&root, None, &[])?);
    let server = McpServer::new(Dispatcher::new(registry()), caller)
        .map_err(|e| e.to_string())?
        .with_implementation("toolbox", env!("CARGO_PKG_VERSION"));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(server.serve_stdio())
        .map_err(|e| format!("mcp: {e}"))
}
