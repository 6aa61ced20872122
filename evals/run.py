#!/usr/bin/env python3
"""The offline benchmark: a small local model calls the toolbox tools under
five decoding conditions and two host-side adapters over the contract
grammar (copy, ground), every call going through the real dispatcher
(`toolbox serve-jsonl`), with one retry per feedback form after a refusal.

    evals/.venv/bin/python evals/run.py [--model FILE.gguf] [--limit N]

Writes evals/results/calls.jsonl (one line per generation) and
evals/results/summary.json (the rates, with the model hash, quantization,
llama.cpp version, CPU flags and the exact prompt templates)."""
import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_MODEL = HERE / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_TOOLBOX = REPO / "target" / "debug" / "examples" / "toolbox"

# ------------------------------------------------------------------ prompts
# The exact templates; they are written into summary.json with the results.

CHATML = "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
RETRY = "{previous}{output}<|im_end|>\n<|im_start|>user\n{feedback}<|im_end|>\n<|im_start|>assistant\n"

SYSTEM_PLAIN = (
    "You call the tool `{name}`: {description}\n"
    "Its arguments follow this JSON Schema: {schema}\n"
    "Answer with the JSON object of arguments only."
)

# The plain prompt, plus one sentence on copying values: small models
# otherwise rewrite names and numbers they were given.
SYSTEM_COPY = (
    "You call the tool `{name}`: {description}\n"
    "Its arguments follow this JSON Schema: {schema}\n"
    "Copy each value (names, file names, numbers, years) exactly as the request writes it, "
    "once, and never change it to fit: the tool says what it does not serve. "
    "Leave out optional arguments the request does not mention.\n"
    "Answer with the JSON object of arguments only."
)
# The copy prompt, plus what the tool serves, in words derived from the
# contract's `x-served` marks (served_words), and what to do outside it.
SYSTEM_SERVED = (
    "You call the tool `{name}`: {description}\n"
    "Its arguments follow this JSON Schema: {schema}\n"
    "{served}"
    "Copy each value (names, file names, numbers, years) exactly as the request writes it, "
    "once, and never change it to fit: the tool says what it does not serve. "
    "Leave out optional arguments the request does not mention.\n"
    "Answer with the JSON object of arguments only."
)
SERVED_LINE = ("The tool serves {bounds}. A request outside that is still written with the value the user "
               "asked for: the tool refuses it and the user is told; never write a served value in its place.\n")
PROMPTS = {"plain": SYSTEM_PLAIN, "copy": SYSTEM_COPY, "copy-user": SYSTEM_PLAIN, "served": SYSTEM_SERVED}
# The user turn: the request as written, or (copy-user) followed by the
# copying sentence, where a small model reads it last.
USER = {
    "plain": "{text}",
    "copy": "{text}",
    "copy-user": "{text}\n(Copy each value exactly as written here, even one the tool may not serve.)",
    "served": "{text}",
}

# SmolLM2's own tool-calling system prompt, as its published chat template
# for tools (the one Ollama ships for smollm2) writes it: tools listed in
# <tools>, calls answered in <tool_call>[...]</tool_call>.
SYSTEM_TOOLS = (
    "You are an expert in composing functions. You are given a question and a set of possible functions.\n"
    "Based on the question, you will need to make one or more function/tool calls to achieve the purpose.\n"
    "If none of the functions can be used, point it out and refuse to answer.\n"
    "If the given question lacks the parameters required by the function, also point it out.\n"
    "You have access to the following tools:\n<tools>{tools}</tools>\n"
    "The output MUST strictly adhere to the following format, and NO other text MUST be included.\n"
    "The example format is as follows. Please make sure the parameter type is correct. "
    "If no function call is needed, please make the tool calls an empty list '[]'.\n"
    "<tool_call>[\n"
    '{{"name": "func_name1", "arguments": {{"argument1": "value1", "argument2": "value2"}}}},\n'
    "(more tool calls as required)\n"
    "]</tool_call>"
)

FEEDBACK = {
    "bare": "The call was not accepted. Call the tool again.",
    "json": "The tool answered:\n{envelope}",
    "compact": "The tool answered:\n{compact}",
}

CONDITIONS = {
    "free-plain": "no grammar; the plain prompt; the reply text is the arguments",
    "free-tool-template": "no grammar; the model's own tool-calling prompt; arguments of the first <tool_call>",
    "json-schema-grammar": "llama.cpp's grammar from the JSON Schema (LlamaGrammar.from_json_schema)",
    "contract-grammar": "`toolbox grammar`: the contract's grammar, served ranges left out",
    "control-served-in-grammar": "`toolbox grammar --served include`: served ranges wrongly in the grammar",
    "contract-grammar-copy": "`toolbox grammar` with the copy adapter: an integer argument takes one of the "
                             "numbers the request writes (any integer, as the contract allows, when it writes none)",
    "contract-grammar-ground": "`toolbox grammar` with the grounding adapter: the copy adapter, and a string "
                               "argument takes a run of the request's words that fits its form; an optional "
                               "argument with nothing in the request to copy is left out",
}
GRAMMAR_CONDITIONS = ["json-schema-grammar", "contract-grammar", "control-served-in-grammar", "contract-grammar-copy",
                      "contract-grammar-ground"]


# ------------------------------------------------------------------ the toolbox


def fixture() -> Path:
    """The folder serve-jsonl works in: notes and a small git repository."""
    root = Path(tempfile.mkdtemp(prefix="toolbox-eval-"))
    (root / "notes").mkdir()
    for name, text in {
        "kv-cache.md": "# KV cache\nThe KV cache trades memory for speed.\n",
        "agents.md": "# Agents\nA tool is an authority boundary.\n",
        "retries.md": "# Retries\nA breaker stops unproductive retries.\n",
        "grammar.md": "# Grammar\nConstrained decoding with GBNF.\n",
    }.items():
        (root / "notes" / name).write_text(text)
    repo = root / "repo"
    for rel, text in {
        "src/lib.rs": "pub fn answer() -> u32 {\n    42\n}\n",
        "src/main.rs": "fn main() {}\n",
        "README.md": "# Demo\n",
        "Cargo.toml": "[package]\nname = \"demo\"\n",
        "docs/intro.md": "# Intro\n",
    }.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    env = dict(os.environ, GIT_AUTHOR_NAME="eval", GIT_AUTHOR_EMAIL="eval@example.com",
               GIT_COMMITTER_NAME="eval", GIT_COMMITTER_EMAIL="eval@example.com")
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "first"],
                 ["tag", "v1.2.0"], ["branch", "develop"], ["branch", "release-2.0"]):
        subprocess.run(["git", *args], cwd=repo, check=True, env=env)
    for i in range(3):
        (repo / "README.md").write_text(f"# Demo {i}\n")
        subprocess.run(["git", "commit", "-q", "-am", f"change {i}"], cwd=repo, check=True, env=env)
    return root


class Toolbox:
    """`toolbox serve-jsonl` as a subprocess: one function_call item in, one
    function_call_output out."""

    def __init__(self, exe: Path, root: Path):
        self.exe = exe
        self.proc = subprocess.Popen([str(exe), "serve-jsonl", "--root", str(root)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.n = 0

    def call(self, name: str, arguments: str) -> dict:
        self.n += 1
        item = {"type": "function_call", "call_id": f"call_{self.n}", "name": name, "arguments": arguments}
        self.proc.stdin.write(json.dumps(item) + "\n")
        self.proc.stdin.flush()
        out = json.loads(self.proc.stdout.readline())
        return json.loads(out["output"])

    def compact(self, envelope: dict) -> str:
        out = subprocess.run([str(self.exe), "compact"], input=json.dumps(envelope) + "\n",
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def grammar(exe: Path, tool: str, served: str) -> str:
    """The contract's grammar for one tool; the bounds the contract declares
    with `served(range(..))` carry `x-served` and are left out unless included."""
    return subprocess.run([str(exe), "grammar", "--tool", tool, "--served", served],
                          capture_output=True, text=True, check=True).stdout


def layout(text: str, kind: str, max_items: int = 0, max_chars: int = 0) -> str:
    """The grammar as the generation limits ask. `kind`: `model` keeps the
    export's whitespace (none, a space, or a newline and indentation), `line`
    allows none or one space, so the object is written on one line.
    `max_items` (0: the contract's) caps how many items a list may have, so
    that a model that repeats an item runs into the cap, not into the token
    budget with the JSON unfinished; the runtime still checks the contract."""
    if kind == "line":
        text = "\n".join('ws ::= | " "' if line.startswith("ws ::=") else line
                         for line in text.splitlines()) + "\n"
    if max_items:
        def cap(m):
            lo, hi = int(m.group(2)), int(m.group(3)) if m.group(3) else None
            top = max_items - 1 if hi is None else min(hi, max_items - 1)
            return f"{m.group(1)}{{{min(lo, top)},{top}}}"
        text = re.sub(r'(\("," ws [^()]*\))\{(\d+),(\d*)\}', cap, text)
    if max_chars:
        # In the rules of string values (they open with a quote): no run of
        # characters longer than `max_chars`.
        def bound(line):
            name, _, body = line.partition(" ::= ")
            if not body.startswith('"\\""'):
                return line
            body = re.sub(r"\{(\d+),(\d+)\}",
                          lambda m: f"{{{min(int(m.group(1)), max_chars)},{min(int(m.group(2)), max_chars)}}}", body)
            body = re.sub(r'\)\+ "\\""$', f'){{1,{max_chars}}} "\\""', body)
            body = re.sub(r'\)\* "\\""$', f'){{0,{max_chars}}} "\\""', body)
            return f"{name} ::= {body}"
        text = "\n".join(bound(line) for line in text.splitlines()) + "\n"
    return text


def numbers_written(text: str) -> list:
    """The integers a request writes as words of their own ("1998", "120,",
    "1,000"), in order, without repeats. Digits inside a name ("v1.2.0",
    "HEAD~2", "release-2.0", "10-K") are not numbers the user asked for."""
    out = []
    for word in text.split():
        word = word.strip(".,;:!?()[]\"'")
        if re.fullmatch(r"-?\d{1,3}(,\d{3})+|-?\d+", word):
            n = int(word.replace(",", ""))
            if n not in out:
                out.append(n)
    return out


def member_ref(key: str):
    """The place in a contract grammar where the member `key` names its value's
    rule: `"\"key\"" ws ":" ws rule`, the rule's name in group 2."""
    return re.compile(r'("\\"' + re.escape(key) + r'\\"" ws ":" ws )([a-z0-9-]+)')


def rule_name(prefix: str, key: str) -> str:
    """A GBNF rule name for an adapter's narrowing of `key`."""
    return prefix + "-" + re.sub(r"[^a-z0-9]+", "-", key.lower())


def string_literals(words: list) -> str:
    """GBNF alternatives, each one JSON string."""
    return " | ".join('"' + json.dumps(w).replace("\\", "\\\\").replace('"', '\\"') + '"' for w in words)


def copy_numbers(text: str, schema: dict, numbers: list) -> str:
    """The copy adapter: the grammar with each top-level integer argument
    narrowed to the numbers the request writes. A host-side grounding
    constraint, the opposite of the control: it does not fit the request to
    what the tool serves, it holds the model to what the user wrote, served
    or not, and the runtime refuses what the tool does not serve. Bounds of
    form (not marked `x-served`) still apply: a written number the contract's
    form refuses anyway is not offered. With no number written (or none of
    form), the argument keeps the contract's rule."""
    for key, prop in schema.get("properties", {}).items():
        types = prop.get("type")
        if "integer" not in (types if isinstance(types, list) else [types]):
            continue
        served = set(prop.get("x-served", []))
        lo = prop.get("minimum") if "minimum" not in served else None
        hi = prop.get("maximum") if "maximum" not in served else None
        fit = [n for n in numbers if (lo is None or n >= lo) and (hi is None or n <= hi)]
        if not fit:
            continue
        rule = rule_name("copy", key)
        pat = member_ref(key)
        if not pat.search(text):
            continue
        text = pat.sub(lambda m: m.group(1) + rule, text)
        alts = " | ".join(f'"{n}"' for n in fit)
        if "null" in (types if isinstance(types, list) else []):
            alts += ' | "null"'
        text += f"{rule} ::= {alts}\n"
    return text


def spans_written(text: str, most: int = 4) -> list:
    """Runs of one to `most` words of a request, each word without the
    punctuation around it or a possessive "'s", in order, without repeats:
    what a grounded string argument may take."""
    words = [re.sub(r"'s$", "", w.strip(".,;:!?()[]\"'")) for w in text.split()]
    words = [w for w in words if w]
    out = []
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + most) + 1):
            span = " ".join(words[i:j])
            if span not in out:
                out.append(span)
    return out


def ground_values(text: str, schema: dict, request: str) -> str:
    """The grounding adapter, a wider copy adapter: integers as copy_numbers
    narrows them, each top-level string argument (no format, no enum) to a
    run of words of the request that fits its pattern and lengths, and an
    optional argument for which the request writes nothing that fits is left
    out. A required argument with nothing that fits keeps the contract's
    rule. The runtime still checks every call against the contract."""
    text = copy_numbers(text, schema, numbers_written(request))
    required = set(schema.get("required", []))
    for key, prop in schema.get("properties", {}).items():
        types = prop.get("type")
        types = types if isinstance(types, list) else [types]
        ref = member_ref(key)
        if "integer" in types:
            continue
        item = prop.get("items", {})
        if "array" in types and item.get("type") == "string" and "format" not in item and "enum" not in item:
            # A list of strings: each item a run of words that fits the
            # item's form, and, when items are unique, no more items than
            # there are such runs.
            m = ref.search(text)
            fits = [w for w in spans_written(request) if re.search(item.get("pattern", ""), w)
                    and item.get("minLength", 0) <= len(w) <= item.get("maxLength", 1 << 30)]
            if not m or not fits:
                continue
            body = re.search(r"^" + re.escape(m.group(2)) + r" ::= (.*)$", text, re.M)
            inner = re.search(r'"\[" ws ([a-z0-9-]+) \("," ws \1\)\{(\d+),(\d+)\} ws "\]"', body.group(1)) if body else None
            if not inner:
                continue
            rule = rule_name("ground", key) + "-item"
            top = int(inner.group(3))
            if prop.get("uniqueItems"):
                top = min(top, len(fits) - 1)
            lo = min(int(inner.group(2)), top)
            new_body = f'"[" ws {rule} ("," ws {rule}){{{lo},{top}}} ws "]"'
            text = text.replace(body.group(0), f"{m.group(2)} ::= {new_body}")
            alts = string_literals(fits)
            text += f"{rule} ::= {alts}\n"
            continue
        if "string" not in types or "enum" in prop:
            continue
        if "format" in prop:
            fits = [w for w in spans_written(request, 1) if prop["format"] == "date"
                    and re.fullmatch(r"\d{4}-\d{2}-\d{2}", w)]
        else:
            pattern = prop.get("pattern")
            fits = [w for w in spans_written(request)
                    if (pattern is None or re.search(pattern, w))
                    and len(w) >= prop.get("minLength", 0) and len(w) <= prop.get("maxLength", 1 << 30)]
        if fits:
            rule = rule_name("ground", key)
            if not ref.search(text):
                continue
            text = ref.sub(lambda m: m.group(1) + rule, text)
            alts = string_literals(fits)
            text += f"{rule} ::= {alts}\n"
        elif key not in required:
            # `("," ws "\"key\"" ws ":" ws rule)?`: the optional member, left out.
            text = re.sub(r'\("," ws "\\"' + re.escape(key) + r'\\"" ws ":" ws [a-z0-9-]+\)\?', "", text)
    return text


def served_words(schema: dict) -> str:
    """The bounds of service of a schema in words ("`year` from 2001 to 2026,
    `max_count` at most 100"), from its `x-served` marks; empty if none."""
    words = {"minimum": "at least {}", "maximum": "at most {}", "exclusiveMinimum": "above {}",
             "exclusiveMaximum": "below {}", "formatMinimum": "no earlier than {}",
             "formatMaximum": "no later than {}"}
    out = []
    for key, prop in schema.get("properties", {}).items():
        marks = prop.get("x-served", [])
        if not marks:
            continue
        if "minimum" in marks and "maximum" in marks:
            said = [f"from {prop['minimum']} to {prop['maximum']}"]
        else:
            said = [words[k].format(prop[k]) for k in marks if k in words and k in prop]
        out.append(f"`{key}` {' and '.join(said)}")
    return ", ".join(out)


def with_reply(text: str) -> str:
    """The grammar of a retry under `--retry-reply`: the call, or one line to
    the user (not starting with `{`)."""
    body = text.replace("root ::= ", "call-root ::= ", 1)
    return 'root ::= call-root | reply\nreply ::= [^{\n] [^\n]{0,160}\n' + body


def without_served(schema):
    """The schema with its bounds of service taken out (they stay in the
    descriptions, in words): what the contract grammar holds the model to."""
    if isinstance(schema, list):
        return [without_served(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: without_served(v) for k, v in schema.items() if k != "x-served"}
    for k in schema.get("x-served", []):
        out.pop(k, None)
    return out


def served_bounds(schema: dict) -> dict:
    """{pointer: [keywords]} of the bounds a schema marks `x-served`."""
    out = {}

    def walk(node, ptr):
        if isinstance(node, dict):
            if "x-served" in node:
                out[ptr or "/"] = node["x-served"]
            for k, v in node.items():
                walk(v, f"{ptr}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{ptr}/{i}")

    walk(schema, "")
    return out


# ------------------------------------------------------------------ model side


def machine() -> dict:
    import llama_cpp
    flags = ""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags") and not flags:
                flags = line.split(":", 1)[1].strip()
            if line.startswith("model name") and not model:
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    info = llama_cpp.llama_print_system_info()
    return {
        "llama_cpp_python": llama_cpp.__version__,
        "llama_cpp_system_info": info.decode() if isinstance(info, bytes) else str(info),
        "cpu": model,
        "cpu_flags": flags,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def grammar_loads(model: Path, text: str) -> bool:
    """Whether llama.cpp accepts a grammar. A grammar it cannot parse makes
    llama-cpp-python crash the process, so the check runs in a child."""
    probe = (
        "import sys\n"
        "from llama_cpp import Llama, LlamaGrammar\n"
        "llm = Llama(model_path=sys.argv[1], n_ctx=256, verbose=False)\n"
        "g = LlamaGrammar.from_string(sys.stdin.read(), verbose=False)\n"
        "llm('{', max_tokens=1, grammar=g)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(model)], input=text,
                          capture_output=True, text=True)
    return done.returncode == 0


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def tool_call_arguments(text: str):
    """(name, arguments JSON text) of the first call in <tool_call>[...]</tool_call>, or None."""
    m = re.search(r"<tool_call>(.*?)(</tool_call>|$)", text, re.S)
    if not m:
        return None
    try:
        calls = json.loads(m.group(1).strip())
    except json.JSONDecodeError:
        return None
    if isinstance(calls, dict):
        calls = [calls]
    if not isinstance(calls, list) or not calls or not isinstance(calls[0], dict):
        return None
    first = calls[0]
    if not isinstance(first.get("name"), str):
        return None
    return first["name"], json.dumps(first.get("arguments", {}))


def norm(v):
    if isinstance(v, str):
        return v.strip().lower()
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="any GGUF file")
    ap.add_argument("--toolbox", type=Path, default=DEFAULT_TOOLBOX)
    ap.add_argument("--requests", type=Path, default=HERE / "requests.jsonl",
                    help="the request set (requests-traps.jsonl: where the copy adapter can go wrong)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N requests of each tool, in turn")
    # The grammar conditions first: they are the fast ones and the point.
    ap.add_argument("--conditions", default=",".join(GRAMMAR_CONDITIONS[::-1] + ["free-tool-template", "free-plain"]))
    ap.add_argument("--max-tokens", type=int, default=96, help="per generation under a grammar")
    ap.add_argument("--max-tokens-free", type=int, default=48,
                    help="per free generation (arguments fit in far fewer; rambling is cut here)")
    ap.add_argument("--prompt", choices=sorted(PROMPTS), default="copy",
                    help="the system prompt of the plain conditions (all but free-tool-template)")
    ap.add_argument("--prompt-schema", choices=["full", "no-served"], default="full",
                    help="the schema in the prompt: as published, or without the bounds of service "
                         "(stated in the descriptions in words), as the contract grammar leaves them out")
    ap.add_argument("--layout", choices=["model", "line"], default="line",
                    help="whitespace the contract grammars allow (see layout())")
    ap.add_argument("--max-items", type=int, default=8,
                    help="cap on list items in the contract grammars (0: the contract's own)")
    ap.add_argument("--max-chars", type=int, default=64,
                    help="cap on a string's length in the contract grammars (0: the contract's own)")
    ap.add_argument("--repeat-penalty", type=float, default=1.0)
    ap.add_argument("--no-retry", action="store_true", help="first attempts only, while iterating")
    ap.add_argument("--retry-reply", action="store_true",
                    help="on a retry, the contract grammars also allow one line to the user instead of a call")
    ap.add_argument("--tools", default="", help="only these tools (comma-separated), while iterating")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--resume", action="store_true",
                    help="keep results/calls.jsonl and run only the generations it lacks")
    args = ap.parse_args()

    # With more threads than free cores, spinning OpenMP workers slow every token.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from llama_cpp import Llama, LlamaGrammar

    requests = [json.loads(line) for line in args.requests.read_text().splitlines()]
    if args.tools:
        requests = [r for r in requests if r["tool"] in args.tools.split(",")]
    if args.limit:
        by_tool = {}
        for r in requests:
            by_tool.setdefault(r["tool"], []).append(r)
        # Served and unserved in the same proportion within each tool.
        picked = []
        for rs in by_tool.values():
            served = [r for r in rs if r["served"]][: args.limit]
            unserved = [r for r in rs if not r["served"]][: max(1, args.limit // 4)] if any(not r["served"] for r in rs) else []
            picked += served + unserved
        requests = sorted(picked, key=lambda r: r["id"])
    conditions = [c for c in args.conditions.split(",") if c]

    exe = args.toolbox
    defs = json.loads(subprocess.run([str(exe), "schemas"], capture_output=True, text=True, check=True).stdout)
    work = Path(tempfile.mkdtemp(prefix="eval-grammars-"))
    by_name = {d["name"]: d for d in defs}
    tools = sorted({r["tool"] for r in requests})

    from llama_cpp.llama_grammar import json_schema_to_gbnf

    grammars = {}
    grammar_texts = {}
    replies = {}
    broken = {}
    for t in tools:
        schema = dict(by_name[t]["input_schema"])
        schema.pop("$schema", None)
        texts = {"json-schema-grammar": json_schema_to_gbnf(json.dumps(schema))}
        (work / f"{t}.json-schema.gbnf").write_text(texts["json-schema-grammar"])
        for cond, served in (("contract-grammar", "omit"), ("control-served-in-grammar", "include")):
            texts[cond] = layout(grammar(exe, t, served), args.layout, args.max_items, args.max_chars)
            (work / f"{t}.{served}.gbnf").write_text(texts[cond])
        # The copy adapter narrows the contract grammar per request (see copy_numbers).
        texts["contract-grammar-copy"] = texts["contract-grammar"]
        texts["contract-grammar-ground"] = texts["contract-grammar"]
        for cond, text in texts.items():
            if cond not in conditions:
                continue
            if grammar_loads(args.model, text):
                grammar_texts[(cond, t)] = text
                grammars[(cond, t)] = LlamaGrammar.from_string(text, verbose=False)
                if args.retry_reply and cond != "json-schema-grammar":
                    replies[(cond, t)] = LlamaGrammar.from_string(with_reply(text), verbose=False)
            else:
                broken[(cond, t)] = "llama.cpp cannot parse this grammar"

    def system_plain(t):
        d = by_name[t]
        schema = dict(d["input_schema"])
        schema.pop("$schema", None)
        if args.prompt_schema == "no-served":
            schema = without_served(schema)
        bounds = served_words(d["input_schema"])
        served = SERVED_LINE.format(bounds=bounds) if bounds else ""
        return PROMPTS[args.prompt].format(name=t, description=d["description"], schema=json.dumps(schema),
                                           served=served)

    def system_tools(t):
        d = by_name[t]
        schema = dict(d["input_schema"])
        schema.pop("$schema", None)
        tool = {"type": "function", "function": {"name": t, "description": d["description"], "parameters": schema}}
        return SYSTEM_TOOLS.format(tools=json.dumps([tool]))

    llm = Llama(model_path=str(args.model), n_ctx=4096, n_threads=min(2, os.cpu_count() or 1),
                seed=0, verbose=False)
    meta = {k: v for k, v in (llm.metadata or {}).items() if k.startswith("general.") or k == "tokenizer.chat_template"}

    def generate(prompt, g):
        t0 = time.perf_counter()
        limit = args.max_tokens if g is not None else args.max_tokens_free
        out = llm(prompt, max_tokens=limit, temperature=0.0, top_k=1, grammar=g,
                  repeat_penalty=args.repeat_penalty, stop=["<|im_end|>", "<|endoftext|>"])
        return out["choices"][0]["text"], time.perf_counter() - t0

    root = fixture()
    box = Toolbox(exe, root)
    args.out.mkdir(parents=True, exist_ok=True)
    calls_path = args.out / "calls.jsonl"
    previous = []
    if args.resume and calls_path.exists():
        previous = [json.loads(line) for line in calls_path.read_text().splitlines() if line.strip()]
    log = open(calls_path, "a" if args.resume else "w")

    def attempt(cond, r, prompt, g, kind, feedback=None, extra=None):
        def emit(rec):
            rec.update(extra or {})
            log.write(json.dumps(rec) + "\n")
            log.flush()

        if (cond, r["tool"]) in broken:
            rec = {"request": r["id"], "condition": cond, "attempt": kind, "output": "",
                   "outcome": "grammar-error", "error": broken[(cond, r["tool"])],
                   "gen_seconds": 0.0, "dispatch_seconds": 0.0}
            emit(rec)
            return rec, None
        try:
            text, gen_s = generate(prompt, g)
        except Exception as e:  # llama.cpp refused the grammar itself
            rec = {"request": r["id"], "condition": cond, "attempt": kind, "output": "",
                   "outcome": "grammar-error", "error": str(e)[:300], "gen_seconds": 0.0, "dispatch_seconds": 0.0}
            emit(rec)
            return rec, None
        name, arguments = r["tool"], text.strip()
        if kind.startswith("retry") and not arguments.startswith("{") and replies:
            # A reply to the user instead of a call: nothing is dispatched.
            rec = {"request": r["id"], "condition": cond, "attempt": kind, "output": text,
                   "outcome": "reply", "gen_seconds": gen_s, "dispatch_seconds": 0.0, "feedback": feedback}
            emit(rec)
            return rec, None
        if cond == "free-tool-template":
            parsed = tool_call_arguments(text)
            if parsed is None:
                rec = {"request": r["id"], "condition": cond, "attempt": kind, "output": text,
                       "outcome": "no-call", "gen_seconds": gen_s, "dispatch_seconds": 0.0}
                emit(rec)
                return rec, None
            name, arguments = parsed
        t0 = time.perf_counter()
        env = box.call(name, arguments)
        dispatch_s = time.perf_counter() - t0
        accepted = env["status"] != "invalid"
        faithful = False
        if accepted and name == r["tool"]:
            try:
                faithful = norm(json.loads(arguments)) == norm(r["arguments"])
            except json.JSONDecodeError:
                pass
        rec = {"request": r["id"], "condition": cond, "attempt": kind, "output": text, "tool": name,
               "arguments": arguments, "status": env["status"],
               "codes": [e.get("code") for e in env.get("errors", [])],
               "outcome": "accepted" if accepted else "refused", "faithful": faithful,
               "gen_seconds": gen_s, "dispatch_seconds": dispatch_s}
        if feedback is not None:
            rec["feedback"] = feedback
        emit(rec)
        return rec, env

    model_sha = sha256(args.model)
    machine_info = machine()

    def write_summary(records, done):
        summary = summarize(records, requests, done)
        summary["setup"] = {
            "model_file": str(args.model.name),
            "model_sha256": model_sha,
            "model_bytes": args.model.stat().st_size,
            "quantization": next((q for q in ("Q4_0", "Q4_1", "Q4_K_M", "Q5_0", "Q5_1", "Q5_K_M", "Q8_0", "F16")
                                  if q.lower() in args.model.name.lower()), "see gguf metadata"),
            "gguf_metadata": meta,
            "machine": machine_info,
            "toolbox": str(exe),
            "request_set": args.requests.name,
            "requests": len(requests),
            "unserved": sum(not r["served"] for r in requests),
            "tools": tools,
            "decoding": {"temperature": 0.0, "top_k": 1, "max_tokens": args.max_tokens, "max_tokens_free": args.max_tokens_free, "n_ctx": 4096, "seed": 0,
                         "repeat_penalty": args.repeat_penalty},
            "templates": {"chatml": CHATML, "retry": RETRY, "system_plain": PROMPTS[args.prompt],
                          "user_plain": USER[args.prompt], "served_line": SERVED_LINE,
                          "system_tools": SYSTEM_TOOLS, "feedback": FEEDBACK},
            "conditions": {c: CONDITIONS[c] for c in done},
            "served_bounds": {d["name"]: served_bounds(d["input_schema"]) for d in defs if d["name"] in tools},
            "layout": args.layout,
            "max_items": args.max_items,
            "max_chars": args.max_chars,
            "retry_reply": args.retry_reply,
            "prompt": args.prompt,
            "prompt_schema": args.prompt_schema,
            "grammars": {p.name: p.read_text() for p in sorted(work.glob("*.gbnf"))},
            "wall_seconds": time.time() - started,
        }
        (args.out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")

    records = list(previous)
    done_first = {(x["condition"], x["request"]) for x in previous if x["attempt"] == "first"}
    started = time.time() - (json.loads((args.out / "summary.json").read_text())["setup"]["wall_seconds"]
                             if args.resume and (args.out / "summary.json").exists() else 0)
    for cond in conditions:
        for i, r in enumerate(requests):
            if (cond, r["id"]) in done_first:
                continue
            g = grammars.get((cond, r["tool"]))
            rg = replies.get((cond, r["tool"]), g)
            copied = None
            if cond in ("contract-grammar-copy", "contract-grammar-ground") and g is not None:
                copied = numbers_written(r["text"])
                schema = by_name[r["tool"]]["input_schema"]
                if cond == "contract-grammar-copy":
                    narrowed = copy_numbers(grammar_texts[(cond, r["tool"])], schema, copied)
                else:
                    narrowed = ground_values(grammar_texts[(cond, r["tool"])], schema, r["text"])
                g = LlamaGrammar.from_string(narrowed, verbose=False)
                rg = LlamaGrammar.from_string(with_reply(narrowed), verbose=False) if args.retry_reply else g
            system = system_tools(r["tool"]) if cond == "free-tool-template" else system_plain(r["tool"])
            user = r["text"] if cond == "free-tool-template" else USER[args.prompt].format(text=r["text"])
            prompt = CHATML.format(system=system, user=user)
            extra = {"copied_numbers": copied} if copied is not None else None
            first, env = attempt(cond, r, prompt, g, "first", extra=extra)
            records.append(first)
            if first["outcome"] == "refused" and env is not None and cond in GRAMMAR_CONDITIONS and not args.no_retry:
                for form, template in FEEDBACK.items():
                    fb = template.format(envelope=json.dumps(env, ensure_ascii=False),
                                         compact=box.compact(env) if form == "compact" else "")
                    retry_prompt = RETRY.format(previous=prompt, output=first["output"], feedback=fb)
                    rec, _ = attempt(cond, r, retry_prompt, rg, f"retry-{form}", feedback=fb, extra=extra)
                    records.append(rec)
            print(f"\r{cond:28s} {i + 1:3d}/{len(requests)}  {time.time() - started:7.1f}s", end="", file=sys.stderr)
        print(file=sys.stderr)
        # After each condition, so that a run cut short keeps what it measured.
        write_summary(records, [c for c in conditions if any(x["condition"] == c for x in records)])
    box.close()
    log.close()
    shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(json.loads((args.out / "summary.json").read_text())["conditions"], indent=2))


def as_asked(rec, request) -> bool:
    """Whether a call carries every integer the request meant, as meant."""
    try:
        sent = json.loads(rec.get("arguments") or "null")
    except json.JSONDecodeError:
        return False
    meant = {k: v for k, v in request["arguments"].items() if isinstance(v, int)}
    return isinstance(sent, dict) and all(sent.get(k) == v for k, v in meant.items())


def summarize(records, requests, conditions):
    by_id = {r["id"]: r for r in requests}
    out = {"conditions": {}}
    for cond in conditions:
        rs = [x for x in records if x["condition"] == cond]
        first = [x for x in rs if x["attempt"] == "first"]
        served = [x for x in first if by_id[x["request"]]["served"]]
        unserved = [x for x in first if not by_id[x["request"]]["served"]]
        # A grammar llama.cpp refused produced no generation to time.
        timed = [x for x in rs if x["outcome"] != "grammar-error"]
        gen = [x["gen_seconds"] + x["dispatch_seconds"] for x in timed]
        c = {
            "calls": len(rs),
            "served_requests": len(served),
            "unserved_requests": len(unserved),
            "accepted_served": sum(x["outcome"] == "accepted" for x in served),
            "faithful_served": sum(x["faithful"] for x in served if x["outcome"] == "accepted"),
            "honest_first": sum(x["outcome"] != "accepted" for x in unserved),
            # Refused with the very numbers the request wrote: honest in the
            # strict sense (not even another unserved value in their place).
            "as_asked_first": sum(x["outcome"] != "accepted" and as_asked(x, by_id[x["request"]])
                                  for x in unserved),
            "substituted_first": sum(x["outcome"] == "accepted" for x in unserved),
            "seconds_per_call": sum(gen) / len(gen) if gen else 0.0,
            "generation_seconds_per_call": sum(x["gen_seconds"] for x in timed) / len(timed) if timed else 0.0,
            "grammar_errors": sum(x["outcome"] == "grammar-error" for x in first),
            "retry": {},
        }
        for form in FEEDBACK:
            retries = {x["request"]: x for x in rs if x["attempt"] == f"retry-{form}"}
            if not retries and cond not in GRAMMAR_CONDITIONS:
                continue
            s_refused = [x for x in served if x["outcome"] != "accepted"]
            u_refused = [x for x in unserved if x["outcome"] != "accepted"]
            fixed = [retries[x["request"]] for x in s_refused if x["request"] in retries]
            u_retry = [retries[x["request"]] for x in u_refused if x["request"] in retries]
            c["retry"][form] = {
                "served_refused_first": len(s_refused),
                "served_accepted_after": sum(x["outcome"] == "accepted" for x in fixed),
                "served_faithful_after": sum(x.get("faithful", False) for x in fixed),
                "unserved_refused_first": len(u_refused),
                # An unserved request that the retry turns into an accepted call
                # was moved into range: a substitution.
                "unserved_substituted_after": sum(x["outcome"] == "accepted" for x in u_retry),
                "honest_after": c["honest_first"] - sum(x["outcome"] == "accepted" for x in u_retry),
                # Retries that answered the user instead of calling (--retry-reply).
                "replies": sum(x["outcome"] == "reply" for x in retries.values()),
            }
        out["conditions"][cond] = c
    return out


if __name__ == "__main__":
    main()
