#!/usr/bin/env python3
"""Batch 9 of the C12 corpus: extract argument descriptions from five sources and sample them.

OpenAPI specs: the "description" of each parameter (a member of a "parameters" list with "name"
and "in") and of each member of a "properties" object, anywhere in the document, typed from the
"type" of the parameter's schema / the property (a local $ref, or an allOf/anyOf/oneOf holding a
single non-null branch, is followed for the type). JSON pointer as the location.

Agent tool collections (Python): the classes used as `args_schema` of a tool (assigned to
`args_schema` in a class body, or passed as `args_schema=` to a call), with the classes they
inherit from inside the same repository; the description of each annotated field:
`Field(..., description="...")` (also inside Annotated[...]). Typed from the annotation
(Optional[X] and X | None are X; other unions are untyped). file:line as the location.

Whitespace is collapsed; nothing else changed. Descriptions over 600 characters are dropped;
each source is deduplicated by text (first occurrence kept).

Prints the sample as TSV lines "type<TAB>source<TAB>text" to stdout and the counts to stderr.
"""
import ast
import json
import random
import re
import subprocess
import sys

import yaml

# Snapshots of the sources as bare git dirs named owner+name*, under $C12_MIRROR.
import os
MIRROR = os.environ.get("C12_MIRROR", "mirror")
SEED = "20261209"

SOURCES = [
    # (repo, kind, commit, files)
    ("intercom/Intercom-OpenAPI", "openapi", "8889625a7b931d8649e18726e7f872ff073520fc",
     ["descriptions/2.16/api.intercom.io.yaml"]),
    ("linode/linode-api-docs", "openapi", "40e7c7d22441ce32ce87d9736cd020ad0960bc41",
     ["openapi.yaml"]),
    ("vimeo/openapi", "openapi", "febb90093551f9e00571c5c25230df08e9af78dd", ["api.yaml"]),
    ("crewAIInc/crewAI-tools", "python", "62f4d7efd1ea61ec11e5c0922eee01b444b6c6d2",
     ("crewai_tools/",)),
    ("langchain-ai/langchain-community", "python", "bc87773064735e649cfd798185502e156d5e948a",
     ("libs/community/langchain_community/",)),
]

PER_SOURCE = {
    "intercom/Intercom-OpenAPI": 45,
    "linode/linode-api-docs": 45,
    "vimeo/openapi": 45,
    "crewAIInc/crewAI-tools": 45,
    "langchain-ai/langchain-community": 45,
}

CONSTRAINT_LIKE = re.compile(
    r"\d|must|one of|format|e\.g\.|i\.e\.|for example|\bURLs?\b|\bURIs?\b| or |between|only"
    r"|ISO|valid|allowed|supported|['\"`\u2018\u2019\u201c\u201d]|(?:^|\s)- |max|min|at least"
    r"|at most|up to|options:|values:|characters?|length|range|limit|exactly|should be"
    r"|in the form|UUID|timestamp|date|email|prefix|starts? with|positive|no more than|fewer",
    re.IGNORECASE,
)


def git_dir(repo):
    return f"{MIRROR}/{repo.replace('/', '+')}/repo"


def git_show(repo, commit, path):
    return subprocess.run(["git", "--git-dir", git_dir(repo), "show", f"{commit}:{path}"],
                          check=True, capture_output=True).stdout.decode("utf-8")


def git_ls(repo, commit):
    out = subprocess.run(["git", "--git-dir", git_dir(repo), "ls-tree", "-r", "--name-only",
                          commit], check=True, capture_output=True).stdout.decode()
    return out.splitlines()


def collapse(s):
    return " ".join(s.split())


# ---------------------------------------------------------------- OpenAPI

def esc(k):
    return str(k).replace("~", "~0").replace("/", "~1")


def resolve(doc, node, depth=0):
    """Follow a local $ref (and single-branch compositions) to find a type."""
    if depth > 8 or not isinstance(node, dict):
        return node
    if "type" in node:
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        cur = doc
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(cur, dict) or part not in cur:
                return node
            cur = cur[part]
        return resolve(doc, cur, depth + 1)
    for key in ("allOf", "anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            real = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null")]
            if len(real) == 1:
                return resolve(doc, real[0], depth + 1)
            return node
    return node


def oa_type(doc, node):
    node = resolve(doc, node)
    if not isinstance(node, dict):
        return "-"
    t = node.get("type")
    if isinstance(t, list):
        t = [x for x in t if x != "null"]
        t = t[0] if len(t) == 1 else None
    if t is None and "items" in node:
        t = "array"
    return {"integer": "num", "number": "num", "string": "str", "array": "list"}.get(t, "-")


def walk_openapi(doc, node, ptr, out):
    if isinstance(node, dict):
        for k, v in node.items():
            p = f"{ptr}/{esc(k)}"
            if k == "properties" and isinstance(v, dict):
                for name, prop in v.items():
                    if isinstance(prop, dict) and isinstance(prop.get("description"), str):
                        out.append((oa_type(doc, prop), f"{p}/{esc(name)}", prop["description"]))
            if k == "parameters" and isinstance(v, list):
                for i, par in enumerate(v):
                    if (isinstance(par, dict) and "name" in par and "in" in par
                            and isinstance(par.get("description"), str)):
                        sch = par.get("schema", par)  # Swagger 2 keeps the type on the parameter
                        out.append((oa_type(doc, sch), f"{p}/{i}", par["description"]))
            walk_openapi(doc, v, p, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk_openapi(doc, v, f"{ptr}/{i}", out)


def extract_openapi(repo, commit, files):
    out = []
    for f in files:
        text = git_show(repo, commit, f)
        doc = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        found = []
        walk_openapi(doc, doc, "#", found)
        for typ, ptr, desc in found:
            out.append((typ, f"{repo} {f}:{ptr}", desc))
    return out


# ---------------------------------------------------------------- Python

def ann_type(ann):
    """num, str, list or - from an annotation node."""
    if ann is None:
        return "-"
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return "-"
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        parts = []

        def flat(n):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr):
                flat(n.left)
                flat(n.right)
            else:
                parts.append(n)
        flat(ann)
        parts = [p for p in parts if not (isinstance(p, ast.Constant) and p.value is None)]
        return ann_type(parts[0]) if len(parts) == 1 else "-"
    name = None
    if isinstance(ann, ast.Name):
        name = ann.id
    elif isinstance(ann, ast.Attribute):
        name = ann.attr
    elif isinstance(ann, ast.Subscript):
        base = ann.value
        bname = base.id if isinstance(base, ast.Name) else (
            base.attr if isinstance(base, ast.Attribute) else None)
        sl = ann.slice
        if bname == "Optional":
            return ann_type(sl)
        if bname == "Annotated":
            first = sl.elts[0] if isinstance(sl, ast.Tuple) else sl
            return ann_type(first)
        if bname == "Union":
            elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            elts = [e for e in elts if not (isinstance(e, ast.Constant) and e.value is None)
                    and not (isinstance(e, ast.Name) and e.id == "None")]
            return ann_type(elts[0]) if len(elts) == 1 else "-"
        if bname in ("List", "list", "Sequence", "Set", "set", "Tuple", "tuple", "conlist"):
            return "list"
        if bname in ("Literal",):
            elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in elts):
                return "str"
            if all(isinstance(e, ast.Constant) and type(e.value) in (int, float) for e in elts):
                return "num"
            return "-"
        return "-"
    if name in ("str", "constr", "HttpUrl", "AnyUrl", "EmailStr"):
        return "str"
    if name in ("int", "float", "conint", "confloat", "PositiveInt", "NonNegativeInt"):
        return "num"
    if name in ("list", "List"):
        return "list"
    return "-"


def field_description(call):
    if not isinstance(call, ast.Call):
        return None
    fname = call.func.id if isinstance(call.func, ast.Name) else (
        call.func.attr if isinstance(call.func, ast.Attribute) else None)
    if fname != "Field":
        return None
    for kw in call.keywords:
        if kw.arg == "description":
            try:
                v = ast.literal_eval(kw.value)
            except Exception:
                # an f-string or a concatenation of literals and names: leave out
                return None
            return v if isinstance(v, str) else None
    return None


def annotated_field(ann):
    """Field(...) inside Annotated[X, Field(...)]."""
    if isinstance(ann, ast.Subscript):
        base = ann.value
        bname = base.id if isinstance(base, ast.Name) else (
            base.attr if isinstance(base, ast.Attribute) else None)
        if bname == "Annotated" and isinstance(ann.slice, ast.Tuple):
            for e in ann.slice.elts[1:]:
                d = field_description(e)
                if d is not None:
                    return e
    return None


def extract_python(repo, commit, prefixes):
    files = [f for f in git_ls(repo, commit)
             if f.endswith(".py") and f.startswith(prefixes) and "/tests/" not in f]
    trees = {}
    for f in files:
        try:
            trees[f] = ast.parse(git_show(repo, commit, f))
        except (SyntaxError, UnicodeDecodeError):
            continue
    # names used as args_schema
    schema_names = set()
    classes = {}  # name -> list of (file, ClassDef)
    for f, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append((f, node))
            val = None
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                    and node.target.id == "args_schema":
                val = node.value
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "args_schema" for t in node.targets):
                val = node.value
            elif isinstance(node, ast.keyword) and node.arg == "args_schema":
                val = node.value
            if isinstance(val, ast.Name):
                schema_names.add(val.id)
            elif isinstance(val, ast.Attribute):
                schema_names.add(val.attr)
    # add repository base classes of schema classes
    changed = True
    while changed:
        changed = False
        for name in list(schema_names):
            for _, cls in classes.get(name, []):
                for b in cls.bases:
                    bn = b.id if isinstance(b, ast.Name) else (
                        b.attr if isinstance(b, ast.Attribute) else None)
                    if bn and bn in classes and bn not in schema_names and bn != "BaseModel":
                        schema_names.add(bn)
                        changed = True
    out = []
    for f in sorted(trees):
        for node in ast.walk(trees[f]):
            if not (isinstance(node, ast.ClassDef) and node.name in schema_names):
                continue
            for stmt in node.body:
                if not isinstance(stmt, ast.AnnAssign):
                    continue
                call = stmt.value if field_description(stmt.value) is not None else \
                    annotated_field(stmt.annotation)
                if call is None:
                    continue
                desc = field_description(call)
                out.append((ann_type(stmt.annotation), f"{repo} {f}:{stmt.lineno}", desc))
    return out


# ---------------------------------------------------------------- sampling

def distinct(entries):
    seen = set()
    out = []
    for typ, src, desc in entries:
        text = collapse(desc)
        if not text or len(text) > 600 or text in seen:
            continue
        seen.add(text)
        out.append((typ, src, text))
    return out


def sample(repo, entries, n):
    rng = random.Random(f"{SEED}:{repo}")
    like = [i for i, e in enumerate(entries) if CONSTRAINT_LIKE.search(e[2])]
    rest = [i for i, e in enumerate(entries) if not CONSTRAINT_LIKE.search(e[2])]
    n_like = round(n * 2 / 3)
    n_rest = n - n_like
    if len(rest) < n_rest:
        n_rest = len(rest)
        n_like = min(len(like), n - n_rest)
    if len(like) < n_like:
        n_like = len(like)
        n_rest = min(len(rest), n - n_like)
    pick_like = rng.sample(like, n_like)
    pick_rest = rng.sample(rest, n_rest)
    chosen = sorted(pick_like + pick_rest)
    return [entries[i] for i in chosen], len(like), len(rest), n_like, n_rest


def main():
    counts = []
    lines = []
    for repo, kind, commit, files in SOURCES:
        raw = extract_openapi(repo, commit, files) if kind == "openapi" else \
            extract_python(repo, commit, files)
        entries = distinct(raw)
        picked, nl, nr, kl, kr = sample(repo, entries, PER_SOURCE[repo])
        counts.append((repo, len(raw), len(entries), nl, nr, kl, kr))
        for typ, src, text in picked:
            assert "\t" not in text and "\n" not in text
            lines.append(f"{typ}\t{src}\t{text}")
    for c in counts:
        print("%s: %d raw, %d distinct (%d constraint-like, %d rest); sampled %d + %d" % c,
              file=sys.stderr)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
