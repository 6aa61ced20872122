#!/usr/bin/env python3
"""Builds the second false-alarm set (tests/false_alarms2/) from the tool
lists of MCP servers installed from npm, pinned (SOURCES), each listed over
stdio with `tools/list` (initialize, notifications/initialized, every page)
and saved as RAW/<set>.json before anything else read them.

Selection, written before the detector ran on any of it:
1. candidates, by a rule of this script's own (no code of the reader): a
   property (at any depth) whose description names at least two of its
   `enum` values (or its one value, or its `const`), writes the number of
   its `minimum`/`maximum`/`minLength`/`maxLength`/`minItems`/`maxItems`,
   names the kind its `format` declares (URL over `uri`, email, UUID, ...),
   or sits on a `pattern`; one entry per distinct (description, keywords);
2. every candidate labelled by hand (LABELS below and the rule for the
   templated lark lists): `fully-declared` when the description is correct
   and every constraint on the argument's value it states is declared by
   the keywords; otherwise excluded with the reason.

Usage: build.py RAW_DIR   (writes sets.json and selection.jsonl beside it)
"""
import json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from false_alarm_sets import build  # noqa: E402  (the shared rule, beside this folder)

SOURCES = {
    "aashari-jira": "@aashari/mcp-server-atlassian-jira@3.3.0",
    "airtable": "airtable-mcp-server@1.14.0",
    "antv-chart": "@antv/mcp-server-chart@0.9.10",
    "backlog": "backlog-mcp-server@0.20.4",
    "bitwarden": "@bitwarden/mcp-server@2026.7.0",
    "browserstack": "@browserstack/mcp-server@1.4.2",
    "chrome-devtools-mcp": "chrome-devtools-mcp@1.11.0",
    "clarity": "@microsoft/clarity-mcp-server@2.0.1",
    "currents": "@currents/mcp@2.1.1",
    "datadog": "@winor30/mcp-server-datadog@1.8.0",
    "drawio": "@drawio/mcp@1.6.1",
    "gcal": "@cocal/google-calendar-mcp@2.6.3",
    "gcp-observability": "@google-cloud/observability-mcp@0.2.3",
    "gcp-storage": "@google-cloud/storage-mcp@0.6.0",
    "hubspot": "@hubspot/mcp-server@0.4.0",
    "lark": "@larksuiteoapi/lark-mcp@0.5.1 (every tool of its gen-tools, --language en)",
    "mobile": "@mobilenext/mobile-mcp@1.0.4",
    "perplexity": "@perplexity-ai/mcp-server@1.2.1",
    "ref-everart": "@modelcontextprotocol/server-everart@0.6.2",
    "ref-github": "@modelcontextprotocol/server-github@2025.4.8",
    "ref-gitlab": "@modelcontextprotocol/server-gitlab@2025.4.25",
    "ref-pdf": "@modelcontextprotocol/server-pdf@2.0.4",
    "ref-puppeteer": "@modelcontextprotocol/server-puppeteer@2025.5.12",
    "ref-slack": "@modelcontextprotocol/server-slack@2025.4.25",
    "shortcut": "@shortcut/mcp@0.25.0",
    "xcodebuild": "xcodebuildmcp@2.7.0",
}

# Hand labels of the candidates outside lark: (set, tool, argument) -> reason
# for exclusion. Every other candidate outside lark is labelled fully declared.
EXCLUDED = {
    ("antv-chart", "generate_sankey_chart", "nodeAlign"): "values given as examples (\"such as\")",
    ("browserstack", "setupBrowserStackAutomateTests", "devices[].platform"): "values given as examples (\"e.g.\")",
    ("browserstack", "runPercyScan", "integrationType"): "names products, not the values",
    ("browserstack", "runAppLiveSession", "desiredPlatform"): "values given as examples",
    ("browserstack", "runAppTestsOnBrowserStack", "detectedAutomationFramework"): "values given as examples (\"such as\")",
    ("browserstack", "setupBrowserStackAppAutomateTests", "detectedFramework"): "value given as an example",
    ("browserstack", "setupBrowserStackAppAutomateTests", "detectedTestingFramework"): "values given as examples",
    ("browserstack", "setupBrowserStackAppAutomateTests", "detectedLanguage"): "prose names two languages, the enum five: not correct",
    ("browserstack", "fetchRCA", "testId"): "prose says more than 3 are accepted and cut; maxItems rejects them: not correct",
    ("chrome-devtools-mcp", "emulate", "cpuThrottlingRate"): "states no range",
    ("chrome-devtools-mcp", "get_css_styles", "pageIdx"): "\"0-based\" is an index base, not a stated minimum",
    ("chrome-devtools-mcp", "list_console_messages", "pageIdx"): "\"0-based\" is an index base, not a stated minimum",
    ("drawio", "open_drawio_xml", "direction"): "states a rule across arguments (only with postLayout)",
    ("drawio", "open_drawio_xml", "routing"): "states a rule across arguments (not both)",
    ("gcal", "list-calendars", "account"): "pattern not stated (examples only)",
    ("gcal", "list-events", "fields"): "lists the default fields, not the set",
    ("gcal", "get-event", "account"): "pattern not stated (example only)",
    ("gcal", "get-event", "fields"): "lists the default fields, not the set",
    ("gcal", "create-event", "visibility"): "names two of four values, no set stated",
    ("gcal", "create-events", "account"): "states no constraint",
    ("gcal", "create-events", "events[].account"): "states no constraint",
    ("gcal", "manage-accounts", "account_id"): "pattern not stated (examples only)",
    ("gcp-observability", "list_log_entries", "orderBy"): "values not stated as a set",
    ("mobile", "mobile_save_screenshot", "scale"): "prose includes 0.0, exclusiveMinimum excludes it: not exactly declared",
    ("perplexity", "perplexity_ask", "search_recency_filter"): "three of five values and \"etc.\"",
    ("perplexity", "perplexity_ask", "search_context_size"): "two of three values",
}

# lark's generated descriptions end in "Options:a(gloss),b(gloss)" or list
# "**Optional values are**:- `a`: ...". Labelled fully declared when the
# listed values are the enum's (or the const) and the text outside the list
# states no other constraint; those the rule flagged were read one by one:
# these were excluded, the rest of the flagged labelled fully declared.
LARK_EXCLUDED = {
    "approval_v4_approval_create data.node_list[].node_type": "states a rule across arguments (SEQUENTIAL needs approver.type Free)",
    "approval_v4_approval_create data.node_list[].approver[].type": "states rules across arguments (level, user_id)",
    "approval_v4_approval_create data.node_list[].ccer[].type": "states rules across arguments (level, user_id)",
    "calendar_v4_calendarAcl_create data.scope.type": "states a rule across arguments (user_id_type)",
    "calendar_v4_calendarEvent_create data.vchat.vc_type": "states a condition on the value (no_meeting when none is needed)",
    "calendar_v4_calendarEvent_patch data.vchat.vc_type": "states a condition on the value (no_meeting when none is needed)",
    "im_v1_chatMenuItem_patch data.chat_menu_item.action_type": "states a condition on the value (NONE when it has a second level)",
    "im_v1_chatMenuTree_create data.menu_tree.chat_menu_top_levels[].chat_menu_item.action_type": "states a condition on the value",
    "im_v1_chatMenuTree_create data.menu_tree.chat_menu_top_levels[].children[].chat_menu_item.action_type": "states a condition on the value",
    "task_v2_customField_create data.number_setting.custom_symbol_position": "states a rule across arguments (format custom)",
}


def lark_label(tool, path, desc, decl):
    key = f"{tool} {path}"
    if key in LARK_EXCLUDED:
        return LARK_EXCLUDED[key]
    ev = decl.get("enum") or decl.get("items.enum") or ([decl["const"]] if "const" in decl else None)
    m = re.search(r"Options:(.*)$", desc, re.S)
    if m:
        listed = [x.split("(")[0].strip() for x in re.split(r",(?=[^,()]*\()", m.group(1))]
    else:
        m = re.search(r"\*\*Optional values(?: are)?\*\*:?(.*?)(\*\*|$)", desc, re.S)
        listed = re.findall(r"-\s*`?([^`:\s]+)`?\s*:", m.group(1)) if m else None
    if ev is None:
        return "no closed set declared"
    if listed is not None and {str(x) for x in ev} <= set(listed):
        return None
    return "the listed values are not the declared ones"


def main(raw):
    here = os.path.dirname(os.path.abspath(__file__))

    def tools(name):
        return json.load(open(os.path.join(raw, name + ".json")))["tools"]

    def label(name, tool, path, desc, decl):
        if name == "lark":
            return lark_label(tool, path, desc, decl)
        return EXCLUDED.get((name, tool, path))

    build(here, SOURCES, tools, label)


if __name__ == "__main__":
    main(sys.argv[1])
