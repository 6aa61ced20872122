//! `toolbox audit` and `toolbox lint`: the prose audit (rule C12's reader,
//! `contract_runtime::audit`) over the toolbox's own tools, or over the tool
//! list of any MCP server, one JSON line per finding.
//!
//! Exit codes: 1 when a finding is at the error level, 0 otherwise, 2 when
//! the input cannot be read (a file that is not a tool list, a server that
//! does not answer).

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use contract_runtime::audit::{lint_tools, Finding, Level};
use serde_json::{json, Value};

/// How long a server may take to answer one request: the whole answer,
/// however many notifications or keep-alives it sends meanwhile. A minute,
/// or the seconds `TOOLBOX_LINT_TIMEOUT` says (a server slow to start).
fn answer_within() -> Duration {
    static WITHIN: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *WITHIN.get_or_init(|| {
        let secs = std::env::var("TOOLBOX_LINT_TIMEOUT").ok();
        Duration::from_secs(secs.and_then(|s| s.trim().parse().ok()).unwrap_or(60))
    })
}

/// What a server that did not answer in time is told.
fn no_answer() -> String {
    format!(
        "the server did not answer within {} s (TOOLBOX_LINT_TIMEOUT)",
        answer_within().as_secs()
    )
}

/// The most bytes of one HTTP answer read: a body that never ends is
/// refused, not read until memory runs out.
const ANSWER_MAX: usize = 16 << 20;

/// `toolbox audit`: the findings of the toolbox's own contracts.
pub fn audit(args: &[String]) -> ExitCode {
    if let Some(a) = args.first() {
        return fail(format!("audit takes no arguments, got `{a}`"));
    }
    print(&toolbox::registry().audit())
}

const USAGE: &str =
    "usage: toolbox lint --tools FILE | --mcp -- CMD ARGS... | --mcp-url URL [--token-env NAME]
  (a server has TOOLBOX_LINT_TIMEOUT seconds, default 60, to answer each request)";

/// `toolbox lint --tools FILE | --mcp -- CMD ARGS... | --mcp-url URL
/// [--token-env NAME]`.
pub fn lint(args: &[String]) -> ExitCode {
    let tools = match args.first().map(String::as_str) {
        Some("--tools") if args.len() == 2 => read_file(&args[1]),
        Some("--mcp") if args.get(1).map(String::as_str) == Some("--") && args.len() > 2 => {
            stdio_tools(&args[2], &args[3..])
        }
        Some("--mcp-url") if args.len() == 2 => http_tools(&args[1], None),
        // The token comes from the environment, never from the command
        // line, where every user of the machine could read it.
        Some("--mcp-url") if args.len() == 4 && args[2] == "--token-env" => {
            match std::env::var(&args[3]) {
                Ok(token) if !token.trim().is_empty() => http_tools(&args[1], Some(token.trim())),
                _ => Err(format!(
                    "--token-env {}: the variable is not set (it holds the bearer token)",
                    args[3]
                )),
            }
        }
        _ => Err(USAGE.into()),
    };
    match tools.and_then(|t| lint_tools(&t).map_err(|e| e.to_string())) {
        Ok(findings) => print(&findings),
        Err(e) => fail(e),
    }
}

fn fail(msg: String) -> ExitCode {
    err!("toolbox: {msg}");
    ExitCode::from(2)
}

/// One JSON line per finding; exit 1 when any is at the error level.
fn print(findings: &[Finding]) -> ExitCode {
    let mut out = std::io::stdout().lock();
    for f in findings {
        // another server's text: shown, never acted on, by the terminal
        let line = f.to_json().to_string();
        if writeln!(out, "{}", contract_runtime::observe::for_people(&line)).is_err() {
            return ExitCode::from(2);
        }
    }
    if findings.iter().any(|f| f.level == Level::Error) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn read_file(path: &str) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {path}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{path} is not JSON: {e}"))
}

fn initialize(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "toolbox-lint", "version": env!("CARGO_PKG_VERSION")}
    }})
}

fn list(id: u64, cursor: Option<&Value>) -> Value {
    match cursor {
        Some(c) => {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"cursor": c}})
        }
        None => json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {}}),
    }
}

/// The result of the answer to request `id`, or its error as text.
fn result_of(answer: Value, what: &str) -> Result<Value, String> {
    match (answer.get("result"), answer.get("error")) {
        (Some(r), _) => Ok(r.clone()),
        (None, Some(e)) => Err(format!("the server answered {what} with an error: {e}")),
        _ => Err(format!("the server's answer to {what} has no result")),
    }
}

/// Every page of `tools/list`, asked through `ask` (request in, answer out).
fn all_tools(mut ask: impl FnMut(Value) -> Result<Value, String>) -> Result<Value, String> {
    result_of(ask(initialize(1))?, "initialize")?;
    let mut tools = Vec::new();
    let mut cursor: Option<Value> = None;
    for id in 2..1002 {
        let page = result_of(ask(list(id, cursor.as_ref()))?, "tools/list")?;
        match page.get("tools") {
            Some(Value::Array(t)) => tools.extend(t.iter().cloned()),
            _ => return Err("the server's tools/list result has no `tools` array".into()),
        }
        cursor = page.get("nextCursor").filter(|c| !c.is_null()).cloned();
        if cursor.is_none() {
            return Ok(Value::Array(tools));
        }
    }
    Err("the server's tools/list did not end after 1000 pages".into())
}

/// Starts `cmd` (no shell) and asks it for its tools over stdio, then
/// stops it and everything it started: `cmd` runs in a process group of its
/// own, which is killed whole, since a wrapper (`npx`, a script) would
/// otherwise leave the server it runs behind.
fn stdio_tools(cmd: &str, args: &[String]) -> Result<Value, String> {
    let mut command = Command::new(cmd);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
        .spawn()
        .map_err(|e| format!("starting {cmd}: {e}"))?;
    let result = talk(&mut child);
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) touches no memory of this process. The child is
        // not reaped yet, so its id (its group's, from `process_group(0)`)
        // names no other process.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn talk(child: &mut Child) -> Result<Value, String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    // A thread reads the server's lines, so a silent server times out.
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut initialized = false;
    // Lines that are not JSON: skipped (some servers log to stdout, which
    // MCP forbids), but named when no answer comes, since they are often
    // why none does.
    let mut not_json: Option<(usize, String)> = None;
    all_tools(|request| {
        let id = request["id"].clone();
        if request["method"] == "tools/list" && !initialized {
            let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            writeln!(stdin, "{note}").map_err(|e| format!("writing to the server: {e}"))?;
            initialized = true;
        }
        writeln!(stdin, "{request}").map_err(|e| format!("writing to the server: {e}"))?;
        let deadline = Instant::now() + answer_within();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).map_err(|e| {
                let what = match e {
                    mpsc::RecvTimeoutError::Timeout => no_answer(),
                    mpsc::RecvTimeoutError::Disconnected => {
                        "the server exited (or closed its output) before answering".to_string()
                    }
                };
                match &not_json {
                    Some((n, first)) => format!(
                        "{what}; it wrote {n} line{} on stdout that {} not JSON-RPC (MCP's stdio transport allows only messages there), the first: {}",
                        if *n == 1 { "" } else { "s" },
                        if *n == 1 { "is" } else { "are" },
                        contract_runtime::observe::for_people(first)
                    ),
                    None => what,
                }
            })?;
            // Servers may send notifications, requests and log lines too.
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                let seen = not_json.get_or_insert_with(|| {
                    let first: String = line.chars().take(120).collect();
                    (0, format!("{first:?}"))
                });
                seen.0 += 1;
                continue;
            };
            if message.get("id") == Some(&id) && message.get("method").is_none() {
                return Ok(message);
            }
        }
    })
}

/// Where a streamable HTTP server is: `http://` or `https://`, the
/// authority and the path.
struct Endpoint<'a> {
    tls: bool,
    authority: &'a str,
    path: &'a str,
    /// The bearer token a server behind OAuth asks for.
    token: Option<&'a str>,
}

/// Asks a streamable HTTP server (`http://` or `https://`) for its tools,
/// with a bearer token when given one.
fn http_tools(url: &str, token: Option<&str>) -> Result<Value, String> {
    let (tls, rest) = match (url.strip_prefix("https://"), url.strip_prefix("http://")) {
        (Some(rest), _) => (true, rest),
        (None, Some(rest)) => (false, rest),
        _ => return Err("--mcp-url takes an http:// or https:// URL".into()),
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let at = Endpoint {
        tls,
        authority,
        path,
        token,
    };
    let mut session: Option<String> = None;
    let mut initialized = false;
    all_tools(|request| {
        if request["method"] == "tools/list" && !initialized {
            let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            post(&at, &note, session.as_deref())?;
            initialized = true;
        }
        let (headers, body) = post(&at, &request, session.as_deref())?;
        if let Some(s) = header(&headers, "mcp-session-id") {
            session = Some(s.to_string());
        }
        answer_in(&headers, &body, &request["id"])
    })
}

fn header<'a>(headers: &'a str, name: &str) -> Option<&'a str> {
    headers.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// The answer with `id` in a JSON body or in a stream of server-sent events.
fn answer_in(headers: &str, body: &str, id: &Value) -> Result<Value, String> {
    let json_body =
        header(headers, "content-type").is_some_and(|c| c.starts_with("application/json"));
    let candidates: Vec<&str> = if json_body {
        vec![body]
    } else {
        body.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .collect()
    };
    for c in candidates {
        if let Ok(message) = serde_json::from_str::<Value>(c) {
            if message.get("id") == Some(id) {
                return Ok(message);
            }
        }
    }
    let status = headers.lines().next().unwrap_or("");
    if status.split(' ').nth(1) == Some("401") {
        return Err(format!(
            "the server asks for a bearer token ({status}): name the variable that holds one with --token-env NAME"
        ));
    }
    Err(format!(
        "the server's answer holds no response to request {id} ({status})"
    ))
}

/// A connection to the server, in the clear or over TLS.
enum Conn {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Conn {
    /// How long one read may wait.
    fn set_read_timeout(&self, within: Duration) {
        let socket = match self {
            Conn::Plain(s) => s,
            Conn::Tls(s) => s.get_ref(),
        };
        socket.set_read_timeout(Some(within)).ok();
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.read(buf),
            // a server that closes without TLS's close_notify has still
            // ended its answer (every request asks `Connection: close`)
            Conn::Tls(s) => match s.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(0),
                other => other,
            },
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.write(buf),
            Conn::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Conn::Plain(s) => s.flush(),
            Conn::Tls(s) => s.flush(),
        }
    }
}

/// The client's TLS settings: the Mozilla roots (`webpki-roots`), and the
/// certificates of the PEM file `SSL_CERT_FILE` names, as OpenSSL reads it
/// (a private CA, or a test's own).
fn tls_config() -> Result<Arc<rustls::ClientConfig>, String> {
    use rustls::pki_types::{pem::PemObject, CertificateDer};
    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(file) = std::env::var_os("SSL_CERT_FILE") {
        let shown = Path::new(&file).display().to_string();
        let certs = CertificateDer::pem_file_iter(&file)
            .map_err(|e| format!("reading SSL_CERT_FILE {shown}: {e}"))?;
        for cert in certs {
            let cert = cert.map_err(|e| format!("reading SSL_CERT_FILE {shown}: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("a certificate of SSL_CERT_FILE {shown}: {e}"))?;
        }
    }
    // ring: no C toolchain beyond ring's own to build (aws-lc-rs needs
    // CMake); it lacks only the post-quantum key exchange, which the
    // listing of a server's public tools does not need
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Opens a connection to `at`, with TLS for `https://` (the certificate
/// checked against the host name of the URL).
fn connect(at: &Endpoint) -> Result<Conn, String> {
    use std::net::ToSocketAddrs;
    let authority = at.authority;
    // A URL without a port means its scheme's (`https://host/mcp` is 443).
    let has_port = authority.rsplit_once(':').is_some_and(|(h, p)| {
        !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && !h.ends_with(':')
    }) && !authority.ends_with(']');
    let with_port;
    let dial = if has_port {
        authority
    } else {
        with_port = format!("{authority}:{}", if at.tls { 443 } else { 80 });
        &with_port
    };
    let addr = dial
        .to_socket_addrs()
        .map_err(|e| format!("resolving {dial}: {e}"))?
        .next()
        .ok_or_else(|| format!("{dial} has no address"))?;
    let stream = TcpStream::connect_timeout(&addr, answer_within())
        .map_err(|e| format!("connecting to {dial}: {e}"))?;
    stream.set_read_timeout(Some(answer_within())).ok();
    if !at.tls {
        return Ok(Conn::Plain(stream));
    }
    // the host without its port ("[::1]:8443" is "::1")
    let host = match authority.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => authority,
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let name = rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(|e| format!("{host} is no TLS server name: {e}"))?;
    let conn = rustls::ClientConnection::new(tls_config()?, name)
        .map_err(|e| format!("TLS to {authority}: {e}"))?;
    Ok(Conn::Tls(Box::new(rustls::StreamOwned::new(conn, stream))))
}

/// One POST over a fresh connection; the status line and headers, and the body.
fn post(at: &Endpoint, message: &Value, session: Option<&str>) -> Result<(String, String), String> {
    let (authority, path) = (at.authority, at.path);
    let mut stream = connect(at)?;
    let body = message.to_string();
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\
         Content-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(s) = session {
        request.push_str(&format!("Mcp-Session-Id: {s}\r\n"));
    }
    if let Some(t) = at.token {
        request.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream
        .write_all(request.as_bytes())
        .and_then(|()| stream.flush())
        .map_err(|e| format!("writing to {authority}: {e}"))?;
    let id = message.get("id").cloned();
    let deadline = Instant::now() + answer_within();
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        // The whole answer within the minute: a stream of keep-alives
        // never ends on its own.
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(format!("{authority}: {}", no_answer()));
        }
        stream.set_read_timeout(left);
        let n = match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(format!("{authority}: {}", no_answer()))
            }
            Err(e) => return Err(format!("reading from {authority}: {e}")),
        };
        raw.extend_from_slice(&buf[..n]);
        if raw.len() > ANSWER_MAX {
            return Err(format!(
                "{authority}: the answer is larger than {} MiB",
                ANSWER_MAX >> 20
            ));
        }
        // A stream of events may stay open after the answer: stop at it
        // (looked for when a line ends; a JSON body ends with the
        // connection).
        if !buf[..n].contains(&b'\n') {
            continue;
        }
        if let Some((headers, body)) = split(&raw) {
            let done = match &id {
                None => true,
                Some(id) => answer_in(&headers, &body, id).is_ok(),
            };
            if done {
                return Ok((headers, body));
            }
        }
    }
    split(&raw).ok_or_else(|| format!("{authority} sent no HTTP response"))
}

/// The head and the (de-chunked) body of an HTTP response read so far.
fn split(raw: &[u8]) -> Option<(String, String)> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let headers = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut body = &raw[end + 4..];
    let chunked = header(&headers, "transfer-encoding").is_some_and(|t| t.contains("chunked"));
    if !chunked {
        return Some((headers, String::from_utf8_lossy(body).into_owned()));
    }
    let mut out = Vec::new();
    while let Some(line_end) = body.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&body[..line_end]);
        let Ok(size) = usize::from_str_radix(size_text.split(';').next()?.trim(), 16) else {
            break;
        };
        let start = line_end + 2;
        if size == 0 || body.len() < start + size {
            break;
        }
        out.extend_from_slice(&body[start..start + size]);
        body = &body[(start + size + 2).min(body.len())..];
    }
    Some((headers, String::from_utf8_lossy(&out).into_owned()))
}
