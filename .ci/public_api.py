#!/usr/bin/env python3
"""Lists a crate's public surface from rustdoc's JSON output, one item a line:
modules, types (and whether they are #[non_exhaustive]), public fields,
variants, functions and methods with their signatures, trait items, and the
traits each type implements. Items under #[doc(hidden)] (the generated
code's `__private`) are not listed: they are not a promise.

Usage: public_api.py target/doc/contract_runtime.json > docs/public-api.txt
"""
import json
import sys


def hidden(item):
    return "hidden" in json.dumps(item.get("attrs", []))


def render_type(t):
    """A short, stable rendering of a rustdoc JSON type."""
    if t is None:
        return "()"
    if not isinstance(t, dict):
        return str(t)
    (k, v), = t.items()
    if k == "resolved_path":
        name = v.get("path") or v.get("name") or "?"
        args = v.get("args")
        if args and isinstance(args, dict) and "angle_bracketed" in args:
            inner = []
            for a in args["angle_bracketed"].get("args", []):
                if isinstance(a, dict) and "type" in a:
                    inner.append(render_type(a["type"]))
                elif isinstance(a, dict) and "lifetime" in a:
                    inner.append(a["lifetime"])
                elif isinstance(a, dict) and "const" in a:
                    inner.append("_")
            if inner:
                return f"{name}<{', '.join(inner)}>"
        return name
    if k == "generic":
        return v
    if k == "primitive":
        return v
    if k == "borrowed_ref":
        lt = v.get("lifetime")
        m = "mut " if v.get("is_mutable") or v.get("mutable") else ""
        return f"&{lt + ' ' if lt else ''}{m}{render_type(v['type'])}"
    if k == "raw_pointer":
        return f"*{'mut' if v.get('is_mutable') else 'const'} {render_type(v['type'])}"
    if k == "slice":
        return f"[{render_type(v)}]"
    if k == "array":
        return f"[{render_type(v['type'])}; {v.get('len')}]"
    if k == "tuple":
        return "(" + ", ".join(render_type(x) for x in v) + ")"
    if k == "impl_trait":
        return "impl " + " + ".join(
            b["trait_bound"]["trait"].get("path", "?") for b in v if "trait_bound" in b
        )
    if k == "dyn_trait":
        return "dyn " + " + ".join(tr["trait"].get("path", "?") for tr in v.get("traits", []))
    if k == "qualified_path":
        return f"<{render_type(v.get('self_type'))}>::{v.get('name')}"
    if k == "function_pointer":
        return "fn(..)"
    return k


def signature(f):
    sig = f.get("sig") or f.get("decl") or {}
    ins = sig.get("inputs", [])
    params = []
    for name, ty in ins:
        params.append("self" if name == "self" else f"{name}: {render_type(ty)}")
    out = sig.get("output")
    hdr = f.get("header", {})
    prefix = ("const " if hdr.get("is_const") else "") + ("async " if hdr.get("is_async") else "") + (
        "unsafe " if hdr.get("is_unsafe") else ""
    )
    return prefix, "(" + ", ".join(params) + ")" + (f" -> {render_type(out)}" if out else "")


def main(path):
    doc = json.load(open(path))
    index = doc["index"]
    lines = set()
    seen = set()

    def public(item):
        return item.get("visibility") == "public" and not hidden(item)

    def impl_items(path_str, impl_ids):
        for iid in impl_ids:
            imp = index.get(str(iid)) or index.get(iid)
            if imp is None:
                continue
            inner = imp["inner"]["impl"]
            if inner.get("is_synthetic") or inner.get("blanket_impl") is not None:
                continue
            tr = inner.get("trait")
            if tr is not None:
                lines.add(f"impl {tr.get('path', '?')} for {path_str}")
                continue
            for mid in inner["items"]:
                m = index[str(mid)]
                if not public(m):
                    continue
                kind, = m["inner"].keys()
                if kind == "function":
                    pre, sig = signature(m["inner"]["function"])
                    lines.add(f"pub {pre}fn {path_str}::{m['name']}{sig}")
                elif kind == "assoc_const":
                    lines.add(f"pub const {path_str}::{m['name']}")
                else:
                    lines.add(f"pub {kind} {path_str}::{m['name']}")

    def walk(item_id, prefix):
        item = index[str(item_id)]
        if not public(item) and item["inner"].keys() != {"use"}:
            return
        kind, = item["inner"].keys()
        inner = item["inner"][kind]
        name = item.get("name")
        here = f"{prefix}::{name}" if name else prefix
        if kind == "module":
            if (item_id, here) in seen:
                return
            seen.add((item_id, here))
            lines.add(f"pub mod {here}")
            for c in inner["items"]:
                walk(c, here)
        elif kind == "use":
            if not public(item):
                return
            target = inner.get("id")
            alias = inner.get("name")
            if inner.get("is_glob"):
                if target is not None and str(target) in index:
                    t = index[str(target)]
                    if "module" in t["inner"]:
                        for c in t["inner"]["module"]["items"]:
                            walk(c, prefix)
                        return
                lines.add(f"pub use {prefix}::* ({inner.get('source')})")
                return
            if target is not None and str(target) in index:
                t = index[str(target)]
                if hidden(t):
                    return
                # A re-export is listed where it is reachable, as the item.
                renamed = dict(t)
                renamed["name"] = alias
                renamed["visibility"] = "public"
                tmp = str(target) + "@" + here
                index[tmp] = renamed
                walk(tmp, prefix)
            else:
                lines.add(f"pub use {prefix}::{alias} = {inner.get('source')}")
        elif kind == "struct":
            attrs = json.dumps(item.get("attrs", []))
            ne = " #[non_exhaustive]" if "non_exhaustive" in attrs else ""
            lines.add(f"pub struct {here}{ne}")
            k = inner.get("kind")
            if isinstance(k, dict) and "plain" in k:
                for fid in k["plain"]["fields"]:
                    f = index[str(fid)]
                    if public(f):
                        lines.add(f"pub field {here}::{f['name']}: {render_type(f['inner']['struct_field'])}")
            elif isinstance(k, dict) and "tuple" in k:
                for n, fid in enumerate(k["tuple"]):
                    if fid is not None and public(index[str(fid)]):
                        lines.add(f"pub field {here}::{n}")
            impl_items(here, inner.get("impls", []))
        elif kind == "enum":
            attrs = json.dumps(item.get("attrs", []))
            ne = " #[non_exhaustive]" if "non_exhaustive" in attrs else ""
            lines.add(f"pub enum {here}{ne}")
            for vid in inner["variants"]:
                lines.add(f"pub variant {here}::{index[str(vid)]['name']}")
            impl_items(here, inner.get("impls", []))
        elif kind == "trait":
            sealed = ""
            lines.add(f"pub trait {here}")
            for mid in inner["items"]:
                m = index[str(mid)]
                mk, = m["inner"].keys()
                lines.add(f"pub trait-item {here}::{m['name']} ({mk})")
        elif kind == "function":
            pre, sig = signature(inner)
            lines.add(f"pub {pre}fn {here}{sig}")
        elif kind in ("constant", "static", "type_alias", "macro", "proc_macro", "union", "trait_alias"):
            lines.add(f"pub {kind} {here}")
        else:
            lines.add(f"pub {kind} {here}")

    root = doc["root"]
    crate = index[str(root)]["name"]
    for c in index[str(root)]["inner"]["module"]["items"]:
        walk(c, crate)
    for l in sorted(lines):
        print(l)


if __name__ == "__main__":
    main(sys.argv[1])
