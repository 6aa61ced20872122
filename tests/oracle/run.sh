#!/usr/bin/env bash
# The providers' own SDKs as oracles on every dialect export of the toolbox
# tools (see check_dialects.py for what each check does).
#
#   bash tests/oracle/run.sh
#
# Creates ./.venv (python3 -m venv) when it is missing, installs the SDKs into
# it, prints every export with `toolbox schemas --dialect X` into a temporary
# folder and checks them. Exits non-zero when an export cannot be produced or
# any SDK check rejects one. ORACLE_VENV overrides the venv's location.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="${ORACLE_VENV:-.venv}"
python="$venv/bin/python"

# Pinned to the releases current on PyPI when the checks were last updated
# (2026-12-06): the checks call private SDK helpers (openai.lib._pydantic,
# anthropic.lib._parse._transform) and validate against the SDKs' own types,
# whose fields (defer_loading, output_schema, input_examples, namespaces)
# are what is being checked. Move a pin on purpose and rerun.
requirements=(
  "openai==3.63.0"
  "anthropic==2.17.0"
  "google-genai==3.6.1"
  "jsonschema==4.26.0"
)

if [ ! -x "$python" ]; then
  echo "oracle: creating $venv"
  python3 -m venv "$venv"
fi
"$python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"

dialects=(canonical openai-responses openai-chat anthropic anthropic-strict gemini gemini-json-schema mcp)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# The toolbox, then test-only tool sets with shapes the demo has no use for
# (examples/oracle_tools.rs: enums with data), each into its own folder.
mkdir -p "$out/toolbox" "$out/extra" "$out/deferred"
cargo build -q --example toolbox --example oracle_tools
for d in "${dialects[@]}"; do
  if ! cargo run -q --example toolbox -- schemas --dialect "$d" >"$out/toolbox/$d.json" 2>"$out/toolbox/$d.log"; then
    echo "oracle: toolbox schemas --dialect $d failed:" >&2
    cat "$out/toolbox/$d.log" >&2
    exit 1
  fi
  if ! cargo run -q --example oracle_tools -- --dialect "$d" >"$out/extra/$d.json" 2>"$out/extra/$d.log"; then
    echo "oracle: oracle_tools --dialect $d failed:" >&2
    cat "$out/extra/$d.log" >&2
    exit 1
  fi
  echo "oracle: $d: $(head -1 "$out/toolbox/$d.log") (toolbox); $(head -1 "$out/extra/$d.log") (test-only tools)"
done

# Deferred loading: every tool but search_notes, in each form that has one.
for d in openai-responses anthropic anthropic-strict; do
  if ! cargo run -q --example toolbox -- schemas --dialect "$d" --defer-all-but search_notes >"$out/deferred/$d.json" 2>"$out/deferred/$d.log"; then
    echo "oracle: toolbox schemas --dialect $d --defer-all-but search_notes failed:" >&2
    cat "$out/deferred/$d.log" >&2
    exit 1
  fi
done

status=0
"$python" tests/oracle/check_dialects.py "$out/toolbox" || status=1
"$python" tests/oracle/check_dialects.py "$out/deferred" || status=1
"$python" tests/oracle/check_dialects.py "$out/extra" || status=1
exit "$status"
