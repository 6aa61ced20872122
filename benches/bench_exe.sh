#!/usr/bin/env bash
# Builds a bench and prints its executable's path, for the callgrind scripts.
#
#   benches/bench_exe.sh TARGET [cargo bench args...]   # e.g. decode; mcp -p mcp-bench
set -euo pipefail
target=$1
shift
cargo bench "$@" --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$target"
