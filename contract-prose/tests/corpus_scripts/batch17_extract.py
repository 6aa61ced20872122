# Batch 17 extraction (corpus_scripts/README.md): run against snapshots of the six
# repositories at the commits below (the batch header names them), each a git
# directory (bare or not) at $C12_MIRROR/OWNER+NAME/repo.
# Batch 17: argument descriptions from six MCP servers no corpus, tool set,
# development source, false-alarm set, contradiction set, lint test or earlier
# batch has used; one file per source, deduplicated. Batch 16's extraction and
# sampling (mcp_descriptions.py: same cue, type reader, constraint-like wording
# and sampling, 40 per source) with its own sources, commits and seed; vendored
# code (vendor/, node_modules/) is left out with the tests, since bitrise-mcp
# vendors a Go MCP library whose descriptions are not the server's.
import re
from mcp_descriptions import main, TESTS
SOURCES = [("bitrise-io+bitrise-mcp", "00a0602ddfe614fdfa5e2038206a687872791233"),
           ("eyaltoledano+claude-task-master", "c0c98d367c55296bfe69e65680625b6db437af02"),
           ("honeycombio+honeycomb-mcp", "7e4afc49a29314dc080259cbdd64377b3af5684d"),
           ("jfrog+mcp-jfrog", "667a01f6d39360db730ece3f57723afbfb900722"),
           ("Aiven-Open+mcp-aiven", "f3d9f6334ad6207bb05120f9a379ab1801770ff4"),
           ("ckreiling+mcp-server-docker", "6288015cee6b76b2e2bf2c64232f0748baf48c1c")]
SKIP = re.compile(TESTS.pattern + r'|(^|/)(vendor|node_modules)/')
main(SOURCES, 20261217, tests=SKIP)
