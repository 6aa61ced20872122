"""Calls sent at one instant, over streamable HTTP, with the official Python
SDK (`mcp`).

    python race.py URL START_AT CALLS

Connects to URL and initializes a session, then waits until the Unix time
START_AT (so that several of these processes, started one after another, send
at the same moment), then sends every call of the JSON array CALLS
(`{"name": ..., "arguments": {...}}`) concurrently on that session. Prints one
JSON array: per call, `{"isError", "structuredContent"}` as the SDK parsed it.
"""

import json
import sys
import time

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, start_at: float, calls: list) -> list:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await anyio.sleep(max(0.0, start_at - time.time()))
            results = [None] * len(calls)

            async def one(i: int, call: dict) -> None:
                r = await session.call_tool(call["name"], call.get("arguments"))
                results[i] = {
                    "isError": r.is_error,
                    "structuredContent": r.structured_content,
                }

            async with anyio.create_task_group() as tg:
                for i, call in enumerate(calls):
                    tg.start_soon(one, i, call)
            return results


if __name__ == "__main__":
    out = anyio.run(main, sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3]))
    print(json.dumps(out))
