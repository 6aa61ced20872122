#!/usr/bin/env bash
# The one command that reproduces docs/model-eval.md's numbers and plots:
#   bash evals/run.sh [run.py options, e.g. --model FILE.gguf --limit 5]
set -euo pipefail
cd "$(dirname "$0")/.."
bash evals/setup.sh
cargo build --quiet --example toolbox
evals/.venv/bin/python evals/run.py "$@"
evals/.venv/bin/python evals/report.py
