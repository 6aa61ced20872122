#!/usr/bin/env python3
"""The plots of docs/performance.md, from the JSON the benches write:

    python3 benches/plot.py      # needs matplotlib (pip install "matplotlib>=3.8,<4")

- target/mcp-bench.json (cargo bench -p mcp-bench)  -> docs/img/mcp-http-throughput.png
- target/buildcost/result.json (benches/buildcost/buildcost.py --tools 50,100,200,300)
                                                    -> docs/img/buildcost.png
- target/registry-bench.json (REGISTRY_TOOLS=... cargo bench --bench registry)
                                                    -> docs/img/registry-export.png
- target/registry-callgrind.json (benches/registry_callgrind.sh), and
  target/registry-callgrind-before.json (the same with BIN= an older build and
  OUT= that file), optional              -> docs/img/registry-instructions.png

A missing input skips its plot.
"""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
IMG = REPO / "docs" / "img"


def load(rel: str):
    p = REPO / rel
    return json.loads(p.read_text()) if p.is_file() else None


def mcp() -> None:
    data = load("target/mcp-bench.json")
    if not data or "http" not in data:
        return
    rows = data["http"]
    clients = [r["clients"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    ax.plot(clients, [r["bare"] for r in rows], "o-", label="bare rmcp (#[tool], serde args)")
    ax.plot(clients, [r["contract"] for r in rows], "s-", label="contract_runtime::mcp")
    for r in rows:
        ax.annotate(f"{r['ratio']:.2f}x", (r["clients"], r["contract"]),
                    textcoords="offset points", xytext=(0, 8), ha="center", fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(clients, [str(c) for c in clients])
    ax.set_xlabel("concurrent clients (one MCP session each)")
    ax.set_ylabel("tools/call answered per second")
    ax.set_ylim(bottom=0)
    ax.set_title("MCP over streamable HTTP, one in-memory tool")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(IMG / "mcp-http-throughput.png")


def buildcost() -> None:
    data = load("target/buildcost/result.json")
    if not data or len({r["tools"] for r in data}) < 2:
        return
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    for profile, style in (("debug", "-"), ("release", "--")):
        rows = sorted((r for r in data if r["profile"] == profile), key=lambda r: r["tools"])
        if len(rows) < 2:
            # One tool count is a table row, not a curve.
            continue
        n = [r["tools"] for r in rows]
        ax.plot(n, [r["plain"] for r in rows], "o" + style, label=f"serde + schemars, {profile}")
        ax.plot(n, [r["contract"] for r in rows], "s" + style, label=f"contracts, {profile}")
    ax.set_xlabel("tools in the crate (three constrained arguments each)")
    ax.set_ylabel("rebuild after touching the source (s)")
    ax.set_ylim(bottom=0)
    ax.set_title("Build cost against tool count")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(IMG / "buildcost.png")


def registry() -> None:
    data = load("target/registry-bench.json")
    if not data or len(data) < 2:
        return
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    n = [r["tools"] for r in data]
    ax.plot(n, [r["registry_ms"] for r in data], "o-", label="registry build")
    ax.plot(n, [r["canonical_ms"] for r in data], "o-", label="canonical definitions")
    for d in data[0]["export"]:
        ax.plot(n, [r["export"][d]["ms"] for r in data], ".--", label=f"export {d}")
    ax.axhline(100, color="grey", linewidth=0.8)
    ax.set_xlabel("tools")
    ax.set_ylabel("ms")
    ax.set_title("Registry build and export against tool count")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(IMG / "registry-export.png")


def registry_instructions() -> None:
    now = load("target/registry-callgrind.json")
    if not now:
        return
    before = {r["dialect"]: r["export"] for r in load("target/registry-callgrind-before.json") or []}
    names = [r["dialect"] for r in now]
    x = range(len(names))
    fig, ax = plt.subplots(figsize=(7, 3.8), dpi=120)
    w = 0.28
    if before:
        ax.bar([i - w for i in x], [before.get(n, 0) / 1e3 for n in names], w, label="export, before")
    ax.bar(list(x), [r["export"] / 1e3 for r in now], w, label="export, now")
    ax.bar([i + w for i in x], [r["floor"] / 1e3 for r in now], w, label="floor: copy of the result")
    for i, r in zip(x, now):
        ax.annotate(f"{r['export'] / max(r['floor'], 1):.1f}x", (i, r["export"] / 1e3),
                    textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
    ax.set_xticks(list(x), names, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("thousand instructions per tool")
    ax.set_title("Export per tool against its floor (callgrind)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(IMG / "registry-instructions.png")


if __name__ == "__main__":
    IMG.mkdir(parents=True, exist_ok=True)
    mcp()
    buildcost()
    registry()
    registry_instructions()
