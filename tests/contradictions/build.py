#!/usr/bin/env python3
"""Builds the contradiction set's drift pairs (tests/contradictions/drift.jsonl
and dropped.jsonl) from the correct, fully declared descriptions of the
first and second false-alarm sets, by changing the declaration the way an
edit drifts from its doc comment. Deterministic: SEED fixes every choice;
rerunning writes the same files. It reads no code of the reader, and the
labels were written (rules below, each candidate read) before the reader
ran on any pair. The third false-alarm set (tests/false_alarms3/) is not
read: it stays unseen.

Sources, each property with a description and a declaring keyword:
- the first set, tests/false_alarms/*.json (github-mcp-server, sentry-mcp,
  the reference servers), every property at every depth;
- the second set, tests/false_alarms2/sets.json, only the properties
  selection.jsonl labels `fully-declared`.
One candidate per distinct (description, changed declaration): a templated
description (github's "Results per page for pagination (min 1, max 100)"
on 30 tools) counts once. lark-mcp's generated lists ("Options:a(gloss),
b(gloss)", 358 enums from one generator) are sampled: at most LARK_CAP per
mutation, so one generator does not make the set.

Mutations (MUTATIONS): what a real edit does to a declaration while its
doc comment stays as it was, and the check that should then fire:
- enum-drop   (set-wider):    drop from the enum a value the prose lists;
- enum-add    (set-narrower): add to the enum a value the prose does not
  name anywhere;
- bound       (bounds):       change a minimum/maximum/minLength/maxLength/
  minItems/maxItems whose number the prose states;
- format      (format):       change the declared format to one the prose
  does not name;
- repeat      (pattern-repeat): change a pattern's repeat count the prose
  states.

Labels (README.md has the rule and the reasons): a candidate is a true
contradiction only when the prose states the constraint as a whole; every
other candidate is dropped with its reason. RULES is the rule as code;
HAND holds the decisions taken reading each candidate where the rule alone
would be wrong (key: candidate id -> reason to drop, or None to keep).

Usage: python3 tests/contradictions/build.py [--check]
  (from any directory; --check writes nothing and exits 1 when the files
  it would write differ from those in the directory)
"""
import copy, json, os, random, re, sys

SEED = 20261206
LARK_CAP = 30
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

KW = ["enum", "const", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
      "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"]

# Values given as examples, a list said to go on, typical values: the
# prose does not state the set (or the bound, or the shape) as a whole.
OPEN = re.compile(r"\b(such as|e\.g\b|e\.g\.|eg\.|for example|for instance|example|examples|"
                  r"including|include|includes|like|etc|among others|common|typical|"
                  r"and more|and others|some of)\b", re.I)
# Words that state a listed set as the whole set of values.
CLOSED = re.compile(r"\b(one of|either|only|must be|can be|options|option|possible values|"
                    r"allowed|valid|supported|supports|accepted|accepts|available values|"
                    r"values are|optional values|choose|select|enum)\b", re.I)


def words(text):
    return set(re.findall(r"[A-Za-z0-9_.\-+#]+", text.lower()))


def names(value, text):
    """Whether `text` names `value` as a word of its own (any case)."""
    v = str(value).lower()
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(v) + r"(?![A-Za-z0-9_])", text.lower()) is not None


def props(schema, path, out, depth=0):
    if depth > 8 or not isinstance(schema, dict):
        return
    for k in ("anyOf", "oneOf"):
        for b in schema.get(k) or []:
            if isinstance(b, dict) and b.get("type") != "null":
                props(b, path, out, depth + 1)
    for n, c in (schema.get("properties") or {}).items():
        p = f"{path}.{n}" if path else n
        out.append((p, c))
        props(c, p, out, depth + 1)
    it = schema.get("items")
    if isinstance(it, dict):
        out.append((path + "[]", it))
        props(it, path + "[]", out, depth + 1)


def pool():
    """(set, source, tool, argument path, property) of every usable property,
    one per distinct (description, declaration)."""
    out, seen = [], set()
    for name in ["github-mcp-server", "sentry-mcp", "reference-servers"]:
        with open(os.path.join(ROOT, "tests/false_alarms", name + ".json")) as f:
            for t in json.load(f)["tools"]:
                found = []
                props(t["inputSchema"], "", found)
                for p, c in found:
                    key = json.dumps(c, sort_keys=True)
                    if isinstance(c.get("description"), str) and any(k in c for k in KW) \
                            and key not in seen:
                        seen.add(key)
                        out.append(("set1/" + name, t["source"], t["name"], p, c))
    with open(os.path.join(ROOT, "tests/false_alarms2/selection.jsonl")) as f:
        sel = [json.loads(l) for l in f if l.strip()]
    keys = {(e["set"], e["tool"], e["argument"]) for e in sel if e["label"] == "fully-declared"}
    with open(os.path.join(ROOT, "tests/false_alarms2/sets.json")) as f:
        for s in json.load(f)["sets"]:
            for t in s["tools"]:
                found = []
                props(t["inputSchema"], "", found)
                for p, c in found:
                    key = json.dumps(c, sort_keys=True)
                    if (s["name"], t["name"], p) in keys and isinstance(c.get("description"), str) \
                            and any(k in c for k in KW) and key not in seen:
                        seen.add(key)
                        out.append(("set2/" + s["name"], s["source"], t["name"], p, c))
    return out


ADDED = ["archived", "legacy", "custom", "other", "experimental", "auto", "unknown", "mixed"]


def styled(word, like):
    if like.isupper():
        return word.upper()
    if like[:1].isupper():
        return word.capitalize()
    return word


FORMAT_TO = {"uri": "email", "email": "uri", "uuid": "uri", "date": "date-time", "date-time": "date"}
FORMAT_NAMED = {
    "uri": r"\b(url|urls|uri|link)\b",
    "email": r"\be-?mail\b",
    "uuid": r"\b(uuid|guid)\b",
    "date": r"\b(date|yyyy-mm-dd)\b",
    "date-time": r"\b(date-?time|timestamp|iso 8601|rfc 3339)\b",
}
# the words that name each format, to keep the changed one unnamed
FORMAT_WORDS = {"uri": ["url", "uri", "link"], "email": ["email", "e-mail"], "uuid": ["uuid", "guid"],
                "date": ["date"], "date-time": ["datetime", "date-time", "timestamp"]}

BOUND_KEYS = ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"]


def num(n):
    s = repr(n)
    if isinstance(n, float) and n.is_integer():
        s = str(int(n))
    return s


def bound_stated(key, n, text):
    """The rule for bounds: the prose states `n` as this side of a bound."""
    t = text.lower()
    v = re.escape(num(n))
    end = r"(?!\d|\.\d)"
    hi = key.startswith("max")
    span = rf"(\d+(\.\d+)?\s*(-|–|to|and)\s*{v}{end})" if hi else rf"((?<![\d.]){v}\s*(-|–|to|and)\s*\d)"
    words = (rf"(max(imum)?( is| of)?:?\s*{v}{end}|up to {v}{end}|at most {v}{end}|"
             rf"no more than {v}{end}|cannot exceed {v}{end}|{v} max\b)") if hi else \
        (rf"(min(imum)?( is| of)?:?\s*{v}{end}|at least {v}{end}|no less than {v}{end})")
    return re.search(span, t) is not None or re.search(words, t) is not None


def changed_bound(key, n, rng):
    if key.startswith("max"):
        if isinstance(n, float) or n < 2:
            return n * 2 if n else 1
        return rng.choice([n * 2, n // 2])
    return n + 1 if n == 0 else rng.choice([n + 1, n - 1])


def candidates(rng):
    out = []
    for setname, source, tool, path, prop in pool():
        d = prop["description"]
        base = {"set": setname, "source": source, "tool": tool, "argument": path, "description": d}
        enum = prop.get("enum")
        if isinstance(enum, list) and len(enum) >= 2 and all(isinstance(v, str) for v in enum) \
                and all(names(v, d) for v in enum):
            gone = rng.choice(enum)
            new = copy.deepcopy(prop)
            new["enum"] = [v for v in enum if v != gone]
            out.append(dict(base, mutation="enum-drop", check="set-wider",
                            change=f"enum drops {gone!r}", declaration=new))
            extra = next((styled(w, enum[0]) for w in rng.sample(ADDED, len(ADDED))
                          if not names(w, d) and styled(w, enum[0]) not in enum), None)
            if extra:
                new = copy.deepcopy(prop)
                new["enum"] = enum + [extra]
                out.append(dict(base, mutation="enum-add", check="set-narrower",
                                change=f"enum adds {extra!r}", declaration=new))
        for key in BOUND_KEYS:
            n = prop.get(key)
            if isinstance(n, (int, float)) and not isinstance(n, bool) and names(num(n), d):
                m = changed_bound(key, n, rng)
                new = copy.deepcopy(prop)
                new[key] = m
                out.append(dict(base, mutation="bound", check="bounds",
                                change=f"{key} {num(n)} -> {num(m)}", declaration=new,
                                rule_bound=[key, n]))
        fmt = prop.get("format")
        if fmt in FORMAT_TO and re.search(FORMAT_NAMED[fmt], d, re.I):
            to = FORMAT_TO[fmt]
            new = copy.deepcopy(prop)
            new["format"] = to
            out.append(dict(base, mutation="format", check="format",
                            change=f"format {fmt} -> {to}", declaration=new))
        pat = prop.get("pattern")
        if isinstance(pat, str):
            reps = re.findall(r"\{(\d+)\}", pat)
            if len(reps) == 1 and names(reps[0], d):
                n = int(reps[0])
                new = copy.deepcopy(prop)
                new["pattern"] = pat.replace("{%d}" % n, "{%d}" % (n + 2))
                out.append(dict(base, mutation="repeat", check="pattern-repeat",
                                change=f"pattern repeat {{{n}}} -> {{{n + 2}}}", declaration=new))
    return out


def rule(c):
    """The labelling rule: None (a true contradiction) or the reason to drop."""
    d = c["description"]
    m = c["mutation"]
    if m in ("enum-drop", "enum-add"):
        if OPEN.search(d):
            return "values given as examples or a list said to go on (" + OPEN.search(d).group(0) + ")"
        enum = c["declaration"]["enum"]
        if m == "enum-add":
            # the prose must state the listed set as the whole set
            closed = CLOSED.search(d) or re.search(r"\bor\b|/|\n\s*[-*]", d)
            if not closed:
                return "the values are named, the set is not stated as closed"
        return None
    if m == "bound":
        key, n = c["rule_bound"]
        if re.search(r"\b%s-based\b" % re.escape(num(n)), d):
            return f"{num(n)}-based is an index base, not a stated {key}"
        if re.search(r"\b%s\s*=" % re.escape(num(n)), d):
            return f"{num(n)} opens a legend of values (n=name), not a stated {key}"
        if not bound_stated(key, n, d):
            return f"the number {num(n)} is not stated as the {key} (a default, an example or a legend)"
        return None
    if m == "format":
        to = c["declaration"]["format"]
        if any(w in d.lower() for w in FORMAT_WORDS[to]):
            return f"the prose also names {to}"
        if OPEN.search(d) and not re.search(FORMAT_NAMED[c["change"].split()[1]], OPEN.split(d)[0], re.I):
            return "the format is named only in an example"
        return None
    if m == "repeat":
        if not re.search(r"\b\d+[- ](character|characters|digit|digits|letter|letters|hex)\b", d, re.I):
            return "the count is not stated as the length (an example value)"
        return None
    return "no rule"


# Decisions taken reading each candidate, where the rule alone is wrong:
# id -> reason to drop (or None to keep one the rule drops).
HAND = {
    # the rule's closing word or "or" belongs to a gloss, not to the list
    # (a legend of values with no word stating it closed): not closed
    "enum-add:set1/github-mcp-server:assign_copilot_to_issue_with_intent:confidence":
        "a legend of the values (\"'HIGH' for ...\"), not stated as closed",
    "enum-add:set1/github-mcp-server:set_issue_fields:fields[].confidence":
        "a legend of the values (\"Use 'HIGH' for ...\"), not stated as closed",
    "enum-add:set1/reference-servers:gzip-file-as-resource:outputType":
        "a legend of the values; \"can be\" is in a gloss",
    "enum-add:set1/sentry-mcp:get_alert_rule:kind":
        "the values are given in parts (\"Use `issue` or `metric` ...; `all` ...\"), not stated as closed",
    "enum-add:set2/chrome-devtools-mcp:emulate:colorScheme":
        "the values are named across sentences, not stated as one closed list",
    "enum-add:set2/chrome-devtools-mcp:evaluate_script:format":
        "a legend of the values; \"supports\" is in a gloss",
    "enum-add:set2/gcal:create-event:sendUpdates": "a legend of the values; \"only\" is in a gloss",
    "enum-add:set2/gcal:respond-to-event:sendUpdates": "a legend of the values; \"only\" is in a gloss",
    "enum-add:set2/gcal:create-event:eventType": "a legend of the values; \"only\" is in a gloss",
    "enum-add:set2/gcal:respond-to-event:response":
        "a legend of the values; \"accepted\" is a value, not a closing word",
    # the values are named in passing or in words, not listed as the argument's values
    "enum-drop:set1/github-mcp-server:list_issues:state":
        "the values are named in passing (\"both open and closed issues\"), not listed",
    "enum-drop:set1/github-mcp-server:search_users:sort":
        "the values are described in words (\"when the person joined\"), not listed",
    "enum-add:set1/github-mcp-server:search_users:sort":
        "the values are described in words, not listed",
    "enum-drop:set1/sentry-mcp:onboarding_status_update:runStatus":
        "says when to set the argument, does not list its values",
    "enum-add:set1/sentry-mcp:onboarding_status_update:runStatus":
        "says when to set the argument, does not list its values",
    # lark's "Options:" list is closed; the open word is inside a gloss
    "enum-add:set2/lark:application_v6_applicationAppUsage_overview:data.ability": None,
    "enum-drop:set2/lark:bitable_v1_appTableField_create:data.ui_type": None,
    "enum-add:set2/lark:bitable_v1_appTableField_update:data.ui_type": None,
    "enum-drop:set2/lark:bitable_v1_appTableView_patch:data.property.filter_info.conditions[].operator": None,
    "enum-drop:set2/lark:corehr_v2_customOrg_create:data.match_rule_groups[].match_rules[].left_value": None,
    "enum-add:set2/lark:corehr_v2_customOrg_updateRule:data.match_rule_groups[].match_rules[].left_value": None,
}


def main():
    rng = random.Random(SEED)
    cands = candidates(rng)
    seen, unique = set(), []
    for c in cands:
        k = (c["description"], json.dumps(c["declaration"], sort_keys=True))
        if k not in seen:
            seen.add(k)
            unique.append(c)
    # lark's templated lists: a sample per mutation
    lark = {}
    for c in unique:
        if c["set"] == "set2/lark":
            lark.setdefault(c["mutation"], []).append(c)
    keep_lark = set()
    for m, cs in sorted(lark.items()):
        for c in rng.sample(cs, min(LARK_CAP, len(cs))):
            keep_lark.add(id(c))
    kept, dropped = [], []
    for c in unique:
        if c["set"] == "set2/lark" and id(c) not in keep_lark:
            continue
        c["id"] = f"{c['mutation']}:{c['set']}:{c['tool']}:{c['argument']}"
        reason = HAND[c["id"]] if c["id"] in HAND else rule(c)
        c.pop("rule_bound", None)
        if reason is None:
            kept.append(dict(c, kind="drift", label="contradiction"))
        else:
            dropped.append(dict(c, kind="drift", label="dropped", reason=reason))
    check = "--check" in sys.argv[1:]
    stale = []
    for name, rows in [("drift.jsonl", kept), ("dropped.jsonl", dropped)]:
        text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
        path = os.path.join(HERE, name)
        if check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    stale.append(name)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    counts = {}
    for c in kept:
        counts[c["check"]] = counts.get(c["check"], 0) + 1
    print(f"{len(kept)} contradictions, {len(dropped)} dropped; per check: {counts}")
    if stale:
        print("differs from what build.py writes: " + ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()
