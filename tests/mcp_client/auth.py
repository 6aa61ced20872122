"""Bearer tokens against `toolbox mcp --http --jwks`: keys made here, tokens
minted here with PyJWT (a JOSE library independent of the server's), the
attacks sent as raw HTTP requests, and the honest calls through the official
MCP client with the token in its `Authorization` header.

    python auth.py keys DIR                     # DIR/jwks.json (an RSA and an EC key) and the private keys
    python auth.py mint DIR ISS AUD CLAIMS      # one valid token (ES256, kid ec-1), CLAIMS a JSON object over the defaults
    python auth.py attacks URL DIR ISS AUD      # one JSON object: each attack's answer (status, WWW-Authenticate, body)
    python auth.py session URL TOKEN CALLS      # CALLS a JSON array of [name, arguments]; one session, the
                                                # structuredContent of each answer, as a JSON array

The Rust test (tests/mcp_oauth.rs) starts the server, runs these and
asserts what they print, and counts the effects on disk.
"""

import base64
import hashlib
import hmac
import json
import sys
import time

import anyio
import httpx2
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

ALL = "notes:read notes:write comments:write repo:read repo:write filings:read"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def pem(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def keys(d: str) -> dict:
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_jwk = RSAAlgorithm.to_jwk(rsa_key.public_key(), as_dict=True)
    rsa_jwk.update(kid="rsa-1", use="sig", alg="RS256")
    ec_jwk = ECAlgorithm.to_jwk(ec_key.public_key(), as_dict=True)
    ec_jwk.update(kid="ec-1", use="sig", alg="ES256")
    with open(f"{d}/jwks.json", "w") as f:
        json.dump({"keys": [rsa_jwk, ec_jwk]}, f)
    for name, k in [("rsa", rsa_key), ("ec", ec_key), ("stranger", stranger)]:
        with open(f"{d}/{name}.pem", "wb") as f:
            f.write(pem(k))
    with open(f"{d}/rsa.pub.pem", "wb") as f:
        f.write(
            rsa_key.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )
    return {}


def claims(iss: str, aud: str, /, **over) -> dict:
    now = int(time.time())
    c = {"iss": iss, "aud": aud, "sub": "ana", "tenant": "acme", "scope": ALL,
         "iat": now, "exp": now + 600}
    c.update(over)
    return {k: v for k, v in c.items() if v is not None}


def read(d: str, name: str) -> bytes:
    with open(f"{d}/{name}", "rb") as f:
        return f.read()


def mint(d: str, iss: str, aud: str, over: str) -> str:
    return jwt.encode(claims(iss, aud, **json.loads(over)), read(d, "ec.pem"),
                      algorithm="ES256", headers={"kid": "ec-1"})


def attacks(url: str, d: str, iss: str, aud: str) -> dict:
    rsa_pem, stranger_pem, public_pem = read(d, "rsa.pem"), read(d, "stranger.pem"), read(d, "rsa.pub.pem")
    now = int(time.time())

    def token(key=rsa_pem, alg="RS256", kid="rsa-1", **over):
        return jwt.encode(claims(iss, aud, **over), key, algorithm=alg, headers={"kid": kid})

    def hand_made(alg: str, key: bytes | None) -> str:
        # PyJWT refuses to sign HS256 with a PEM public key (its own guard
        # against this attack), so the token is put together by hand.
        head = b64(json.dumps({"alg": alg, "typ": "JWT", "kid": "rsa-1"}).encode())
        body = b64(json.dumps(claims(iss, aud)).encode())
        signing = f"{head}.{body}".encode()
        sig = b64(hmac.new(key, signing, hashlib.sha256).digest()) if key else ""
        return f"{head}.{body}.{sig}"

    good = token()
    h, _, s = good.split(".")
    tampered = f"{h}.{b64(json.dumps(claims(iss, aud, sub='root', tenant='globex')).encode())}.{s}"
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "post_comment",
                       "arguments": {"issue": 1, "body": "from an attacker",
                                     "request_key": "0b9f7a52-8c1e-4e5b-9a53-2f6d0c1e7a10"}}}
    headers = {"Accept": "application/json, text/event-stream",
               "Content-Type": "application/json"}

    def raw(tok, body=call, extra=None):
        h = dict(headers)
        if tok is not None:
            h["Authorization"] = f"Bearer {tok}"
        h.update(extra or {})
        r = httpx2.post(url, headers=h, content=json.dumps(body), timeout=30)
        return {"status": r.status_code, "www": r.headers.get("www-authenticate"),
                "body": r.text, "session": r.headers.get("mcp-session-id")}

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}

    out = {
        "no token": raw(None),
        "expired": raw(token(exp=now - 3600, iat=now - 7200)),
        "not yet valid": raw(token(nbf=now + 3600)),
        "wrong issuer": raw(token(iss="https://evil.test")),
        "wrong audience": raw(token(aud="https://other.test/mcp")),
        "alg none": raw(hand_made("none", None)),
        "HS256 keyed with the public key": raw(hand_made("HS256", public_pem)),
        "tampered payload": raw(tampered),
        "unknown kid": raw(token(key=stranger_pem, kid="rsa-2")),
        "a stranger's key under a known kid": raw(token(key=stranger_pem)),
        "oversized token": raw(token(padding="x" * 20000)),
        "no tenant claim": raw(token(tenant=None)),
        "missing scope": raw(token(scope="notes:read")),
        "missing scope, 2026-07-28": raw(token(scope="notes:read"),
                                         extra={"Mcp-Protocol-Version": "2026-07-28"}),
        "valid (RS256)": raw(good, body=init),
    }
    # A session is its opener's: another caller sending its id is answered
    # as for a session that does not exist.
    sid = out["valid (RS256)"]["session"]
    versioned = {"Mcp-Session-Id": sid or "", "Mcp-Protocol-Version": "2025-06-18"}
    out["another caller with ana's session"] = raw(
        token(sub="bob", tenant="globex"), body={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        extra=versioned)
    out["ana with her session"] = raw(
        good, body={"jsonrpc": "2.0", "method": "notifications/initialized"}, extra=versioned)
    for path in ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]:
        meta = httpx2.get(url.replace("/mcp", path), timeout=30)
        out[path] = {"status": meta.status_code, "body": meta.json()}
    return out


async def session(url: str, token: str, calls: list) -> list:
    client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30)
    results = []
    async with client:
        async with streamable_http_client(url, http_client=client) as (read_s, write_s):
            async with ClientSession(read_s, write_s) as s:
                await s.initialize()
                for name, args in calls:
                    r = await s.call_tool(name, args)
                    results.append(r.structured_content)
    return results


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "keys":
        print(json.dumps(keys(*args)))
    elif cmd == "mint":
        print(mint(*args))
    elif cmd == "attacks":
        print(json.dumps(attacks(*args)))
    elif cmd == "session":
        print(json.dumps(anyio.run(session, args[0], args[1], json.loads(args[2]))))
    else:
        sys.exit(f"unknown command {cmd}")
