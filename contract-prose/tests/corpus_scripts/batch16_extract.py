# Batch 16 extraction (corpus_scripts/README.md): run against snapshots of the six
# repositories at the commits below (the batch header names them), each a git
# directory (bare or not) at $C12_MIRROR/OWNER+NAME/repo.
# Batch 16 extraction: argument descriptions from six MCP servers no corpus,
# tool set, development source, false-alarm set or earlier batch has used; one
# file per source, deduplicated. Adapted from batch15_extract.py: same cue, same
# type reader, same constraint-like wording, same sampling; the sources are read
# at pinned commits rather than HEAD, and test folders are left out more widely
# (integtests/, testdata/, test_*.py), since batch 15 let integtests/ through.
# The extraction and sampling are in mcp_descriptions.py (shared with batch 17's script).
from mcp_descriptions import main
SOURCES = [("razorpay+razorpay-mcp-server", "ad68cf044342687313fdf3245f2cb2250e106556"),
           ("VictoriaMetrics-Community+mcp-victoriametrics", "b66974bfa7d5ade497d51ff1517a4f7641066c08"),
           ("contentful+contentful-mcp-server", "952d1c80965eae0a5ddf15124adfdef5bddbd02b"),
           ("comet-ml+opik-mcp", "1cce6a8e224e5f317f066faab2673e84994c82b2"),
           ("cbcoutinho+nextcloud-mcp-server", "10ebac6e23d681daa9611f7c5770bda3cbc6d7d0"),
           ("quiltdata+quilt-mcp-server", "8de68793b1142f876d226b8d73afee70de00160a")]
main(SOURCES, 20261216)
