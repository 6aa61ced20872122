"""Opaque bearer tokens against `toolbox mcp --http --introspect`: an RFC 7662
introspection endpoint run here, which knows each token it made and checks
the resource server's client credentials (HTTP Basic), the honest calls sent
by the official MCP client, the rest as raw HTTP requests.

    python introspect.py ID SECRET ISS AUD

prints one line, `{"endpoint": ...}`, reads the MCP server's URL from stdin
(the server is started with that endpoint, the client ID and SECRET in
environment variables, ISS and AUD), then prints one JSON object: each
case's answer (status, WWW-Authenticate, body; the envelopes of a session),
`tokens` (each case's token, so the test can look for it where it must not
be) and `seen` (every introspection request the endpoint answered: which
token, by its case name, and whether the client's credentials held).

The Rust test (tests/mcp_oauth.rs) asserts what this prints.
"""

import base64
import json
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import anyio
import httpx2

from auth import ALL, session


def main():
    client_id, secret, iss, aud = sys.argv[1:5]
    now = int(time.time())
    good = {"active": True, "iss": iss, "aud": aud, "sub": "ana", "tenant": "acme", "scope": ALL,
            "exp": now + 600, "token_type": "Bearer"}
    cases = {
        "ana": good,
        "bob": {**good, "sub": "bob", "tenant": "globex", "aud": [aud, "https://other.test"]},
        "inactive": {"active": False},
        "wrong audience": {**good, "aud": "https://other.test/mcp"},
        "no audience": {k: v for k, v in good.items() if k != "aud"},
        "wrong issuer": {**good, "iss": "https://evil.test"},
        "expired": {**good, "exp": now - 60},
        "no tenant": {k: v for k, v in good.items() if k != "tenant"},
        "missing scope": {**good, "scope": "notes:read"},
        "after the secret changed": good,
        "after the endpoint stopped": good,
    }
    tokens = {name: "opaque-" + secrets.token_urlsafe(24) for name in cases}
    by_token = {t: name for name, t in tokens.items()}
    state = {"secret": secret}
    seen = []
    lock = threading.Lock()

    class Endpoint(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            form = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
            expected = "Basic " + base64.b64encode(f"{client_id}:{state['secret']}".encode()).decode()
            ok = self.headers.get("Authorization") == expected
            name = by_token.get(form.get("token", ""), "unknown")
            with lock:
                seen.append({"token": name, "client": ok, "hint": form.get("token_type_hint")})
            if not ok:
                status, body = 401, {"error": "invalid_client"}
            else:
                status, body = 200, cases.get(name, {"active": False})
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    http = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(json.dumps({"endpoint": f"http://127.0.0.1:{http.server_address[1]}/introspect"}), flush=True)
    url = sys.stdin.readline().strip()

    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "post_comment",
                       "arguments": {"issue": 1, "body": "from a refused token",
                                     "request_key": "2c4e6a80-1b3d-4f5a-9c7e-0d2f4b6a8c1e"}}}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}

    def raw(name, body=call):
        r = httpx2.post(url, headers={"Accept": "application/json, text/event-stream",
                                      "Content-Type": "application/json",
                                      "Authorization": f"Bearer {tokens[name]}"},
                        content=json.dumps(body), timeout=30)
        return {"status": r.status_code, "www": r.headers.get("www-authenticate"), "body": r.text}

    out = {}
    read = [["read_file", {"path": "README.md"}]]
    out["ana"] = anyio.run(session, url, tokens["ana"], read)
    out["ana again"] = anyio.run(session, url, tokens["ana"], read)
    out["bob"] = anyio.run(session, url, tokens["bob"], read)
    for name in ["inactive", "wrong audience", "no audience", "wrong issuer", "expired", "no tenant",
                 "missing scope"]:
        out[name] = raw(name)
    # The resource server's credentials stop holding: a token not seen
    # before cannot be checked.
    state["secret"] = "rotated-" + secrets.token_hex(4)
    out["after the secret changed"] = raw("after the secret changed", init)
    # The endpoint goes away: a new token cannot be checked; one accepted
    # before is still remembered.
    http.shutdown()
    http.server_close()
    out["after the endpoint stopped"] = raw("after the endpoint stopped", init)
    out["ana, remembered"] = raw("ana", init)
    with lock:
        out["seen"] = list(seen)
    out["tokens"] = tokens
    print(json.dumps(out))


if __name__ == "__main__":
    main()
