# Batch 15 extraction (corpus_scripts/README.md): run against clones of the six
# repositories at the commits the batch header names, each under /work/.mirror/OWNER+NAME/repo.
# Batch 15 extraction: argument descriptions from six MCP servers no corpus,
# tool set or development source has used; one file per source, deduplicated.
import re, subprocess, sys, json, random
SOURCES = ["keboola+mcp-server","last9+last9-mcp-server","vantage-sh+vantage-mcp-server",
           "pubnub+pubnub-mcp-server","mittwald+mcp-server","zscaler+zscaler-mcp-server"]
CUE = re.compile(r'''(?:description\s*=\s*|Description\(\s*|\.describe\(\s*|["']description["']\s*:\s*)((?:(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)\s*\+?\s*)+)''')
LIT = re.compile(r'''"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`''')
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
out = []
for src in SOURCES:
    d = f"/work/.mirror/{src}/repo"
    head = subprocess.check_output(["git","-C",d,"rev-parse","HEAD"]).decode().strip()
    files = subprocess.check_output(["git","-C",d,"ls-tree","-r","--name-only","HEAD"]).decode().split("\n")
    files = [f for f in files if re.search(r'\.(py|ts|go|js)$', f) and not re.search(r'(^|/)(tests?|__tests__|spec|e2e|examples?)/|_test\.go$|\.test\.|\.spec\.', f)]
    seen = set(); items = []
    for f in files:
        try: text = subprocess.check_output(["git","-C",d,"show",f"HEAD:{f}"]).decode("utf-8","replace")
        except Exception: continue
        for m in CUE.finditer(text):
            parts = [a or b or c for a,b,c in LIT.findall(m.group(1))]
            s = "".join(parts).replace("\\n"," ").replace("\\'", "'").replace('\\"','"').replace("\n"," ")
            s = re.sub(r"\s+"," ",s).strip()
            if len(s) < 8 or len(s) > 600 or "${" in s and len(s) < 20: continue
            if s in seen: continue
            seen.add(s)
            line = text[:m.start()].count("\n")+1
            items.append((s, typ(text[:m.start()]), f"{src.replace('+','/')} {head[:7]} {f}:{line}"))
    out.append((src, items))
    print(src, len(items), file=sys.stderr)
CONSTRAINTY = re.compile(r'\d|must|one of|format|e\.g\.|url|uri|\bor\b|only|allowed|valid|max|min|between|iso|uuid|email|pattern|prefix|characters|default', re.I)
rng = random.Random(20261215)
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
for s,t,where in rows:
    print(f"?\t{t}\t{where}\t{s}")
