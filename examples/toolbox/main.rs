//! `toolbox`: the reference demo of contract-runtime (its commands and tools:
//! the README's "The toolbox" section).
//!
//! ```text
//! toolbox demo
//! toolbox schemas [--canonical FILE] [--dialect canonical|openai-responses|openai-chat|anthropic|anthropic-strict|gemini|gemini-json-schema|mcp]
//! toolbox grammar [--tool NAME] [--served omit|include] [--canonical FILE]
//! toolbox compact < envelopes.jsonl
//! toolbox serve-jsonl --root DIR [--task-scope SUBDIR] [--deny-scope SCOPE]... [STATE]
//! toolbox mcp --root DIR [--http ADDR [--jwks FILE|URL | --introspect URL --client-id-env NAME --client-secret-env NAME] --issuer ISS --audience AUD [--tenant-claim NAME]] [STATE]
//! toolbox state (--store S | --root DIR) unknown|records|resolve KEY --as done|failed [--tool NAME] [--tenant NAME]|journal [--call-id ID] [--tool NAME] [--tenant NAME]
//! toolbox approvals (--store S | --root DIR) list [--all]|grant ID|deny ID [--reason TEXT] [--by NAME]
//! toolbox approvals (--store S | --root DIR) serve --http ADDR [--by NAME | --jwks FILE|URL --issuer ISS --audience AUD [--tenant-claim NAME]]
//! toolbox audit
//! toolbox lint --tools FILE | --mcp -- CMD ARGS... | --mcp-url http(s)://URL [--token-env NAME]
//!
//! STATE: [--store memory|sqlite:PATH|postgres:URL] [--fault crash-before-effect|crash-after-effect]
//!        [--lease-ms N] [--retention-ms N] [--approval-ttl-ms N] [--journal-retention-ms N] [--purge-every-ms N]
//! ```

/// Writes one line to stdout, as `println!` does, but a closed pipe
/// (`toolbox state journal | head -1`) or a full disk ends the command with a
/// one-line error (exit code 2), not a panic.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($t)*).map_err(|e| format!("writing stdout: {e}"))
    }};
}

/// Writes one line to stderr, as `eprintln!` does, but a closed stderr
/// is not a panic: the line is lost, the command's exit code stands (2 for
/// a usage error, not 101).
macro_rules! err {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

mod approvals;
mod demo;
mod lint;
mod mcp;
mod serve;
mod state;
mod tokens;

use std::process::ExitCode;

use contract_runtime::dialect::{self, Dialect, ExportOptions};

const USAGE: &str = "usage:
  toolbox demo
  toolbox schemas [--canonical FILE] [--dialect canonical|openai-responses|openai-chat|anthropic|anthropic-strict|gemini|gemini-json-schema|mcp] [--loss-is-error] [--defer-all-but NAME,... | --defer-marked]
  toolbox grammar [--tool NAME] [--served omit|include] [--canonical FILE]
  toolbox compact < envelopes.jsonl
  toolbox serve-jsonl --root DIR [--task-scope SUBDIR] [--deny-scope SCOPE]... [--journal FILE] [STATE]
  toolbox mcp --root DIR [--http ADDR [--jwks FILE|URL | --introspect URL --client-id-env NAME --client-secret-env NAME] --issuer ISS --audience AUD [--tenant-claim NAME]] [STATE]
  toolbox state (--store S | --root DIR) unknown|records|resolve KEY --as done|failed [--tool NAME] [--tenant NAME]|journal [--call-id ID] [--tool NAME] [--tenant NAME]
  toolbox approvals (--store S | --root DIR) list [--all]|grant ID|deny ID [--reason TEXT] [--by NAME]
  toolbox approvals (--store S | --root DIR) serve --http ADDR [--by NAME | --jwks FILE|URL --issuer ISS --audience AUD [--tenant-claim NAME]]
  toolbox audit
  toolbox lint --tools FILE | --mcp -- CMD ARGS... | --mcp-url URL [--token-env NAME]
TOKENS (mcp --http, approvals serve): ADDR is IP:PORT, or localhost:PORT for 127.0.0.1:PORT. Without --jwks,
  ADDR is a loopback address and every request is the one local caller holding every scope. With --jwks,
  each request's caller comes from its bearer token, a JWT signed by a key of the key set (a file, or an
  https:// URL, read again on an unknown key id), from issuer ISS (`iss`), for the resource AUD (`aud`, this
  server's URL, e.g. https://tools.example.com/mcp): `sub` is the subject, `scope`
  the scopes, the claim NAME (default `tenant`) the tenant; ADDR may then be any address. Request keys,
  approvals and the breaker are per tenant. Metadata: GET /.well-known/oauth-protected-resource/mcp.
  mcp --http --introspect URL: opaque tokens instead, asked about at the authorization server's introspection
  endpoint (RFC 7662) as the client whose id and secret are in the environment variables named (never on the
  command line); the answer must be active, name AUD in `aud`, and carry `sub` and the tenant claim.
  The approvals inbox (AUD: its own URL) then needs the scope approvals:decide; each approver, the token's
  `sub`, sees and decides only their tenant's requests.
STATE (where request keys, approvals and the journal live; default: an SQLite file per --root, outside it):
  [--store memory|sqlite:PATH|postgres:URL] [--fault crash-before-effect|crash-after-effect] [--lease-ms N] [--retention-ms N] [--approval-ttl-ms N] [--journal-retention-ms N] [--purge-every-ms N]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    log_warnings();
    // Their own exit codes: 1 for an error-level finding, 2 for bad input.
    match args.first().map(String::as_str) {
        Some("audit") => return lint::audit(&args[1..]),
        Some("lint") => return lint::lint(&args[1..]),
        _ => {}
    }
    let result = match args.first().map(String::as_str) {
        Some("schemas") => match schemas(&args[1..]) {
            Ok(code) => return code,
            Err(e) => Err(e),
        },
        Some("grammar") => grammar(&args[1..]),
        Some("compact") => compact(),
        Some("serve-jsonl") => serve::Options::parse(&args[1..]).and_then(serve::run),
        Some("mcp") => mcp::run(&args[1..]),
        Some("state") => state::run(&args[1..]),
        Some("approvals") => approvals::run(&args[1..]),
        Some("demo") => demo::run(),
        Some("-h" | "--help" | "help") => {
            out!("{USAGE}")
        }
        Some(other) => Err(format!("unknown command `{other}`\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            err!("toolbox: {msg}");
            ExitCode::from(2)
        }
    }
}

/// What the library reports through `tracing` at warning level and above
/// goes to stderr, one line each: a store out of reach, a key set or an
/// introspection endpoint that cannot be read, a journal entry that could
/// not be written. Without a subscriber they went nowhere, and a server
/// refusing every token said nothing of why. Informational spans stay off,
/// so a call pays for none. The library's own events only: the MCP SDK's
/// warnings quote what a client sent, which may hold a secret.
fn log_warnings() {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    use tracing_subscriber::Layer as _;
    let ours = tracing_subscriber::filter::Targets::new()
        .with_target("contract_runtime", tracing::Level::WARN)
        .with_target("toolbox", tracing::Level::WARN);
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_target(false)
                .with_filter(ours),
        )
        .try_init();
}

/// The address `--http` names: `IP:PORT`, or `localhost:PORT` for the
/// IPv4 loopback address (no name is looked up: a server's address is
/// not left to a resolver).
pub fn http_addr(v: &str) -> Result<std::net::SocketAddr, String> {
    if let Some(port) = v.strip_prefix("localhost:") {
        if let Ok(port) = port.parse::<u16>() {
            return Ok(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
        }
    }
    v.parse()
        .map_err(|e| format!("--http {v}: not an address IP:PORT or localhost:PORT: {e}"))
}

/// `toolbox schemas`: the toolbox's tools, or a saved canonical array
/// (`--canonical FILE`), exported to one dialect. Losses go to stderr,
/// grouped per tool; an export the dialect refuses (a keyword it cannot
/// carry, a set over the provider's limits) exits 1 naming why, and a
/// malformed definition exits 2.
fn schemas(args: &[String]) -> Result<ExitCode, String> {
    let mut dialect = Dialect::Canonical;
    let mut opts = ExportOptions::default();
    let mut canonical = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--dialect" => {
                let v = it.next().ok_or("--dialect needs a value")?;
                dialect = v.parse::<Dialect>()?;
            }
            "--canonical" => canonical = Some(read_canonical(it.next())?),
            "--loss-is-error" => opts.loss_is_error = true,
            "--defer-all-but" => {
                let v = it.next().ok_or(
                    "--defer-all-but needs a comma-separated list of tool names (it may be empty)",
                )?;
                opts.defer = dialect::Defer::AllBut(
                    v.split(',')
                        .filter(|n| !n.is_empty())
                        .map(str::to_owned)
                        .collect(),
                );
            }
            "--defer-marked" => opts.defer = dialect::Defer::Marked,
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    let defs = canonical.unwrap_or_else(|| toolbox::registry().canonical());
    let export = match dialect::export(defs, dialect, &opts) {
        Ok(export) => export,
        // A definition that is not one (a missing field, `"type": 5`) is
        // input the command cannot read: 2, as for a file that is not JSON.
        // 1 is the dialect's refusal of a well-formed set.
        Err(e) => {
            err!("toolbox: {e}");
            return Ok(ExitCode::from(if e.malformed { 2 } else { 1 }));
        }
    };
    if !export.losses.is_empty() {
        err!("{}", dialect::losses_by_tool(&export.losses).trim_end());
    }
    let text = serde_json::to_string_pretty(&export.tools).map_err(|e| e.to_string())?;
    out!("{text}")?;
    Ok(ExitCode::SUCCESS)
}

/// A saved canonical array (as `toolbox schemas` writes it), from a file.
fn read_canonical(path: Option<&String>) -> Result<Vec<serde_json::Value>, String> {
    let path = path.ok_or("--canonical needs a file")?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{path}: not a JSON array of definitions: {e}"))
}

/// GBNF for llama.cpp: one call to any tool, or `--tool NAME`'s arguments;
/// `--canonical FILE` reads the definitions from a file (a JSON list, as
/// `schemas` prints) instead of the registry.
fn grammar(args: &[String]) -> Result<(), String> {
    use contract_runtime::dialect::gbnf::{self, GbnfOptions, Served};
    let mut tool = None;
    let mut opts = GbnfOptions::default();
    let mut defs = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--tool" => tool = Some(value()?.clone()),
            "--served" => {
                opts.served = match value()?.as_str() {
                    "omit" => Served::Omit,
                    "include" => Served::Include,
                    other => return Err(format!("--served is omit or include, not `{other}`")),
                }
            }
            "--canonical" => defs = Some(read_canonical(Some(value()?))?),
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    let defs = defs.unwrap_or_else(|| toolbox::registry().canonical());
    let grammar = match tool {
        Some(name) => {
            let def = defs
                .iter()
                .find(|d| d.get("name").and_then(|n| n.as_str()) == Some(name.as_str()))
                .ok_or(format!("no tool `{name}`"))?;
            gbnf::arguments(def, &opts)
        }
        None => gbnf::calls(&defs, &opts),
    }
    .map_err(|e| e.to_string())?;
    for o in &grammar.omissions {
        err!("omitted: {} {} {}: {}", o.tool, o.pointer, o.keyword, o.why);
    }
    out!("{}", grammar.text.trim_end_matches('\n'))
}

/// One envelope per input line, written back as its compact feedback text
/// (a JSON string per line).
fn compact() -> Result<(), String> {
    use std::io::BufRead;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        let envelope: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| format!("line {}: not JSON: {e}", n + 1))?;
        // Anything else (serve-jsonl's output items, say) would be written
        // as an envelope of nothing ("null: null call"), and exit 0.
        if let Err(e) = <contract_runtime::Envelope as serde::Deserialize>::deserialize(&envelope) {
            return Err(format!("line {}: not an envelope: {e}", n + 1));
        }
        let text = contract_runtime::provider::compact(&envelope);
        out!("{}", serde_json::Value::from(text))?;
    }
    Ok(())
}
