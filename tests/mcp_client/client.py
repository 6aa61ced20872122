"""An MCP client over streamable HTTP, with the official Python SDK (`mcp`).

    python client.py URL SCRIPT

SCRIPT is a JSON array of batches; a batch is an array of calls
`{"name": ..., "arguments": {...}}` sent concurrently on one session (each
batch starts once the one before it has answered). Prints one JSON object:

    {"server": {"name", "version"}, "protocol": "...",
     "tools": [<tools/list entries>],
     "batches": [[{"isError", "structuredContent", "text"}, ...], ...]}

Everything the Rust test asserts comes from what this SDK parsed, so a reply
the SDK refuses (a malformed result, a structuredContent that breaks the
listed outputSchema) fails the script, and the test, here.
"""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, script: list) -> dict:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            listed = await session.list_tools()
            batches = []
            for batch in script:
                results = [None] * len(batch)

                async def one(i: int, call: dict) -> None:
                    r = await session.call_tool(call["name"], call.get("arguments"))
                    results[i] = {
                        "isError": r.is_error,
                        "structuredContent": r.structured_content,
                        "text": [c.text for c in r.content if c.type == "text"],
                    }

                async with anyio.create_task_group() as tg:
                    for i, call in enumerate(batch):
                        tg.start_soon(one, i, call)
                batches.append(results)
            return {
                "server": {
                    "name": init.server_info.name,
                    "version": init.server_info.version,
                },
                "protocol": str(init.protocol_version),
                "tools": [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools],
                "batches": batches,
            }


if __name__ == "__main__":
    out = anyio.run(main, sys.argv[1], json.loads(sys.argv[2]))
    print(json.dumps(out))
