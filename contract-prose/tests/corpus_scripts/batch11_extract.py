#!/usr/bin/env python3
"""Batch 11 extraction and sampling for the C12 corpus (tuning batch).

Sources (bare git snapshots under $C12_MIRROR, read with `git show`):
  OpenAPI: docusign/OpenAPI-Specifications esignature.rest.swagger-v2.json (Swagger 2.0),
           Asana/openapi defs/asana_oas.yaml (OpenAPI 3)
  Agent tools: camel-ai/camel camel/toolkits/*.py, agno-agi/agno libs/agno/agno/tools/*.py
Writes /tmp/b11/all_<n>.tsv (all distinct descriptions) and /tmp/b11/sample.tsv.
"""
import ast, json, random, re, subprocess, sys
import yaml

# Snapshots of the sources as bare git dirs named owner+name*, under $C12_MIRROR.
import os
MIRROR = os.environ.get("C12_MIRROR", "mirror")
SEED = "20261211"
MAXLEN = 600

def git(repo, *args):
    return subprocess.run(["git", "--git-dir", f"{MIRROR}/{repo.replace('/', '+')}/repo", *args],
                          check=True, capture_output=True).stdout

def head(repo):
    return git(repo, "rev-parse", "HEAD").decode().strip()

def collapse(s):
    return re.sub(r"\s+", " ", s).strip()

# ---------------------------------------------------------------- OpenAPI
def esc(k):
    return str(k).replace("~", "~0").replace("/", "~1")

def resolve(doc, node, depth=0):
    """Follow a local $ref, or a composition with a single non-null branch."""
    while isinstance(node, dict) and depth < 20:
        depth += 1
        if "$ref" in node and isinstance(node["$ref"], str) and node["$ref"].startswith("#/"):
            cur = doc
            for part in node["$ref"][2:].split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                cur = cur.get(part) if isinstance(cur, dict) else None
            node = cur
            continue
        if "type" not in node:
            for key in ("allOf", "oneOf", "anyOf"):
                br = node.get(key)
                if isinstance(br, list):
                    nn = [b for b in br if not (isinstance(b, dict) and b.get("type") == "null")]
                    if len(nn) == 1:
                        node = nn[0]
                        break
            else:
                return node
            continue
        return node
    return node if isinstance(node, dict) else {}

def tmap(t):
    if isinstance(t, list):
        t = [x for x in t if x != "null"]
        t = t[0] if len(t) == 1 else None
    return {"integer": "num", "number": "num", "string": "str", "array": "list"}.get(t, "-")

def type_of(doc, schema):
    return tmap(resolve(doc, schema).get("type"))

def walk_openapi(doc, repo, path):
    out = []
    def visit(node, ptr, parent_key):
        if isinstance(node, dict):
            # parameter object
            if "name" in node and "in" in node and isinstance(node.get("description"), str):
                if "schema" in node and node.get("in") != "body":
                    t = type_of(doc, node["schema"])
                elif "type" in node:
                    t = tmap(node["type"])
                elif "schema" in node:
                    t = type_of(doc, node["schema"])
                else:
                    t = "-"
                out.append((t, f"{repo} {path}:#{ptr}", node["description"]))
            for k, v in node.items():
                if k == "properties" and isinstance(v, dict) and parent_key != "properties":
                    for pk, pv in v.items():
                        pp = f"{ptr}/properties/{esc(pk)}"
                        if isinstance(pv, dict):
                            d = pv.get("description")
                            if not isinstance(d, str) and "$ref" in pv:
                                d = None
                            if isinstance(d, str):
                                out.append((type_of(doc, pv), f"{repo} {path}:#{pp}", d))
                            visit(pv, pp, pk)
                else:
                    visit(v, f"{ptr}/{esc(k)}", k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                visit(v, f"{ptr}/{i}", None)
    visit(doc, "", None)
    return out

def openapi(repo, path):
    raw = git(repo, "show", f"HEAD:{path}")
    if path.endswith(".json"):
        doc = json.loads(raw)
    else:
        doc = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return walk_openapi(doc, repo, path)

# ---------------------------------------------------------------- Python tool collections
def ann_type(a):
    if a is None:
        return None
    s = ast.unparse(a).replace(" ", "")
    s = re.sub(r"^(typing\.)?", "", s)
    m = re.fullmatch(r"Optional\[(.*)\]", s)
    if m:
        s = m.group(1)
    parts = [p for p in re.split(r"\|", s) if p != "None"] if "|" in s and "[" not in s else [s]
    m = re.fullmatch(r"Union\[(.*)\]", s)
    if m:
        parts = [p for p in m.group(1).split(",") if p != "None"]
    if len(parts) != 1:
        return "-"
    s = parts[0]
    m = re.fullmatch(r"Annotated\[([^,\[]+(?:\[.*?\])?),.*\]", s)
    if m:
        s = m.group(1)
    if s in ("int", "float"):
        return "num"
    if s == "str":
        return "str"
    if re.match(r"(List|list|Sequence|Tuple|tuple|Set|set)(\[|$)", s):
        return "list"
    return "-"

ENTRY = re.compile(r"^(\*{0,2}[A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$")

def parse_args(doc_raw, doc_line):
    lines = doc_raw.split("\n")
    res = []
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(Args|Arguments|Parameters|Params):\s*$", lines[i])
        if not m:
            i += 1
            continue
        base = len(m.group(1))
        i += 1
        entry_ind = None
        cur = None
        while i < len(lines):
            ln = lines[i]
            if not ln.strip():
                i += 1
                continue
            ind = len(ln) - len(ln.lstrip())
            if ind <= base:
                break
            if entry_ind is None:
                entry_ind = ind
            em = ENTRY.match(ln.strip()) if ind == entry_ind else None
            if em:
                cur = [em.group(1), em.group(2), [em.group(3)], doc_line + i]
                res.append(cur)
            elif cur is not None:
                cur[2].append(ln.strip())
            i += 1
    return res

def toolkit_classes(tree):
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(b) for b in node.bases]
            if any(re.search(r"Toolkit$", b) for b in bases):
                yield node

def pytools(repo, prefix):
    files = [f for f in git(repo, "ls-tree", "-r", "--name-only", "HEAD", prefix).decode().split("\n")
             if re.fullmatch(re.escape(prefix) + r"[^/]+\.py", f)]
    out = []
    for f in sorted(files):
        src = git(repo, "show", f"HEAD:{f}").decode("utf-8", "replace")
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for cls in toolkit_classes(tree):
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name.startswith("_"):
                    continue
                if fn.name in ("get_tools",):
                    continue
                if not (fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant)
                        and isinstance(fn.body[0].value.value, str)):
                    continue
                ds = fn.body[0].value
                anns = {a.arg: a.annotation for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
                for name, dtype, parts, line in parse_args(ds.value, ds.lineno):
                    name = name.lstrip("*")
                    if name in ("self", "cls", "args", "kwargs") or name not in anns:
                        continue
                    t = ann_type(anns[name])
                    if t is None:
                        t = "-"
                    out.append((t, f"{repo} {f}:{line}", " ".join(parts)))
    return out

# ---------------------------------------------------------------- main
CUE = re.compile(r"\d|must|one of|format|e\.g\.|i\.e\.|for example|urls?\b|uris?\b| or |between|only|iso|valid|"
                 r"allowed|supported|['\"`]|(?:^|\s)- |max|min|at least|at most|up to|options:|values:|"
                 r"characters?|length|range|limit|exactly|should be|in the form|uuid|timestamp|date|email|"
                 r"prefix|starts? with|positive|no more than|fewer", re.I)

SOURCES = [
    ("docusign/OpenAPI-Specifications", lambda: openapi("docusign/OpenAPI-Specifications", "esignature.rest.swagger-v2.json")),
    ("Asana/openapi", lambda: openapi("Asana/openapi", "defs/asana_oas.yaml")),
    ("camel-ai/camel", lambda: pytools("camel-ai/camel", "camel/toolkits/")),
    ("agno-agi/agno", lambda: pytools("agno-agi/agno", "libs/agno/agno/tools/")),
]
PER_SOURCE = (44, 11)

def main():
    sample = []
    for n, (repo, fn) in enumerate(SOURCES):
        seen, rows = set(), []
        for t, src, d in fn():
            d = collapse(d)
            if not d or len(d) > MAXLEN or d in seen:
                continue
            seen.add(d)
            rows.append((t, src, d))
        with open(f"/tmp/b11/all_{n}.tsv", "w") as fh:
            for r in rows:
                fh.write("\t".join(r) + "\n")
        cue = [i for i, r in enumerate(rows) if CUE.search(r[2])]
        rest = [i for i, r in enumerate(rows) if not CUE.search(r[2])]
        rng = random.Random(f"{SEED}:{repo}")
        a = rng.sample(cue, min(PER_SOURCE[0], len(cue)))
        b = rng.sample(rest, min(PER_SOURCE[1], len(rest)))
        pick = sorted(a + b)
        print(f"{repo} {head(repo)[:12]}: {len(rows)} distinct, {len(cue)} cue / {len(rest)} rest; "
              f"sampled {len(a)} + {len(b)}", file=sys.stderr)
        sample += [rows[i] for i in pick]
    with open("/tmp/b11/sample.tsv", "w") as fh:
        for r in sample:
            fh.write("\t".join(r) + "\n")

if __name__ == "__main__":
    main()
