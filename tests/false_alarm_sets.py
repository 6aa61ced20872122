"""The candidate rule and the set files shared by the false-alarm sets'
build scripts (tests/false_alarms2/build.py, tests/false_alarms3/build.py):
which properties of a tool list are candidates (a description that states
a constraint its keywords declare: `states`), and how the labelled ones are
written (selection.jsonl, and sets.json with each fully declared argument's
branch of its tool's schema). No code of the reader: the sets are selected
and labelled before it runs on them.
"""
import json, os, re


KW = ["enum", "const", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
      "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"]


def resolve(schema, root):
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if isinstance(ref, str) and ref.startswith("#/"):
        node = root
        for part in ref[2:].split("/"):
            # JSON pointer escapes and array indices (set 2's lists had neither)
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, list):
                node = node[int(part)] if part.isdigit() and int(part) < len(node) else {}
            else:
                node = node.get(part, {}) if isinstance(node, dict) else {}
        return node
    return schema


def walk(schema, root, path, out, depth=0):
    schema = resolve(schema, root)
    if depth > 8 or not isinstance(schema, dict):
        return
    for name, child in (schema.get("properties") or {}).items():
        visit(resolve(child, root), root, f"{path}.{name}" if path else name, out, depth + 1)
    items = schema.get("items")
    if isinstance(items, dict) and path:
        items = resolve(items, root)
        if items.get("properties"):
            walk(items, root, path + "[]", out, depth + 1)


def visit(child, root, path, out, depth):
    branches = [child] + [resolve(b, root) for k in ("anyOf", "oneOf") for b in (child.get(k) or []) if isinstance(b, dict)]
    desc = next((b.get("description") for b in branches if b.get("description")), None)
    decl = {}
    for b in branches:
        for k in KW:
            if k in b:
                decl[k] = b[k]
        it = b.get("items")
        if isinstance(it, dict):
            for k in KW:
                if k in it:
                    decl["items." + k] = it[k]
    out.append((path, desc, decl))
    for b in branches:
        walk(b, root, path, out, depth)


def states(desc, decl):
    d = desc.lower()
    why = []
    for k, v in decl.items():
        kk = k.split(".")[-1]
        if kk == "enum" and isinstance(v, list):
            vals = [str(x).lower() for x in v if x is not None]
            hit = [x for x in vals if re.search(r"(?<![a-z0-9_])" + re.escape(x) + r"(?![a-z0-9_])", d)]
            if (len(vals) >= 2 and len(hit) >= 2) or (len(vals) == 1 and hit):
                why.append(k)
        elif kk == "const":
            if str(v).lower() in d:
                why.append(k)
        elif kk in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"):
            n = int(v) if isinstance(v, float) and v.is_integer() else v
            if isinstance(n, (int, float)) and re.search(r"(?<![0-9.])" + re.escape(str(n)) + r"(?![0-9])", d.replace(",", "")):
                why.append(k)
        elif kk == "format":
            pats = {"date-time": r"iso|rfc|yyyy|timestamp|date", "date": r"iso|yyyy|date",
                    "uri": r"\burl\b|\buri\b|urls|link", "url": r"\burl\b|\buri\b", "email": r"e-?mail",
                    "uuid": r"uuid|guid", "time": r"hh|time", "ipv4": r"\bip", "ipv6": r"\bip", "hostname": r"host"}
            if str(v) in pats and re.search(pats[str(v)], d):
                why.append(k)
        elif kk == "pattern":
            why.append(k)
    return why


def prune(schema, root, parts):
    """The schema with only the branch down to `parts` (the property kept whole)."""
    schema = resolve(schema, root)
    if not parts:
        return schema
    head = parts[0]
    out = {k: v for k, v in schema.items() if k not in ("properties", "items", "required", "anyOf", "oneOf")}
    if head == "[]":
        out["items"] = prune(schema["items"], root, parts[1:])
        return out
    child = schema["properties"][head]
    child_r = resolve(child, root)
    rest = parts[1:]
    if rest:
        if rest[0] != "[]" and "properties" not in child_r:
            # the member sits in an optional branch
            for key in ("anyOf", "oneOf"):
                for b in child_r.get(key) or []:
                    b = resolve(b, root)
                    if rest[0] in (b.get("properties") or {}) or (rest[0] == "[]" and "items" in b):
                        child_r = b
        sub = prune(child_r, root, rest)
    else:
        sub = child_r
    out["properties"] = {head: sub}
    if head in (schema.get("required") or []):
        out["required"] = [head]
    return out


def split(path):
    parts = []
    for seg in path.split("."):
        while seg.endswith("[]"):
            seg = seg[:-2]
            parts.append(seg)
            parts.append("[]")
            seg = None
            break
        if seg:
            parts.append(seg)
    return parts




def build(here, sources, tool_lists, label, cap=None):
    """Selects the candidates of every source's tools (`tool_lists(name)`),
    labels each (`label(name, tool, path, desc, decl)`: None when fully
    declared, else the reason it is excluded), at most `cap` per source,
    and writes selection.jsonl and sets.json into `here`. Returns the set
    of (source, tool, argument) it labelled."""
    seen = set()
    selection, sets = [], {}
    used = set()
    for name in sorted(sources):
        taken = 0
        for t in tool_lists(name):
            schema = t.get("inputSchema") or {}
            out = []
            walk(schema, schema, "", out)
            for path, desc, decl in out:
                if not desc or not decl:
                    continue
                why = states(desc, decl)
                key = (desc, json.dumps(decl, sort_keys=True))
                if not why or key in seen:
                    continue
                seen.add(key)
                if cap is not None and taken >= cap:
                    continue
                taken += 1
                reason = label(name, t["name"], path, desc, decl)
                used.add((name, t["name"], path))
                entry = {"set": name, "tool": t["name"], "argument": path, "source": sources[name],
                         "declares": sorted(decl), "label": "fully-declared" if reason is None else "excluded",
                         "description": desc}
                if reason:
                    entry["reason"] = reason
                selection.append(entry)
                if reason is None:
                    tools_out = sets.setdefault(name, {})
                    pruned = tools_out.get(t["name"])
                    branch = prune(schema, schema, split(path))
                    if pruned is None:
                        pruned = {"name": t["name"], "source": sources[name], "inputSchema": branch}
                        for k in ("$defs", "definitions"):
                            if k in schema:
                                pruned["inputSchema"][k] = schema[k]
                        tools_out[t["name"]] = pruned
                    else:
                        merge(pruned["inputSchema"], branch)
    with open(os.path.join(here, "selection.jsonl"), "w") as f:
        for e in selection:
            f.write(json.dumps(e, ensure_ascii=False) + "\n")
    doc = {"sets": [{"name": n, "source": sources[n], "tools": list(ts.values())} for n, ts in sorted(sets.items())]}
    with open(os.path.join(here, "sets.json"), "w") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    n = sum(e["label"] == "fully-declared" for e in selection)
    print(f"{len(selection)} candidates, {n} fully declared, {len(selection) - n} excluded")
    return used


def merge(a, b):
    for k, v in b.items():
        if k == "properties":
            props = a.setdefault("properties", {})
            for pk, pv in v.items():
                if pk in props and isinstance(pv, dict):
                    merge(props[pk], pv)
                else:
                    props[pk] = pv
        elif k == "items" and "items" in a:
            merge(a["items"], v)
        elif k == "required":
            a["required"] = sorted(set(a.get("required", [])) | set(v))
        else:
            a[k] = v
