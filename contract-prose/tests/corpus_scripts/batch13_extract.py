#!/usr/bin/env python3
"""Batch 13 of the C12 held-out corpus: extract argument descriptions from five new sources and
sample them.

Usage: C12_MIRROR=/path/to/snapshots python3 batch13_extract.py > sample.tsv
       (prints the sample as "type<TAB>source<TAB>text" lines to stdout, the counts to stderr;
       with the argument "all" it prints every distinct description instead of the sample)

Each source is read from its snapshot (a bare git dir named owner+name, under $C12_MIRROR) at
the commit pinned in SOURCES. The readers are those of batch12_extract.py, run with this batch's
SOURCES, QUOTA and SEED.

OpenAPI specs (Adyen/adyen-openapi, open-meteo/open-meteo): the "description" of each parameter
(a member of a "parameters" list with "name" and "in") and of each member of a "properties"
object, anywhere in the document, typed from the "type" of the parameter's schema / the property
(a local $ref, or an allOf/anyOf/oneOf holding a single non-null branch, is followed for the
type). JSON pointer as the location. (The functions of batch9_extract.py.)

TypeScript MCP servers (upstash/mcp-server, dynatrace-oss/dynatrace-mcp,
sanity-io/sanity-mcp-server): every zod .describe(<literal> (+ <literal>)*) in src/**/*.ts outside
tests (a const string named as the argument is resolved), typed from the first z.<type>( of the
property's chain (string/enum -> str, number -> num, array or .array() -> list, anything else ->
-). (The functions of batch8_extract.py, reading the pinned commit instead of HEAD.)

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

SEED = "20261213"

SOURCES = [
    # (repo, kind, commit, paths or path prefixes)
    ("Adyen/adyen-openapi", "openapi", "aa014f0cbdb58ff5c44a2ff9d5fe734642210aff",
     ["yaml/CheckoutService-v71.yaml"]),
    ("open-meteo/open-meteo", "openapi", "ba13de1c0556938e317b7adc240d527f10ba4c94",
     ["openapi/forecast.yml", "openapi/historical-weather.yml", "openapi/air-quality.yml",
      "openapi/marine.yml", "openapi/ensemble.yml", "openapi/climate.yml", "openapi/flood.yml",
      "openapi/seasonal.yml", "openapi/elevation.yml"]),
    ("upstash/mcp-server", "ts", "1c3beba163db17c83b108207bbe70dba2dd9603a", ("src/",)),
    ("dynatrace-oss/dynatrace-mcp", "ts", "2df7089fc07a88660575a9f476f7b15a29da5a82", ("src/",)),
    ("sanity-io/sanity-mcp-server", "ts", "19f204e9c9e5d858c11396f01d156216706cc040", ("src/",)),
]

QUOTA = {
    "Adyen/adyen-openapi": 50,
    "open-meteo/open-meteo": 45,  # 42 distinct descriptions: taken whole
    "upstash/mcp-server": 45,
    "dynatrace-oss/dynatrace-mcp": 40,
    "sanity-io/sanity-mcp-server": 45,
}


if __name__ == "__main__":
    b12.run(SOURCES, QUOTA, SEED)
