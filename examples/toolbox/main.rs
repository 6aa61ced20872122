//! `toolbox`: the reference demo of contract-runtime (its commands and tools:
//! the README's "The toolbox" section).
//!
//! ```text
//! toolbox demo
//! toolbox schemas [--dialect canonical|openai-responses|openai-chat|anthropic|anthropic-strict|gemini|gemini-json-schema|mcp]
//! toolbox serve-jsonl --root DIR [--task-scope SUBDIR] [--deny-scope SCOPE]... [STATE]
//! toolbox mcp --root DIR [STATE]
//! toolbox state (--store S | --root DIR) unknown|resolve KEY --as done|failed|journal [--call-id ID]
//! toolbox approvals (--store S | --root DIR) list [--all]|grant ID|deny ID [--reason TEXT] [--by NAME]
//!
//! STATE: [--store memory|sqlite:PATH|postgres:URL] [--fault crash-before-effect|crash-after-effect]
//!        [--lease-ms N] [--retention-ms N] [--approval-ttl-ms N]
//! ```

mod approvals;
mod demo;
mod mcp;
mod serve;
mod state;

use std::process::ExitCode;

use contract_runtime::dialect::{self, Dialect, ExportOptions};

const USAGE: &str = "usage:
  toolbox demo
  toolbox schemas [--dialect canonical|openai-responses|openai-chat|anthropic|anthropic-strict|gemini|gemini-json-schema|mcp] [--loss-is-error]
  toolbox serve-jsonl --root DIR [--task-scope SUBDIR] [--deny-scope SCOPE]... [--journal FILE] [STATE]
  toolbox mcp --root DIR [STATE]
  toolbox state (--store S | --root DIR) unknown|resolve KEY --as done|failed|journal [--call-id ID]
  toolbox approvals (--store S | --root DIR) list [--all]|grant ID|deny ID [--reason TEXT] [--by NAME]
STATE (where request keys, approvals and the journal live; default: an SQLite file per --root, outside it):
  [--store memory|sqlite:PATH|postgres:URL] [--fault crash-before-effect|crash-after-effect] [--lease-ms N] [--retention-ms N] [--approval-ttl-ms N]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("schemas") => schemas(&args[1..]),
        Some("serve-jsonl") => serve::Options::parse(&args[1..]).and_then(serve::run),
        Some("mcp") => mcp::run(&args[1..]),
        Some("state") => state::run(&args[1..]),
        Some("approvals") => approvals::run(&args[1..]),
        Some("demo") => demo::run(),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("toolbox: {msg}");
            ExitCode::from(2)
        }
    }
}

fn schemas(args: &[String]) -> Result<(), String> {
    let mut dialect = Dialect::Canonical;
    let mut opts = ExportOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--dialect" => {
                let v = it.next().ok_or("--dialect needs a value")?;
                dialect = v.parse::<Dialect>()?;
            }
            "--loss-is-error" => opts.loss_is_error = true,
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    let registry = toolbox::registry();
    let export =
        dialect::export(&registry.canonical(), dialect, &opts).map_err(|e| e.to_string())?;
    for loss in &export.losses {
        eprintln!(
            "loss: {} {} {}: {}",
            loss.tool, loss.pointer, loss.keyword, loss.note
        );
    }
    let text = serde_json::to_string_pretty(&export.tools).map_err(|e| e.to_string())?;
    println!("{text}");
    Ok(())
}
