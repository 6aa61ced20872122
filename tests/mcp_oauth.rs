//! `toolbox mcp --http --jwks`: an OAuth 2.1 resource server, attacked and
//! used with tokens minted by PyJWT (`tests/mcp_client/auth.py`, keys made
//! by the test), the honest calls sent by the official Python MCP client
//! with bearer tokens. Every attack is answered as MCP's authorization spec
//! says and runs nothing (the effects on disk are counted); two tenants
//! share no request key, approval or breaker. The discovery tests start
//! from a client with no token: the SDK's OAuth client follows the 401 to
//! an authorization server run by the test (`tests/mcp_client/oauth_flow.py`)
//! and steps up on the 403.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::{python, Fixture};
use serde_json::{json, Value};

const ISS: &str = "https://auth.test";
const AUD: &str = "https://tools.test/mcp";
const METADATA: &str =
    "resource_metadata=\"https://tools.test/.well-known/oauth-protected-resource/mcp\"";

fn script(args: &[&str]) -> String {
    let out = Command::new(python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/auth.py"))
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .expect("run auth.py");
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(out.status.success(), "auth.py {}: {stdout}", args[0]);
    stdout
}

fn json_of(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

/// The test's server: the toolbox over HTTP with the key set of `keys`.
struct Server {
    child: Child,
    url: String,
    keys: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(dir: &Fixture, extra: &[&str]) -> Server {
        let keys = dir.base.join("keys");
        std::fs::create_dir_all(&keys).unwrap();
        let keys = keys.to_str().unwrap().to_owned();
        script(&["keys", &keys]);
        let (child, url) = common::mcp_http(
            Command::new(common::toolbox())
                .args(["mcp", "--http", "127.0.0.1:0", "--jwks"])
                .arg(format!("{keys}/jwks.json"))
                .args(["--issuer", ISS, "--audience", AUD])
                .args(extra)
                .arg("--root")
                .arg(&dir.root),
        );
        Server { child, url, keys }
    }

    /// A valid token: ana of acme holding every scope, `over` changed.
    fn token(&self, over: Value) -> String {
        script(&["mint", &self.keys, ISS, AUD, &over.to_string()])
    }

    /// One MCP session with `token`: each call's envelope.
    fn session(&self, token: &str, calls: Value) -> Vec<Value> {
        let out = script(&["session", &self.url, token, &calls.to_string()]);
        json_of(&out).as_array().unwrap().clone()
    }
}

fn outbox_lines(dir: &Fixture) -> usize {
    std::fs::read_to_string(dir.root.join("outbox.jsonl"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

fn code(env: &Value) -> &str {
    env["errors"][0]["code"].as_str().unwrap_or("")
}

#[test]
fn every_attack_is_refused_as_the_spec_says_and_runs_nothing() {
    let dir = Fixture::standard("oauth-attacks");
    let server = Server::start(&dir, &[]);
    let out = json_of(&script(&["attacks", &server.url, &server.keys, ISS, AUD]));

    // No credentials: 401, the challenge naming the metadata, no error code
    // (RFC 6750 section 3.1).
    let no_token = &out["no token"];
    assert_eq!(no_token["status"], 401, "{no_token}");
    let www = no_token["www"].as_str().unwrap();
    assert!(
        www.starts_with("Bearer ") && www.contains(METADATA),
        "{www}"
    );
    assert!(!www.contains("error="), "{www}");

    // The attack table of docs/security.md: each 401 invalid_token with a
    // description that says why and never quotes the token.
    for (case, says) in [
        ("expired", "expired"),
        ("not yet valid", "not valid yet"),
        ("wrong issuer", "another issuer"),
        ("wrong audience", "another resource"),
        ("alg none", "not a JWT signed with an accepted algorithm"),
        ("HS256 keyed with the public key", "HS256 are not accepted"),
        ("tampered payload", "signature does not verify"),
        ("unknown kid", "does not know"),
        (
            "a stranger's key under a known kid",
            "signature does not verify",
        ),
        ("no tenant claim", "names no tenant"),
    ] {
        let a = &out[case];
        assert_eq!(a["status"], 401, "{case}: {a}");
        let www = a["www"]
            .as_str()
            .unwrap_or_else(|| panic!("{case}: no challenge: {a}"));
        assert!(
            www.contains(METADATA) && www.contains("error=\"invalid_token\""),
            "{case}: {www}"
        );
        assert!(www.contains(says), "{case}: {www}");
        assert!(!a["body"].as_str().unwrap().contains("eyJ"), "{case}: {a}");
    }
    // Larger than any token the server reads: 400 invalid_request.
    let big = &out["oversized token"];
    assert_eq!(big["status"], 400, "{big}");
    assert!(
        big["www"]
            .as_str()
            .unwrap()
            .contains("error=\"invalid_request\""),
        "{big}"
    );

    // A valid token without the tool's authority: the step-up challenge
    // naming the scope, and as the body the envelope the model would see.
    let scope = &out["missing scope"];
    assert_eq!(scope["status"], 403, "{scope}");
    let www = scope["www"].as_str().unwrap();
    assert!(
        www.contains("error=\"insufficient_scope\"")
            && www.contains("scope=\"comments:write\"")
            && www.contains(METADATA),
        "{www}"
    );
    let body = json_of(scope["body"].as_str().unwrap());
    let env = &body["result"]["structuredContent"];
    assert_eq!(env["status"], "denied", "{body}");
    assert_eq!(code(env), "permission-denied", "{body}");
    assert!(env["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("comments:write"));
    // Written as rmcp writes a result for the session's version: no
    // `resultType` before 2026-07-28 (a request without the header is of
    // an older one), `complete` from it.
    assert_eq!(body["result"].get("resultType"), None, "{body}");
    let modern = json_of(out["missing scope, 2026-07-28"]["body"].as_str().unwrap());
    assert_eq!(modern["result"]["resultType"], "complete", "{modern}");

    // The honest RS256 token opens a session, which is its caller's only.
    assert_eq!(
        out["valid (RS256)"]["status"], 200,
        "{}",
        out["valid (RS256)"]
    );
    assert!(
        out["valid (RS256)"]["session"].is_string(),
        "{}",
        out["valid (RS256)"]
    );
    let stolen = &out["another caller with ana's session"];
    assert_eq!(stolen["status"], 404, "{stolen}");
    let own = &out["ana with her session"];
    assert_eq!(own["status"], 202, "{own}");

    // Protected Resource Metadata, at both paths.
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let meta = &out[path];
        assert_eq!(meta["status"], 200, "{path}: {meta}");
        assert_eq!(meta["body"]["resource"], AUD);
        assert_eq!(meta["body"]["authorization_servers"], json!([ISS]));
        assert_eq!(meta["body"]["bearer_methods_supported"], json!(["header"]));
        assert_eq!(
            meta["body"]["scopes_supported"],
            json!([
                "comments:write",
                "filings:read",
                "notes:read",
                "notes:write",
                "repo:read",
                "repo:write"
            ]),
            "the registry's declared authorities"
        );
    }
    // Not one attack posted a comment.
    assert_eq!(outbox_lines(&dir), 0);
}

#[test]
fn a_valid_token_calls_a_tool_and_tenants_share_no_key_approval_or_breaker() {
    let dir = Fixture::standard("oauth-tenants");
    let server = Server::start(&dir, &["--tenant-claim", "org"]);
    let ana = server.token(json!({"org": "acme", "tenant": null}));
    let bob = server.token(json!({"sub": "bob", "org": "globex", "tenant": null}));
    let carl = server.token(json!({"sub": "carl", "org": "acme", "tenant": null}));

    // A valid token calls a tool.
    let read = server.session(&ana, json!([["read_file", {"path": "README.md"}]]));
    assert_eq!(read[0]["status"], "ok", "{read:?}");

    // Request keys: ana's key has one effect for her; bob (another tenant)
    // sending the same key is not answered from her record.
    let comment = json!({"issue": 1, "body": "from acme",
        "request_key": "5e0c3a1b-2d4f-4a6b-8c9d-0e1f2a3b4c5d"});
    let twice = server.session(
        &ana,
        json!([["post_comment", comment], ["post_comment", comment]]),
    );
    assert_eq!(twice[0]["status"], "ok", "{twice:?}");
    assert_eq!(twice[1]["status"], "ok", "{twice:?}");
    assert_eq!(twice[1]["replayed"], true, "{twice:?}");
    let other = server.session(&bob, json!([["post_comment", comment]]));
    assert_eq!(other[0]["status"], "ok", "{other:?}");
    assert_ne!(
        other[0]["replayed"], true,
        "another tenant's key is not a replay: {other:?}"
    );
    assert_eq!(
        outbox_lines(&dir),
        2,
        "one effect for ana's key, one for bob's"
    );

    // Approvals: three callers asking the same get three requests; a grant
    // of ana's lets only ana's call run.
    let delete = json!([["delete_note", {"note": "kv-cache.md"}]]);
    let id = |env: &Value| {
        assert_eq!(env["status"], "needs-approval", "{env}");
        env["approval"]["id"].as_str().unwrap().to_owned()
    };
    let a = id(&server.session(&ana, delete.clone())[0]);
    let b = id(&server.session(&bob, delete.clone())[0]);
    let c = id(&server.session(&carl, delete.clone())[0]);
    assert!(a != b && a != c && b != c, "{a} {b} {c}");
    let granted = Command::new(common::toolbox())
        .args(["approvals", "--root"])
        .arg(&dir.root)
        .args(["grant", &a, "--by", "lead"])
        .output()
        .unwrap();
    assert!(
        granted.status.success(),
        "{}",
        String::from_utf8_lossy(&granted.stderr)
    );
    let again = server.session(&bob, delete.clone());
    assert_eq!(
        id(&again[0]),
        b,
        "bob still waits on his own request: {again:?}"
    );
    assert!(
        dir.root.join("notes/kv-cache.md").exists(),
        "bob's call did not run"
    );
    let again = server.session(&carl, delete.clone());
    assert_eq!(
        id(&again[0]),
        c,
        "carl (ana's tenant) is not ana either: {again:?}"
    );
    let ran = server.session(&ana, delete);
    assert_eq!(ran[0]["status"], "ok", "{ran:?}");
    assert!(!dir.root.join("notes/kv-cache.md").exists());

    // The breaker: ana's tenant repeating a failing call rests it for acme,
    // not for globex.
    let failing = json!(["read_file", {"path": "nope.txt"}]);
    let many = server.session(&ana, json!(vec![failing.clone(); 10]));
    assert!(
        many.iter().any(|e| code(e) == "circuit-open"),
        "the circuit opened for acme: {many:?}"
    );
    let bobs = server.session(&bob, json!([failing]));
    assert_eq!(code(&bobs[0]), "not-found", "globex's call runs: {bobs:?}");
}

#[test]
fn bad_flags_are_refused_with_what_is_missing() {
    let dir = Fixture::standard("oauth-flags");
    let keys = dir.base.join("jwks.json");
    std::fs::write(&keys, r#"{"keys":[]}"#).unwrap();
    let keys = keys.to_str().unwrap();
    let root = dir.root.to_str().unwrap();
    for (args, says) in [
        (
            vec!["--http", "0.0.0.0:0"],
            "only a loopback address is served without --jwks",
        ),
        (
            vec!["--http", "127.0.0.1:0", "--jwks", keys, "--audience", AUD],
            "--jwks needs --issuer",
        ),
        (
            vec!["--http", "127.0.0.1:0", "--jwks", keys, "--issuer", ISS],
            "--jwks needs --audience",
        ),
        (
            vec!["--http", "127.0.0.1:0", "--issuer", ISS, "--audience", AUD],
            "--issuer checks bearer tokens: it needs --jwks",
        ),
        (
            vec!["--http", "127.0.0.1:0", "--tenant-claim", "org"],
            "--tenant-claim checks bearer tokens: it needs --jwks",
        ),
        (
            vec!["--jwks", keys, "--issuer", ISS, "--audience", AUD],
            "they need --http ADDR",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--jwks",
                "/nonexistent/jwks.json",
                "--issuer",
                ISS,
                "--audience",
                AUD,
            ],
            "no such file",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--jwks",
                "http://keys.example/jwks",
                "--issuer",
                ISS,
                "--audience",
                AUD,
            ],
            "https://",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--jwks",
                keys,
                "--issuer",
                ISS,
                "--audience",
                "tools",
            ],
            "named by its URL",
        ),
        (
            vec!["--http", "127.0.0.1:0", "--jwks"],
            "--jwks needs a value",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--introspect",
                "https://auth.test/introspect",
                "--jwks",
                keys,
                "--issuer",
                ISS,
                "--audience",
                AUD,
            ],
            "--jwks and --introspect are two ways to check tokens: give one",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--introspect",
                "https://auth.test/introspect",
                "--issuer",
                ISS,
                "--audience",
                AUD,
            ],
            "--introspect needs --client-id-env NAME",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--introspect",
                "https://auth.test/introspect",
                "--client-id-env",
                "TEST_NO_SUCH_VARIABLE_ID",
                "--client-secret-env",
                "TEST_NO_SUCH_VARIABLE_SECRET",
                "--issuer",
                ISS,
                "--audience",
                AUD,
            ],
            "the environment variable TEST_NO_SUCH_VARIABLE_ID is not set",
        ),
        (
            vec![
                "--http",
                "127.0.0.1:0",
                "--client-secret-env",
                "TEST_INTROSPECT_SECRET",
            ],
            "it goes with --introspect URL",
        ),
        (
            vec!["--http", "127.0.0.1:0", "--jwks", keys, "--jwks", keys],
            "--jwks is given twice",
        ),
    ] {
        let out = Command::new(common::toolbox())
            .arg("mcp")
            .args(&args)
            .args(["--root", root])
            .stdin(Stdio::null())
            .output()
            .expect("run toolbox");
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `host:port` of a server's `http://host:port/mcp` URL.
fn host_of(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned()
}

/// One HTTP/1.1 exchange on a fresh connection: the status and the whole
/// answer.
fn http(addr: &str, request: String) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.write_all(request.as_bytes()).expect("send");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    (out[9..12].parse().expect("a status"), out)
}

#[test]
fn the_inbox_takes_the_same_tokens_and_shows_each_approver_only_their_tenant() {
    use std::io::BufRead;
    let dir = Fixture::standard("oauth-inbox");
    let server = Server::start(&dir, &[]);
    // ana (acme) and bob (globex) each ask to delete a note.
    let ask = |token: &str| {
        let env = &server.session(token, json!([["delete_note", {"note": "kv-cache.md"}]]))[0];
        assert_eq!(env["status"], "needs-approval", "{env}");
        env["approval"]["id"].as_str().unwrap().to_owned()
    };
    let acme = ask(&server.token(json!({})));
    let globex = ask(&server.token(json!({"sub": "bob", "tenant": "globex"})));

    const INBOX: &str = "http://inbox.test/";
    let mut child = Command::new(common::toolbox())
        .args(["approvals", "--root"])
        .arg(&dir.root)
        .args(["serve", "--http", "127.0.0.1:0", "--jwks"])
        .arg(format!("{}/jwks.json", server.keys))
        .args(["--issuer", ISS, "--audience", INBOX])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let addr = loop {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the inbox ended");
        if let Some(url) = line
            .trim()
            .strip_prefix("toolbox: approvals inbox on http://")
        {
            break url.trim_end_matches('/').to_owned();
        }
    };
    let approver = |sub: &str, tenant: &str, scope: &str| {
        script(&[
            "mint",
            &server.keys,
            ISS,
            INBOX,
            &json!({"sub": sub, "tenant": tenant, "scope": scope}).to_string(),
        ])
    };
    let lead_a = approver("lead-a", "acme", "approvals:decide");
    let get = |token: Option<&str>| {
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        http(
            &addr,
            format!("GET / HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n"),
        )
    };
    let post = |token: &str, body: String| {
        http(&addr, format!("POST / HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()))
    };
    let state_of = |id: &str| {
        let out = Command::new(common::toolbox())
            .args(["approvals", "--root"])
            .arg(&dir.root)
            .args(["list", "--all"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(json_of)
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} is listed"))
    };

    // lead-a sees acme's request, not globex's, and is named on the page.
    let (status, page) = get(Some(&lead_a));
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains(&format!("data-approval-id=\"{acme}\"")),
        "{page}"
    );
    assert!(
        !page.contains(&globex),
        "another tenant's request is not listed: {page}"
    );
    assert!(
        page.contains("Deciding as <b>lead-a</b> for the requests of <b>acme</b>"),
        "{page}"
    );
    // Who asked: the caller's subject and tenant.
    assert!(
        page.contains("<dd class=\"caller\">ana of tenant acme · "),
        "{page}"
    );
    // Deciding globex's request: 404, and it stays pending.
    let at = page.find("name=\"csrf\" value=\"").expect("a form") + 19;
    let csrf = &page[at..at + 64];
    let (status, answer) = post(&lead_a, format!("id={globex}&decision=grant&csrf={csrf}"));
    assert_eq!(status, 404, "{answer}");
    assert_eq!(state_of(&globex)["state"], "pending");
    // Her own tenant's: granted, by her subject.
    let (status, answer) = post(
        &lead_a,
        format!("id={acme}&decision=grant&reason=ok&csrf={csrf}"),
    );
    assert_eq!(status, 303, "{answer}");
    let granted = state_of(&acme);
    assert_eq!(granted["state"], "granted", "{granted}");
    assert_eq!(granted["decided_by"], "lead-a", "{granted}");

    // No token: 401 naming the inbox's metadata; a token without the scope:
    // 403 insufficient_scope; a token for the MCP server (another audience):
    // 401 invalid_token.
    let (status, answer) = get(None);
    assert_eq!(status, 401, "{answer}");
    assert!(
        answer.contains(
            "resource_metadata=\"http://inbox.test/.well-known/oauth-protected-resource\""
        ),
        "{answer}"
    );
    // The metadata the challenge names is served, to a client with no
    // token yet: where to get one, and the scope the inbox asks for.
    let (status, answer) = http(
        &addr,
        format!("GET /.well-known/oauth-protected-resource HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(status, 200, "{answer}");
    let document = json_of(answer.split_once("\r\n\r\n").unwrap().1);
    assert_eq!(document["resource"], INBOX, "{document}");
    assert_eq!(
        document["authorization_servers"],
        json!([ISS]),
        "{document}"
    );
    assert_eq!(
        document["scopes_supported"],
        json!(["approvals:decide"]),
        "{document}"
    );
    let (status, answer) = get(Some(&approver("dev", "acme", "notes:read")));
    assert_eq!(status, 403, "{answer}");
    assert!(
        answer.contains("error=\"insufficient_scope\"")
            && answer.contains("scope=\"approvals:decide\""),
        "{answer}"
    );
    let (status, answer) = get(Some(&server.token(json!({"scope": "approvals:decide"}))));
    assert_eq!(status, 401, "{answer}");
    assert!(answer.contains("another resource"), "{answer}");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_key_set_out_of_reach_answers_503_and_serves_nothing() {
    let dir = Fixture::standard("oauth-503");
    let keys = dir.base.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let keys = keys.to_str().unwrap().to_owned();
    script(&["keys", &keys]);
    // A loopback port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (mut child, url, log) = common::mcp_http_logged(
        Command::new(common::toolbox())
            .args(["mcp", "--http", "127.0.0.1:0", "--jwks"])
            .arg(format!("http://127.0.0.1:{port}/jwks.json"))
            .args(["--issuer", ISS, "--audience", AUD, "--root"])
            .arg(&dir.root),
    );
    let token = script(&["mint", &keys, ISS, AUD, "{}"]);
    let addr = host_of(&url);
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"README.md"}}}"#;
    let (status, answer) = http(
        &addr,
        format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    let _ = child.kill();
    let _ = child.wait();
    let log = log.join().unwrap();
    assert_eq!(status, 503, "the server fails closed: {answer}");
    // The operator is told why, on the server's stderr, and the token is
    // not written there.
    assert!(log.contains("WARN"), "{log}");
    assert!(log.contains("the JWKS could not be read"), "{log}");
    assert!(log.contains(&format!("127.0.0.1:{port}")), "{log}");
    assert!(!log.contains(&token), "{log}");
    assert!(
        !answer.to_ascii_lowercase().contains("www-authenticate"),
        "{answer}"
    );
    assert!(answer.contains("temporarily_unavailable"), "{answer}");
    assert!(!answer.contains(&token), "{answer}");
}

/// The whole discovery flow of MCP's authorization spec, from a client with
/// no token: `tests/mcp_client/oauth_flow.py` starts its authorization
/// server, the toolbox is started with that issuer, its key set URL and its
/// own URL as the audience, then the official SDK's `OAuthClientProvider`
/// runs `calls` in one session. What the script printed (its docstring says
/// what each part holds), and the state store's path.
fn discovery(dir: &Fixture, scenario: Value) -> (Value, String) {
    use std::io::{BufRead, BufReader, Read, Write};
    // The audience is the server's URL, so its port is chosen before it
    // starts: a free one, released for it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut py = Command::new(python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/oauth_flow.py"))
        .arg(scenario.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run oauth_flow.py");
    let mut out = BufReader::new(py.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).expect("read oauth_flow.py");
    let issuer = json_of(&line)["issuer"].as_str().unwrap().to_owned();
    let store = format!("sqlite:{}", dir.base.join("state.db").display());
    let audience = format!("http://127.0.0.1:{port}/mcp");
    let (child, url) = common::mcp_http(
        Command::new(common::toolbox())
            .args(["mcp", "--http", &format!("127.0.0.1:{port}"), "--jwks"])
            .arg(format!("{issuer}/jwks"))
            .args(["--issuer", &issuer, "--audience", &audience])
            .args(["--store", &store, "--root"])
            .arg(&dir.root),
    );
    let server = Server {
        child,
        url,
        keys: String::new(),
    };
    assert_eq!(server.url, audience);
    writeln!(py.stdin.take().unwrap(), "{}", server.url).unwrap();
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    assert!(py.wait().unwrap().success(), "oauth_flow.py: {rest}");
    let mut got = json_of(&rest);
    got["issuer"] = json!(issuer);
    got["url"] = json!(server.url);
    (got, store)
}

/// How many requests of `method` to `path` the authorization server
/// answered, and with which statuses.
fn seen(out: &Value, method: &str, path: &str) -> Vec<u64> {
    out["as"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["method"] == method && r["path"] == path)
        .map(|r| r["status"].as_u64().unwrap())
        .collect()
}

/// The requests the SDK's HTTP client sent, as `METHOD URL STATUS`, the
/// authorization server's origin written `AS` and the MCP server's `MCP`.
fn sent(out: &Value) -> Vec<String> {
    let issuer = out["issuer"].as_str().unwrap();
    let origin = out["url"].as_str().unwrap().trim_end_matches("/mcp");
    out["client"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let url = r["url"]
                .as_str()
                .unwrap()
                .replace(issuer, "AS")
                .replace(origin, "MCP");
            format!("{} {url} {}", r["method"].as_str().unwrap(), r["status"])
        })
        .collect()
}

const ALL_SCOPES: &str = "comments:write filings:read notes:read notes:write repo:read repo:write";

#[test]
fn the_sdk_follows_the_401_to_a_token_from_the_authorization_server_and_calls() {
    let dir = Fixture::standard("oauth-discovery");
    let (out, store) = discovery(
        &dir,
        json!({"user": {"sub": "ana", "tenant": "acme"},
               "calls": [["read_file", {"path": "README.md"}]]}),
    );
    // What the user sees: the call's envelope.
    let env = &out["results"][0];
    assert_eq!(env["status"], "ok", "{out}");
    assert_eq!(env["result"]["content"], "hello hello\n", "{env}");

    // The way there, as the SDK's HTTP client sent it: the 401 naming the
    // metadata, the metadata, the authorization server's metadata,
    // registration, the token (the authorization request itself goes
    // through the redirect handler, the person's browser), and the first
    // request again, now served.
    let sent = sent(&out);
    assert_eq!(
        sent[..6],
        [
            "POST MCP/mcp 401",
            "GET MCP/.well-known/oauth-protected-resource/mcp 200",
            "GET AS/.well-known/oauth-authorization-server 200",
            "POST AS/register 201",
            "POST AS/token 200",
            "POST MCP/mcp 200",
        ],
        "{sent:#?}"
    );
    let www = out["client"][0]["www"].as_str().unwrap();
    assert_eq!(
        www,
        format!(
            "Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"",
            out["url"].as_str().unwrap().trim_end_matches("/mcp")
        )
    );
    assert!(
        !sent[6..]
            .iter()
            .any(|s| s.ends_with(" 401") || s.ends_with(" 403")),
        "one token serves the session: {sent:#?}"
    );

    // The authorization server saw each step once, none refused; the MCP
    // server fetched its key set once.
    for (method, path, status) in [
        ("GET", "/.well-known/oauth-authorization-server", 200),
        ("POST", "/register", 201),
        ("GET", "/authorize", 302),
        ("POST", "/token", 200),
        ("GET", "/jwks", 200),
    ] {
        assert_eq!(seen(&out, method, path), [status], "{method} {path}: {out}");
    }
    assert_eq!(out["as"].as_array().unwrap().len(), 5, "{out}");
    // The authorization request: PKCE S256, the resource (RFC 8707) the
    // metadata names, and the scopes it lists (the registry's authorities).
    let q = &out["authorize"][0];
    assert_eq!(q["code_challenge_method"], "S256", "{q}");
    assert_eq!(q["resource"], out["url"], "{q}");
    assert_eq!(q["scope"], ALL_SCOPES, "{q}");
    let token = &out["tokens"][0];
    assert_eq!(token["aud"], out["url"], "{token}");
    assert_eq!(token["iss"], out["issuer"], "{token}");
    // The authorization server's own checks refuse what they should, so its
    // 200s above mean something.
    let refuses = &out["refuses"];
    assert_eq!(
        refuses["wrong verifier"],
        json!({"status": 400, "error": "invalid_grant"})
    );
    assert_eq!(
        refuses["another resource"],
        json!({"status": 400, "error": "invalid_target"})
    );
    assert_eq!(refuses["first use"]["status"], 200, "{refuses}");
    assert_eq!(
        refuses["second use"],
        json!({"status": 400, "error": "invalid_grant"})
    );

    // The call ran as the token's subject and tenant.
    let journal = common::toolbox_state(&store, &["journal", "--tool", "read_file"]).unwrap();
    assert_eq!(journal.len(), 1, "{journal:?}");
    assert_eq!(journal[0]["caller"], "ana", "{journal:?}");
    assert_eq!(journal[0]["tenant"], "acme", "{journal:?}");
}

#[test]
fn a_token_short_of_a_tools_scope_is_stepped_up_by_the_sdk_and_the_call_runs_once() {
    let dir = Fixture::standard("oauth-step-up");
    // The person consents to reading only, the first time.
    let (out, store) = discovery(
        &dir,
        json!({"user": {"sub": "bob", "tenant": "globex"},
               "first_grant": "notes:read repo:read",
               "calls": [
                   ["read_file", {"path": "README.md"}],
                   ["post_comment", {"issue": 7, "body": "stepped up",
                                     "request_key": "7d1e5f0a-3b2c-4d4e-8f6a-1b2c3d4e5f60"}]]}),
    );
    assert_eq!(out["results"][0]["status"], "ok", "{out}");
    let env = &out["results"][1];
    assert_eq!(env["status"], "ok", "{out}");
    assert_eq!(env["tool"], "post_comment", "{env}");

    // The call without the scope: 403 insufficient_scope naming it; the SDK
    // authorizes again (no new discovery, no new registration), and sends
    // the call again with the new token.
    let sent = sent(&out);
    let at = sent
        .iter()
        .position(|s| s == "POST MCP/mcp 403")
        .unwrap_or_else(|| panic!("no 403: {sent:#?}"));
    assert_eq!(
        sent[at..at + 3],
        ["POST MCP/mcp 403", "POST AS/token 200", "POST MCP/mcp 200"],
        "{sent:#?}"
    );
    let www = out["client"][at]["www"].as_str().unwrap();
    assert!(
        www.contains("error=\"insufficient_scope\"")
            && www.contains("scope=\"comments:write\"")
            && www.contains("resource_metadata="),
        "{www}"
    );
    for (method, path, statuses) in [
        (
            "GET",
            "/.well-known/oauth-authorization-server",
            vec![200u64],
        ),
        ("POST", "/register", vec![201]),
        ("GET", "/authorize", vec![302, 302]),
        ("POST", "/token", vec![200, 200]),
    ] {
        assert_eq!(seen(&out, method, path), statuses, "{method} {path}: {out}");
    }
    // The first token holds what the person consented to; the step-up asks
    // for the scopes asked before and the one challenged, and gets them.
    assert_eq!(out["tokens"][0]["scope"], "notes:read repo:read");
    let asked = out["authorize"][1]["scope"].as_str().unwrap();
    assert!(
        asked.split(' ').any(|s| s == "comments:write")
            && asked.split(' ').any(|s| s == "repo:read"),
        "{asked}"
    );
    assert_eq!(out["tokens"][1]["scope"], ALL_SCOPES);
    assert_eq!(out["tokens"][1]["sub"], "bob");

    // The refused attempt ran nothing: one comment, journaled once, as bob.
    assert_eq!(outbox_lines(&dir), 1);
    let journal = common::toolbox_state(&store, &["journal", "--tool", "post_comment"]).unwrap();
    assert_eq!(journal.len(), 1, "{journal:?}");
    assert_eq!(journal[0]["caller"], "bob", "{journal:?}");
    assert_eq!(journal[0]["tenant"], "globex", "{journal:?}");
}

#[test]
fn opaque_tokens_are_introspected_remembered_and_refused_closed_when_they_cannot_be_checked() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = Fixture::standard("oauth-introspect");
    const SECRET: &str = "s3cret-of-the-resource-server";
    let mut py = Command::new(python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/introspect.py"))
        .args(["tools-server", SECRET, ISS, AUD])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run introspect.py");
    let mut out = BufReader::new(py.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).expect("read introspect.py");
    let endpoint = json_of(&line)["endpoint"].as_str().unwrap().to_owned();

    // The credentials come from the environment, never the command line.
    let mut child = Command::new(common::toolbox())
        .args(["mcp", "--http", "127.0.0.1:0", "--introspect", &endpoint])
        .args(["--client-id-env", "TEST_INTROSPECT_ID"])
        .args(["--client-secret-env", "TEST_INTROSPECT_SECRET"])
        .args(["--issuer", ISS, "--audience", AUD, "--root"])
        .arg(&dir.root)
        .env("TEST_INTROSPECT_ID", "tools-server")
        .env("TEST_INTROSPECT_SECRET", SECRET)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let url = loop {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the server ended");
        if let Some(url) = line.trim().strip_prefix("toolbox: serving MCP on ") {
            break url.to_owned();
        }
    };
    let logged = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = stderr.read_to_string(&mut rest);
        rest
    });
    writeln!(py.stdin.take().unwrap(), "{url}").unwrap();
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let ok = py.wait().unwrap().success();
    let _ = child.kill();
    let _ = child.wait();
    let logged = logged.join().unwrap();
    assert!(ok, "introspect.py: {rest}");
    let out = json_of(&rest);

    // Honest tokens call tools, through the official client.
    for who in ["ana", "ana again", "bob"] {
        assert_eq!(out[who][0]["status"], "ok", "{who}: {out}");
        assert_eq!(out[who][0]["result"]["content"], "hello hello\n", "{who}");
    }
    // Each refused token: 401 invalid_token naming why, the metadata in the
    // challenge, the token nowhere in the answer.
    for (case, says) in [
        ("inactive", "not active"),
        ("wrong audience", "not meant for this resource"),
        ("no audience", "not meant for this resource"),
        ("wrong issuer", "another issuer"),
        ("expired", "expired"),
        ("no tenant", "names no tenant"),
    ] {
        let a = &out[case];
        assert_eq!(a["status"], 401, "{case}: {a}");
        let www = a["www"].as_str().unwrap_or_default();
        assert!(
            www.contains(METADATA) && www.contains("error=\"invalid_token\"") && www.contains(says),
            "{case}: {www}"
        );
        let token = out["tokens"][case].as_str().unwrap();
        assert!(!a["body"].as_str().unwrap().contains(token), "{case}: {a}");
    }
    let scope = &out["missing scope"];
    assert_eq!(scope["status"], 403, "{scope}");
    assert!(
        scope["www"]
            .as_str()
            .unwrap()
            .contains("error=\"insufficient_scope\", error_description"),
        "{scope}"
    );
    // The endpoint cannot answer for a token (the server's credentials
    // refused, then the endpoint gone): 503, no challenge, nothing served.
    for case in ["after the secret changed", "after the endpoint stopped"] {
        let a = &out[case];
        assert_eq!(a["status"], 503, "{case}: {a}");
        assert!(a["www"].is_null(), "{case}: {a}");
        assert!(
            a["body"]
                .as_str()
                .unwrap()
                .contains("temporarily_unavailable"),
            "{case}: {a}"
        );
    }
    // A token accepted before is remembered (at most a minute): served.
    assert_eq!(out["ana, remembered"]["status"], 200, "{out}");

    // What the endpoint saw: each token once (ana's three sessions and her
    // last request were answered from memory), the form's hint, and the
    // server's credentials, which held until they were changed.
    let seen: Vec<(String, bool)> = out["seen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            assert_eq!(s["hint"], "access_token", "{s}");
            (
                s["token"].as_str().unwrap().to_owned(),
                s["client"].as_bool().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, bool)> = [
        "ana",
        "bob",
        "inactive",
        "wrong audience",
        "no audience",
        "wrong issuer",
        "expired",
        "no tenant",
        "missing scope",
    ]
    .iter()
    .map(|n| (n.to_string(), true))
    .chain([("after the secret changed".to_owned(), false)])
    .collect();
    assert_eq!(seen, expected);

    // Nothing refused ran; neither a token nor the secret is in what the
    // server printed (the runtime's own log, with a subscriber, is checked
    // by `identity::introspect::tests`).
    assert_eq!(outbox_lines(&dir), 0);
    for token in out["tokens"].as_object().unwrap().values() {
        assert!(!logged.contains(token.as_str().unwrap()), "{logged}");
    }
    assert!(!logged.contains(SECRET), "{logged}");
}

/// `toolbox lint --mcp-url` against a server behind OAuth: without a token
/// it says the server asks for one (exit 2), with `--token-env NAME` it
/// reads the token from that variable (never from the command line) and
/// lints the tools; the token is never printed.
#[test]
fn lint_reads_a_server_behind_oauth_with_a_token_from_the_environment() {
    let dir = Fixture::standard("oauth-lint");
    let server = Server::start(&dir, &[]);
    let token = server.token(json!({"scope": "notes:read"}));
    let lint = |env: Option<&str>, extra: &[&str]| {
        let mut c = Command::new(common::toolbox());
        c.args(["lint", "--mcp-url", &server.url]).args(extra);
        c.env_remove("LINT_TOKEN");
        if let Some(t) = env {
            c.env("LINT_TOKEN", t);
        }
        c.output().unwrap()
    };
    let out = lint(None, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the server asks for a bearer token (HTTP/1.1 401")
            && err.contains("--token-env NAME"),
        "{err}"
    );
    let out = lint(None, &["--token-env", "LINT_TOKEN"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--token-env LINT_TOKEN: the variable is not set"),
        "{err}"
    );
    let out = lint(Some(&token), &["--token-env", "LINT_TOKEN"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    // Read (a refused token or an unreadable listing is exit 2, as above):
    // the toolbox's tools over HTTP, with what its own audit finds, which
    // is nothing (their example arguments are data, not claims).
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stdout, "", "{stdout}");
    assert!(!stdout.contains(&token) && !stderr.contains(&token));
}

/// One raw MCP request over HTTP/1.1 on a fresh connection: the status,
/// the `mcp-session-id` the answer names, and the body.
fn mcp_raw(
    addr: &str,
    method: &str,
    token: &str,
    session: Option<&str>,
    body: &str,
) -> (u16, Option<String>, String) {
    let session = session
        .map(|s| format!("mcp-session-id: {s}\r\nmcp-protocol-version: 2025-06-18\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} /mcp HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {token}\r\n\
         accept: application/json, text/event-stream\r\ncontent-type: application/json\r\n\
         {session}content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let (status, out) = http(addr, request);
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let sid = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("mcp-session-id")
            .then(|| v.trim().to_owned())
    });
    (status, sid, body.to_owned())
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// One token opens at most 64 sessions at once (each costs the server
/// memory until it ends: one client took a server from 31 MB to 1.9 GB in
/// a minute); another caller is not held back, and ending one frees its
/// place. Another caller's live session is answered exactly as one that
/// does not exist, so a caller cannot learn which ids are live.
#[test]
fn sessions_are_capped_per_caller_and_anothers_reads_as_unknown() {
    let dir = Fixture::standard("oauth-sessions");
    let server = Server::start(&dir, &[]);
    let addr = host_of(&server.url);
    let ana = server.token(json!({}));
    let mut opened = Vec::new();
    for _ in 0..64 {
        let (status, sid, body) = mcp_raw(&addr, "POST", &ana, None, INIT);
        assert_eq!(status, 200, "{body}");
        opened.push(sid.expect("a session id"));
    }
    let (status, _, body) = mcp_raw(&addr, "POST", &ana, None, INIT);
    assert_eq!(
        (status, body.as_str()),
        (429, "this caller holds the most MCP sessions it may (64): end one (DELETE with its Mcp-Session-Id) or use one it holds")
    );
    let bob = server.token(json!({"sub": "bob"}));
    let (status, _, body) = mcp_raw(&addr, "POST", &bob, None, INIT);
    assert_eq!(status, 200, "another caller opens its own: {body}");

    // Bob sending Ana's live id reads as an id nobody opened.
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let theirs = mcp_raw(&addr, "POST", &bob, Some(&opened[0]), list);
    let nobodys = mcp_raw(
        &addr,
        "POST",
        &bob,
        Some("0f0e0d0c-0b0a-4909-8807-060504030201"),
        list,
    );
    assert_eq!((theirs.0, &theirs.2), (nobodys.0, &nobodys.2));
    assert_eq!(theirs.0, 404);
    let theirs = mcp_raw(&addr, "DELETE", &bob, Some(&opened[0]), "");
    let nobodys = mcp_raw(
        &addr,
        "DELETE",
        &bob,
        Some("0f0e0d0c-0b0a-4909-8807-060504030201"),
        "",
    );
    assert_eq!((theirs.0, &theirs.2), (nobodys.0, &nobodys.2));

    // Ana ends one of hers: she may open one more.
    let (status, _, body) = mcp_raw(&addr, "DELETE", &ana, Some(&opened[0]), "");
    assert!(status < 300, "{status} {body}");
    let (status, _, body) = mcp_raw(&addr, "POST", &ana, None, INIT);
    assert_eq!(status, 200, "{body}");
}

/// A server out of file descriptors goes on: it used to return from its
/// accept loop, and some thousand idle connections (no token needed) ended
/// the process. Started with room for 64 descriptors, it is opened 100
/// connections that send nothing, stays up, and serves once they close.
#[test]
fn idle_connections_past_the_descriptor_limit_do_not_end_the_server() {
    let dir = Fixture::standard("oauth-fds");
    let keys = dir.base.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let keys = keys.to_str().unwrap().to_owned();
    script(&["keys", &keys]);
    let (mut child, url) = common::mcp_http(
        Command::new("prlimit")
            .arg("--nofile=64")
            .arg(common::toolbox())
            .args(["mcp", "--http", "127.0.0.1:0", "--jwks"])
            .arg(format!("{keys}/jwks.json"))
            .args(["--issuer", ISS, "--audience", AUD, "--root"])
            .arg(&dir.root),
    );
    let addr = host_of(&url);
    let idle: Vec<_> = (0..100)
        .filter_map(|_| std::net::TcpStream::connect(&addr).ok())
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let alive = child.try_wait().expect("wait").is_none();
    drop(idle);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let token = script(&["mint", &keys, ISS, AUD, "{}"]);
    let served = alive && mcp_raw(&addr, "POST", &token, None, INIT).0 == 200;
    let _ = child.kill();
    let _ = child.wait();
    assert!(alive, "the server ended with its descriptors used up");
    assert!(
        served,
        "the server did not serve once the idle connections closed"
    );
}

/// A refused request's body is never read, so the server closes the
/// connection after the 401; the answer says so (`Connection: close`), or a
/// client that reuses the connection fails its next request (10 to 47 of
/// 200 did).
#[test]
fn a_refusal_says_the_connection_closes() {
    let dir = Fixture::standard("oauth-close");
    let server = Server::start(&dir, &[]);
    let addr = host_of(&server.url);
    for token in ["", "not-a-token"] {
        let (status, _, _) = mcp_raw(&addr, "POST", token, None, INIT);
        assert_eq!(status, 401);
        let request = format!(
            "POST /mcp HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {token}\r\n\
             content-type: application/json\r\ncontent-length: {}\r\n\r\n{INIT}",
            INIT.len()
        );
        let (_, out) = http(&addr, request);
        let head = out.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
        assert!(head.contains("\r\nconnection: close"), "{head}");
    }
}
