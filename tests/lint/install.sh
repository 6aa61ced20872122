#!/usr/bin/env bash
# Installs the MCP servers `toolbox lint` is run against in CI (tests/lint.rs),
# pinned, into target/mcp-servers (outside the sources). Prints that folder.
# Run by .ci/run; safe to run again (npm reuses what is there).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=target/mcp-servers
mkdir -p "$dir"
cat > "$dir/package.json" <<'JSON'
{
  "name": "lint-targets",
  "private": true,
  "dependencies": {
    "@modelcontextprotocol/server-everything": "2026.8.31",
    "@modelcontextprotocol/server-filesystem": "2026.8.31",
    "@modelcontextprotocol/server-memory": "2026.8.31"
  }
}
JSON
if [ ! -x "$dir/node_modules/.bin/mcp-server-memory" ] || [ ! -x "$dir/node_modules/.bin/mcp-server-filesystem" ] || [ ! -x "$dir/node_modules/.bin/mcp-server-everything" ]; then
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >&2)
fi
echo "$PWD/$dir"
