#!/usr/bin/env python3
"""Builds ground_truth.md from the `// @gt KIND[: note]` lines above each doc comment in src/*.rs."""
import re, sys, json

MODS = ["hr", "shipping", "school", "social", "cloud"]
rows = []
for m in MODS:
    lines = open(f"src/{m}.rs").read().split("\n")
    i = 0
    cur_fn = None
    cur_type = None
    # first pass: find fn for each arg: the fn whose signature contains it
    while i < len(lines):
        l = lines[i].strip()
        mt = re.match(r"pub (enum|struct) (\w+)", l)
        if mt:
            cur_type = mt.group(2)
        if l.startswith("// @gt"):
            g = re.match(r"// @gt ([ABC])(?::\s*(.*))?$", l)
            assert g, (m, i, l)
            kind, note = g.group(1), (g.group(2) or "")
            j = i + 1
            doc = []
            while lines[j].strip().startswith("///"):
                doc.append(lines[j].strip()[3:].strip())
                j += 1
            decl = []
            while lines[j].strip().startswith("#["):
                # attribute may span lines
                a = lines[j].strip()
                while a.count("(") > a.count(")") or a.count("[") > a.count("]"):
                    j += 1
                    a += " " + lines[j].strip()
                decl.append(a)
                j += 1
            item = lines[j].strip()
            text = " ".join(doc)
            if item.startswith("pub fn"):
                name = re.match(r"pub fn (\w+)", item).group(1)
                # the attributes above doc comment: tool_contract comes after doc
                tool, what = name, "tool description"
                cur_fn = name
                decl_s = " ".join(d for d in decl)
                cat = "tool"
            elif re.match(r"pub (enum|struct) \w+", item):
                name = re.match(r"pub (?:enum|struct) (\w+)", item).group(1)
                tool, what, cat = f"(type {name})", "type doc comment", "type"
                decl_s = " ".join(decl)
            elif re.match(r"pub (\w+): (.+),$", item):
                mm = re.match(r"pub (\w+): (.+),$", item)
                tool = f"quote_shipment (via {cur_type})"
                what = f"dimensions.{mm.group(1)}"
                cat = "argument"
                decl_s = " ".join(decl) + f" `{mm.group(2)}`"
            elif re.match(r"(\w+): (.+),$", item):
                mm = re.match(r"(\w+): (.+),$", item)
                tool, what, cat = cur_fn, mm.group(1), "argument"
                decl_s = " ".join(decl) + f" `{mm.group(2)}`"
            elif re.match(r"(\w+),$", item):
                v = item[:-1]
                tool, what, cat = f"(type {cur_type})", f"variant {v}", "variant"
                decl_s = " ".join(decl)
            else:
                sys.exit(f"unrecognised item {m}:{j+1}: {item}")
            rows.append(dict(module=m, line=i + 2, tool=tool, what=what, cat=cat,
                             text=text, kind=kind, note=note, decl=decl_s.strip()))
            i = j
            continue
        i += 1

json.dump(rows, open("ground_truth.json", "w"), indent=1)
def esc(s): return s.replace("|", "\\|")
out = ["# Ground truth (written before the first build)", "",
       "Kinds: **A** states no constraint or exactly the declared one; **B** states a constraint the declaration lacks; **C** contradicts the declaration.",
       "Primary items are tool descriptions and argument doc comments (including the fields of the argument struct `ParcelDimensions`).",
       "Type and variant doc comments of argument enums/structs are listed after them, as supplementary rows (all A).", ""]
for title, cats in [("Primary items", ("tool", "argument")), ("Supplementary: type and variant doc comments", ("type", "variant"))]:
    sel = [r for r in rows if r["cat"] in cats]
    out += [f"## {title}", "", "| # | module | tool | argument / item | doc comment | declaration | kind | constraint / contradiction (B/C) |", "|---|---|---|---|---|---|---|---|"]
    for k, r in enumerate(sel, 1):
        out.append(f"| {k} | {r['module']} | {r['tool']} | {r['what']} | {esc(r['text'])} | {esc(r['decl'])} | {r['kind']} | {esc(r['note'])} |")
    out.append("")
    from collections import Counter
    c = Counter(r["kind"] for r in sel)
    out.append(f"Counts: {len(sel)} rows; A {c['A']}, B {c['B']}, C {c['C']}.")
    c2 = Counter((r['cat'], r['kind']) for r in sel)
    out.append("By category: " + ", ".join(f"{a} {b}: {n}" for (a, b), n in sorted(c2.items())))
    out.append("")
open("ground_truth.md", "w").write("\n".join(out))
print(len(rows))
