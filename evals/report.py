#!/usr/bin/env python3
"""Turns evals/results/summary.json into the tables between the results
markers of docs/model-eval.md and the plots docs/model-eval-*.png."""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent / "docs"
START, END = "<!-- results:start -->", "<!-- results:end -->"


def pct(n, d):
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "n/a"


def tables(s):
    conds = s["conditions"]
    setup = s["setup"]
    m = setup["machine"]
    lines = [
        f"Run of {setup['requests']} requests ({setup['unserved']} unserved) over "
        f"{len(setup['tools'])} tools: `{setup['model_file']}` (sha256 `{setup['model_sha256'][:16]}…`, "
        f"{setup['quantization']}), llama-cpp-python {m['llama_cpp_python']}, {m['cpu']} "
        f"({m['cores']} cores), greedy decoding, {setup['wall_seconds'] / 60:.1f} minutes in all. "
        "The full setup (templates, grammars, CPU flags, llama.cpp system info) is in "
        "`evals/results/summary.json`; every generation is in `evals/results/calls.jsonl`.",
        "",
        f"Settings: prompt `{setup.get('prompt', 'plain')}` (schema in the prompt: "
        f"{setup.get('prompt_schema', 'full')}), contract grammars with layout "
        f"`{setup.get('layout', 'model')}`, at most {setup.get('max_items') or 'the contract’s'} list items and "
        f"{setup.get('max_chars') or 'the contract’s'} string characters, "
        f"{setup['decoding']['max_tokens']} tokens per generation under a grammar "
        f"({setup['decoding']['max_tokens_free']} without), repeat penalty "
        f"{setup['decoding'].get('repeat_penalty', 1.0)}; a retry may answer the user instead of calling: "
        f"{'yes' if setup.get('retry_reply') else 'no'}.",
        "",
        "First try. *honest*: unserved requests not accepted; *as asked*: of those, refused with "
        "the number the request wrote (not another unserved one in its place).",
        "",
        "| condition | accepted (served) | faithful (served) | honest (unserved) | as asked (unserved) | s/call | no grammar |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, c in conds.items():
        lines.append(
            f"| {name} | {pct(c['accepted_served'], c['served_requests'])} "
            f"| {pct(c['faithful_served'], c['served_requests'])} "
            f"| {pct(c['honest_first'], c['unserved_requests'])} "
            f"| {pct(c.get('as_asked_first', 0), c['unserved_requests'])} "
            f"| {c['seconds_per_call']:.2f} | {c.get('grammar_errors', 0) or ''} |"
        )
    lines += [
        "",
        "After a refusal, one retry per feedback form (grammar conditions). "
        "*fixed*: served requests refused at first and accepted after the retry; "
        "*substituted*: unserved requests refused at first that the retry moved into range; "
        "*honest*: unserved requests never accepted.",
        "",
        "| condition | feedback | fixed (served) | faithful after | substituted (unserved) | honest after |",
        "|---|---|---|---|---|---|",
    ]
    for name, c in conds.items():
        for form, r in c["retry"].items():
            lines.append(
                f"| {name} | {form} | {pct(r['served_accepted_after'], r['served_refused_first'])} "
                f"| {pct(r['served_faithful_after'], r['served_refused_first'])} "
                f"| {pct(r['unserved_substituted_after'], r['unserved_refused_first'])} "
                f"| {pct(r['honest_after'], c['unserved_requests'])} |"
            )
    return "\n".join(lines)


def plots(s):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    conds = s["conditions"]
    names = list(conds)
    rate = lambda n, d: 100 * n / d if d else 0
    series = {
        "accepted (served)": [rate(c["accepted_served"], c["served_requests"]) for c in conds.values()],
        "faithful (served)": [rate(c["faithful_served"], c["served_requests"]) for c in conds.values()],
        "honest (unserved)": [rate(c["honest_first"], c["unserved_requests"]) for c in conds.values()],
    }
    fig, ax = plt.subplots(figsize=(10, 4.4))
    w = 0.26
    for i, (label, ys) in enumerate(series.items()):
        xs = [j + (i - 1) * w for j in range(len(names))]
        bars = ax.bar(xs, ys, w, label=label)
        ax.bar_label(bars, fmt="%.0f", fontsize=7)
    ax.set_xticks(range(len(names)), names, rotation=15, fontsize=7)
    ax.set_ylabel("% of requests, first try")
    ax.set_ylim(0, 125)
    ax.set_title(f"{s['setup']['model_file']}: decoding conditions")
    ax.legend(fontsize=8, loc="upper center", ncol=3)
    fig.tight_layout()
    fig.savefig(DOCS / "model-eval-conditions.png", dpi=110)
    plt.close(fig)

    retry = [(n, c) for n, c in conds.items() if c["retry"]]
    if retry:
        forms = list(next(iter(retry))[1]["retry"])
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for ax, key, base, title in (
            (axes[0], "served_accepted_after", "served_refused_first", "served, refused first: accepted after retry"),
            (axes[1], "honest_after", None, "unserved: honest after retry"),
        ):
            for i, form in enumerate(forms):
                ys = []
                for _, c in retry:
                    r = c["retry"][form]
                    ys.append(rate(r[key], r[base] if base else c["unserved_requests"]))
                xs = [j + (i - 1) * 0.26 for j in range(len(retry))]
                bars = ax.bar(xs, ys, 0.26, label=form)
                ax.bar_label(bars, fmt="%.0f", fontsize=7)
            ax.set_xticks(range(len(retry)), [n for n, _ in retry], rotation=20, fontsize=6)
            ax.set_ylim(0, 110)
            ax.set_title(title, fontsize=9)
        axes[0].set_ylabel("%")
        axes[0].legend(title="feedback", fontsize=8)
        fig.tight_layout()
        fig.savefig(DOCS / "model-eval-retry.png", dpi=110)
        plt.close(fig)


def main():
    import sys

    sys.path.insert(0, str(HERE))
    from run import CONDITIONS, summarize

    path = HERE / "results" / "summary.json"
    s = json.loads(path.read_text())
    # The rates are recomputed from every generation, so that a run resumed
    # after an interruption counts each call once.
    calls = [json.loads(line) for line in (HERE / "results" / "calls.jsonl").read_text().splitlines() if line.strip()]
    request_set = HERE / s["setup"].get("request_set", "requests.jsonl")
    requests = [json.loads(line) for line in request_set.read_text().splitlines()]
    present = {x["condition"] for x in calls}
    order = [c for c in CONDITIONS if c in present]
    s["conditions"] = summarize(calls, requests, order)["conditions"]
    path.write_text(json.dumps(s, indent=2, ensure_ascii=False) + "\n")
    doc = DOCS / "model-eval.md"
    text = doc.read_text()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    doc.write_text(f"{head}{START}\n{tables(s)}\n{END}{tail}")
    plots(s)
    print(tables(s))


if __name__ == "__main__":
    main()
