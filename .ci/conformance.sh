#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, the
# version pinned in .ci/conformance/package.json and its lock file) against
# examples/mcp_everything over streamable HTTP: every active server scenario,
# with .ci/conformance/expected-failures.yml as the baseline. Exits non-zero
# on an unexpected failure or a stale expected failure.
#
#   bash .ci/conformance.sh [OUTPUT_DIR]
#
# To move up a version, see docs/mcp.md ("The conformance suite").
set -euo pipefail
cd "$(dirname "$0")/.."
here=.ci/conformance
out=${1:-target/conformance}

# Node 20 is what the machine has: 0.1.14 and later import fs.globSync
# (Node 22), so 0.1.13 is the newest release that runs here.
if [ ! -x "$here/node_modules/.bin/conformance" ]; then
  (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi

cargo build --quiet --example mcp_everything
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
target/debug/examples/mcp_everything --http "127.0.0.1:$port" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
  if python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; then
    break
  fi
  sleep 0.1
done

mkdir -p "$out"
"$here/node_modules/.bin/conformance" server \
  --url "http://127.0.0.1:$port/mcp" \
  --expected-failures "$here/expected-failures.yml" \
  -o "$out" | sed -n '/=== SUMMARY ===/,$p'
