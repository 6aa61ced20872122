"""Writes evals/requests.jsonl: requests as users write them, each with the
tool it is for, the arguments it means, and whether the tool serves it.

Deterministic (a fixed seed); run again only to change the set, and commit
the output with the results it produced."""
import json
import random
from pathlib import Path

rng = random.Random(20261130)
out = []


def add(tool, text, args, served=True):
    out.append({"id": f"r{len(out) + 1:03d}", "tool": tool, "text": text,
                "arguments": args, "served": served})


# list_filings: the index serves 2001 to 2026.
companies = ["ACME", "GLOBX", "INIT", "MSFT", "AAPL", "TSLA", "NVDA", "IBM", "ORCL", "AMZN"]
filings = [
    "What did {c} file in {y}?",
    "List {c}'s filings for {y}.",
    "Show me the {y} filings of {c}.",
    "Which reports did {c} submit in fiscal year {y}?",
    "Find filings for ticker {c}, year {y}.",
]
unserved_years = [1970, 1985, 1990, 1994, 1995, 1997, 1998, 1999, 2000, 2027, 2028, 2030, 2032, 2035, 2040]
for i in range(28):
    c, y = rng.choice(companies), rng.randint(2001, 2026)
    add("list_filings", filings[i % len(filings)].format(c=c, y=y), {"company": c, "year": y})
for i, y in enumerate(unserved_years):
    c = rng.choice(companies)
    add("list_filings", filings[(i + 2) % len(filings)].format(c=c, y=y), {"company": c, "year": y}, served=False)

# git_log: at most 100 commits are served.
revs = ["main", "HEAD", "develop", "v1.2.0", "HEAD~2", "release-2.0"]
logs = [
    "Show the last {n} commits on {r}.",
    "List {n} commits starting from {r}.",
    "What are the latest {n} commits of {r}?",
    "Give me {n} commits of history from {r}.",
]
for i in range(17):
    n, r = rng.choice([1, 2, 3, 5, 10, 12, 20, 25, 30, 50, 75, 100]), rng.choice(revs)
    add("git_log", logs[i % len(logs)].format(n=n, r=r), {"rev": r, "max_count": n})
for i, n in enumerate([120, 150, 200, 250, 300, 400, 500, 1000]):
    r = rng.choice(revs)
    add("git_log", logs[(i + 1) % len(logs)].format(n=n, r=r), {"rev": r, "max_count": n}, served=False)

# search_notes
queries = ["KV cache", "agents", "tool contracts", "retry policy", "quantization", "attention",
           "circuit breaker", "idempotency", "grammar", "approval flow"]
searches = ["Search my notes for {q}.", "Find notes about {q}.", "Look up {q} in the notes.",
            "Do I have any notes on {q}?"]
for i in range(20):
    q = queries[i % len(queries)]
    add("search_notes", searches[i % len(searches)].format(q=q), {"query": q})

# read_file
paths = ["src/lib.rs", "README.md", "Cargo.toml", "docs/intro.md", "src/main.rs"]
reads = ["Open {p}.", "Show me the file {p}."]
for i in range(10):
    p = paths[i % len(paths)]
    add("read_file", reads[i % len(reads)].format(p=p), {"path": p})

# tag_notes
notes = ["kv-cache.md", "agents.md", "retries.md", "grammar.md"]
tags = ["todo", "review", "ml", "draft", "infra"]
for i in range(15):
    t = tags[i % len(tags)]
    if i % 2:
        a = notes[i % len(notes)]
        add("tag_notes", f"Add the tag {t} to {a}.", {"notes": [a], "tag": t})
    else:
        a, b = notes[i % len(notes)], notes[(i + 1) % len(notes)]
        add("tag_notes", f"Tag {a} and {b} with {t}.", {"notes": [a, b], "tag": t})

path = Path(__file__).with_name("requests.jsonl")
path.write_text("".join(json.dumps(r) + "\n" for r in out))
unserved = sum(not r["served"] for r in out)
print(f"{len(out)} requests, {unserved} unserved ({unserved / len(out):.0%}), "
      f"{len({r['tool'] for r in out})} tools -> {path}")
