#!/usr/bin/env bash
# Instructions per tools/call of each stdio server of benches/mcp (bare rmcp
# and contract_runtime::mcp), under callgrind: noise-free where wall-clock on
# a shared machine is not. Per call = (Ir at N2 - Ir at N1) / (N2 - N1), so
# start-up and the handshake cancel out. The driver writes every request at
# once and closes stdin only after the last answer (closing earlier would end
# the server with calls in flight).
#
#   bash benches/mcp/callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

N1=${N1:-1000}
N2=${N2:-5000}
BIN=$(benches/bench_exe.sh mcp -p mcp-bench)

ir() { # ir SERVER N -> total instructions
  python3 - "$BIN" "$1" "$2" <<'PY'
import json, re, subprocess, sys, threading
bin, server, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = subprocess.Popen(
    ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", bin, "serve", server, "stdio"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
err = []
reader = threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True)
reader.start()
q = ["kv cache", "tool", "zebra"]
lines = [json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "cg", "version": "0"}}}),
    '{"jsonrpc":"2.0","method":"notifications/initialized"}']
lines += [json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
    "params": {"name": "search_notes", "arguments": {"query": q[i % 3]}}}) for i in range(n)]
def feed():
    p.stdin.write(("\n".join(lines) + "\n").encode()); p.stdin.flush()
threading.Thread(target=feed, daemon=True).start()
for _ in range(n + 1):
    line = p.stdout.readline()
    assert line, "the server ended early"
p.stdin.close(); p.wait(); reader.join()
print(re.search(rb"Collected : (\d+)", b"".join(err)).group(1).decode())
PY
}

declare -A per
for s in bare contract; do
  a=$(ir "$s" "$N1")
  b=$(ir "$s" "$N2")
  per[$s]=$(((b - a) / (N2 - N1)))
  printf '%-9s %8d instructions/call\n' "$s" "${per[$s]}"
done
python3 -c "print(f'contract/bare instructions: {${per[contract]}/${per[bare]}:.2f}x')"
