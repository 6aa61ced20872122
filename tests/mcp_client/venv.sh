#!/usr/bin/env bash
# The Python venv the MCP-over-HTTP tests run their client in: creates it when
# missing and installs the pinned official MCP SDK. Prints the venv's python.
# The same venv as tests/oracle/run.sh (ORACLE_VENV overrides its location).
#
#   bash tests/mcp_client/venv.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="${ORACLE_VENV:-.venv}"
python="$venv/bin/python"
# Pinned: the test asserts what this client parses and sends.
requirement="mcp==2.3.0"

if [ ! -x "$python" ]; then
  python3 -m venv "$venv" >&2
fi
if ! "$python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != "2.3.0")' 2>/dev/null; then
  "$python" -m pip install --quiet --disable-pip-version-check "$requirement" >&2
fi
echo "$python"
