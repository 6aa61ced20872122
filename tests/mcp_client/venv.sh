#!/usr/bin/env bash
# The Python venv the MCP-over-HTTP tests run their client in: creates it when
# missing and installs the pinned official MCP SDK, and Selenium for the
# approvals inbox's browser test (tests/inbox_browser.rs, which drives the
# machine's Debian chromium through chromium-driver), and PyJWT with
# cryptography, which mint the bearer tokens of tests/mcp_oauth.rs (and sign
# those of its authorization server, tests/mcp_client/oauth_flow.py). Prints the
# venv's python.
# The same venv as tests/oracle/run.sh (ORACLE_VENV overrides its location).
#
#   bash tests/mcp_client/venv.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="${ORACLE_VENV:-.venv}"
python="$venv/bin/python"
# Pinned: the tests assert what this client parses and sends, and what the
# browser shows.
requirements=("mcp==2.3.0" "selenium==4.50.0" "pyjwt==2.15.1" "cryptography==51.0.1")

if [ ! -x "$python" ]; then
  python3 -m venv "$venv" >&2
fi
for requirement in "${requirements[@]}"; do
  name="${requirement%%==*}" version="${requirement##*==}"
  if ! "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('$name') != '$version')" 2>/dev/null; then
    "$python" -m pip install --quiet --disable-pip-version-check "$requirement" >&2
  fi
done
echo "$python"
