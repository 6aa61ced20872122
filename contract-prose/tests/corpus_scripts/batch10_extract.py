#!/usr/bin/env python3
"""Batch 10 extraction and sampling (C12 tuning batch).

Reads the fetched snapshots (bare git dirs under $C12_MIRROR) at their HEAD commit, pulls each
tool-argument description with its type (num, str, list, -) and source (repo file:line), collapses
whitespace (nothing else changed), drops descriptions over 600 characters, dedups by text per source,
then samples with seed 20261210: random.Random("20261210:<source>"), 80% of the source's quota among
constraint-like descriptions and 20% among the rest (the other pool filling in when one is short).
Writes ./batch10_texts.tsv (type, source, text) and prints counts.
"""
import re, random, subprocess, sys

# Snapshots of the sources as bare git dirs named owner+name*, under $C12_MIRROR.
import os
MIRROR = os.environ.get("C12_MIRROR", "mirror")
SOURCES = {
    # repo: (quota, language)
    "Kong/mcp-konnect": 34,
    "elastic/mcp-server-elasticsearch": 5,
    "qdrant/mcp-server-qdrant": 5,
    "containers/kubernetes-mcp-server": 85,
    "mondaycom/mcp": 91,
}

def git(repo, *args):
    d = f"{MIRROR}/{repo.replace('/', '+')}/repo"
    return subprocess.run(["git", "--git-dir", d, *args], check=True, capture_output=True,
                          text=True).stdout

def files(repo):
    return git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()

def show(repo, path):
    return git(repo, "show", f"HEAD:{path}")

def lineno(text, pos):
    return text.count("\n", 0, pos) + 1

def ws(s):
    return re.sub(r"\s+", " ", s).strip()

# ---- string literals (JS/TS and Go), joined by + ----
def read_js_string(src, i):
    """Read a string literal at src[i] (', ", `). Returns (value, end) or None."""
    q = src[i]
    if q not in "'\"`":
        return None
    j = i + 1
    out = []
    while j < len(src):
        c = src[j]
        if c == "\\" and q != "`" or (c == "\\" and q == "`"):
            nxt = src[j + 1]
            if q == "`" and nxt == "`":
                out.append("`")
            else:
                out.append({"n": "\n", "t": "\t", "'": "'", '"': '"', "\\": "\\", "`": "`"}.get(nxt, "\\" + nxt))
            j += 2
            continue
        if c == q:
            return "".join(out), j + 1
        out.append(c)
        j += 1
    return None

def read_concat(src, i, consts=None):
    """String literals (or resolvable constants) joined by +, starting at i (after spaces)."""
    parts = []
    while True:
        m = re.compile(r"\s*").match(src, i)
        i = m.end()
        if i < len(src) and src[i] in "'\"`":
            r = read_js_string(src, i)
            if r is None:
                return None
            parts.append(r[0]); i = r[1]
        else:
            m = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*").match(src, i)
            if not m or consts is None or m.group(0) not in consts:
                return None
            parts.append(consts[m.group(0)]); i = m.end()
        m = re.compile(r"\s*\+\s*").match(src, i)
        if m:
            i = m.end()
            continue
        m = re.compile(r"\s*[,)]").match(src, i)
        if not m:
            return None
        return "".join(parts), i

# ---- TypeScript zod ----
def ts_consts(repo, paths):
    """Top-level `const NAME = 'literal' (+ ...)` and nested object constants of string leaves."""
    consts = {}
    for p in paths:
        src = show(repo, p)
        for m in re.finditer(r"(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::\s*string\s*)?=\s*(?=['\"`])", src):
            r = read_concat(src, m.end(), consts)
            if r:
                consts[m.group(1)] = r[0]
        for m in re.finditer(r"(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*\{", src):
            stack = [m.group(1)]
            i = m.end()
            while stack and i < len(src):
                mm = re.compile(r"\s*(?://[^\n]*\n\s*)*").match(src, i); i = mm.end()
                if i >= len(src): break
                if src[i] == "}":
                    stack.pop(); i += 1
                    mm = re.compile(r"\s*,?").match(src, i); i = mm.end()
                    continue
                mk = re.compile(r"['\"]?([A-Za-z_$][\w$]*)['\"]?\s*:\s*").match(src, i)
                if not mk:
                    break
                i = mk.end()
                if src[i] == "{":
                    stack.append(mk.group(1)); i += 1
                    continue
                r = read_concat(src, i, consts) if src[i] in "'\"`" else None
                if r is None:
                    break
                consts[".".join(stack + [mk.group(1)])] = r[0]
                i = r[1]
                mm = re.compile(r"\s*,?").match(src, i); i = mm.end()
    return consts

def chain_start(src, pos):
    """Walk back from pos (the '.' of .describe) to the start of the expression chain."""
    depth = 0
    i = pos - 1
    while i >= 0:
        c = src[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and c in ",;=" :
            return i + 1
        elif depth == 0 and c == ":" and src[i - 1] != ":":
            return i + 1
        elif c in "'\"`" and depth >= 0:
            # skip back over a string literal
            j = i - 1
            while j >= 0 and not (src[j] == c and src[j - 1] != "\\"):
                j -= 1
            i = j
        i -= 1
    return 0

def ts_type(chain, schemas):
    chain = chain.strip()
    m = re.match(r"z\s*\.\s*(\w+)\s*\(", chain)
    if re.search(r"\.array\(\s*\)", chain):
        return "list"
    if m:
        t = m.group(1)
        if t == "preprocess":
            inner = re.search(r",\s*z\s*\.\s*(\w+)\s*\(", chain)
            t = inner.group(1) if inner else t
        return {"string": "str", "enum": "str", "literal": "str", "url": "str", "nativeEnum": "str",
                "number": "num", "bigint": "num", "array": "list"}.get(t, "-")
    m = re.match(r"([A-Za-z_$][\w$]*)", chain)
    if m and m.group(1) in schemas:
        return schemas[m.group(1)]
    return "-"

def extract_ts(repo, paths, const_paths):
    consts = ts_consts(repo, const_paths)
    schemas = {}
    srcs = {p: show(repo, p) for p in paths}
    for p, src in srcs.items():  # named schemas: const X = z.<type>(...)
        for m in re.finditer(r"const\s+([A-Za-z_$][\w$]*)\s*=\s*(z\s*\.\s*\w+\s*\([^;]*)", src):
            schemas[m.group(1)] = ts_type(m.group(2), {})
    out, skipped = [], 0
    for p, src in srcs.items():
        for m in re.finditer(r"\.\s*describe\s*\(\s*", src):
            r = read_concat(src, m.end(), consts)
            if r is None:
                skipped += 1
                continue
            start = chain_start(src, m.start())
            t = ts_type(src[start:m.start()], schemas)
            out.append((t, f"{p}:{lineno(src, m.end())}", r[0]))
    return out, skipped

# ---- Go (kubernetes-mcp-server): jsonschema.Schema property literals ----
def extract_go(repo, paths):
    out, skipped = [], 0
    for p in paths:
        src = show(repo, p)
        for m in re.finditer(r"\n(\s*)\"([^\"]+)\"\s*:\s*\{", src):
            # the property's brace block
            i = m.end(); depth = 1; j = i
            while j < len(src) and depth:
                if src[j] == "{": depth += 1
                elif src[j] == "}": depth -= 1
                elif src[j] in "\"`":
                    q = src[j]; j += 1
                    while j < len(src) and src[j] != q:
                        j += 2 if (src[j] == "\\" and q == "\"") else 1
                j += 1
            block = src[i:j - 1]
            # only the block's own top-level fields (not nested Items/Properties)
            top = []; d = 0; k = 0
            while k < len(block):
                c = block[k]
                if c == "{": d += 1
                elif c == "}": d -= 1
                elif c in "\"`":
                    q = c; e = k + 1
                    while e < len(block) and block[e] != q:
                        e += 2 if (block[e] == "\\" and q == "\"") else 1
                    if d == 0: top.append(block[k:e + 1])
                    k = e + 1; continue
                if d == 0: top.append(c)
                k += 1
            top = "".join(top)
            tm = re.search(r"\bType:\s*\"(\w+)\"", top)
            dm = re.search(r"\bDescription:\s*", top)
            if not tm or not dm:
                continue
            t = {"string": "str", "integer": "num", "number": "num", "array": "list"}.get(tm.group(1), "-")
            # position of Description in the full source
            dpos = src.find("Description:", i)
            while dpos != -1 and dpos < j:
                # skip nested occurrences: check depth
                seg = src[i:dpos]
                if seg.count("{") - seg.count("}") == 0:
                    break
                dpos = src.find("Description:", dpos + 1)
            vpos = re.compile(r"Description:\s*").match(src, dpos).end()
            r = read_concat(src, vpos)
            if r is None:
                skipped += 1
                continue
            out.append((t, f"{p}:{lineno(src, vpos)}", r[0]))
    return out, skipped

# ---- Rust (elasticsearch): /// doc comments on fields of JsonSchema structs ----
def extract_rust(repo, paths):
    out = []
    for p in paths:
        src = show(repo, p)
        lines = src.split("\n")
        in_struct = False; derive = False
        for n, line in enumerate(lines):
            if "schemars::JsonSchema" in line or re.search(r"derive\([^)]*JsonSchema", line):
                derive = True
            if derive and re.match(r"\s*(pub\s+)?struct\s+\w+\s*\{", line):
                in_struct = True; derive = False; doc = []; first = None
                continue
            if in_struct:
                if re.match(r"\s*\}", line):
                    in_struct = False; continue
                dm = re.match(r"\s*///\s?(.*)", line)
                if dm:
                    if first is None: first = n + 1
                    doc.append(dm.group(1)); continue
                fm = re.match(r"\s*(?:pub\s+)?(\w+)\s*:\s*([^,]+),?", line)
                if fm and doc:
                    ty = fm.group(2).strip()
                    inner = re.sub(r"^Option<(.*)>$", r"\1", ty)
                    t = "list" if inner.startswith("Vec<") else "str" if inner in ("String", "&str") else \
                        "num" if re.match(r"^(u|i|f)(8|16|32|64|128|size)$", inner) else "-"
                    out.append((t, f"{p}:{first}", " ".join(doc)))
                if not line.strip().startswith("#["):
                    doc = []; first = None
    return out, 0

# ---- Python (qdrant): Annotated[T, Field(description=...)] of tool parameters ----
def extract_py(repo, paths):
    out = []
    for p in paths:
        src = show(repo, p)
        for m in re.finditer(r"Annotated\[\s*([^,\[]+(?:\[[^\]]*\])?)\s*,\s*Field\(\s*description\s*=\s*", src):
            i = m.end()
            lit = re.compile(r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')").match(src, i)
            if not lit:
                continue
            text = eval(lit.group(1))
            ty = m.group(1).strip()
            inner = re.sub(r"^Optional\[(.*)\]$", r"\1", ty).replace(" | None", "")
            t = "str" if inner == "str" else "num" if inner in ("int", "float") else \
                "list" if inner.startswith(("list", "List")) else "-"
            out.append((t, f"{p}:{lineno(src, lit.start())}", text))
    return out, 0

def collect(repo):
    fs = files(repo)
    if repo == "Kong/mcp-konnect":
        return extract_ts(repo, [f for f in fs if f == "src/parameters.ts"], ["src/parameters.ts"])
    if repo == "mondaycom/mcp":
        ps = [f for f in fs if f.endswith(".ts") and f.startswith("packages/")
              and "/src/" in f and not re.search(r"test|spec|generated|mock|output", f, re.I)]
        return extract_ts(repo, ps, ps)
    if repo == "containers/kubernetes-mcp-server":
        ps = [f for f in fs if f.startswith("pkg/") and f.endswith(".go") and not f.endswith("_test.go")]
        return extract_go(repo, ps)
    if repo == "elastic/mcp-server-elasticsearch":
        return extract_rust(repo, [f for f in fs if f.startswith("src/servers/") and f.endswith(".rs")])
    if repo == "qdrant/mcp-server-qdrant":
        return extract_py(repo, ["src/mcp_server_qdrant/mcp_server.py", "src/mcp_server_qdrant/common/wrap_filters.py"])

CUE = re.compile(r"\d|must|one of|format|e\.g\.|i\.e\.|for example|URLs?|URIs?| or |between|only|ISO|valid|"
                 r"allowed|supported|['\"`]|- |max|min|at least|at most|up to|options:|values:|characters?|"
                 r"length|range|limit|exactly|should be|in the form|UUID|timestamp|date|email|prefix|starts? with|"
                 r"positive|no more than|fewer", re.I)

def main():
    rows = []
    for repo, quota in SOURCES.items():
        got, skipped = collect(repo)
        seen, uniq = set(), []
        dropped = 0
        for t, loc, text in got:
            text = ws(text)
            if not text:
                continue
            if len(text) > 600:
                dropped += 1; continue
            if text in seen:
                continue
            seen.add(text); uniq.append((t, f"{repo} {loc}", text))
        cue = [u for u in uniq if CUE.search(u[2])]
        rest = [u for u in uniq if not CUE.search(u[2])]
        rng = random.Random(f"20261210:{repo}")
        nq = min(len(uniq), quota)
        a = round(nq * 0.8); b = nq - a
        if a > len(cue): b += a - len(cue); a = len(cue)
        if b > len(rest): a = min(len(cue), a + b - len(rest)); b = len(rest)
        pick = rng.sample(cue, a) + rng.sample(rest, b)
        print(f"{repo}: extracted {len(got)}, unresolved {skipped}, over600 {dropped}, distinct {len(uniq)} "
              f"({len(cue)}/{len(rest)}) -> {a}+{b} = {a+b}", file=sys.stderr)
        order = {u: k for k, u in enumerate(uniq)}
        rows += sorted(pick, key=lambda u: order[u])
    with open("./batch10_texts.tsv", "w") as f:
        for t, src, text in rows:
            f.write(f"{t}\t{src}\t{text}\n")
    print(len(rows), file=sys.stderr)

if __name__ == "__main__":
    main()
