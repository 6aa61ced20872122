#!/usr/bin/env python3
"""Acknowledge a recorded C12 compile error: `ack.py FILE arg NAME_LINE` or `ack.py FILE tool FN`."""
import sys, re
REASON = 'prose = "trial: compile error recorded"'
f, mode, target = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(f).read().split("\n")
if mode == "arg":
    n = int(target) - 1  # 1-based line of the field
    assert re.match(r"\s*(pub )?\w+: ", lines[n]), lines[n]
    above = lines[n - 1]
    if above.strip().startswith("#[arg("):
        assert "prose" not in above
        lines[n - 1] = re.sub(r"\)\]\s*$", ", " + REASON + ")]", above)
    else:
        indent = re.match(r"\s*", lines[n]).group(0)
        lines.insert(n, indent + "#[arg(" + REASON + ")]")  # above the field
elif mode == "tool":
    i = next(k for k, l in enumerate(lines) if l.startswith(f"pub fn {target}("))
    j = i - 1
    while not lines[j].startswith("#[tool_contract("):
        j -= 1
    if lines[j].rstrip().endswith(")]"):
        lines[j] = re.sub(r"\)\]\s*$", ", " + REASON + ")]", lines[j])
    else:
        # multi-line: add a line before the closing `)]`
        k = j
        while lines[k].strip() != ")]":
            k += 1
        lines[k - 1] = lines[k - 1].rstrip().rstrip(",") + ","
        lines.insert(k, "    " + REASON)
open(f, "w").write("\n".join(lines))
