#!/usr/bin/env python3
"""Batch 14 of the C12 held-out corpus: extract argument descriptions from five new sources and
sample them.

Usage: C12_MIRROR=/path/to/snapshots python3 batch14_extract.py > sample.tsv
       (prints the sample as "type<TAB>source<TAB>text" lines to stdout, the counts to stderr;
       with the argument "all" it prints every distinct description instead of the sample)

Each source is read from its snapshot (a bare git dir named owner+name, under $C12_MIRROR) at
the commit pinned in SOURCES. The readers are those of batch12_extract.py, run with this batch's
SOURCES, QUOTA and SEED.

OpenAPI specs (typesense/typesense-api-spec, meilisearch/open-api): the "description" of each
parameter (a member of a "parameters" list with "name" and "in") and of each member of a
"properties" object, anywhere in the document, typed from the "type" of the parameter's schema /
the property (a local $ref, or an allOf/anyOf/oneOf holding a single non-null branch, is
followed for the type). JSON pointer as the location. (The functions of batch9_extract.py; the
JSON document of meilisearch is read by the same YAML loader.)

TypeScript MCP servers (zereight/gitlab-mcp: schemas.ts; cyanheads/git-mcp-server: src/;
GongRzhe/Gmail-MCP-Server: src/): every zod .describe(<literal> (+ <literal>)*) in those files
outside tests (a const string named as the argument is resolved), typed from the first z.<type>(
of the property's chain (string/enum -> str, number -> num, array or .array() -> list, anything
else -> -). (The functions of batch8_extract.py, reading the pinned commit instead of HEAD.)

Whitespace is collapsed; nothing else changed. Descriptions over 600 characters are dropped;
each source is deduplicated by text (first occurrence kept, files in path order; the OpenAPI
files of a source in the order listed).

Sampling (seed SEED, Python random.Random(f"{SEED}:{repo}")): per source, two thirds of its
quota at random among the descriptions with constraint-like wording (CONSTRAINT_LIKE) and one
third at random among the rest; a source with fewer than its share of one kind gives the rest
to the other; a source with fewer descriptions than its quota is taken whole.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batch12_extract as b12  # noqa: E402  (the readers, the sampling and the output)

SEED = "20261214"

SOURCES = [
    # (repo, kind, commit, paths or path prefixes)
    ("typesense/typesense-api-spec", "openapi", "9963d6cebcbe42702048e27ab3c0ea6b325eb952",
     ["openapi.yml"]),
    ("meilisearch/open-api", "openapi", "0b0b0fdbb9d5821ec018a3db2777986a231eec37",
     ["open-api.json"]),
    ("zereight/gitlab-mcp", "ts", "32c5df77f0ad3e54aaeb92cd59b9a480b37e675e", ("schemas.ts",)),
    ("cyanheads/git-mcp-server", "ts", "0049b5fbce2d56598bf2b34f70e4f105ee153367", ("src/",)),
    ("GongRzhe/Gmail-MCP-Server", "ts", "a890d19189bbc1325b8728fab830fc278cfd8804", ("src/",)),
]

QUOTA = {
    "typesense/typesense-api-spec": 45,
    "meilisearch/open-api": 45,
    "zereight/gitlab-mcp": 45,
    "cyanheads/git-mcp-server": 45,
    "GongRzhe/Gmail-MCP-Server": 40,
}


if __name__ == "__main__":
    b12.run(SOURCES, QUOTA, SEED)
