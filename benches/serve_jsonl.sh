#!/usr/bin/env bash
# Whole-process timing of `toolbox serve-jsonl` (see docs/performance.md).
#
#   benches/serve_jsonl.sh [N...]        # default: 1000 10000
#
# For each N, a JSONL file of N OpenAI Responses `function_call` items, a
# round-robin mix of three outcomes:
#   - ok       search_notes {"query":"cache"}            (reads 3 small notes)
#   - invalid  list_filings {"company":"acme","year":1999} (pattern and range fail)
#   - denied   read_file {"path":"README.md"}            (--deny-scope repo:read)
# is fed to `toolbox serve-jsonl` and, in the same hyperfine run, to the
# baseline `jsonl-echo` (benches/jsonl_echo: the same stdin/parse/print/flush
# loop as serve-jsonl, without dispatch) and to `jq -c .` for reference.
# Output goes to /dev/null. Needs hyperfine (falls back to a `date +%s%N`
# loop reporting the median), jq, python3.
set -euo pipefail

cd "$(dirname "$0")/.."
WS=$(pwd)
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 10000)
RUNS=${RUNS:-10}

cargo build --release --example toolbox
cargo build --release --manifest-path benches/jsonl_echo/Cargo.toml \
  --target-dir target/jsonl-echo
TOOLBOX=$WS/target/release/examples/toolbox
ECHO=$WS/target/jsonl-echo/release/jsonl-echo

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/root
mkdir -p "$ROOT/notes" "$ROOT/repo"
printf '# KV cache\nThe KV cache trades memory for speed.\n' >"$ROOT/notes/kv-cache.md"
printf '# Agents\nA tool is an authority boundary.\n' >"$ROOT/notes/agents.md"
printf 'nothing to see\n' >"$ROOT/notes/plain.md"
printf 'hello hello\n' >"$ROOT/repo/README.md"

gen() { # gen N > file
  local n=$1 i
  for ((i = 0; i < n; i++)); do
    case $((i % 3)) in
      0) printf '{"type":"function_call","id":"fc_%d","call_id":"call_%d","name":"search_notes","arguments":"{\\"query\\":\\"cache\\"}","status":"completed"}\n' "$i" "$i" ;;
      1) printf '{"type":"function_call","id":"fc_%d","call_id":"call_%d","name":"list_filings","arguments":"{\\"company\\":\\"acme\\",\\"year\\":1999}","status":"completed"}\n' "$i" "$i" ;;
      2) printf '{"type":"function_call","id":"fc_%d","call_id":"call_%d","name":"read_file","arguments":"{\\"path\\":\\"README.md\\"}","status":"completed"}\n' "$i" "$i" ;;
    esac
  done
}

SERVE="$TOOLBOX serve-jsonl --root $ROOT --deny-scope repo:read"

for n in "${SIZES[@]}"; do
  gen "$n" >"$WORK/calls-$n.jsonl"
done

# Sanity check once: one reply per call, and the mix is what it claims to be.
n0=${SIZES[0]}
$SERVE <"$WORK/calls-$n0.jsonl" >"$WORK/out.jsonl"
echo "check (N=$n0): $(wc -l <"$WORK/out.jsonl") replies; statuses:"
jq -r '.output | fromjson | .status' "$WORK/out.jsonl" | sort | uniq -c
[ "$(wc -l <"$WORK/out.jsonl")" -eq "$n0" ]
[ "$("$ECHO" <"$WORK/calls-$n0.jsonl" | wc -l)" -eq "$n0" ]

declare -A MED
for n in "${SIZES[@]}"; do
  f=$WORK/calls-$n.jsonl
  echo
  echo "== N = $n ($(wc -c <"$f") bytes)"
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 2 --runs "$RUNS" --style basic \
      --export-json "$WORK/h-$n.json" \
      -n serve-jsonl "$SERVE < $f > /dev/null" \
      -n jsonl-echo "$ECHO < $f > /dev/null" \
      -n 'jq -c .' "jq -c . < $f > /dev/null"
    while read -r name med; do MED[$name,$n]=$med; done < <(
      python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["command"].replace(" ", "_"), r["median"])' "$WORK/h-$n.json")
  else
    for cmd in serve-jsonl jsonl-echo jq_-c_.; do
      case $cmd in
        serve-jsonl) run() { $SERVE <"$f" >/dev/null; } ;;
        jsonl-echo) run() { "$ECHO" <"$f" >/dev/null; } ;;
        *) run() { jq -c . <"$f" >/dev/null; } ;;
      esac
      run; run # warm-up
      ts=()
      for ((r = 0; r < RUNS; r++)); do
        t0=$(date +%s%N); run; t1=$(date +%s%N)
        ts+=($(((t1 - t0)))); done
      MED[$cmd,$n]=$(printf '%s\n' "${ts[@]}" | sort -n |
        python3 -c 'import sys; v=[int(x) for x in sys.stdin]; print(v[len(v)//2]/1e9)')
      echo "$cmd: median ${MED[$cmd,$n]} s over $RUNS runs"
    done
  fi
done

echo
echo "== summary (medians)"
python3 - "${SIZES[@]}" <<EOF
import sys
med = {}
$(for k in "${!MED[@]}"; do echo "med[tuple('$k'.split(','))] = ${MED[$k]}"; done)
sizes = sys.argv[1:]
for n in sizes:
    s, e, j = (med[(c, n)] for c in ("serve-jsonl", "jsonl-echo", "jq_-c_."))
    k = int(n)
    print(f"N={n:>6}: serve {s*1e3:8.2f} ms ({s/k*1e6:6.2f} us/call)  "
          f"echo {e*1e3:7.2f} ms ({e/k*1e6:5.2f} us/line)  jq {j*1e3:7.2f} ms  "
          f"serve/echo {s/e:5.1f}x  serve-echo {(s-e)/k*1e6:6.2f} us/call")
if len(sizes) >= 2:
    a, b = sizes[0], sizes[-1]
    d = int(b) - int(a)
    for c in ("serve-jsonl", "jsonl-echo", "jq_-c_."):
        print(f"marginal {c:12}: {(med[(c, b)] - med[(c, a)]) / d * 1e6:6.2f} us/line "
              f"(N={a}..{b}, start-up cancelled)")
EOF
