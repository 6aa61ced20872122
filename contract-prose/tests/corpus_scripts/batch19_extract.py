# Batch 19 extraction (corpus_scripts/README.md): run against snapshots of the six
# repositories at the commits below (the batch header names them), each a git
# directory (bare or not) at $C12_MIRROR/OWNER+NAME/repo.
# Batch 19: argument descriptions from six MCP servers no corpus, tool set, false-alarm
# set, contradiction set, lint test or earlier batch has read (owners a-m; batch 20
# takes n-z). Batch 16's extraction and sampling (mcp_descriptions.py: same
# constraint-like wording and sampling, 40 per source) with its own sources, commits and
# seed, tests and vendored code (vendor/, node_modules/) left out as in batch 17, and
# one widening the new sources need, only adding text batch 16's cue would have skipped:
# - an unquoted `description:` key of a JavaScript object literal (hangwin/mcp-chrome
#   declares its input schemas as plain JSON Schema objects, `url: { type: 'string',
#   description: '...' }`), its literals possibly on the next line. The type of such an
#   argument is read as batch 16 reads it, with `type: '...'` in single quotes also
#   read, and an array's `items: { type: ... }` passed over so that the array's own type
#   is the one read.
# The type reader also reads a zod chain broken over lines (`z\n  .number()`, as
# alchemyplatform/alchemy-mcp-server writes most of its schemas) as batch 16's reads
# `z.number()` on one line: whitespace before a `.` is dropped before it reads; and a
# Python parameter declared `name: Annotated[TYPE, Field(description=...)]`
# (datalayer/jupyter-mcp-server) has its type read from TYPE, as batch 18 reads
# Annotated's.
import re
from mcp_descriptions import main, typ, TESTS
SOURCES = [("alchemyplatform+alchemy-mcp-server", "3b9045e6b4c1371b6fef3a58d4ce46dc18f5bab1"),
           ("chronosphereio+chronosphere-mcp", "90f1e6ade042e7b0f47f036139a46f7324bfada9"),
           ("CrowdStrike+falcon-mcp", "47d82bfee3b0a19e2ec0c5b1bdededb5cca74654"),
           ("datalayer+jupyter-mcp-server", "0fe1eaecf9d54b655f65eaf4a971b4a4d4e76784"),
           ("graphlit+graphlit-mcp-server", "1b94b887ba1692f7226ebc306b9ab7a02ce8b0f4"),
           ("hangwin+mcp-chrome", "2b2d1ca66ea506e8144db4041db031fd3458d397")]
LITS = r'''((?:(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)\s*\+?\s*)+)'''
# Batch 16's cue, with a bare `description:` key added (not part of a longer name, not
# quoted: the quoted key is batch 16's own alternative).
WIDE = re.compile(r'''(?:description\s*=\s*|Description\(\s*|\.describe\(\s*|["']description["']\s*:\s*|(?<![\w"'$.])description\s*:\s*)''' + LITS)
JS_TYPE = re.compile(r'''\btype\s*:\s*'(string|number|integer|array)\'''')
ITEMS = re.compile(r'''["']?items["']?\s*:\s*\{[^{}]*\}''')
ANNOTATED = re.compile(r'Annotated\[\s*([^,\[\]]+(?:\[[^\[\]]*\])?[^,\[\]]*),\s*Field\(\s*$')
def type_of(text, m):
    """Batch 16's type reader on the code before the cue, an array's items passed over,
    a single-quoted JSON Schema type read as the double-quoted one is, and a zod chain
    broken over lines read as if on one line; Annotated's TYPE before `Field(`."""
    a = ANNOTATED.search(text[max(0, m.start() - 300):m.start()])
    if a:
        t = re.sub(r'^Optional\[', '', a.group(1).strip())
        if re.match(r'(int|float)\b', t): return 'num'
        if re.match(r'(list|List)\b', t): return 'list'
        if re.match(r'str\b', t): return 'str'
        return '-'
    before = re.sub(r'\s+\.', '.', text[max(0, m.start() - 1000):m.start()])
    before = ITEMS.sub('', before)
    before = JS_TYPE.sub(lambda t: f'"{t.group(1)}"', before)
    return typ(before)
SKIP = re.compile(TESTS.pattern + r'|(^|/)(vendor|node_modules)/')
main(SOURCES, 20261219, tests=SKIP, cue=WIDE, type_of=type_of)
