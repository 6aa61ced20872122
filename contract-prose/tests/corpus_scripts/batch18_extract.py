# Batch 18 extraction (corpus_scripts/README.md): run against snapshots of the six
# repositories at the commits below (the batch header names them), each a git
# directory (bare or not) at $C12_MIRROR/OWNER+NAME/repo.
# Batch 18: argument descriptions from six MCP servers no corpus, tool set, false-alarm
# set, contradiction set, lint test or earlier batch has read (owners n-z or a digit;
# batch 17 took a-m). Batch 16's extraction and sampling (mcp_descriptions.py: same
# constraint-like wording and sampling, 40 per source) with its own sources, commits and
# seed, and three widenings the new sources need, each only adding text batch 16's cue
# would have skipped:
# - `description=(` with the literals inside parentheses (Python's implicit
#   concatenation, narumiruna/yfinance-mcp);
# - `Annotated[TYPE, "..."]`, a parameter's description given as the second argument of
#   Annotated (thirdweb-dev/ai), its type read from TYPE;
# - Rust sources (nicholaswilde/proxmox-mcp-rs declares its schemas in json! blocks,
#   `"type": ..., "description": ...`), src/tests.rs left out with the test folders.
import re
from mcp_descriptions import main, type_before, EXTS, TESTS
SOURCES = [("zerodha+kite-mcp-server", "dcf2dc410d579b5ee69681144b4063a29e225658"),
           ("webflow+mcp-server", "c4fa339cd9ba7a93d771e710db89302fc443c447"),
           ("scotthamilton77+atlas-mcp-server", "30b1f184725bc2480795af174ab544890834ca1f"),
           ("nicholaswilde+proxmox-mcp-rs", "cfc9bf79cf0de9e4e7e90154797df4942c61e5e5"),
           ("narumiruna+yfinance-mcp", "2dbd09b2d56840a995342da3ec60ba223c379da0"),
           ("thirdweb-dev+ai", "c6c2bb1acb1908113cbd2a132b5292ade7459b66")]
LITS = r'''((?:(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)\s*\+?\s*)+)'''
# Batch 16's cue with `description=(` allowed (literals in group 1), or Annotated's second
# argument (its type in group 2: names with at most one level of brackets, joined by `|`;
# its literals in group 3).
WIDE = re.compile(r'''(?:(?:description\s*=\s*\(?\s*|Description\(\s*|\.describe\(\s*|["']description["']\s*:\s*)'''
                  + LITS + r'''|Annotated\[\s*((?:[\w.]+(?:\[[^\[\]]*\])?\s*\|?\s*)+),\s*''' + LITS + ')')
class Found:
    """A WIDE match as the shared extraction reads one: its literals in group 1."""
    def __init__(self, m): self.m = m
    def group(self, i):
        if i == 1 and self.m.group(1) is None: return self.m.group(3)
        return self.m.group(i)
    def start(self): return self.m.start()
class Cue:
    def finditer(self, text):
        return (Found(m) for m in WIDE.finditer(text))
def type_of(text, m):
    t = m.group(2)
    if t is None: return type_before(text, m)
    if re.match(r'(int|float)\b', t): return 'num'
    if re.match(r'(list|List)\b', t): return 'list'
    if re.match(r'str\b', t): return 'str'
    return '-'
SKIP = re.compile(TESTS.pattern + r'|(^|/)tests\.rs$')
main(SOURCES, 20261218, exts=EXTS + ("rs",), tests=SKIP, cue=Cue(), type_of=type_of)
