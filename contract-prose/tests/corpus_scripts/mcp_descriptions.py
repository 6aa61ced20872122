# The extraction and sampling shared by batch16_extract.py, batch17_extract.py and
# batch18_extract.py
# (corpus_scripts/README.md). Factored out of batch 16's script unchanged: run with
# batch 16's arguments it writes batch 16's sample byte for byte. A batch script
# names its sources (pinned commits), its seed and, if it reads more than batch 16
# did, the file endings to read.
import os, re, subprocess, sys, random
MIRROR = os.environ.get("C12_MIRROR", "/work/.mirror")
# The cue: a string literal (or literals joined by `+`) after `description=`,
# `Description(`, `.describe(` or `"description":`.
CUE = re.compile(r'''(?:description\s*=\s*|Description\(\s*|\.describe\(\s*|["']description["']\s*:\s*)((?:(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)\s*\+?\s*)+)''')
LIT = re.compile(r'''"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`''')
TESTS = re.compile(r'(^|/)(tests?|integtests?|testdata|__tests__|spec|e2e|examples?)/|_test\.go$|\.test\.|\.spec\.|(^|/)test_[^/]*\.py$|(^|/)conftest\.py$')
# Batch 16 read these endings; a batch may pass more (batch 18 adds Rust).
EXTS = ("py", "ts", "go", "js")
CONSTRAINTY = re.compile(r'\d|must|one of|format|e\.g\.|url|uri|\bor\b|only|allowed|valid|max|min|between|iso|uuid|email|pattern|prefix|characters|default', re.I)
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
def type_before(text, m):
    """The type of the argument a cue match describes, read from the code just before it."""
    return typ(text[:m.start()])
def extract(sources, exts=EXTS, tests=TESTS, cue=CUE, type_of=type_before):
    """Every distinct description of each source at its commit: [(source, [(text, type, where)])].
    A batch that widens the cue passes its own (literals in group 1) and, if needed, its
    own type_of(file text, match); batch 18 does."""
    ends = re.compile(r'\.(' + '|'.join(exts) + r')$')
    out = []
    for src, commit in sources:
        d = f"{MIRROR}/{src}/repo"
        files = git(d, "ls-tree", "-r", "--name-only", commit).decode().split("\n")
        files = [f for f in files if ends.search(f) and not tests.search(f)]
        seen = set(); items = []
        for f in files:
            try: text = git(d, "show", f"{commit}:{f}").decode("utf-8", "replace")
            except Exception: continue  # a blob the snapshot does not hold
            for m in cue.finditer(text):
                parts = [a or b or c for a, b, c in LIT.findall(m.group(1))]
                s = "".join(parts).replace("\\n", " ").replace("\\'", "'").replace('\\"', '"').replace("\n", " ")
                s = re.sub(r"\s+", " ", s).strip()
                if len(s) < 8 or len(s) > 600 or "${" in s and len(s) < 20: continue
                if s in seen: continue
                seen.add(s)
                line = text[:m.start()].count("\n") + 1
                items.append((s, type_of(text, m), f"{src.replace('+', '/')} {commit[:7]} {f}:{line}"))
        out.append((src, items))
        print(src, len(items), file=sys.stderr)
    return out
def sample(out, seed, per_source=40):
    """per_source entries of each source (two thirds among constraint-like wording), one
    random generator across the sources in their order."""
    rng = random.Random(seed)
    rows = []
    for src, items in out:
        n = per_source if len(items) >= per_source else len(items)
        con = [i for i in items if CONSTRAINTY.search(i[0])]
        rest = [i for i in items if not CONSTRAINTY.search(i[0])]
        rng.shuffle(con); rng.shuffle(rest)
        k = min(len(con), (2*n)//3)
        pick = con[:k] + rest[:n-k]
        if len(pick) < n: pick += con[k:k+(n-len(pick))]
        rows += pick
    return rows
def main(sources, seed, exts=EXTS, tests=TESTS, cue=CUE, type_of=type_before):
    """Writes the unlabelled sample (`?`, type, source, text) to standard output."""
    for s, t, where in sample(extract(sources, exts, tests, cue, type_of), seed):
        print(f"?\t{t}\t{where}\t{s}")
