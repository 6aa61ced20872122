#!/usr/bin/env python3
"""Allocations per `tools/call` of each streamable-HTTP server of
benches/mcp, as callgrind_http.py counts instructions: the marginal cost
per call between N1 and N2 calls of one session (start-up, `initialize`
and shutdown cancel out), independent of the machine's load.

    python3 benches/mcp/alloc_http.py BIN [N1 N2] [SERVER...]

Per call, for each server (bare and contract unless named):
- blocks and bytes allocated (valgrind's DHAT);
- calls of malloc, realloc and malloc_consolidate, glibc's slow path that
  merges freed small blocks (callgrind, counted from its call graph);
- instructions (callgrind), and the mean size of the answer's body.
"""
import re
import signal
import subprocess
import sys
import threading
import http.client

import callgrind_http as cg

COUNTED = ["malloc", "realloc", "malloc_consolidate"]


def session(cmd, n):
    """Runs `cmd` (a server under valgrind), makes n calls; its stderr and
    the mean answer size."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = []
    reader = threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True)
    reader.start()
    host, port = p.stdout.readline().decode().strip().rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=300)
    answer, _ = cg.post(conn, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": cg.PROTOCOL, "capabilities": {}, "clientInfo": {"name": "alloc", "version": "0"}}})
    sid = answer.getheader("mcp-session-id")
    cg.post(conn, {"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
    size = 0
    for i in range(n):
        _, text = cg.post(conn, {"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {
            "name": "search_notes", "arguments": {"query": cg.QUERIES[i % 3]}}}, sid)
        assert '"isError":false' in text, text[:400]
        if i < 3:
            size += len(text.encode())
    conn.close()
    p.send_signal(signal.SIGTERM)
    p.wait()
    reader.join()
    return b"".join(err).decode(errors="replace"), size / 3


def calls_to(path):
    """Calls of each COUNTED function in a callgrind profile (names are
    compressed: `(id) name` once, `(id)` after, shared by fn= and cfn=)."""
    names, total, target = {}, dict.fromkeys(COUNTED, 0), None
    for line in open(path, errors="replace"):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
        if m:
            if m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("cfn="):
                target = names.get(m.group(1))
        elif line.startswith("calls=") and target is not None:
            if target in total:
                total[target] += int(line.split("=")[1].split()[0])
            target = None
    return total


def measure(bin, server, n):
    out = f"/tmp/alloc_http.{server}.{n}.callgrind"
    err, size = session(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", bin, "serve", server, "http"], n)
    got = dict(instructions=int(re.search(r"Collected : (\d+)", err).group(1)), size=size, **calls_to(out))
    err, _ = session(["valgrind", "--tool=dhat", "--dhat-out-file=/dev/null", bin, "serve", server, "http"], n)
    m = re.search(r"Total:\s+([\d,]+) bytes in ([\d,]+) blocks", err)
    got["bytes"], got["blocks"] = (int(x.replace(",", "")) for x in m.groups())
    return got


def main():
    args = sys.argv[1:]
    bin = args[0]
    n1, n2 = (int(args[1]), int(args[2])) if len(args) >= 3 else (100, 600)
    for server in args[3:] or ["bare", "contract"]:
        a, b = measure(bin, server, n1), measure(bin, server, n2)
        per = {k: (b[k] - a[k]) / (n2 - n1) for k in ["blocks", "bytes", "instructions", *COUNTED]}
        print(f"{server:<14} blocks {per['blocks']:6.1f}  bytes {per['bytes']:7.0f}  "
              f"malloc {per['malloc']:6.1f}  realloc {per['realloc']:5.2f}  "
              f"malloc_consolidate {per['malloc_consolidate']:5.2f}  "
              f"instructions {per['instructions']:8.0f}  answer {b['size']:.0f} B", flush=True)


if __name__ == "__main__":
    main()
