#!/usr/bin/env python3
"""Check dialect exports against the providers' own SDKs.

Usage: check_dialects.py DIR

DIR holds files named `<dialect>.json`, each a JSON array of exported tools
(as printed by `toolbox schemas --dialect <dialect>`). Each tool of each file
is one check:

- openai-responses, openai-chat: the official `openai` package's
  `_ensure_strict_json_schema(schema, path=(), root=schema)` leaves
  `parameters` unchanged, and (as the SDK does not check it) every keyword
  and format is one strict mode documents; every tool is the SDK's type
  (`FunctionToolParam` with `output_schema` and `defer_loading`,
  `NamespaceToolParam` of fewer than ten functions, `ToolSearchToolParam`,
  `ChatCompletionFunctionToolParam`): its fields' types validate and it has
  no field the type lacks;
- anthropic-strict: the official `anthropic` package's
  `transform_schema(schema)` leaves `input_schema` unchanged;
- anthropic, anthropic-strict: every tool is the SDK's `ToolParam`
  (`defer_loading`, `input_examples`, each example valid against
  `input_schema`) or `ToolSearchToolRegex20251119Param`;
- anthropic, gemini-json-schema, mcp, canonical: every schema is valid
  JSON Schema 2020-12 (`Draft202012Validator.check_schema`), with an object
  root where the dialect needs one;
- gemini: `google.genai.types.FunctionDeclaration.model_validate(tool)`
  succeeds and every keyword left in `parameters` is a field that
  `types.Schema` knows (checked by hand: pydantic may ignore unknown keys).

Needs: pip install openai anthropic google-genai jsonschema
Prints one line per failure and a summary "N passed, M failed"; exits 1 when
anything failed.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any, Callable

import jsonschema
import pydantic
import typing
from anthropic.lib._parse._transform import transform_schema
from anthropic.types import ToolParam as AnthropicToolParam
from anthropic.types import ToolSearchToolRegex20251119Param
from google.genai import types as genai_types
from openai.lib._pydantic import _ensure_strict_json_schema
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam, NamespaceToolParam, ToolSearchToolParam
from openai.types.responses.namespace_tool_param import ToolFunction as NamespaceFunction


def sdk_type(value: Any, typed: Any, what: str) -> None:
    """`value` is a `typed` (an SDK TypedDict): pydantic validates the types
    of its fields, and every key must be a field the SDK declares (pydantic
    ignores unknown keys of a TypedDict, so they are checked by hand)."""
    fields = set(typing.get_type_hints(typed))
    unknown = set(value) - fields
    if unknown:
        raise Failure(f"{what}: the SDK's {typed.__name__} has no field {sorted(unknown)}")
    try:
        pydantic.TypeAdapter(typed).validate_python(copy.deepcopy(value))
    except pydantic.ValidationError as e:
        raise Failure(f"{what}: not a valid {typed.__name__}: {e}")


class Failure(Exception):
    """One check failed; the message says why."""


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """A JSON pointer to the first place where a and b differ, and both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a.keys()) + [k for k in b if k not in a]:
            if k not in a:
                return f"{path}/{k}: added {json.dumps(b[k])[:200]}"
            if k not in b:
                return f"{path}/{k}: removed {json.dumps(a[k])[:200]}"
            if a[k] != b[k]:
                return first_difference(a[k], b[k], f"{path}/{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}/{i}")
    return f"{path or '/'}: {json.dumps(a)[:200]} became {json.dumps(b)[:200]}"


def expect_keys(tool: dict, required: set[str], optional: set[str] = frozenset()) -> None:
    keys = set(tool)
    missing = required - keys
    unknown = keys - required - set(optional)
    if missing:
        raise Failure(f"missing keys {sorted(missing)}")
    if unknown:
        raise Failure(f"unexpected keys {sorted(unknown)}")


def check_meta(schema: Any, what: str, object_root: bool = True) -> None:
    if not isinstance(schema, dict):
        raise Failure(f"{what} is not a JSON object")
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        raise Failure(f"{what} is not valid JSON Schema 2020-12: {e.message} at /{'/'.join(map(str, e.path))}")
    if object_root and schema.get("type") != "object":
        raise Failure(f"{what} root type is {schema.get('type')!r}, not 'object'")


# The keywords OpenAI's strict mode documents (docs/dialects.md); the SDK does not
# check them, so this walk does.
OPENAI_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
    "$defs", "definitions", "$ref", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "description", "title",
}
OPENAI_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}


def check_openai_node(node: Any, path: str) -> None:
    if not isinstance(node, dict):
        raise Failure(f"{path or '/'}: a schema must be a JSON object")
    for k, v in node.items():
        if k not in OPENAI_KEYWORDS:
            raise Failure(f"{path}/{k}: not a keyword strict mode accepts")
    if node.get("format") is not None and node["format"] not in OPENAI_FORMATS:
        raise Failure(f"{path}/format: {node['format']!r} is not a supported format")
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    if "object" in types or "properties" in node:
        if node.get("additionalProperties") is not False:
            raise Failure(f"{path}: an object needs additionalProperties: false")
        if list(node.get("required", [])) != list(node.get("properties", {})):
            raise Failure(f"{path}/required: must list every property, in order")
    if "$ref" in node and len(node) > 1:
        raise Failure(f"{path}: no keyword next to $ref")
    for k in ("properties", "$defs", "definitions"):
        for name, sub in node.get(k, {}).items():
            check_openai_node(sub, f"{path}/{k}/{name}")
    if "items" in node:
        check_openai_node(node["items"], f"{path}/items")
    for i, sub in enumerate(node.get("anyOf", [])):
        check_openai_node(sub, f"{path}/anyOf/{i}")


def check_openai_params(params: Any) -> None:
    if not isinstance(params, dict):
        raise Failure("parameters is not a JSON object")
    before = copy.deepcopy(params)
    after = copy.deepcopy(params)
    after = _ensure_strict_json_schema(after, path=(), root=after)
    if after != before:
        raise Failure("_ensure_strict_json_schema changed parameters at " + first_difference(before, after))
    if params.get("type") != "object" or "anyOf" in params:
        raise Failure("the root must be a plain type: object")
    check_openai_node(params, "")


def check_openai_function(tool: dict, typed: Any) -> None:
    expect_keys(tool, {"type", "name", "description", "parameters", "strict", "output_schema"}, {"defer_loading"})
    if tool["type"] != "function" or tool["strict"] is not True:
        raise Failure("type must be 'function' and strict must be true")
    sdk_type(tool, typed, "the function")
    check_openai_params(tool["parameters"])
    # output_schema describes the envelope a function_call_output carries.
    check_meta(tool["output_schema"], "output_schema")


def check_openai_responses(tool: dict) -> None:
    kind = tool.get("type")
    if kind == "namespace":
        sdk_type(tool, NamespaceToolParam, "the namespace")
        functions = tool["tools"]
        if not 0 < len(functions) < 10:
            raise Failure(f"a namespace holds {len(functions)} functions; OpenAI advises fewer than ten")
        for f in functions:
            if f.get("defer_loading") is not True:
                raise Failure(f"{f.get('name')}: a function in a namespace is deferred here")
            check_openai_function(f, NamespaceFunction)
    elif kind == "tool_search":
        sdk_type(tool, ToolSearchToolParam, "the tool search tool")
    else:
        check_openai_function(tool, FunctionToolParam)


def check_openai_chat(tool: dict) -> None:
    expect_keys(tool, {"type", "function"})
    if tool["type"] != "function":
        raise Failure("type must be 'function'")
    sdk_type(tool, ChatCompletionFunctionToolParam, "the tool")
    function = tool["function"]
    expect_keys(function, {"name", "description", "parameters", "strict"})
    if function["strict"] is not True:
        raise Failure("strict must be true")
    check_openai_params(function["parameters"])


def check_anthropic_search(tool: dict) -> bool:
    """True (after checking it) when `tool` is the tool search tool."""
    if tool.get("type") != "tool_search_tool_regex_20251119":
        return False
    sdk_type(tool, ToolSearchToolRegex20251119Param, "the tool search tool")
    return True


def check_anthropic_examples(tool: dict) -> None:
    sdk_type(tool, AnthropicToolParam, "the tool")
    for i, example in enumerate(tool.get("input_examples", [])):
        try:
            jsonschema.validate(example, tool["input_schema"], cls=jsonschema.Draft202012Validator)
        except jsonschema.ValidationError as e:
            raise Failure(f"input_examples/{i} does not match input_schema: {e.message}")


def check_anthropic(tool: dict) -> None:
    if check_anthropic_search(tool):
        return
    expect_keys(tool, {"name", "description", "input_schema"}, {"defer_loading", "input_examples"})
    check_anthropic_examples(tool)
    schema = tool["input_schema"]
    check_meta(schema, "input_schema")
    for k in ("anyOf", "oneOf", "allOf"):
        if k in schema:
            raise Failure(f"{k} at the top level of input_schema")


def check_anthropic_strict(tool: dict) -> None:
    if check_anthropic_search(tool):
        return
    expect_keys(tool, {"name", "description", "input_schema", "strict"}, {"defer_loading", "input_examples"})
    check_anthropic_examples(tool)
    if tool["strict"] is not True:
        raise Failure("strict must be true")
    schema = tool["input_schema"]
    check_meta(schema, "input_schema")
    before = copy.deepcopy(schema)
    try:
        after = transform_schema(copy.deepcopy(schema))
    except Exception as e:  # the SDK raises ValueError/AssertionError on shapes it cannot read
        raise Failure(f"transform_schema raised {type(e).__name__}: {e}")
    if after != before:
        raise Failure("transform_schema changed input_schema at " + first_difference(before, after))


def schema_keywords() -> set[str]:
    """The JSON keys `types.Schema` reads: each field's alias, else its name."""
    return {f.alias or name for name, f in genai_types.Schema.model_fields.items()}


# Known to the SDK but not accepted by the Gemini Developer API (docs/dialects.md).
GEMINI_API_REJECTS = {"additionalProperties", "defs", "ref"}


def check_gemini_schema(node: Any, path: str, known: set[str]) -> None:
    if not isinstance(node, dict):
        raise Failure(f"{path or '/'} is not a JSON object")
    for k, v in node.items():
        here = f"{path}/{k}"
        if k not in known:
            raise Failure(f"{here}: types.Schema has no field {k!r}")
        if k in GEMINI_API_REJECTS:
            raise Failure(f"{here}: {k!r} is not accepted by the Gemini Developer API")
        if k == "type" and not isinstance(v, str):
            raise Failure(f"{here}: one type per node (use nullable), got {json.dumps(v)}")
        if k == "enum" and not all(isinstance(x, str) for x in v):
            raise Failure(f"{here}: enum of strings only")
        if k == "properties":
            if not v:
                raise Failure(f"{here}: an object needs at least one property")
            for name, sub in v.items():
                check_gemini_schema(sub, f"{here}/{name}", known)
        elif k == "items":
            check_gemini_schema(v, here, known)
        elif k == "anyOf":
            for i, sub in enumerate(v):
                check_gemini_schema(sub, f"{here}/{i}", known)


def check_gemini(tool: dict) -> None:
    expect_keys(tool, {"name", "description"}, {"parameters"})
    try:
        genai_types.FunctionDeclaration.model_validate(copy.deepcopy(tool))
    except Exception as e:
        raise Failure(f"FunctionDeclaration.model_validate failed: {e}")
    if "parameters" in tool:
        params = tool["parameters"]
        check_gemini_schema(params, "/parameters", schema_keywords())
        if params.get("type") != "object":
            raise Failure("parameters root type must be 'object'")


def check_gemini_json_schema(tool: dict) -> None:
    expect_keys(tool, {"name", "description", "parametersJsonSchema"})
    try:
        genai_types.FunctionDeclaration.model_validate(copy.deepcopy(tool))
    except Exception as e:
        raise Failure(f"FunctionDeclaration.model_validate failed: {e}")
    check_meta(tool["parametersJsonSchema"], "parametersJsonSchema")


MCP_HINTS = {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title"}


def check_mcp(tool: dict) -> None:
    expect_keys(tool, {"name", "description", "inputSchema"}, {"title", "outputSchema", "annotations"})
    check_meta(tool["inputSchema"], "inputSchema")
    if "outputSchema" in tool:
        check_meta(tool["outputSchema"], "outputSchema")
    ann = tool.get("annotations", {})
    unknown = set(ann) - MCP_HINTS
    if unknown:
        raise Failure(f"unknown annotations {sorted(unknown)}")
    bad = [k for k, v in ann.items() if k != "title" and not isinstance(v, bool)]
    if bad:
        raise Failure(f"annotations {bad} must be booleans")


def check_canonical(tool: dict) -> None:
    expect_keys(
        tool,
        {"name", "description", "input_schema", "effect", "idempotency", "authority", "approval"},
        # `rules` (rules across arguments), `effects` (when several combine)
        # and `title` appear only on tools that declare them.
        {"output_schema", "rules", "effects", "title", "input_examples", "defer_loading"},
    )
    for rule in tool.get("rules", []):
        expect_keys(rule, {"rule", "keyword", "arguments", "in_schema", "text"})
        names = set(tool["input_schema"].get("properties", {}))
        if not set(rule["arguments"]) <= names:
            raise Failure(f"rule {rule['rule']} names unknown arguments {rule['arguments']}")
    check_meta(tool["input_schema"], "input_schema")
    if tool.get("output_schema") is not None:
        check_meta(tool["output_schema"], "output_schema", object_root=False)


CHECKS: dict[str, Callable[[dict], None]] = {
    "canonical": check_canonical,
    "openai-responses": check_openai_responses,
    "openai-chat": check_openai_chat,
    "anthropic": check_anthropic,
    "anthropic-strict": check_anthropic_strict,
    "gemini": check_gemini,
    "gemini-json-schema": check_gemini_json_schema,
    "mcp": check_mcp,
}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    folder = Path(argv[1])
    files = sorted(folder.glob("*.json"))
    passed = failed = 0
    for f in files:
        dialect = f.stem
        check = CHECKS.get(dialect)
        if check is None:
            print(f"skip {f.name}: no dialect named {dialect!r}")
            continue
        try:
            tools = json.loads(f.read_text())
        except json.JSONDecodeError as e:
            print(f"FAIL {f.name}: not JSON: {e}")
            failed += 1
            continue
        if not isinstance(tools, list):
            print(f"FAIL {f.name}: not a JSON array of tools")
            failed += 1
            continue
        names = [t.get("name") or t.get("function", {}).get("name") or t.get("type") for t in tools if isinstance(t, dict)]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            print(f"FAIL {dialect}: names used twice: {sorted(dup)}")
            failed += 1
        for i, tool in enumerate(tools):
            label = f"{dialect} tool {i}"
            try:
                if not isinstance(tool, dict):
                    raise Failure("not a JSON object")
                label = f"{dialect} {names[i] if i < len(names) else i}"
                check(tool)
            except Failure as e:
                print(f"FAIL {label}: {e}")
                failed += 1
            else:
                passed += 1
    if passed + failed == 0:
        print(f"FAIL no <dialect>.json file with tools in {folder}")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
