#!/bin/bash
# The runtime's public surface, listed from rustdoc's JSON and compared with
# the listing checked in (docs/public-api.txt), so that a change of surface is
# a reviewed change. `bash .ci/public-api.sh --bless` writes the listing anew.
#
# rustdoc's JSON output is unstable: RUSTC_BOOTSTRAP lets the pinned stable
# compiler (rust-toolchain.toml) write it, so its format is the pinned one's.
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTC_BOOTSTRAP=1 cargo rustdoc -q -p contract-runtime --all-features -- \
  -Z unstable-options --output-format json
listed=$(python3 .ci/public_api.py target/doc/contract_runtime.json)
if [ "${1:-}" = "--bless" ]; then
  printf '%s\n' "$listed" > docs/public-api.txt
  echo "docs/public-api.txt: $(grep -vc '^impl ' docs/public-api.txt) items, $(grep -c '^impl ' docs/public-api.txt) trait impls"
  exit 0
fi
if ! diff -u docs/public-api.txt <(printf '%s\n' "$listed"); then
  echo "The public surface changed (above: - what docs/public-api.txt lists, + what the code has)." >&2
  echo "If the change is meant, run: bash .ci/public-api.sh --bless, and commit docs/public-api.txt." >&2
  exit 1
fi
echo "public surface unchanged: $(grep -vc '^impl ' docs/public-api.txt) items"
