#!/bin/sh
# RUSTC_WORKSPACE_WRAPPER for `buildcost.py --instructions`: runs the
# generated crate's rustc under callgrind (instructions executed, whatever
# the machine's load) and appends the count to $BUILDCOST_INSTRUCTIONS.
# Every other rustc call cargo makes (`-vV`, `--print`) runs as is.
case "$*" in
*"--crate-name buildcost_"*) ;;
*) exec "$@" ;;
esac
log=$(mktemp)
valgrind --tool=callgrind --callgrind-out-file="${BUILDCOST_CALLGRIND_OUT:-/dev/null}" --log-file="$log" "$@"
rc=$?
sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log" >>"$BUILDCOST_INSTRUCTIONS"
rm -f "$log"
exit $rc
