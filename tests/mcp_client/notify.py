"""Progress, log lines and the host's prompts over streamable HTTP, with the
official Python SDK (`mcp`).

    python notify.py URL

Calls `work` once before choosing a log level and once after
`logging/setLevel warning`, each with a progress callback, then lists and
gets the host's prompt. Prints one JSON object:

    {"before": {"progress": [...], "logs": [...]},
     "after": {"progress": [...], "logs": [...]},
     "content": [<content block types of the last call>],
     "prompts": [...], "prompt": "<text of the prompt's message>"}
"""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url: str) -> dict:
    logs = []

    async def on_log(params) -> None:
        logs.append({"level": params.level, "data": params.data})

    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write, logging_callback=on_log) as session:
            await session.initialize()
            out = {}
            result = None
            for phase in ["before", "after"]:
                if phase == "after":
                    await session.set_logging_level("warning")
                progress = []

                async def on_progress(done, total, message) -> None:
                    progress.append([done, total, message])

                logs.clear()
                result = await session.call_tool("work", {}, progress_callback=on_progress)
                # Log lines travel on the session's own stream: give them a moment.
                await anyio.sleep(0.3)
                out[phase] = {"progress": progress, "logs": list(logs)}
            out["content"] = [c.type for c in result.content]
            listed = await session.list_prompts()
            out["prompts"] = [p.name for p in listed.prompts]
            got = await session.get_prompt("greet", {"name": "Ada"})
            out["prompt"] = got.messages[0].content.text
            return out


if __name__ == "__main__":
    print(json.dumps(anyio.run(main, sys.argv[1])))
