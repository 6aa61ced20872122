"""An MCP client over stdio, with the official Python SDK (`mcp`), for the
approval flows of tests/mcp_approval.rs.

    python approval.py MODE SERVER_ARGS_JSON CALLS_JSON

MODE is how the person at the client answers an elicitation:
`accept`, `decline` (with a reason), `cancel` (the person closes the
dialog without choosing), or `none` (the client declares no elicitation
capability at all). SERVER_ARGS_JSON is the command line of the
server (`["/path/to/toolbox", "mcp", "--root", ...]`); CALLS_JSON an array of
`{"name", "arguments"}` sent one after another. Prints one JSON object:

    {"protocol": "...", "asked": [{"message", "schema"}],
     "results": [{"isError", "structuredContent"}, ...]}
"""

import json
import sys

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main(mode: str, server: list, calls: list) -> dict:
    asked = []

    async def on_elicit(context, params):
        asked.append(
            {
                "message": params.message,
                "schema": params.requested_schema
                if isinstance(params.requested_schema, dict)
                else params.requested_schema.model_dump(mode="json", by_alias=True, exclude_none=True),
            }
        )
        if mode == "accept":
            return types.ElicitResult(action="accept", content={})
        if mode == "cancel":
            return types.ElicitResult(action="cancel")
        return types.ElicitResult(action="decline", content={"reason": "not this note"})

    kwargs = {} if mode == "none" else {"elicitation_callback": on_elicit}
    params = StdioServerParameters(command=server[0], args=server[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, **kwargs) as session:
            init = await session.initialize()
            results = []
            for call in calls:
                r = await session.call_tool(call["name"], call.get("arguments"))
                results.append({"isError": r.is_error, "structuredContent": r.structured_content})
            return {"protocol": str(init.protocol_version), "asked": asked, "results": results}


if __name__ == "__main__":
    out = anyio.run(main, sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]))
    print(json.dumps(out))
