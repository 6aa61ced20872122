#!/usr/bin/env bash
# Instructions of each dialect's export of N tools (default 1,000) against its
# floor, an owned copy of the same result (`floor_copy`), measured in the
# same process under callgrind (see docs/performance.md). Instructions are
# steady on a busy machine, where wall time is not; they leave out the
# kernel's part (page faults), which the wall-clock bench includes.
#
#   benches/registry_callgrind.sh [dialect...]     # default: all eight
#   N=300 BIN=/path/to/registry-bench benches/registry_callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-1000}
DIALECTS=("$@")
[ ${#DIALECTS[@]} -gt 0 ] || DIALECTS=(
  canonical openai-responses openai-chat anthropic anthropic-strict gemini gemini-json-schema mcp
)

# BIN=path runs another build of the bench (an older commit's, to compare).
[ -n "${BIN:-}" ] || BIN=$(benches/bench_exe.sh registry --bench registry)
echo "bench executable: $BIN"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# OUT: the JSON rows benches/plot.py reads (default target/registry-callgrind.json).
json=${OUT:-target/registry-callgrind.json}
rows=()
printf '%-20s %14s %14s %7s\n' dialect "export Ir/tool" "floor Ir/tool" ratio
for d in "${DIALECTS[@]}"; do
  REGISTRY_TOOLS=$N REGISTRY_DIALECTS=$d REGISTRY_ROUNDS=1 REGISTRY_EXTRA=0 \
    valgrind --tool=callgrind --callgrind-out-file="$out" "$BIN" >/dev/null 2>&1
  # Inclusive counts; each step runs twice (one timed round, one counted).
  read -r export floor < <(callgrind_annotate --inclusive=yes "$out" 2>/dev/null | python3 -c '
import re, sys
e = f = 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \([^)]*\)\s+[^:\s]*:(.*?) \[", line)
    if not m:
        continue
    n, name = int(m.group(1).replace(",", "")), m.group(2)
    # `export` is a generic shim over `export_cow`: either may carry the count.
    if name in ("contract_runtime::dialect::export", "contract_runtime::dialect::export_cow"):
        e = max(e, n)
    elif name == "registry::floor_copy":
        f = max(f, n)
print(e, f)')
  printf '%-20s %14d %14d %7.2f\n' "$d" $((export / 2 / N)) $((floor / 2 / N)) \
    "$(python3 -c "print($export / max($floor, 1))")"
  rows+=("{\"dialect\": \"$d\", \"export\": $((export / 2 / N)), \"floor\": $((floor / 2 / N))}")
done
(IFS=,; echo "[${rows[*]}]") > "$json"
echo "wrote $json"
