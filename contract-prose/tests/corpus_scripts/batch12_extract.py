#!/usr/bin/env python3
"""Batch 12 of the C12 held-out corpus: extract argument descriptions from five new sources and
sample them.

Usage: C12_MIRROR=/path/to/snapshots python3 batch12_extract.py > sample.tsv
       (prints the sample as "type<TAB>source<TAB>text" lines to stdout, the counts to stderr;
       with the argument "all" it prints every distinct description instead of the sample)

Each source is read from its snapshot (a bare git dir named owner+name, under $C12_MIRROR) at
the commit pinned in SOURCES.

OpenAPI specs (googlemaps/openapi-specification, lob/lob-openapi): the "description" of each
parameter (a member of a "parameters" list with "name" and "in") and of each member of a
"properties" object, anywhere in the document, typed from the "type" of the parameter's schema /
the property (a local $ref, or an allOf/anyOf/oneOf holding a single non-null branch, is followed
for the type). JSON pointer as the location. (The functions of batch9_extract.py.)

TypeScript MCP servers (XeroAPI/xero-mcp-server, pulumi/mcp-server): every zod
.describe(<literal> (+ <literal>)*) in src/**/*.ts outside tests (a const string named as the
argument is resolved), typed from the first z.<type>( of the property's chain (string/enum ->
str, number -> num, array or .array() -> list, anything else -> -). (The functions of
batch8_extract.py, reading the pinned commit instead of HEAD.)

Go MCP server (klaviyo/incidentio-mcp): the tools' InputSchema maps in internal/tools/*.go
outside tests: each "description": <literal> (+ <literal>)* key of a map literal, typed from the
"type": "<json type>" key of the same map literal (string -> str, integer/number -> num,
array -> list, anything else -> -). A description given by a function call or a variable is
left out (named on stderr).

Whitespace is collapsed; nothing else changed. Descriptions over 600 characters are dropped;
each source is deduplicated by text (first occurrence kept, files in path order).

Sampling (seed SEED, Python random.Random(f"{SEED}:{repo}")): per source, two thirds of its
quota at random among the descriptions with constraint-like wording (CONSTRAINT_LIKE) and one
third at random among the rest; a source with fewer than its share of one kind gives the rest
to the other; a source with fewer descriptions than its quota is taken whole.
"""
import os
import random
import re
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch8_extract as b8  # noqa: E402  (TypeScript reader: mask, parse_concat, ts_extract)
import batch9_extract as b9  # noqa: E402  (OpenAPI walker)

MIRROR = os.environ.get("C12_MIRROR", "mirror")
b8.MIRROR = MIRROR
b9.MIRROR = MIRROR
SEED = "20261212"
MAXLEN = 600

SOURCES = [
    # (repo, kind, commit, paths or path prefixes)
    ("googlemaps/openapi-specification", "openapi", "ef437434d55ad2d988c0fc8c0b3d14fe2dcb7441",
     ["dist/google-maps-platform-openapi3.json"]),
    ("lob/lob-openapi", "openapi", "539ed451fc9f3af0d4b1ee01348c095126c64df3",
     ["dist/lob-api-bundled.yml"]),
    ("XeroAPI/xero-mcp-server", "ts", "1b2e9b332086fa0887c8248010b4bc75083491d1", ("src/",)),
    ("pulumi/mcp-server", "ts", "91ed260e02287aa270fa039524a4b214650d00b1", ("src/",)),
    ("klaviyo/incidentio-mcp", "go-map", "bf2a78901a7d97cca94ca53d71c92fc6a707f020",
     ("internal/tools/",)),
]

QUOTA = {
    "googlemaps/openapi-specification": 50,
    "lob/lob-openapi": 50,
    "XeroAPI/xero-mcp-server": 45,
    "pulumi/mcp-server": 30,  # 20 distinct descriptions: taken whole
    "klaviyo/incidentio-mcp": 50,
}

CONSTRAINT_LIKE = b9.CONSTRAINT_LIKE  # the cue list of batch 9 (and of batch 8, plus curly quotes)

COMMIT = {repo: commit for repo, _, commit, _ in SOURCES}


def show(repo, path):
    return subprocess.run(["git", "--git-dir", b8.gitdir(repo), "show", f"{COMMIT[repo]}:{path}"],
                          check=True, capture_output=True).stdout.decode("utf-8")


def ls(repo):
    return subprocess.run(["git", "--git-dir", b8.gitdir(repo), "ls-tree", "-r", "--name-only",
                           COMMIT[repo]], check=True, capture_output=True, text=True).stdout.splitlines()


b8.show = show  # batch 8's TypeScript reader reads the pinned commit


# ---------------------------------------------------------------- Go map literals

GO_JSON_TYPE = {"string": "str", "integer": "num", "number": "num", "array": "list"}


def go_map_extract(repo, paths):
    out = []
    for p in paths:
        src = show(repo, p)
        masked, spans = b8.mask(src, "go")
        span_at = {s: e for s, e in spans}
        for s, e in spans:
            if src[s:e] != '"description"':
                continue
            i = e
            while i < len(src) and src[i] in " \t":
                i += 1
            if i >= len(src) or src[i] != ":":
                continue
            r = b8.parse_concat_end(src, spans, i + 1, "go")
            if r is None:
                j = i + 1
                while src[j] in " \t":
                    j += 1
                print(f"skip (not a literal: {src[j:j + 40].splitlines()[0]}) {repo} {p}:{b8.lineno(src, s)}",
                      file=sys.stderr)
                continue
            start, text = r
            # the enclosing map literal: back to the unmatched '{'
            depth = 0
            j = s - 1
            while j >= 0:
                ch = masked[j]
                if ch in ")}]":
                    depth += 1
                elif ch in "({[":
                    if depth == 0:
                        break
                    depth -= 1
                j -= 1
            # forward to its matching '}'
            depth = 0
            k = j + 1
            while k < len(masked):
                ch = masked[k]
                if ch in "({[":
                    depth += 1
                elif ch in ")}]":
                    if depth == 0:
                        break
                    depth -= 1
                k += 1
            typ = "-"
            depth = 0
            q = j + 1
            while q < k:
                ch = masked[q]
                if ch in "({[":
                    depth += 1
                elif ch in ")}]":
                    depth -= 1
                elif depth == 0 and q in span_at and src[q:span_at[q]] == '"type"':
                    m = re.match(r'\s*:\s*"(\w+)"', src[span_at[q]:])
                    if m:
                        typ = GO_JSON_TYPE.get(m.group(1), "-")
                q += 1
            out.append((typ, p, b8.lineno(src, start), text))
    return out


# ---------------------------------------------------------------- per source

def extract(repo, kind, files):
    if kind == "openapi":
        rows = []
        for f in files:
            doc = yaml.load(show(repo, f), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            found = []
            b9.walk_openapi(doc, doc, "#", found)
            rows += [(typ, f"{repo} {f}:{ptr}", desc) for typ, ptr, desc in found]
    else:
        paths = sorted(f for f in ls(repo) if f.startswith(files)
                       and f.endswith(".go" if kind == "go-map" else ".ts")
                       and not re.search(r"(_test\.go|\.test\.ts|\.spec\.ts)$", f))
        raw = go_map_extract(repo, paths) if kind == "go-map" else b8.ts_extract(repo, paths)
        raw.sort(key=lambda r: (r[1], r[2]))
        rows = [(typ, f"{repo} {path}:{line}", text) for typ, path, line, text in raw]
    seen = set()
    res = []
    for typ, src, text in rows:
        t = " ".join(text.split())
        if not t or len(t) > MAXLEN or t in seen:
            continue
        seen.add(t)
        res.append((typ, src, t))
    return rows, res


def sample(repo, rows):
    rng = random.Random(f"{SEED}:{repo}")
    cons = [r for r in rows if CONSTRAINT_LIKE.search(r[2])]
    rest = [r for r in rows if not CONSTRAINT_LIKE.search(r[2])]
    q = min(QUOTA[repo], len(rows))
    qc = round(q * 2 / 3)
    qr = q - qc
    if len(cons) < qc:
        qr += qc - len(cons)
        qc = len(cons)
    if len(rest) < qr:
        qc += qr - len(rest)
        qr = len(rest)
    pick = rng.sample(cons, qc) + rng.sample(rest, qr)
    order = {id(r): i for i, r in enumerate(rows)}
    pick.sort(key=lambda r: order[id(r)])
    return pick, len(cons), len(rest), qc, qr


def main():
    every = len(sys.argv) > 1 and sys.argv[1] == "all"
    lines = []
    for repo, kind, commit, files in SOURCES:
        raw, rows = extract(repo, kind, files)
        if every:
            picked = rows
            print(f"{repo}: {len(raw)} raw, {len(rows)} distinct", file=sys.stderr)
        else:
            picked, nc, nr, qc, qr = sample(repo, rows)
            print(f"{repo}: {len(raw)} raw, {len(rows)} distinct ({nc} constraint-like, {nr} rest);"
                  f" sampled {qc} + {qr} = {qc + qr}", file=sys.stderr)
        for typ, src, text in picked:
            assert "\t" not in text and "\n" not in text
            lines.append(f"{typ}\t{src}\t{text}")
    print("\n".join(lines))


def run(sources, quota, seed):
    """Extracts and samples other sources with these readers (batches 13 and 14 call it with
    their own SOURCES, QUOTA and SEED)."""
    global SOURCES, QUOTA, SEED
    SOURCES, QUOTA, SEED = sources, quota, seed
    COMMIT.clear()
    COMMIT.update({repo: commit for repo, _, commit, _ in sources})
    main()


if __name__ == "__main__":
    main()
