#!/usr/bin/env bash
# Instructions per call for every loop-mode routine of benches/decode.rs, under
# callgrind (see docs/performance.md). Per call = (Ir at N2 - Ir at N1) / (N2 - N1),
# so start-up and setup (validator compile, registry build) cancel out.
#
#   benches/callgrind.sh [routine...]     # default: all nine
set -euo pipefail
cd "$(dirname "$0")/.."

N1=${N1:-200}
N2=${N2:-2200}
ROUTINES=("$@")
[ ${#ROUTINES[@]} -gt 0 ] || ROUTINES=(
  search/floor search/contract search/hand-rolled
  replace/floor replace/contract replace/hand-rolled
  dispatch dispatch/sync dispatch/floor
)

BIN=$(benches/bench_exe.sh decode --bench decode)
echo "bench executable: $BIN"

ir() { # ir ROUTINE N -> total instructions
  DECODE_BENCH_LOOP="$1:$2" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for r in "${ROUTINES[@]}"; do
  a=$(ir "$r" "$N1")
  b=$(ir "$r" "$N2")
  printf '%-22s %10d instructions/call\n' "$r" $(((b - a) / (N2 - N1)))
done
