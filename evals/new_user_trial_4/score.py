#!/usr/bin/env python3
"""Scores the C12 compile errors (build*.log) and audit findings (findings.jsonl) against ground_truth.json.

Each error or finding is attributed to the doc comment its quoted phrase comes from: the argument's
own doc comment if the phrase is in it, else the tool's description (a sentence of the tool's
description is read as part of the argument it names)."""
import json, re, glob
from collections import defaultdict, Counter

gt = json.load(open("ground_truth.json"))
prim = [r for r in gt if r["cat"] in ("tool", "argument")]
supp = [r for r in gt if r["cat"] in ("type", "variant")]
MOD = {"hr": "hr", "shipping": "shipping", "school": "school", "social": "social", "cloud": "cloud"}

def norm(s): return re.sub(r"\s+", " ", s)

def rows_of_tool(tool):
    return [r for r in prim if r["tool"] == tool or r["tool"].startswith(tool + " (via")]

def attribute(tool, arg, phrase):
    rs = rows_of_tool(tool)
    ph = norm(phrase)
    if arg is not None:
        for r in rs:
            if r["cat"] == "argument" and (r["what"] == arg or r["what"].endswith("." + arg) or arg.endswith("." + r["what"])) and ph in norm(r["text"]):
                return r, "own doc comment"
    for r in rs:
        if r["cat"] == "tool" and ph in norm(r["text"]):
            return r, "tool description"
    # last resort: any doc of the tool containing the phrase
    for r in rs:
        if ph in norm(r["text"]):
            return r, "other doc comment of the tool"
    for r in supp:
        if ph in norm(r["text"]):
            return r, "type doc"
    return None, "unattributed"

def key(r): return (r["module"], r["tool"], r["what"])

# ---- compile errors
fn_of_line = {}
def tool_at(module, line):
    src = open(f"src.orig/{module}.rs").read().split("\n")
    # the build logs' line numbers are of the acknowledged files at that build; find the fn by scanning up from the line in the
    # file as it was at that build is not kept, so scan the current file from the line (acknowledgements only add lines below earlier errors)
    return None

errors = []
for log in sorted(glob.glob("build*.log"), key=lambda p: int(re.findall(r"\d+", p)[0])):
    text = open(log).read()
    for m in re.finditer(r"error(?:\[E0080\])?: (?:evaluation panicked: C12: )?the description of `(\w+)` says \"(.*?)\"(?: \(values [^)]*\))? but .*?\n(?:.*\n)*?\s*--> src/(\w+)\.rs:(\d+):(\d+)", text):
        arg, phrase, module, line = m.group(1), m.group(2), m.group(3), int(m.group(4))
        errors.append(dict(build=log, arg=arg, phrase=phrase, module=module, line=line, raw=m.group(0).split("\n")[0]))

# find the tool of each error: the argument name within the module, resolved by phrase
findings = [json.loads(l) for l in open("findings.jsonl")]
def resolve_error(e):
    cands = [r for r in prim if r["module"] == e["module"] and (r["what"] == e["arg"] or r["what"].endswith("." + e["arg"]))]
    ph = norm(e["phrase"])
    for r in cands:
        if ph in norm(r["text"]):
            return r, "own doc comment"
    for r in cands:
        t = [x for x in prim if x["cat"] == "tool" and x["tool"] == r["tool"] and ph in norm(x["text"])]
        if t:
            return t[0], "tool description"
    return None, "unattributed"

item = {key(r): dict(row=r, errors=[], findings=[]) for r in gt}
for e in errors:
    r, how = resolve_error(e)
    e["item"], e["how"] = (key(r) if r else None), how
    if r: item[key(r)]["errors"].append(e)
for f in findings:
    r, how = attribute(f["tool"], f["argument"], f["phrase"])
    f["_item"], f["_how"] = (key(r) if r else None), how
    if r: item[key(r)]["findings"].append(f)

out = []
P = lambda *a: out.append(" ".join(str(x) for x in a))
kinds = Counter(r["kind"] for r in prim)
P("primary items:", len(prim), dict(kinds), "; supplementary (type/variant docs):", len(supp))
P("C12 compile errors:", len(errors))
ek = Counter(item[e["item"]]["row"]["kind"] if e["item"] else "?" for e in errors)
P("compile errors by kind of the item they came from:", dict(ek))
items_err = Counter(v["row"]["kind"] for v in item.values() if v["errors"] and v["row"]["cat"] in ("tool", "argument"))
P("items with >=1 compile error, by kind:", dict(items_err))
bc = [v for v in item.values() if v["row"]["cat"] in ("tool", "argument") and v["row"]["kind"] in "BC"]
hit = [v for v in bc if v["findings"] or v["errors"]]
anyf = [v for v in item.values() if v["findings"] or v["errors"]]
P("B/C items:", len(bc), " with a finding:", len(hit))
P("items with any finding or error:", len(anyf), " of which B/C:", len([v for v in anyf if v['row']['kind'] in 'BC']))
for k in "ABC":
    vs = [v for v in item.values() if v["row"]["cat"] in ("tool", "argument") and v["row"]["kind"] == k]
    P(f"kind {k}: {len(vs)} items; with compile error {sum(1 for v in vs if v['errors'])}; with audit finding {sum(1 for v in vs if v['findings'])}; with either {sum(1 for v in vs if v['errors'] or v['findings'])}")
P("unattributed findings:", [f for f in findings if not f["_item"]])
P("unattributed errors:", [e for e in errors if not e["item"]])
P("")
P("PER ITEM (B/C and any item with an error or finding):")
for v in item.values():
    r = v["row"]
    if r["kind"] in "BC" or v["findings"] or v["errors"]:
        P(f"- [{r['kind']}] {r['tool']} / {r['what']}: {r['text']!r}")
        for e in v["errors"]:
            P(f"    COMPILE ERROR ({e['build']}, via {e['how']}): {e['raw']}")
        for f in v["findings"]:
            P(f"    FINDING level={f['level']} ack={'yes' if f.get('acknowledged') else 'no'} on argument={f['argument']} ({f['_how']}) {f['family']}/{f['recognizer']}/{f.get('check')}: {f['phrase']!r} -> {f['help']}")
        if not (v["findings"] or v["errors"]):
            P("    MISS")
open("score.txt", "w").write("\n".join(out) + "\n")
json.dump([{**e} for e in errors], open("c12_errors.json", "w"), indent=1, default=str)
print("\n".join(out[:16]))
