"""The whole OAuth discovery flow of MCP's authorization spec, from a client
with no token: the official MCP client's `OAuthClientProvider` against
`toolbox mcp --http --jwks URL`, and a small authorization server run here.

    python oauth_flow.py SCENARIO

SCENARIO is a JSON object: `user` (the claims the authorization server
puts in every token it mints: `sub`, `tenant`), `first_grant` (when set, the
scopes the person consents to at the first authorization, whatever was
asked; later ones grant what is asked) and `calls` (a JSON array of
[name, arguments]).

The script starts the authorization server on a free loopback port and
prints one line, `{"issuer": ..., "jwks": ...}`; it then reads one line
from stdin, the MCP server's URL (the server is started with that issuer,
that key set and its own URL as the audience), runs the calls in one
session through the SDK, and prints one JSON object: `results` (each
call's structuredContent, or the error that ended the session), `client`
(every request the SDK's HTTP client sent, in order: method, URL, status
and any `WWW-Authenticate`),
`as` (every request the authorization server answered: method, path,
status, and why when it refused), `authorize` (the query of each
authorization request), `tokens` (the claims of each token minted) and
`refuses` (the server's own checks, run at the end: a wrong PKCE verifier,
another resource, a reused code, each refused).

The authorization server (RFC 8414 metadata, RFC 7591 registration,
`/authorize` with automatic consent, `/token` checking PKCE S256 and the
RFC 8707 `resource`, `/jwks`) signs RS256 tokens with PyJWT and a key made
here. The Rust test (tests/mcp_oauth.rs) starts the MCP server between
the two lines and asserts what this prints.
"""

import base64
import hashlib
import json
import secrets
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

import anyio
import httpx2
import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from mcp import ClientSession
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

REDIRECT_URI = "http://127.0.0.1:33418/callback"


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class AuthorizationServer:
    """One issuer: its key, its registered clients, its codes, and a log of
    every request it answered."""

    def __init__(self, user: dict, first_grant: str | None):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        jwk = RSAAlgorithm.to_jwk(self.key.public_key(), as_dict=True)
        jwk.update(kid="as-1", use="sig", alg="RS256")
        self.jwks = {"keys": [jwk]}
        self.user = user
        self.first_grant = first_grant
        self.resource: str | None = None  # the MCP server's URL, once known
        self.clients: dict[str, dict] = {}
        self.codes: dict[str, dict] = {}
        self.log: list[dict] = []
        self.authorize_queries: list[dict] = []
        self.minted: list[dict] = []
        self.lock = threading.Lock()
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self.issuer = f"http://127.0.0.1:{self.http.server_address[1]}"

    def metadata(self) -> dict:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "registration_endpoint": f"{self.issuer}/register",
            "jwks_uri": f"{self.issuer}/jwks",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
        }

    # Each endpoint: (status, headers, JSON body or None); a refusal is a
    # 400 with the RFC 6749 error, and its reason goes in the log.

    def register(self, body: dict):
        uris = body.get("redirect_uris")
        if not isinstance(uris, list) or not uris:
            return 400, {}, {"error": "invalid_redirect_uri", "error_description": "no redirect_uris"}
        if body.get("token_endpoint_auth_method", "none") != "none":
            return 400, {}, {"error": "invalid_client_metadata",
                             "error_description": "only public clients (token_endpoint_auth_method none)"}
        client_id = "client-" + secrets.token_hex(8)
        record = {"client_id": client_id, "client_id_issued_at": int(time.time()),
                  "redirect_uris": uris, "token_endpoint_auth_method": "none",
                  "grant_types": ["authorization_code"], "response_types": ["code"]}
        self.clients[client_id] = record
        return 201, {}, record

    def authorize(self, q: dict):
        self.authorize_queries.append(q)
        client = self.clients.get(q.get("client_id", ""))
        if client is None:
            return 400, {}, {"error": "invalid_client", "error_description": "unknown client_id"}
        if q.get("redirect_uri") not in client["redirect_uris"]:
            return 400, {}, {"error": "invalid_request", "error_description": "redirect_uri not registered"}
        if q.get("response_type") != "code":
            return 400, {}, {"error": "unsupported_response_type", "error_description": "only code"}
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return 400, {}, {"error": "invalid_request", "error_description": "PKCE S256 is required"}
        if q.get("resource") != self.resource:
            return 400, {}, {"error": "invalid_target", "error_description": f"resource {q.get('resource')!r}"}
        asked = q.get("scope", "").split()
        # The person consents: to what the first grant allows the first
        # time, to everything asked later (a step-up).
        if self.first_grant is not None and not self.codes:
            granted = [s for s in asked if s in self.first_grant.split()]
        else:
            granted = asked
        code = secrets.token_urlsafe(24)
        self.codes[code] = {"client_id": client["client_id"], "redirect_uri": q["redirect_uri"],
                            "challenge": q["code_challenge"], "resource": q["resource"],
                            "scope": " ".join(granted), "used": False}
        location = q["redirect_uri"] + "?" + urlencode({"code": code, "state": q.get("state", "")})
        return 302, {"Location": location}, None

    def token(self, form: dict):
        if form.get("grant_type") != "authorization_code":
            return 400, {}, {"error": "unsupported_grant_type", "error_description": "only authorization_code"}
        grant = self.codes.get(form.get("code", ""))
        if grant is None or grant["used"]:
            return 400, {}, {"error": "invalid_grant", "error_description": "unknown or used code"}
        if form.get("client_id") != grant["client_id"] or form.get("redirect_uri") != grant["redirect_uri"]:
            return 400, {}, {"error": "invalid_grant", "error_description": "client or redirect_uri differs"}
        if s256(form.get("code_verifier", "")) != grant["challenge"]:
            return 400, {}, {"error": "invalid_grant", "error_description": "PKCE verifier does not match"}
        if form.get("resource") != grant["resource"]:
            return 400, {}, {"error": "invalid_target", "error_description": "resource differs from the authorization's"}
        grant["used"] = True
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": grant["resource"], "scope": grant["scope"],
                  "client_id": grant["client_id"], "iat": now, "exp": now + 600, **self.user}
        self.minted.append(claims)
        token = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": "as-1"})
        return 200, {"Cache-Control": "no-store"}, {"access_token": token, "token_type": "Bearer",
                                                     "expires_in": 600, "scope": grant["scope"]}

    def handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_):
                pass

            def answer(self, method: str, status: int, headers: dict, body):
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                if body is not None:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                entry = {"method": method, "path": urlparse(self.path).path, "status": status}
                if status >= 400 and body:
                    entry["why"] = body.get("error_description", body.get("error"))
                with server.lock:
                    server.log.append(entry)

            def do_GET(self):
                url = urlparse(self.path)
                with server.lock:
                    if url.path == "/.well-known/oauth-authorization-server":
                        out = 200, {}, server.metadata()
                    elif url.path == "/jwks":
                        out = 200, {}, server.jwks
                    elif url.path == "/authorize":
                        out = server.authorize({k: v[0] for k, v in parse_qs(url.query).items()})
                    else:
                        out = 404, {}, {"error": "not_found"}
                self.answer("GET", *out)

            def do_POST(self):
                url = urlparse(self.path)
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with server.lock:
                    if url.path == "/register":
                        try:
                            body = json.loads(raw)
                        except ValueError:
                            body = None
                        out = server.register(body) if isinstance(body, dict) else (
                            400, {}, {"error": "invalid_client_metadata", "error_description": "not JSON"})
                    elif url.path == "/token":
                        form = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
                        out = server.token(form)
                    else:
                        out = 404, {}, {"error": "not_found"}
                self.answer("POST", *out)

        return Handler

    def refuses(self) -> dict:
        """The server's own checks, each expected to refuse: what it
        answers a wrong verifier, another resource, a code used twice."""
        client = self.register({"redirect_uris": [REDIRECT_URI]})[2]["client_id"]
        verifier = secrets.token_urlsafe(48)

        def code():
            q = {"response_type": "code", "client_id": client, "redirect_uri": REDIRECT_URI,
                 "state": "s", "code_challenge": s256(verifier), "code_challenge_method": "S256",
                 "resource": self.resource, "scope": "repo:read"}
            r = httpx2.get(f"{self.issuer}/authorize?{urlencode(q)}", timeout=30)
            return parse_qs(urlparse(r.headers["location"]).query)["code"][0]

        def token(**over):
            form = {"grant_type": "authorization_code", "client_id": client,
                    "redirect_uri": REDIRECT_URI, "code_verifier": verifier, "resource": self.resource}
            form.update(over)
            r = httpx2.post(f"{self.issuer}/token", data=form, timeout=30)
            return {"status": r.status_code, "error": r.json().get("error")}

        out = {"wrong verifier": token(code=code(), code_verifier=secrets.token_urlsafe(48)),
               "another resource": token(code=code(), resource="http://127.0.0.1:1/mcp")}
        c = code()
        out["first use"] = token(code=c)
        out["second use"] = token(code=c)
        return out


class Memory:
    """The SDK's token storage, in memory."""

    def __init__(self):
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


async def run(url: str, calls: list) -> tuple[list, list]:
    sent: list[dict] = []
    redirected: list[str] = []

    async def note(response: httpx2.Response):
        entry = {"method": response.request.method, "url": str(response.request.url),
                 "status": response.status_code}
        if "www-authenticate" in response.headers:
            entry["www"] = response.headers["www-authenticate"]
        sent.append(entry)

    async def redirect_handler(authorization_url: str) -> None:
        # The person's browser: it opens the authorization URL; the server
        # consents at once and redirects to the client's callback.
        async with httpx2.AsyncClient(timeout=30) as browser:
            r = await browser.get(authorization_url)
        redirected.append(r.headers.get("location") or f"HTTP {r.status_code}: {r.text}")

    async def callback_handler() -> AuthorizationCodeResult:
        q = parse_qs(urlparse(redirected[-1]).query)
        if "code" not in q:
            raise RuntimeError(f"the authorization server did not redirect with a code: {redirected[-1]}")
        return AuthorizationCodeResult(code=q["code"][0], state=q.get("state", [None])[0])

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(client_name="oauth_flow.py", redirect_uris=[REDIRECT_URI],
                                            token_endpoint_auth_method="none",
                                            grant_types=["authorization_code"]),
        storage=Memory(),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    results: list = []
    client = httpx2.AsyncClient(auth=provider, timeout=30, event_hooks={"response": [note]})
    try:
        async with client:
            async with streamable_http_client(url, http_client=client) as (read_s, write_s):
                async with ClientSession(read_s, write_s) as s:
                    await s.initialize()
                    for name, args in calls:
                        r = await s.call_tool(name, args)
                        results.append(r.structured_content)
    except BaseException as e:  # noqa: BLE001 - what ended the session is the result
        results.append({"exception": describe(e)})
    return results, sent


def describe(e: BaseException) -> str:
    """What ended the session: the exception, and for a task group's
    `ExceptionGroup` each exception inside it, with the line that raised
    it (the group's own text says only how many there were)."""
    if isinstance(e, BaseExceptionGroup):
        return "; ".join(describe(inner) for inner in e.exceptions)
    where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
    at = f" (at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno})" if where else ""
    return f"{type(e).__name__}: {e}{at}"


def main():
    scenario = json.loads(sys.argv[1])
    server = AuthorizationServer(scenario.get("user", {"sub": "ana", "tenant": "acme"}),
                                 scenario.get("first_grant"))
    threading.Thread(target=server.http.serve_forever, daemon=True).start()
    print(json.dumps({"issuer": server.issuer, "jwks": f"{server.issuer}/jwks"}), flush=True)
    url = sys.stdin.readline().strip()
    server.resource = url
    results, sent = anyio.run(run, url, scenario["calls"])
    with server.lock:
        seen = list(server.log)
        authorize = list(server.authorize_queries)
        minted = list(server.minted)
    refuses = server.refuses()
    print(json.dumps({"results": results, "client": sent, "as": seen, "authorize": authorize,
                      "tokens": minted, "refuses": refuses}))
    server.http.shutdown()


if __name__ == "__main__":
    main()
