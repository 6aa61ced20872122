"""The multi-round-trip approval flow (protocol 2026-07-28, SEP-2322) with the
official Python SDK (`mcp`) against `toolbox mcp`, legs driven by hand so a
test can tamper with them.

    python approval_mrtr.py MODE SERVER_ARGS_JSON

The client connects with `server/discover` (a 2026-07-28 connection),
declares elicitation, and calls `delete_note {"note": "a.md"}`. The server
answers `InputRequiredResult`; then, by MODE:

- `accept` / `decline` / `cancel`: retries with the person's answer (`cancel`:
  the dialog closed without a choice) and the state as received;
- `tamper`: retries accepting, with one character of the state changed;
- `other-arguments`: retries accepting, with the state, for `{"note": "b.md"}`;
- `replay`: accepts, then sends the same answer and state a second time.

Prints {"protocol", "legs": [{"inputRequired", "message", "structuredContent"}]}.
"""

import json
import sys

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


def leg(r) -> dict:
    if isinstance(r, types.InputRequiredResult):
        requests = r.input_requests or {}
        elicit = requests.get("approval")
        return {
            "inputRequired": True,
            "keys": sorted(requests),
            "message": elicit.params.message if elicit is not None else None,
            "requestState": r.request_state,
        }
    return {"inputRequired": False, "isError": r.is_error, "structuredContent": r.structured_content}


async def main(mode: str, server: list) -> dict:
    async def never(context, params):
        raise AssertionError("a 2026-07-28 server asks inside the result, not by request")

    params = StdioServerParameters(command=server[0], args=server[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=never) as session:
            found = await session.discover()
            a = {"note": "a.md"}
            legs = []
            first = await session.call_tool("delete_note", a, allow_input_required=True)
            legs.append(leg(first))
            state = first.request_state
            answer = mode if mode in ("decline", "cancel") else "accept"
            content = {"reason": "not this note"} if answer == "decline" else ({} if answer == "accept" else None)
            responses = {"approval": types.ElicitResult(action=answer, content=content)}
            args = a
            if mode == "tamper":
                i = len(state) // 2
                state = state[:i] + ("A" if state[i] != "A" else "B") + state[i + 1 :]
            if mode == "other-arguments":
                args = {"note": "b.md"}
            second = await session.call_tool(
                "delete_note", args, input_responses=responses, request_state=state, allow_input_required=True
            )
            legs.append(leg(second))
            if mode == "replay":
                third = await session.call_tool(
                    "delete_note", args, input_responses=responses, request_state=state, allow_input_required=True
                )
                legs.append(leg(third))
            return {"protocol": str(found.protocol_version if hasattr(found, "protocol_version") else session.protocol_version), "legs": legs}


if __name__ == "__main__":
    out = anyio.run(main, sys.argv[1], json.loads(sys.argv[2]))
    print(json.dumps(out, default=str))
