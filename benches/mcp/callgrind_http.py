#!/usr/bin/env python3
"""Instructions per `tools/call` of each streamable-HTTP server of
benches/mcp (bare rmcp and contract_runtime::mcp), under callgrind, as
benches/mcp/callgrind.sh measures stdio: per call = (Ir at N2 - Ir at N1)
/ (N2 - N1), so start-up, the session's `initialize` and the shutdown
cancel out. One client, one connection, one session, calls one after
another: instructions do not depend on the machine's load, where
calls per second do.

    python3 benches/mcp/callgrind_http.py BIN [N1 N2] [--dump DIR] [--client]
        [--cache | --lines] [--servers floor,bare,contract-handler,contract]

BIN is the bench executable (`benches/bench_exe.sh mcp -p mcp-bench`).
With --dump DIR, the N2 run of each server keeps its callgrind profile
(DIR/SERVER.callgrind) for callgrind_annotate.

With --client, the load generator's side instead: `BIN client SERVER N`
(one session, the calls of `cargo bench -p mcp-bench -- http`'s clients)
under callgrind, the server it starts not traced: what one client spends
per call on each server's answers, on the machine's other core.

With --cache, cachegrind instead of callgrind, with small simulated
caches: instructions, and the misses of the last level (code, and all) per
call.

With --lines, callgrind with --dump-instr=yes: the lines of code (64
bytes) every call runs, counted exactly (a line whose instructions grow by
at least one per call between the N1 and N2 runs). Unlike --cache it does
not depend on how valgrind interleaved the threads, so two builds compare
in any two runs.

--servers names the servers (default bare,contract; the first is the one
the others are compared to).
"""
import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import tempfile
import threading

# a revision whose streams both servers open with a priming event (the
# contract's server sends it only from 2025-11-25): the same work in each
PROTOCOL = "2025-11-25"
QUERIES = ["kv cache", "tool", "zebra"]


def post(conn, body, session=None):
    headers = {
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL,
    }
    if session:
        headers["mcp-session-id"] = session
    conn.request("POST", "/mcp", body=json.dumps(body), headers=headers)
    answer = conn.getresponse()
    text = answer.read().decode()
    assert answer.status in (200, 202), (answer.status, text)
    return answer, text


# --cache: cachegrind with small simulated caches (4 KiB first level, 256
# KiB last level), so that what a call touches is counted as misses: a
# proxy for the distinct lines of code and data a call needs, which is what
# one client's latency follows where the caches are cold at each call
# (docs/performance.md, "The one-client gap").
CACHE = ["--tool=cachegrind", "--cache-sim=yes", "--I1=4096,2,64", "--D1=4096,2,64",
         "--LL=262144,8,64"]
EVENTS = ["I refs", "LLi misses", "LL misses"]


def code_lines(path):
    """Instructions executed per (object, 64-byte line of code), read from a
    callgrind profile written with --dump-instr=yes."""
    lines = {}
    names = {}
    ob, addr, skip = None, 0, False
    with open(path) as f:
        for row in f:
            head = row[:1]
            if row.startswith("ob="):
                ref, _, name = row[3:].strip().partition(" ")
                if name:
                    names[ref] = name
                ob = names.get(ref, ref)
            elif row.startswith("calls="):
                skip = True  # the next cost line is the call's inclusive cost
            elif head in "0123456789+-*":
                first, *rest = row.split()
                if first.startswith("0x"):
                    addr = int(first, 16)
                elif first[0] in "+-":
                    addr += int(first)
                if skip:
                    skip = False
                    continue
                key = (ob, addr >> 6)
                lines[key] = lines.get(key, 0) + int(rest[-1])
    return lines


def run(bin, server, n, out, cache=False, lines=False):
    tool = CACHE + [f"--cachegrind-out-file={out}"] if cache else [
        "--tool=callgrind", f"--callgrind-out-file={out}"] + (["--dump-instr=yes"] if lines else [])
    p = subprocess.Popen(
        ["valgrind", *tool, bin, "serve", server, "http"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = []
    reader = threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True)
    reader.start()
    addr = p.stdout.readline().decode().strip()
    assert addr, "the server printed no address"
    host, port = addr.rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=120)
    answer, _ = post(conn, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "cg", "version": "0"}}})
    session = answer.getheader("mcp-session-id")
    post(conn, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    for i in range(n):
        _, text = post(conn, {"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {
            "name": "search_notes", "arguments": {"query": QUERIES[i % 3]}}}, session)
        # Every answer checked: a server that failed fast would look cheap.
        assert '"isError":false' in text, text[:400]
    conn.close()
    p.send_signal(signal.SIGTERM)
    p.wait()
    reader.join()
    text = b"".join(err)
    if cache:
        counts = {}
        for event in EVENTS:
            got = re.search(event.replace(" ", r"\s+").encode() + rb":\s+([\d,]+)", text)
            assert got, text[-2000:].decode(errors="replace")
            counts[event] = int(got.group(1).replace(b",", b""))
        return counts
    got = re.search(rb"Collected : (\d+)", text)
    assert got, text[-2000:].decode(errors="replace")
    return int(got.group(1))


def run_client(bin, server, n):
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", bin, "client", server, str(n)],
        capture_output=True)
    got = re.search(rb"Collected : (\d+)", p.stderr)
    assert p.returncode == 0 and got, p.stderr[-2000:].decode(errors="replace")
    return int(got.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bin")
    ap.add_argument("n1", nargs="?", type=int, default=200)
    ap.add_argument("n2", nargs="?", type=int, default=1000)
    ap.add_argument("--dump", metavar="DIR")
    ap.add_argument("--servers", default="bare,contract")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--client", action="store_true")
    mode.add_argument("--cache", action="store_true")
    mode.add_argument("--lines", action="store_true")
    a = ap.parse_args()
    if a.dump:
        os.makedirs(a.dump, exist_ok=True)
    bin, n1, n2 = a.bin, a.n1, a.n2
    servers = a.servers.split(",")
    per = {}
    for server in servers:
        if a.client:
            per[server] = (run_client(bin, server, n2) - run_client(bin, server, n1)) // (n2 - n1)
            print(f"{server:<17} {per[server]:>8} client instructions/call")
            continue
        if a.lines:
            with tempfile.TemporaryDirectory() as tmp:
                run(bin, server, n1, f"{tmp}/a", lines=True)
                run(bin, server, n2, f"{tmp}/b", lines=True)
                before, after = code_lines(f"{tmp}/a"), code_lines(f"{tmp}/b")
            # A line of code a call runs: its instructions grow with the
            # calls, by at least one per call.
            per[server] = sum(1 for k, v in after.items() if v - before.get(k, 0) >= n2 - n1)
            print(f"{server:<17} {per[server]:>8} lines of code (64 bytes) run by every call")
            continue
        if a.cache:
            before = run(bin, server, n1, "/dev/null", cache=True)
            after = run(bin, server, n2, "/dev/null", cache=True)
            each = {e: (after[e] - before[e]) / (n2 - n1) for e in EVENTS}
            print(f"{server:<17} " + ", ".join(f"{each[e]:>9.0f} {e}" for e in EVENTS) + " per call")
            continue
        before = run(bin, server, n1, "/dev/null")
        after = run(bin, server, n2, f"{a.dump}/{server}.callgrind" if a.dump else "/dev/null")
        per[server] = (after - before) // (n2 - n1)
        print(f"{server:<17} {per[server]:>8} instructions/call")
    what = "lines of code" if a.lines else "instructions"
    for server in servers[1:] if per else []:
        print(f"{server}/{servers[0]} {what}: {per[server] / per[servers[0]]:.2f}x")


if __name__ == "__main__":
    main()
