"""End-to-end check of input-required reads (docs/BEHAVIOUR.md §18) with the
official Python MCP client (the pinned `mcp` package) on 2026-07-28.

Usage: python_client.py SERVER   (the input_stdio example's binary)

The client's own multi-round-trip driver completes a read whose policy asks
for consent through the client's elicitation callback, and one whose body
read asks for the client's roots through its roots callback; the retried
results are never cacheable. A declining user gets not found; a hidden
resource never reaches the callback; a client that declares no elicitation
gets -32021; a tampered requestState is -32602. Every check asserts on the
client's parsed objects; besides, every response line the server wrote is
kept as received and, when MCPR_SCHEMA_DIR names a folder holding
2026-07-28/schema.json, validated against that JSON Schema (the
InputRequiredResult included). Exits non-zero on the first failure.
"""

import json
import os
import sys

import anyio
import mcp.client.stdio as mcp_stdio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from check_results import schema_validator  # noqa: E402

SERVER = sys.argv[1]
REVISION = "2026-07-28"
RAW_LINES = []
_parse_line = mcp_stdio._parse_line


def _recording_parse_line(line):
    RAW_LINES.append(line)
    return _parse_line(line)


mcp_stdio._parse_line = _recording_parse_line
CALLS = {"elicit": [], "roots": 0}
ROOT = "file:///srv/projects/alpha"


def check(cond, what):
    if not cond:
        raise AssertionError(f"[python {REVISION}, input-required reads] {what}")


async def accept(context, params):
    CALLS["elicit"].append(params)
    return types.ElicitResult(action="accept", content={"confirm": True})


async def decline(context, params):
    CALLS["elicit"].append(params)
    return types.ElicitResult(action="decline")


async def roots(context):
    CALLS["roots"] += 1
    return types.ListRootsResult(roots=[types.Root(uri=ROOT, name="alpha")])


def client(**callbacks):
    return Client(StdioServerParameters(command=SERVER, args=[]), mode=REVISION, cache=None, **callbacks)


async def expect_error(coro, code, what):
    try:
        await coro
    except MCPError as e:
        check(e.code == code, f"{what}: code {e.code}, want {code}")
        return e
    raise AssertionError(f"{what}: no error")


def uncacheable(result, what):
    check(result.ttl_ms == 0 and result.cache_scope == "private", f"{what}: {result.ttl_ms} {result.cache_scope}")


async def main():
    async with client(elicitation_callback=accept, list_roots_callback=roots) as c:
        r = await c.read_resource("doc://consent")
        check(r.contents[0].text == "consented body", f"consent read {r}")
        uncacheable(r, "the retried consent read")
        check(len(CALLS["elicit"]) == 1, f"elicitations {CALLS['elicit']}")
        asked = CALLS["elicit"][0]
        check(asked.message == "Read the sensitive document?", f"elicitation {asked}")
        check("confirm" in asked.requested_schema["properties"], f"schema {asked.requested_schema}")

        r = await c.read_resource("doc://roots")
        check(CALLS["roots"] == 1 and ROOT in r.contents[0].text, f"roots read {r}, {CALLS}")
        uncacheable(r, "the retried roots read")

        r = await c.read_resource("doc://plain")
        check(r.contents[0].text == "plain body", f"plain read {r}")
        check(len(CALLS["elicit"]) == 1 and CALLS["roots"] == 1, f"a plain read asked: {CALLS}")

        hidden = await expect_error(c.read_resource("doc://hidden"), -32602, "hidden")
        missing = await expect_error(c.read_resource("doc://nowhere"), -32602, "unregistered")
        check(hidden.data == {"uri": "doc://hidden"} and missing.data == {"uri": "doc://nowhere"},
              f"not found data {hidden.data} {missing.data}")
        check(hidden.message == missing.message, f"{hidden.message} != {missing.message}")
        check(len(CALLS["elicit"]) == 1, f"a hidden read asked: {CALLS}")

        # The client's own session, driving the rounds by hand: the parsed
        # InputRequiredResult, then a tampered state.
        first = await c.session.read_resource("doc://consent", allow_input_required=True)
        check(isinstance(first, types.InputRequiredResult), f"first round {first}")
        request = first.input_requests["consent"]
        check(request.method == "elicitation/create", f"request {request}")
        check(isinstance(first.request_state, str) and len(first.request_state) > 40, f"state {first.request_state}")
        state = first.request_state
        tampered = state[:20] + ("A" if state[20] != "A" else "B") + state[21:]
        answer = {"consent": types.ElicitResult(action="accept", content={"confirm": True})}
        e = await expect_error(
            c.session.read_resource("doc://consent", input_responses=answer, request_state=tampered,
                                    allow_input_required=True), -32602, "tampered state")
        check(e.message == "Invalid request state", f"tampered: {e.message}")
        for uri in ("doc://plain", "doc://hidden", "doc://nowhere"):
            e = await expect_error(
                c.session.read_resource(uri, input_responses=answer, request_state=state, allow_input_required=True),
                -32602, f"another URI's state on {uri}")
            check(e.message == "Invalid request state", f"{uri}: {e.message}")
        done = await c.session.read_resource("doc://consent", input_responses=answer, request_state=state,
                                             allow_input_required=True)
        check(isinstance(done, types.ReadResourceResult) and done.contents[0].text == "consented body", f"{done}")

    async with client(elicitation_callback=decline) as c:
        e = await expect_error(c.read_resource("doc://consent"), -32602, "declined")
        check(e.data == {"uri": "doc://consent"}, f"declined data {e.data}")

    async with client() as c:
        e = await expect_error(c.read_resource("doc://consent"), -32021, "no elicitation declared")
        check(e.data == {"requiredCapabilities": {"elicitation": {"form": {}}}}, f"-32021 data {e.data}")

    validate_raw_lines()
    print("python: input-required reads OK")


def validate_raw_lines():
    """Every response the server sent, against the 2026-07-28 JSON Schema."""
    schema_dir = os.environ.get("MCPR_SCHEMA_DIR")
    if not schema_dir:
        return
    kinds = set()
    for line in RAW_LINES:
        message = json.loads(line)
        if "error" in message:
            name, instance = "JSONRPCErrorResponse", message
        elif "result" in message:
            result = message["result"]
            if result.get("resultType") == "input_required":
                name = "InputRequiredResult"
            elif "contents" in result:
                name = "ReadResourceResult"
            elif "supportedVersions" in result:
                name = "DiscoverResult"
            else:
                continue
            instance = result
        else:
            continue
        errors = list(schema_validator(schema_dir, REVISION, name).iter_errors(instance))
        check(not errors, f"JSON Schema {name}: {[e.message for e in errors]} in {line[:200]}")
        kinds.add(name)
    want = {"InputRequiredResult", "ReadResourceResult", "JSONRPCErrorResponse"}
    check(want <= kinds, f"responses validated: {sorted(kinds)}, want {sorted(want)}")


anyio.run(main)
