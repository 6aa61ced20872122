//! `toolbox lint` and `toolbox audit`: the prose audit over a tool list from
//! a file, from a stdio MCP server (the toolbox's own, and three reference
//! servers installed from npm by tests/lint/install.sh), and from a
//! streamable HTTP server. Each finding is one JSON line; exit 1 when one is
//! at the error level (a contradiction found by a check measured right,
//! today `bounds` or `set-narrower`), 0 otherwise, 2 on input that cannot
//! be read.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

fn toolbox(args: &[&str]) -> Output {
    Command::new(common::toolbox())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run the toolbox")
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn write_tools(name: &str, tools: &Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolbox-lint-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let path = dir.join("tools.json");
    std::fs::write(&path, tools.to_string()).expect("write the tool list");
    path
}

/// A tool list whose schemas declare what their prose says, except where a
/// property contradicts its prose or states a constraint it does not declare.
fn tools() -> Value {
    json!({"tools": [{
        "name": "list_invoices",
        "description": "List invoices.",
        "inputSchema": {"type": "object", "properties": {
            "status": {"type": "string", "description": "One of `draft`, `open` or `paid`.",
                       "enum": ["draft", "open", "paid"]},
            "kind": {"type": "string", "description": "One of `draft` or `final`.",
                     "enum": ["draft", "published"]},
            "limit": {"type": "integer", "description": "Page size, at most 100.",
                      "minimum": 1, "maximum": 500},
            "after": {"type": "string", "description": "Start date in YYYY-MM-DD format.",
                      "format": "date"},
            "callback": {"type": "string", "description": "The URL to notify."}
        }}
    }]})
}

#[test]
fn a_tool_file_prints_one_line_per_finding() {
    let path = write_tools("file", &tools());
    let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
    let found = lines(&out);
    let summary: Vec<(String, String, String)> = found
        .iter()
        .map(|f| {
            (
                f["argument"].as_str().unwrap_or("").to_string(),
                f["family"].as_str().unwrap_or("").to_string(),
                f["level"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    // (a contradiction is at its check's measured level, docs/rule-c12.md:
    // `set-wider` at the audit level, `bounds` at the error level)
    let want: Vec<(String, String, String)> = [
        ("kind", "closed-set", "audit"),
        ("limit", "range", "error"),
        ("callback", "format", "audit"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(summary, want, "{found:#?}");
    let limit = &found[1];
    assert_eq!(limit["tool"], "list_invoices");
    assert_eq!(limit["phrase"], "at most 100");
    assert!(
        limit["help"].as_str().unwrap().contains("\"maximum\": 100"),
        "help in JSON Schema keywords: {limit}"
    );
    assert_eq!(found[2]["help"], "declare \"format\": \"uri\"");
    assert_eq!(found[0]["check"], "set-wider");
    assert_eq!(limit["check"], "bounds");
    assert!(found[2].get("check").is_none(), "{}", found[2]);
    assert_eq!(out.status.code(), Some(1), "an error-level finding exits 1");
    // the `tools` array alone reads the same
    let path = write_tools("array", &tools()["tools"]);
    assert_eq!(
        lines(&toolbox(&["lint", "--tools", path.to_str().unwrap()])),
        found
    );
}

#[test]
fn a_list_without_errors_exits_0_and_unreadable_input_2() {
    let clean = json!([{"name": "t", "description": "Do it.", "inputSchema": {"type": "object",
        "properties": {"n": {"type": "integer", "description": "Between 1 and 10.",
                              "minimum": 1, "maximum": 10}}}}]);
    let out = toolbox(&[
        "lint",
        "--tools",
        write_tools("clean", &clean).to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty());
    let path = write_tools("bad", &json!({"result": {"nothing": 1}}));
    assert_eq!(
        toolbox(&["lint", "--tools", path.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
    std::fs::write(&path, "not json").unwrap();
    assert_eq!(
        toolbox(&["lint", "--tools", path.to_str().unwrap()])
            .status
            .code(),
        Some(2)
    );
    // An input schema that is no schema: said, not read as "no arguments".
    let path = write_tools(
        "string-schema",
        &json!({"tools": [{"name": "t", "description": "At most 3.", "inputSchema": "object"}]}),
    );
    let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("tool `t`: its `inputSchema` is not"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        toolbox(&["lint", "--tools", "/no/such/file"]).status.code(),
        Some(2)
    );
    assert_eq!(
        toolbox(&["lint", "--mcp", "--", "/no/such/server"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(toolbox(&["lint"]).status.code(), Some(2));
}

/// The toolbox's own tools read the same from `audit`, from its stdio MCP
/// server and from its streamable HTTP server.
#[test]
fn audit_stdio_and_http_agree_on_the_toolbox() {
    let dir = common::Fixture::standard("lint-toolbox");
    let audit = toolbox(&["audit"]);
    assert_ne!(
        audit.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&audit.stderr)
    );
    let own = lines(&audit);
    let root = dir.root.to_str().unwrap();
    let bin = common::toolbox().to_str().unwrap();
    let stdio = toolbox(&["lint", "--mcp", "--", bin, "mcp", "--root", root]);
    assert_ne!(
        stdio.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&stdio.stderr)
    );
    let (mut child, url) = common::mcp_http(Command::new(common::toolbox()).args([
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--root",
        root,
    ]));
    let http = toolbox(&["lint", "--mcp-url", &url]);
    let _ = child.kill();
    let _ = child.wait();
    assert_ne!(
        http.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&http.stderr)
    );
    assert_eq!(
        lines(&stdio),
        lines(&http),
        "stdio and HTTP list the same tools"
    );
    // The MCP listing carries descriptions and schemas only: the audit's
    // findings, less the help (written as keywords there) and the
    // acknowledgements (which live in the contracts).
    let key = |f: &Value| {
        (
            f["tool"].clone(),
            f["argument"].clone(),
            f["family"].clone(),
            f["phrase"].clone(),
        )
    };
    let linted: Vec<_> = lines(&stdio).iter().map(key).collect();
    let audited: Vec<_> = own
        .iter()
        .filter(|f| f.get("acknowledged").is_none())
        .map(key)
        .collect();
    for f in &audited {
        assert!(linted.contains(f), "{f:?} missing from the stdio lint");
    }
    // Nor does the lint find more: the example arguments the MCP export
    // appends to `list_filings`'s description are data, not claims (their
    // dates read as two format findings before).
    for f in &linted {
        assert!(audited.contains(f), "{f:?} is the lint's alone");
    }
}

/// The reference servers, pinned in tests/lint/install.sh: their findings
/// are the snapshots in tests/lint/*.jsonl (`LINT_BLESS=1` rewrites them;
/// docs/rule-c12.md reports them).
#[test]
fn reference_mcp_servers_from_npm() {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mcp-servers/node_modules/.bin");
    if !bin.join("mcp-server-memory").exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "the reference MCP servers are not installed: .ci/run runs tests/lint/install.sh"
            );
        }
        eprintln!("skipped: run tests/lint/install.sh to lint the reference MCP servers");
        return;
    }
    let scratch = std::env::temp_dir().join(format!("toolbox-lint-fs-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let servers: [(&str, Vec<String>); 3] = [
        ("server-everything", vec!["stdio".into()]),
        (
            "server-filesystem",
            vec![scratch.to_string_lossy().into_owned()],
        ),
        ("server-memory", vec![]),
    ];
    for (name, args) in servers {
        let cmd = bin.join(format!("mcp-{name}"));
        let mut argv: Vec<&str> = vec!["lint", "--mcp", "--", cmd.to_str().unwrap()];
        argv.extend(args.iter().map(String::as_str));
        let out = toolbox(&argv);
        assert_ne!(
            out.status.code(),
            Some(2),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let found = String::from_utf8_lossy(&out.stdout).into_owned();
        let snapshot =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/lint/{name}.jsonl"));
        if std::env::var_os("LINT_BLESS").is_some() {
            std::fs::write(&snapshot, &found).unwrap();
        }
        let want = std::fs::read_to_string(&snapshot).expect("the snapshot of the findings");
        assert_eq!(
            found, want,
            "{name}: the findings changed; LINT_BLESS=1 rewrites {snapshot:?}"
        );
        let errors = lines(&out).iter().filter(|f| f["level"] == "error").count();
        assert_eq!(out.status.code(), Some(i32::from(errors > 0)), "{name}");
    }
}

/// Properties inside properties are read against their own keywords and
/// named by their path: an object's members (`filter.status`), a list's
/// object items (`edits[].line`), a list's scalar items (`tags[]`), and a
/// member reached through a local `$ref`.
#[test]
fn nested_properties_are_read_against_their_own_keywords() {
    let nested = json!({"tools": [{
        "name": "edit_file",
        "description": "Edit a file.",
        "inputSchema": {"type": "object", "properties": {
            "filter": {"type": "object", "description": "Which lines.", "properties": {
                "status": {"type": "string", "description": "One of `draft` or `final`.",
                           "enum": ["draft", "published"]},
                "owner": {"type": "object", "properties": {
                    "email": {"type": "string", "description": "The owner's email address."}
                }}
            }},
            "edits": {"type": "array", "description": "The edits to make.", "items": {
                "type": "object", "properties": {
                    "line": {"type": "integer", "description": "The line, between 1 and 100.",
                             "minimum": 1, "maximum": 100},
                    "text": {"type": "string", "description": "At most 80 characters.",
                             "maxLength": 200}
                }}},
            "tags": {"type": "array", "items": {"type": "string",
                     "description": "A tag, at most 20 characters."}},
            "target": {"$ref": "#/$defs/Target"}
        }, "$defs": {"Target": {"type": "object", "properties": {
            "url": {"type": "string", "description": "The URL to write to.", "format": "uri"},
            "mode": {"type": "string", "description": "Between 1 and 10 characters."}
        }}}}
    }]});
    let path = write_tools("nested", &nested);
    let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
    let found: Vec<(String, String, String, String)> = lines(&out)
        .iter()
        .map(|f| {
            (
                f["argument"].as_str().unwrap_or("").to_string(),
                f["family"].as_str().unwrap_or("").to_string(),
                f["phrase"].as_str().unwrap_or("").to_string(),
                f["level"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String, String, String)> = [
        (
            "filter.status",
            "closed-set",
            "One of `draft` or `final`",
            "audit",
        ),
        ("filter.owner.email", "format", "email address", "audit"),
        ("edits[].text", "length", "At most 80 characters", "error"),
        ("tags[]", "length", "at most 20 characters", "audit"),
        (
            "target.mode",
            "length",
            "Between 1 and 10 characters",
            "audit",
        ),
    ]
    .iter()
    .map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
    .collect();
    assert_eq!(found, want, "{}", String::from_utf8_lossy(&out.stdout));
    // a nested contradiction is found by its check, at its measured level
    let checks: Vec<Value> = lines(&out).iter().map(|f| f["check"].clone()).collect();
    assert_eq!(
        checks,
        [
            json!("set-wider"),
            Value::Null,
            json!("bounds"),
            Value::Null,
            Value::Null
        ]
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "a nested contradiction at the error level"
    );
}

/// A property that takes either of two forms (`anyOf` / `oneOf` with more
/// than one branch that is not `null`) declares what its branches declare:
/// prose stating a keyword one branch has is no missing constraint; a
/// value every branch shares is compared with the prose (a contradiction);
/// values that only some branches give, or give differently, have no one
/// value to compare with; a closed set is declared only when every branch
/// is one.
#[test]
fn each_branch_of_an_either_is_read() {
    let either = json!({"tools": [{
        "name": "search",
        "description": "Search.",
        "inputSchema": {"type": "object", "properties": {
            "ids": {"description": "IDs to fetch, max 1000.", "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"type": "string"}, "maxItems": 1000}]},
            "since": {"description": "A UUID or a date in ISO 8601 format.", "oneOf": [
                {"type": "string", "format": "uuid"},
                {"type": "string", "format": "date"}]},
            "size": {"description": "Page size, at most 100.", "anyOf": [
                {"type": "integer", "maximum": 500},
                {"type": "string", "maxLength": 3}, {"type": "null"}]},
            "limit": {"description": "Results, at most 100.", "anyOf": [
                {"type": "integer", "minimum": 1, "maximum": 500},
                {"type": "number", "minimum": 1, "maximum": 500}]},
            "mode": {"description": "One of `fast` or `slow`.", "anyOf": [
                {"type": "string", "enum": ["fast"]},
                {"type": "string"}]}
        }}
    }]});
    let path = write_tools("either", &either);
    let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
    let found: Vec<(String, String, String)> = lines(&out)
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or("-").to_string();
            (s("argument"), s("family"), s("check"))
        })
        .collect();
    let want = [("limit", "range", "bounds"), ("mode", "closed-set", "-")]
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
    assert_eq!(found, want, "{}", String::from_utf8_lossy(&out.stdout));
}

/// `--mcp-url https://...`: the toolbox's HTTP server behind a TLS proxy
/// whose certificate a CA of the test's own signed (made with the
/// `openssl` command). With the CA in `SSL_CERT_FILE` the listing reads as
/// over `http://`; without it, the certificate is refused (exit 2).
#[test]
fn an_https_server_is_linted_with_its_certificate_checked() {
    let dir = common::Fixture::standard("lint-https");
    let tls = dir.root.join("tls");
    std::fs::create_dir_all(&tls).unwrap();
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(&tls)
            .output()
            .expect("the openssl command (.ci/run installs it)");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "1",
        "-subj",
        "/CN=lint test CA",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(
        tls.join("ext.cnf"),
        "basicConstraints=critical,CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "1",
        "-extfile",
        "ext.cnf",
    ]);
    let root = dir.root.to_str().unwrap();
    let (mut child, url) = common::mcp_http(Command::new(common::toolbox()).args([
        "mcp",
        "--http",
        "127.0.0.1:0",
        "--root",
        root,
    ]));
    let backend = url
        .strip_prefix("http://")
        .and_then(|r| r.split_once('/'))
        .map(|(a, p)| (a.to_string(), format!("/{p}")))
        .expect("an http:// URL with a path");
    let port = tls_proxy(&tls.join("server.pem"), &tls.join("server.key"), backend.0);
    let https = format!("https://127.0.0.1:{port}{}", backend.1);
    let trusted = Command::new(common::toolbox())
        .args(["lint", "--mcp-url", &https])
        .env("SSL_CERT_FILE", tls.join("ca.pem"))
        .stdin(Stdio::null())
        .output()
        .expect("run the toolbox");
    let untrusted = Command::new(common::toolbox())
        .args(["lint", "--mcp-url", &https])
        .env_remove("SSL_CERT_FILE")
        .stdin(Stdio::null())
        .output()
        .expect("run the toolbox");
    let plain = toolbox(&["lint", "--mcp-url", &url]);
    let _ = child.kill();
    let _ = child.wait();
    assert_ne!(
        trusted.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&trusted.stderr)
    );
    assert_eq!(trusted.status.code(), plain.status.code());
    assert_eq!(lines(&trusted), lines(&plain), "https reads as http");
    assert_eq!(untrusted.status.code(), Some(2));
    let why = String::from_utf8_lossy(&untrusted.stderr);
    assert!(
        why.contains("certificate") || why.contains("issuer"),
        "{why}"
    );
}

/// A TLS proxy on a free loopback port in front of `backend` (a plain HTTP
/// server): each connection's request (head and `Content-Length` body) is
/// passed on, and the answer streamed back until the backend closes.
fn tls_proxy(cert: &Path, key: &Path, backend: String) -> u16 {
    use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::Arc;
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .expect("the server certificate")
        .map(|c| c.expect("a PEM certificate"))
        .collect();
    let key = PrivateKeyDer::from_pem_file(key).expect("the server key");
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = Arc::new(
        rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .expect("a certificate and its key"),
    );
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { break };
            let (config, backend) = (config.clone(), backend.clone());
            std::thread::spawn(move || {
                let Ok(conn) = rustls::ServerConnection::new(config) else {
                    return;
                };
                let mut tls = rustls::StreamOwned::new(conn, client);
                let mut request = Vec::new();
                let mut buf = [0u8; 8192];
                // the head, then as many body bytes as it announces
                let complete = |r: &[u8]| {
                    let Some(end) = r.windows(4).position(|w| w == b"\r\n\r\n") else {
                        return false;
                    };
                    let head = String::from_utf8_lossy(&r[..end]).to_ascii_lowercase();
                    let length = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    r.len() >= end + 4 + length
                };
                while !complete(&request) {
                    match tls.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let Ok(mut plain) = TcpStream::connect(&backend) else {
                    return;
                };
                if plain.write_all(&request).is_err() {
                    return;
                }
                loop {
                    match plain.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if tls.write_all(&buf[..n]).and_then(|()| tls.flush()).is_err() {
                                return;
                            }
                        }
                    }
                }
                tls.conn.send_close_notify();
                let _ = tls.flush();
            });
        }
    });
    port
}

/// A URL without a port dials its scheme's (80, 443), as any client does;
/// it was "invalid socket address", so `https://host/mcp` could never be
/// linted. Where nothing listens there, the error names the address dialed.
#[test]
fn a_url_without_a_port_dials_the_schemes_port() {
    for (url, dialed) in [
        ("http://127.0.0.1/mcp", "127.0.0.1:80"),
        ("https://127.0.0.1/mcp", "127.0.0.1:443"),
        ("http://[::1]/mcp", "[::1]:80"),
    ] {
        let out = toolbox(&["lint", "--mcp-url", url]);
        let err = String::from_utf8_lossy(&out.stderr);
        if out.status.code() == Some(2) {
            assert!(err.contains(dialed), "{url}: {err}");
            assert!(!err.contains("invalid socket address"), "{url}: {err}");
        }
    }
}

/// An author's `minimum: 0` is a declaration (zod's `.nonnegative()`):
/// prose saying the same agrees, and a stricter bound contradicts it, as
/// over `minimum: 1`; only beside an unsigned width's `format` (schemars'
/// `uint32`) is it the type's. A property that is a local `$ref` is read
/// through it: the enum or bound of its definition is its declaration.
#[test]
fn a_zero_minimum_and_a_referenced_definition_are_declarations() {
    let path = write_tools(
        "zero-and-ref",
        &json!({"tools": [{"name": "t", "description": "A tool.", "inputSchema": {
            "type": "object",
            "properties": {
                "a": {"type": "integer", "minimum": 0, "description": "Non-negative."},
                "b": {"type": "integer", "minimum": 0, "description": "At least 5."},
                "d": {"type": "integer", "minimum": 0, "format": "uint32", "description": "At least 5."},
                "e": {"$ref": "#/$defs/Order", "description": "Only `asc` or `desc`."},
                "f": {"$ref": "#/$defs/Small", "description": "At most 10."},
                "g": {"$ref": "#/$defs/Small", "description": "At most 30."},
                "h": {"allOf": [{"$ref": "#/$defs/Order"}], "description": "Only `asc` or `desc`."}
            },
            "$defs": {
                "Order": {"type": "string", "enum": ["asc", "desc", "random"]},
                "Small": {"type": "integer", "maximum": 30}
            }
        }}]}),
    );
    let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
    let got: Vec<(String, String, String)> = lines(&out)
        .iter()
        .map(|f| {
            (
                f["argument"].as_str().unwrap().to_owned(),
                f["level"].as_str().unwrap().to_owned(),
                f["check"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect();
    let want = [
        ("b", "error", "bounds"),
        ("d", "audit", "-"),
        ("e", "error", "set-narrower"),
        ("f", "error", "bounds"),
        ("h", "error", "set-narrower"),
    ];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(a, l, c)| (a.to_string(), l.to_string(), c.to_string()))
        .collect();
    assert_eq!(got, want, "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(1));
}

/// Runs `toolbox lint ARGS...` with `TOOLBOX_LINT_TIMEOUT=secs`; a run
/// still going after a minute is killed and fails the test (it would
/// otherwise hang CI: the defect this guards against).
fn lint_within(secs: u32, args: &[&str]) -> Output {
    let mut child = Command::new(common::toolbox())
        .env("TOOLBOX_LINT_TIMEOUT", secs.to_string())
        .arg("lint")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the toolbox");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("toolbox lint {args:?} was still running after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("its output")
}

/// The processes alive (not zombies) whose command line holds `marker`.
fn alive_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let dir = entry.path();
        let Ok(cmdline) = std::fs::read(dir.join("cmdline")) else {
            continue;
        };
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'));
        if !zombie && String::from_utf8_lossy(&cmdline).contains(marker) {
            found.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    found
}

/// A stdio server that keeps talking (a notification five times a second)
/// but never answers is given up on when its time is out: the limit is on
/// the answer, not on silence (it was a limit on silence, and the lint ran
/// for ever). Stopping it stops what it started too: a wrapper's server
/// (here a child of the server, as `npx` runs one) was left running.
#[test]
fn a_stdio_server_that_talks_but_never_answers_is_stopped_with_its_children() {
    let marker = format!("lint-child-of-{}", std::process::id());
    let server = "import subprocess, sys, time\n\
        subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', sys.argv[1]])\n\
        while True:\n    \
            print('{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"busy\"}}', flush=True)\n    \
            time.sleep(0.2)\n";
    let out = lint_within(2, &["--mcp", "--", "python3", "-c", server, &marker]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("did not answer within 2 s"), "{stderr}");
    let mut left = alive_with(&marker);
    for _ in 0..100 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        left = alive_with(&marker);
    }
    assert!(left.is_empty(), "left running: {left:?}");
}

/// A stdio server that writes a line that is not JSON where its answer
/// belongs: the lint still gives up when its time is out, and says what the
/// server wrote (it said only that no answer came).
#[test]
fn a_stdio_server_writing_what_is_not_json_is_named() {
    let server = "import sys\nfor line in sys.stdin:\n    print('{not json', flush=True)\n";
    let out = lint_within(1, &["--mcp", "--", "python3", "-c", server]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "did not answer within 1 s (TOOLBOX_LINT_TIMEOUT); it wrote 1 line on stdout that is not JSON-RPC (MCP's stdio transport allows only messages there), the first: \"{not json\""
        ),
        "{stderr}"
    );
}

/// Over HTTP, an event stream of keep-alive comments that never carries
/// the answer is given up on the same way.
#[test]
fn an_http_server_that_sends_only_keep_alives_is_given_up_on() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { return };
            std::thread::spawn(move || {
                let _ = s.read(&mut [0u8; 8192]);
                let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n";
                if s.write_all(head.as_bytes()).is_err() {
                    return;
                }
                while s.write_all(b": keep-alive\n\n").is_ok() {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
            });
        }
    });
    let out = lint_within(2, &["--mcp-url", &url]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("did not answer within 2 s"), "{stderr}");
}

/// The third lint audit: a tool's description written as a markdown list
/// whose items end with no period ("Run a query.\n- `limit`: at most 50
/// results\n- `mode`: one of ..."). Each item is a sentence of its own and
/// belongs to the argument it opens with: items that agree with the schema
/// give nothing (they once gave three findings with no argument, the names
/// read as a closed set), items that contradict it give the error a
/// sentence ending with a period gives. Emphasis is seen through
/// ("*at most* **50**"), and a lead's colon keeps the items its own.
#[test]
fn markdown_list_items_belong_to_the_argument_they_name() {
    let tool = |description: &str, max: u32, modes: &[&str]| {
        json!({"name": "query", "description": description,
            "inputSchema": {"type": "object", "properties": {
                "limit": {"type": "integer", "description": "Maximum number of results.",
                          "minimum": 1, "maximum": max},
                "mode": {"type": "string", "description": "Query mode.", "enum": modes}}}})
    };
    let summary = |found: &[Value]| -> Vec<(String, String, String)> {
        (found.iter())
            .map(|f| {
                let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
                (s("argument"), s("level"), s("check"))
            })
            .collect()
    };
    let lists = [
        "Run a query.\n- `limit`: at most 50 results\n- `mode`: one of `fast`, `slow`",
        "Run a query.\n* `limit` - at most 50 results\n* `mode` - one of `fast`, `slow`",
        "Run a query.\n\n- `limit`: *at most* **50** results\n- `mode`: one of `fast`, `slow`",
        "Run a query.\n1. `limit`: at most 50 results\n2. `mode`: one of `fast`, `slow`",
        "Run a query. Arguments:\n- `limit`: at most 50 results\n- `mode`: one of `fast`, `slow`",
        "Run a query.\n- `limit`: at most 50 results.\n- `mode`: one of `fast`, `slow`.",
    ];
    for (k, description) in lists.iter().enumerate() {
        let agree = tool(description, 50, &["fast", "slow"]);
        let path = write_tools(&format!("bullets-agree-{k}"), &json!({ "tools": [agree] }));
        let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
        assert_eq!(lines(&out), Vec::<Value>::new(), "{description}");
        assert_eq!(out.status.code(), Some(0), "{description}");
        let contra = tool(description, 500, &["fast", "slow", "exhaustive"]);
        let path = write_tools(
            &format!("bullets-contra-{k}"),
            &json!({ "tools": [contra] }),
        );
        let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
        let want = [("limit", "bounds"), ("mode", "set-narrower")]
            .map(|(a, c)| (a.to_string(), "error".to_string(), c.to_string()));
        assert_eq!(summary(&lines(&out)), want, "{description}");
        assert_eq!(out.status.code(), Some(1), "{description}");
    }
}

/// The third lint audit's D2: the unit the name states (`timeout_seconds`,
/// `wait_ms`) is the one a bound in other words is converted into, for the
/// side to change and the help, as the doc's own "in seconds" already was.
/// And "strictly between 0 and 1" is the exclusive range it says.
#[test]
fn a_bound_is_compared_in_the_unit_the_name_states() {
    let tools = json!({"tools": [{"name": "t", "description": "Do it.",
    "inputSchema": {"type": "object", "properties": {
        "timeout_seconds": {"type": "integer", "description": "Timeout, at most 1 hour.",
                            "maximum": 7200},
        "timeout": {"type": "integer", "description": "Timeout in seconds, at most 1 hour.",
                    "maximum": 7200},
        "wait_ms": {"type": "integer", "description": "How long to wait; up to 30 seconds.",
                    "minimum": 0, "maximum": 60000},
        "grace_seconds": {"type": "integer", "description": "Grace, at most 2 hours.",
                          "maximum": 3600},
        "ok_seconds": {"type": "integer", "description": "Timeout, at most 1 hour.",
                       "maximum": 3600},
        "ratio": {"type": "number", "description": "The share, strictly between 0 and 1.",
                  "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "share": {"type": "number", "description": "The share, between 0 and 1, exclusive.",
                  "exclusiveMinimum": 0, "exclusiveMaximum": 1},
        "closed": {"type": "number", "description": "The share, between 0 and 1.",
                   "exclusiveMinimum": 0, "exclusiveMaximum": 1}
    }}}]});
    let path = write_tools("unit-from-name", &tools);
    let out = toolbox(&["lint", "--tools", path.to_str().unwrap()]);
    let found: Vec<(String, String)> = (lines(&out).iter())
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
            (s("argument"), s("help"))
        })
        .collect();
    let want = [
        ("timeout_seconds", "the prose is stricter than its schema: declare \"maximum\": 3600"),
        ("timeout", "the prose is stricter than its schema: declare \"maximum\": 3600"),
        ("wait_ms", "the prose is stricter than its schema: declare \"minimum\": 0, \"maximum\": 30000"),
        ("grace_seconds", "the schema declares \"maximum\": 3600, which the server enforces; change the prose to say \"at most 3600\""),
        ("closed", "the schema declares \"exclusiveMinimum\": 0, \"exclusiveMaximum\": 1, which the server enforces; change the prose to say \"more than 0 and less than 1\""),
    ]
    .map(|(a, h)| (a.to_string(), h.to_string()));
    assert_eq!(found, want);
}
