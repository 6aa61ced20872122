# Batch 20 extraction (corpus_scripts/README.md): run against snapshots of the six
# repositories at the commits below (the batch header names them), each a git
# directory (bare or not) at $C12_MIRROR/OWNER+NAME/repo.
# Batch 20: argument descriptions from six MCP servers no corpus, tool set, false-alarm
# set, contradiction set, lint test or earlier batch has read (owners n-z; batch 19 takes
# a-m). Batch 16's extraction and sampling (mcp_descriptions.py: same cue, constraint-like
# wording and sampling, 40 per source) with its own sources, commits and seed; vendored
# code (vendor/, node_modules/) left out with the tests as in batch 17, and Rust sources
# read as in batch 18. One widening of the type column only (the cue is batch 16's):
# stakpak/agent declares its arguments as Rust struct fields under
# `#[schemars(description = "...")]`, where the field's type comes after the description,
# so for that attribute the type is read from the field that follows it (batch 16's
# reader, which looks before the cue, would give the previous field's type); every other
# match keeps batch 16's type reader. Rust strings continued over lines with a trailing
# backslash do not match the shared literal pattern and are skipped, as batch 16's cue
# skips them.
import re
from mcp_descriptions import main, type_before, EXTS, TESTS
SOURCES = [("nguyenvanduocit+jira-mcp", "c37d01ebcf04acb74ba3a824a0c75672bcb4dcb3"),
           ("reza-gholizade+k8s-mcp-server", "be87a6dd72bb6ec1d4886b8548843b99a4638b12"),
           ("r-huijts+xcode-mcp-server", "f3419f00117aa9949e326f78cc940166c88f18cb"),
           ("tomtom-international+tomtom-mcp", "7fe831535b0bb0529fe6fbbba6b25aa3590c92ce"),
           ("Teradata+teradata-mcp-server", "a9362bee4f17e873b6d2fbe9bc30e8db012b043f"),
           ("stakpak+agent", "4e44be9ceea9b893f9a93a015c6efeac7b8e7520")]
SCHEMARS = re.compile(r'#\[\s*schemars\(\s*$')
# The field after the attribute: its closing `)]`, any further attributes, then
# `[pub] name: Type`.
FIELD = re.compile(r'[^\n]*?\)\]\s*(?:#\[[^\n]*\]\s*|#\[\s*\w+\((?:[^()]|\([^()]*\))*\)\]\s*)*(?:pub(?:\([^)]*\))?\s+)?\w+\s*:\s*([^\n,]+)')
def rust_type(t):
    t = t.strip()
    o = re.match(r'Option<(.*)>$', t)
    if o: t = o.group(1).strip()
    if re.match(r'(Vec|HashSet|BTreeSet)<|\[', t): return 'list'
    if re.match(r'(String|&\'?\w*\s*str|str|PathBuf)$', t): return 'str'
    if re.match(r'([ui](8|16|32|64|128|size)|f32|f64)$', t): return 'num'
    return '-'
def type_of(text, m):
    if SCHEMARS.search(text[max(0, m.start() - 40):m.start()]):
        f = FIELD.match(text, m.end())
        return rust_type(f.group(1)) if f else '-'
    return type_before(text, m)
SKIP = re.compile(TESTS.pattern + r'|(^|/)(vendor|node_modules)/|(^|/)tests\.rs$')
main(SOURCES, 20261220, exts=EXTS + ("rs",), tests=SKIP, type_of=type_of)
