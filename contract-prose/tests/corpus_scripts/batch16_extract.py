# Batch 16 extraction (corpus_scripts/README.md): run against snapshots of the six
# repositories at the commits below (the batch header names them), each a git
# directory (bare or not) at $C12_MIRROR/OWNER+NAME/repo.
# Batch 16 extraction: argument descriptions from six MCP servers no corpus,
# tool set, development source, false-alarm set or earlier batch has used; one
# file per source, deduplicated. Adapted from batch15_extract.py: same cue, same
# type reader, same constraint-like wording, same sampling; the sources are read
# at pinned commits rather than HEAD, and test folders are left out more widely
# (integtests/, testdata/, test_*.py), since batch 15 let integtests/ through.
import os, re, subprocess, sys, random
MIRROR = os.environ.get("C12_MIRROR", "/work/.mirror")
SOURCES = [("razorpay+razorpay-mcp-server", "ad68cf044342687313fdf3245f2cb2250e106556"),
           ("VictoriaMetrics-Community+mcp-victoriametrics", "b66974bfa7d5ade497d51ff1517a4f7641066c08"),
           ("contentful+contentful-mcp-server", "952d1c80965eae0a5ddf15124adfdef5bddbd02b"),
           ("comet-ml+opik-mcp", "1cce6a8e224e5f317f066faab2673e84994c82b2"),
           ("cbcoutinho+nextcloud-mcp-server", "10ebac6e23d681daa9611f7c5770bda3cbc6d7d0"),
           ("quiltdata+quilt-mcp-server", "8de68793b1142f876d226b8d73afee70de00160a")]
CUE = re.compile(r'''(?:description\s*=\s*|Description\(\s*|\.describe\(\s*|["']description["']\s*:\s*)((?:(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)\s*\+?\s*)+)''')
LIT = re.compile(r'''"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`''')
TESTS = re.compile(r'(^|/)(tests?|integtests?|testdata|__tests__|spec|e2e|examples?)/|_test\.go$|\.test\.|\.spec\.|(^|/)test_[^/]*\.py$|(^|/)conftest\.py$')
def typ(before):
    b = before[-250:]
    m = None
    for pat, t in [(r'z\.number\(|WithNumber\(|: int\b|: float\b|Optional\[int\]|Optional\[float\]|\bint \||"integer"|"number"|NumberType', 'num'),
                   (r'z\.array\(|WithArray\(|list\[|List\[|"array"', 'list'),
                   (r'z\.string\(|WithString\(|: str\b|Optional\[str\]|\bstr \||"string"', 'str')]:
        for mm in re.finditer(pat, b):
            if m is None or mm.start() > m[0]:
                m = (mm.start(), t)
    return m[1] if m else '-'
def git(d, *args):
    return subprocess.check_output(["git", "--git-dir", d, *args], stderr=subprocess.DEVNULL)
out = []
for src, commit in SOURCES:
    d = f"{MIRROR}/{src}/repo"
    files = git(d, "ls-tree", "-r", "--name-only", commit).decode().split("\n")
    files = [f for f in files if re.search(r'\.(py|ts|go|js)$', f) and not TESTS.search(f)]
    seen = set(); items = []
    for f in files:
        try: text = git(d, "show", f"{commit}:{f}").decode("utf-8", "replace")
        except Exception: continue  # a blob the snapshot does not hold
        for m in CUE.finditer(text):
            parts = [a or b or c for a, b, c in LIT.findall(m.group(1))]
            s = "".join(parts).replace("\\n", " ").replace("\\'", "'").replace('\\"', '"').replace("\n", " ")
            s = re.sub(r"\s+", " ", s).strip()
            if len(s) < 8 or len(s) > 600 or "${" in s and len(s) < 20: continue
            if s in seen: continue
            seen.add(s)
            line = text[:m.start()].count("\n") + 1
            items.append((s, typ(text[:m.start()]), f"{src.replace('+', '/')} {commit[:7]} {f}:{line}"))
    out.append((src, items))
    print(src, len(items), file=sys.stderr)
CONSTRAINTY = re.compile(r'\d|must|one of|format|e\.g\.|url|uri|\bor\b|only|allowed|valid|max|min|between|iso|uuid|email|pattern|prefix|characters|default', re.I)
rng = random.Random(20261216)
rows = []
for src, items in out:
    n = 40 if len(items) >= 40 else len(items)
    con = [i for i in items if CONSTRAINTY.search(i[0])]
    rest = [i for i in items if not CONSTRAINTY.search(i[0])]
    rng.shuffle(con); rng.shuffle(rest)
    k = min(len(con), (2*n)//3)
    pick = con[:k] + rest[:n-k]
    if len(pick) < n: pick += con[k:k+(n-len(pick))]
    rows += pick
for s, t, where in rows:
    print(f"?\t{t}\t{where}\t{s}")
