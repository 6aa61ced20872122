#!/usr/bin/env python3
"""Batch 8 of the C12 held-out corpus: extract argument descriptions from six MCP servers
and sample them.

Usage: python3 batch8_extract.py extract   -> ./batch8_all.tsv (every distinct description)
       python3 batch8_extract.py sample    -> ./batch8_sample.tsv (type, source, text)

Each source is read from its fetched snapshot (a bare git dir) at HEAD.
Output columns: type (num, str, list, -), source ("owner/name path:line"), text.
Whitespace is collapsed to single spaces; nothing else changes.
"""
import ast
import random
import re
import subprocess
import sys

# Snapshots of the sources as bare git dirs named owner+name*, under $C12_MIRROR.
import os
MIRROR = os.environ.get("C12_MIRROR", "mirror")
SOURCES = {
    "dbt-labs/dbt-mcp": "py",
    "neo4j-contrib/mcp-neo4j": "py",
    "render-oss/render-mcp-server": "go-mcp",
    "buildkite/buildkite-mcp-server": "go-tag",
    "Doist/todoist-ai": "ts",
    "railwayapp/railway-mcp-server": "ts",
}
QUOTA = {
    "dbt-labs/dbt-mcp": 42,
    "neo4j-contrib/mcp-neo4j": 36,
    "render-oss/render-mcp-server": 38,
    "buildkite/buildkite-mcp-server": 38,
    "Doist/todoist-ai": 40,
    "railwayapp/railway-mcp-server": 32,
}
SEED = "20261208"
MAXLEN = 600

CONSTRAINT_RE = re.compile(
    r"\d|must|one of|format|e\.g\.|i\.e\.|for example|\bURLs?\b|\bURIs?\b| or |between|only|ISO|valid"
    r"|allowed|supported|['\"`]|(^|\s)- |max|min|at least|at most|up to|options:|values:|characters?"
    r"|length|range|limit|exactly|should be|in the form|UUID|timestamp|date|email|prefix|starts? with"
    r"|positive|no more than|fewer",
    re.IGNORECASE,
)


def gitdir(repo):
    return f"{MIRROR}/{repo.replace('/', '+')}/repo"


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", gitdir(repo), *args], check=True,
                          capture_output=True, text=True).stdout


def files(repo):
    return git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines()


def show(repo, path):
    return git(repo, "show", f"HEAD:{path}")


def collapse(s):
    return " ".join(s.split())


# ---------------------------------------------------------------- Python (pydantic Field)

def py_type(ann):
    """Schema type FastMCP derives from a parameter annotation."""
    if ann is None:
        return "-"
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return "-"
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):  # X | None
        parts = [p for p in (ann.left, ann.right)
                 if not (isinstance(p, ast.Constant) and p.value is None)]
        return py_type(parts[0]) if len(parts) == 1 else "-"
    if isinstance(ann, ast.Subscript):
        base = ast.unparse(ann.value).split(".")[-1]
        sl = ann.slice
        if base == "Annotated":
            return py_type(sl.elts[0])
        if base == "Optional":
            return py_type(sl)
        if base == "Union":
            parts = [p for p in sl.elts if not (isinstance(p, ast.Constant) and p.value is None)]
            return py_type(parts[0]) if len(parts) == 1 else "-"
        if base in ("list", "List", "Sequence", "set", "Set", "tuple", "Tuple"):
            return "list"
        if base == "Literal":
            elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in elts):
                return "str"
            if all(isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool) for e in elts):
                return "num"
            return "-"
        return "-"
    name = ast.unparse(ann).split(".")[-1]
    if name in STR_ENUMS:
        return "str"
    if name in ("int", "float"):
        return "num"
    if name == "str":
        return "str"
    if name in ("list", "List"):
        return "list"
    return "-"


STR_ENUMS = set()  # enum classes and Literal aliases of strings in the repository (schema type string)


class PyRepo:
    """Module-level string constants and Field(...) constants across a repository."""

    def __init__(self, repo, paths):
        self.repo = repo
        self.trees = {}
        self.strings = {}   # name -> list of (path, line, text)
        self.fields = {}    # name -> list of (path, Call node)
        for p in paths:
            try:
                tree = ast.parse(show(repo, p))
            except SyntaxError:
                continue
            self.trees[p] = tree
            for node in tree.body:
                if isinstance(node, ast.ClassDef) and any(
                        ast.unparse(b).split(".")[-1] in ("StrEnum", "str") for b in node.bases):
                    STR_ENUMS.add(node.name)
                if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                        and isinstance(node.value, ast.Subscript) and ast.unparse(node.value.value).endswith("Literal")):
                    STR_ENUMS.add(node.targets[0].id)
            for node in tree.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name = node.targets[0].id
                    self._record(p, name, node.value)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                    self._record(p, node.target.id, node.value)

    def _record(self, path, name, value):
        if isinstance(value, ast.Call) and ast.unparse(value.func).split(".")[-1] == "Field":
            self.fields.setdefault(name, []).append((path, value))
        else:
            r = self.eval_str(path, value, allow_names=False)
            if r is not None:
                self.strings.setdefault(name, []).append((path, r[0], r[1]))

    def eval_str(self, path, node, allow_names=True):
        """(line, text) of a string expression: literals, + concatenation, known names."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.lineno, node.value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a = self.eval_str(path, node.left, allow_names)
            b = self.eval_str(path, node.right, allow_names)
            if a and b:
                return a[0], a[1] + b[1]
            return None
        if (isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "get_prompt"
                and node.args and isinstance(node.args[0], ast.Constant)):
            # dbt-mcp: get_prompt("x/y") reads src/dbt_mcp/prompts/x/y.md
            mdpath = f"src/dbt_mcp/prompts/{node.args[0].value}.md"
            try:
                return ("@" + mdpath, 1), show(self.repo, mdpath)
            except subprocess.CalledProcessError:
                return None
        if allow_names and isinstance(node, ast.Name):
            cands = self.strings.get(node.id, [])
            same = [c for c in cands if c[0] == path]
            pick = same[0] if same else (cands[0] if len(cands) == 1 else None)
            if pick:
                return ("@" + pick[0], pick[1]), pick[2]
        return None

    def field_desc(self, path, call):
        for kw in call.keywords:
            if kw.arg == "description":
                r = self.eval_str(path, kw.value)
                if r is None:
                    return None
                line, text = r
                if isinstance(line, tuple):
                    return line[0][1:], line[1], text
                return path, line, text
        return None

    def resolve_field_name(self, path, name):
        cands = self.fields.get(name, [])
        same = [c for c in cands if c[0] == path]
        pick = same[0] if same else (cands[0] if len(cands) == 1 else None)
        if pick:
            return self.field_desc(pick[0], pick[1])
        return None


def is_tool_decorator(dec):
    s = ast.unparse(dec)
    s = s.split("(")[0]
    return "tool" in s.split(".")[-1].lower()


def py_extract(repo, paths, model_paths=()):
    pr = PyRepo(repo, paths)
    out = []

    def from_value(path, value):
        if isinstance(value, ast.Call) and ast.unparse(value.func).split(".")[-1] == "Field":
            return pr.field_desc(path, value)
        if isinstance(value, ast.Name):
            return pr.resolve_field_name(path, value.id)
        return None

    for path, tree in pr.trees.items():
        for node in ast.walk(tree):
            # every function parameter declared with a pydantic Field(description=...): in these
            # servers only tool functions (decorated, or registered from a list) declare them
            # (prompt functions, @mcp.prompt, are not tools and are left out)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not any(
                    "prompt" in ast.unparse(d).split("(")[0].lower() for d in node.decorator_list):
                args = node.args.args + node.args.kwonlyargs
                defaults = [None] * (len(node.args.args) - len(node.args.defaults)) + list(node.args.defaults) + list(node.args.kw_defaults)
                for a, d in zip(args, defaults):
                    found = None
                    ann = a.annotation
                    # Annotated[T, Field(description=...)]
                    if isinstance(ann, ast.Subscript) and ast.unparse(ann.value).split(".")[-1] == "Annotated":
                        for meta in ann.slice.elts[1:]:
                            found = found or from_value(path, meta)
                    if found is None and d is not None:
                        found = from_value(path, d)
                    if found:
                        out.append((py_type(ann), found[0], found[1], found[2]))
            # input models (the items of tool arguments); KnowledgeGraph is only a result
            if path in model_paths and isinstance(node, ast.ClassDef) and node.name != "KnowledgeGraph":
                for st in node.body:
                    if isinstance(st, ast.AnnAssign) and st.value is not None:
                        found = from_value(path, st.value)
                        if found:
                            out.append((py_type(st.annotation), found[0], found[1], found[2]))
    return out


# ---------------------------------------------------------------- string literal scanning (TS, Go)

def mask(src, lang):
    """Return src with string and comment contents replaced by spaces (newlines kept), and the
    list of string literal spans (start, end) in src."""
    out = list(src)
    spans = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if c in "'\"`":
            j = i + 1
            if lang == "go" and c == "`":
                j = src.find("`", i + 1) + 1
            else:
                depth = 0
                while j < n:
                    if src[j] == "\\":
                        j += 2
                        continue
                    if c == "`" and src.startswith("${", j):
                        depth += 1
                        j += 2
                        continue
                    if c == "`" and depth and src[j] == "}":
                        depth -= 1
                        j += 1
                        continue
                    if src[j] == c and not depth:
                        j += 1
                        break
                    j += 1
            spans.append((i, j))
            for k in range(i + 1, j - 1):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        i += 1
    return "".join(out), spans


ESC = {"n": "\n", "t": "\t", "r": "\r", "'": "'", '"': '"', "\\": "\\", "`": "`", "0": "\0"}


def unquote(lit, lang):
    q = lit[0]
    body = lit[1:-1]
    if lang == "go" and q == "`":
        return body
    res = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nx = body[i + 1]
            if nx == "u" and re.match(r"[0-9a-fA-F]{4}", body[i + 2:i + 6]):
                res.append(chr(int(body[i + 2:i + 6], 16)))
                i += 6
                continue
            if nx == "\n":
                i += 2
                continue
            res.append(ESC.get(nx, nx))
            i += 2
            continue
        res.append(ch)
        i += 1
    return "".join(res)


def parse_concat(src, masked, spans, pos, lang):
    """Parse literal (+ literal)* starting at pos (after the open paren). Returns (start, text)
    or None if the argument is not made only of literals; also returns an identifier name."""
    span_at = {s: e for s, e in spans}
    i = pos
    parts = []
    first = None
    while True:
        while i < len(src) and src[i] in " \t\r\n":
            i += 1
        if i in span_at:
            e = span_at[i]
            parts.append(unquote(src[i:e], lang))
            first = i if first is None else first
            i = e
        else:
            m = re.match(r"[A-Za-z_]\w*", src[i:])
            if m and not parts:
                j = i + m.end()
                while j < len(src) and src[j] in " \t\r\n,":
                    j += 1
                if src[j] == ")":
                    return ("name", m.group(0))
            return None
        while i < len(src) and src[i] in " \t\r\n":
            i += 1
        if i < len(src) and src[i] == "+":
            i += 1
            continue
        # end of argument: ) or , (trailing comma)
        j = i
        while j < len(src) and src[j] in " \t\r\n,":
            j += 1
        if j < len(src) and src[j] == ")":
            return ("lit", first, "".join(parts))
        return None


def lineno(src, pos):
    return src.count("\n", 0, pos) + 1


def ts_const_strings(repo, paths):
    """const NAME = 'literal' (+ 'literal')* across the repository."""
    consts = {}
    for p in paths:
        src = show(repo, p)
        masked, spans = mask(src, "ts")
        for m in re.finditer(r"\bconst\s+([A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*", masked):
            r = parse_concat_end(src, spans, m.end(), "ts")
            if r:
                consts.setdefault(m.group(1), []).append((p, lineno(src, r[0]), r[1]))
    return consts


def parse_concat_end(src, spans, pos, lang):
    span_at = {s: e for s, e in spans}
    i = pos
    parts = []
    first = None
    while True:
        while i < len(src) and src[i] in " \t\r\n":
            i += 1
        if i not in span_at:
            return None
        e = span_at[i]
        parts.append(unquote(src[i:e], lang))
        first = i if first is None else first
        i = e
        while i < len(src) and src[i] in " \t\r\n":
            i += 1
        if i < len(src) and src[i] == "+":
            i += 1
            continue
        if i >= len(src) or src[i] not in ".[(?":
            return first, "".join(parts)
        return None


def ts_schema_types(repo, paths):
    """const NAME = z.<type>(...) -> type, for chains that start from a named schema."""
    types = {}
    for p in paths:
        src = show(repo, p)
        masked, _ = mask(src, "ts")
        for m in re.finditer(r"\bconst\s+([A-Za-z_]\w*)\s*=\s*z\s*\.\s*(?:coerce\s*\.\s*)?(\w+)\s*\(", masked):
            types[m.group(1)] = ZTYPE.get(m.group(2), "-")
    return types


ZTYPE = {"string": "str", "enum": "str", "literal": "str", "nativeEnum": "str", "url": "str", "email": "str",
         "uuid": "str", "number": "num", "int": "num",
         "bigint": "num", "array": "list"}


def ts_extract(repo, paths, exclude_output=False):
    consts = ts_const_strings(repo, paths)
    stypes = ts_schema_types(repo, paths)
    out = []
    for p in paths:
        src = show(repo, p)
        masked, spans = mask(src, "ts")
        # forward scan: stack of (open bracket pos, label before it)
        stack = []
        labels_at = {}
        starts_at = {}
        boundary = [0]
        for i, ch in enumerate(masked):
            if ch in "({[":
                pre = masked[max(0, i - 200):i]
                lm = re.search(r"([A-Za-z_$][\w$]*)\s*[:=]\s*(?:[\w$.]*\s*)?$", pre)
                stack.append((i, lm.group(1) if lm else ""))
            elif ch in ")}]":
                if stack:
                    stack.pop()
            if masked.startswith(".describe(", i):
                labels_at[i] = [lab for _, lab in stack]
                starts_at[i] = stack[-1][0] if stack else 0
        # top-level const declarations and, for a tool file, those reachable from `parameters:`
        decls = [(mm.start(), mm.group(1)) for mm in re.finditer(r"(?m)^(?:export\s+)?const\s+(\w+)", masked)]
        reach = None
        pm = re.search(r"\bparameters:\s*(\w+)", masked)
        if exclude_output and p.startswith("src/tools/") and pm:
            bodies = {}
            for k, (st, nm) in enumerate(decls):
                en = decls[k + 1][0] if k + 1 < len(decls) else len(masked)
                bodies[nm] = masked[st:en]
            reach = {pm.group(1)}
            todo = [pm.group(1)]
            while todo:
                nm = todo.pop()
                for ident in set(re.findall(r"\b[A-Za-z_]\w*\b", bodies.get(nm, "")[len("const " + nm):])):
                    if ident in bodies and ident not in reach:
                        reach.add(ident)
                        todo.append(ident)
        for m in re.finditer(r"\.describe\(", masked):
            dpos = m.start()
            labels = labels_at.get(dpos, [])
            if reach is not None:
                owner = [nm for st, nm in decls if st < dpos][-1:]
                if not owner or owner[0] not in reach:
                    continue  # a result schema (not reachable from the tool's parameters)
            top = re.findall(r"(?m)^(?:export\s+)?const\s+(\w+)", masked[:dpos])
            labels = labels + top[-1:]
            if exclude_output and any(re.search(r"output", lab, re.I) or lab == "ColorKeySchema" for lab in labels):
                continue
            r = parse_concat(src, masked, spans, m.end(), "ts")
            if r is None:
                print(f"skip (not a literal) {repo} {p}:{lineno(src, dpos)}", file=sys.stderr)
                continue
            if r[0] == "name":
                cands = consts.get(r[1], [])
                same = [c for c in cands if c[0] == p]
                pick = same[0] if same else (cands[0] if len(cands) == 1 else None)
                if not pick:
                    print(f"skip (unresolved {r[1]}) {repo} {p}:{lineno(src, dpos)}", file=sys.stderr)
                    continue
                spath, sline, text = pick
            else:
                spath, sline, text = p, lineno(src, r[1]), r[2]
            # the schema chain of this property: back from .describe( to the last separator at depth 0
            j = dpos - 1
            depth = 0
            while j >= 0:
                ch = masked[j]
                if ch in ")}]":
                    depth += 1
                elif ch in "({[":
                    if depth == 0:
                        break
                    depth -= 1
                elif depth == 0 and ch in ",:=;":
                    break
                j -= 1
            chain = masked[j + 1:dpos]
            zm = re.match(r"\s*z\s*\.\s*(?:coerce\s*\.\s*)?(\w+)", chain)
            if zm and zm.group(1) == "preprocess":
                # z.preprocess(fn, z.<type>(...)): the schema is the inner one
                zm = re.search(r"\bz\s*\.\s*(\w+)\s*\(", src[m.start() - len(chain):dpos][15:])
            if re.search(r"\)\s*\.\s*array\s*\(", chain):
                typ = "list"  # z.string().array()
            elif zm:
                typ = ZTYPE.get(zm.group(1), "-")
            else:
                nm = re.match(r"\s*([A-Za-z_]\w*)", chain)
                typ = stypes.get(nm.group(1), "-") if nm else "-"
            out.append((typ, spath, sline, text))
    return out


# ---------------------------------------------------------------- Go: mark3labs mcp.Description

GOTYPE = {"String": "str", "Number": "num", "Array": "list"}


def go_mcp_extract(repo, paths):
    consts = {}
    srcs = {p: show(repo, p) for p in paths}
    for p, src in srcs.items():
        masked, spans = mask(src, "go")
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*(?:string\s*)?=\s*", masked):
            r = parse_concat_end(src, spans, m.end(), "go")
            if r:
                consts.setdefault(m.group(1), []).append((p, lineno(src, r[0]), r[1]))
    out = []
    for p, src in srcs.items():
        masked, spans = mask(src, "go")
        for m in re.finditer(r"\bmcp\.Description\(", masked):
            dpos = m.start()
            r = parse_concat(src, masked, spans, m.end(), "go")
            if r is None:
                print(f"skip (not a literal) {repo} {p}:{lineno(src, dpos)}", file=sys.stderr)
                continue
            if r[0] == "name":
                cands = consts.get(r[1], [])
                same = [c for c in cands if c[0] == p]
                pick = same[0] if same else (cands[0] if len(cands) == 1 else None)
                if not pick:
                    print(f"skip (unresolved {r[1]}) {repo} {p}:{lineno(src, dpos)}", file=sys.stderr)
                    continue
                spath, sline, text = pick
            else:
                spath, sline, text = p, lineno(src, r[1]), r[2]
            # enclosing mcp.With<Type>( call, or mcp.Items / properties map
            j = dpos - 1
            depth = 0
            typ = "-"
            while j >= 0:
                ch = masked[j]
                if ch in ")}]":
                    depth += 1
                elif ch in "({[":
                    if depth == 0:
                        wm = re.search(r"mcp\.With(\w+)\s*$", masked[max(0, j - 40):j])
                        typ = GOTYPE.get(wm.group(1), "-") if wm else "-"
                        break
                    depth -= 1
                j -= 1
            out.append((typ, spath, sline, text))
    return out


# ---------------------------------------------------------------- Go: struct tags jsonschema:"..."

def go_tag_type(t):
    t = t.strip().lstrip("*")
    if t.startswith("[]"):
        return "list"
    if re.fullmatch(r"u?int\d*|float\d*", t):
        return "num"
    if t in ("string", "time.Time"):  # jsonschema-go gives time.Time the type string
        return "str"
    return "-"


def go_tag_extract(repo, paths):
    out = []
    for p in paths:
        src = show(repo, p)
        for ln, line in enumerate(src.splitlines(), 1):
            m = re.match(r"\s*([A-Z]\w*)\s+([\w\[\]\*\.]+)\s+`([^`]*)`", line)
            if not m:
                continue
            tm = re.search(r'jsonschema:"((?:[^"\\]|\\.)*)"', m.group(3))
            if not tm:
                continue
            text = tm.group(1)
            if text.startswith("description="):
                text = text[len("description="):]
            out.append((go_tag_type(m.group(2)), p, ln, text.replace('\\"', '"')))
    return out


# ---------------------------------------------------------------- sources

def extract(repo):
    kind = SOURCES[repo]
    fs = files(repo)
    if repo == "dbt-labs/dbt-mcp":
        paths = [f for f in fs if f.startswith("src/dbt_mcp/") and f.endswith(".py")]
        rows = py_extract(repo, paths)
    elif repo == "neo4j-contrib/mcp-neo4j":
        paths = [f for f in fs if re.match(r"servers/[^/]+/src/.*\.py$", f)]
        models = {f for f in paths if f.endswith(("neo4j_memory.py", "data_model.py"))}
        rows = py_extract(repo, paths, model_paths=models)
    elif kind == "go-mcp":
        paths = [f for f in fs if f.endswith(".go") and not f.endswith("_test.go") and "/client/" not in f]
        rows = go_mcp_extract(repo, paths)
    elif kind == "go-tag":
        paths = [f for f in fs if f.startswith("pkg/") and f.endswith(".go") and not f.endswith("_test.go")]
        rows = go_tag_extract(repo, paths)
    elif repo == "Doist/todoist-ai":
        paths = [f for f in fs if re.match(r"src/(tools|utils)/[^/]+\.ts$", f)
                 and not f.endswith((".test.ts", "output-schemas.ts"))]
        rows = ts_extract(repo, paths, exclude_output=True)
    else:
        paths = [f for f in fs if f.startswith("src/") and f.endswith(".ts") and not f.endswith(".test.ts")]
        rows = ts_extract(repo, paths)
    rows.sort(key=lambda r: (r[1], r[2]))
    seen = set()
    res = []
    for typ, path, line, text in rows:
        t = collapse(text)
        if not t or len(t) > MAXLEN or t in seen:
            continue
        seen.add(t)
        res.append((typ, f"{repo} {path}:{line}", t))
    return res


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else "extract"
    allrows = {repo: extract(repo) for repo in SOURCES}
    if cmd == "extract":
        with open("./batch8_all.tsv", "w") as f:
            for repo, rows in allrows.items():
                for r in rows:
                    f.write("\t".join(r) + "\n")
        for repo, rows in allrows.items():
            c = sum(1 for r in rows if CONSTRAINT_RE.search(r[2]))
            print(f"{repo}: {len(rows)} ({c}/{len(rows) - c})")
        return
    with open("./batch8_sample.tsv", "w") as f:
        for repo, rows in allrows.items():
            rng = random.Random(f"{SEED}:{repo}")
            cons = [r for r in rows if CONSTRAINT_RE.search(r[2])]
            rest = [r for r in rows if not CONSTRAINT_RE.search(r[2])]
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
            print(f"{repo}: {len(rows)} ({len(cons)}/{len(rest)}) -> {qc}+{qr} = {qc + qr}")
            for r in pick:
                f.write("\t".join(r) + "\n")


if __name__ == "__main__":
    main()
