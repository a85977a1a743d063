"""End-to-end check of the C stdio server (examples/c/stdio_server.c, built
on mcpr_message) with the official Python MCP client (the pinned `mcp`
package).

Usage: python_client.py SERVER REVISION   (REVISION 2025-11-25 or 2026-07-28)

The client starts the server over stdio with its default, bare environment.
It reads an exact resource and a template resource, reads one that does not
exist, lists the 120 resources page by page (50, 50, 20) and the templates,
completes a template variable (and an argument that is no variable), and
calls a method the server does not serve (tools/list), which the host loop
answers -32601. Every check asserts on the client's own parsed objects;
besides, every response line the server wrote is kept as received and, when
MCPR_SCHEMA_DIR names a folder holding <revision>/schema.json, validated
against the revision's JSON Schema. Exits non-zero on the first failure.
"""

import json
import os
import sys

import anyio
import mcp.client.stdio as mcp_stdio
import mcp_types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from check_results import schema_validator  # noqa: E402

SERVER, REVISION = sys.argv[1], sys.argv[2]
STATELESS = REVISION >= "2026-07-28"
RAW_LINES = []
_parse_line = mcp_stdio._parse_line


def _recording_parse_line(line):
    RAW_LINES.append(line)
    return _parse_line(line)


mcp_stdio._parse_line = _recording_parse_line


def check(cond, what):
    if not cond:
        raise AssertionError(f"[python {REVISION}, C stdio server] {what}")


async def expect_error(coro, code, what):
    try:
        await coro
    except MCPError as e:
        check(e.code == code, f"{what}: code {e.code}, want {code}")
        return e
    raise AssertionError(f"[python {REVISION}] {what}: no error")


def cache_fields(result, what):
    """2026-07-28 results carry resultType, ttlMs and cacheScope; earlier ones none of them."""
    present = {"ttl_ms", "cache_scope"} & result.model_fields_set
    check(present == ({"ttl_ms", "cache_scope"} if STATELESS else set()), f"{what}: cache fields {present}")


async def main():
    async with stdio_client(StdioServerParameters(command=SERVER, args=[])) as (read, write):
        async with ClientSession(read, write) as session:
            if STATELESS:
                result = await session.discover()
                check(REVISION in result.supported_versions, f"discover versions {result.supported_versions}")
            else:
                result = await session.initialize()
                check(result.protocol_version == REVISION, f"negotiated {result.protocol_version}")
            caps = result.capabilities
            check(caps.resources is not None and caps.completions is not None, f"capabilities {caps}")
            check(session.protocol_version == REVISION, f"session version {session.protocol_version}")

            r = await session.read_resource("doc://item/007")
            cache_fields(r, "exact read")
            item = r.contents[0]
            check(isinstance(item, types.TextResourceContents) and item.text == "item 7", f"exact read {item}")
            check(item.uri == "doc://item/007" and len(r.contents) == 1, f"exact read {r.contents}")
            r = await session.read_resource("doc://files/a.txt")
            check(r.contents[0].text == "file doc://files/a.txt", f"template read {r.contents}")

            not_found = -32602 if STATELESS else -32002
            e = await expect_error(session.read_resource("doc://item/999"), not_found, "not found")
            check(isinstance(e.data, dict) and e.data.get("uri") == "doc://item/999", f"not-found data {e.data}")

            uris, sizes, cursor = [], [], None
            while True:
                page = await session.list_resources(
                    params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
                )
                cache_fields(page, f"list page {len(sizes) + 1}")
                sizes.append(len(page.resources))
                uris += [res.uri for res in page.resources]
                if not page.next_cursor:
                    break
                cursor = page.next_cursor
            check(sizes == [50, 50, 20], f"pages {sizes}")
            check(uris == [f"doc://item/{i:03d}" for i in range(120)], "resources listed in URI order, once each")
            await expect_error(
                session.list_resources(params=types.PaginatedRequestParams(cursor="forged")), -32602, "forged cursor"
            )
            templates = await session.list_resource_templates()
            check([t.uri_template for t in templates.resource_templates] == ["doc://files/{name}"], "templates")

            c = await session.complete(types.ResourceTemplateReference(uri="doc://files/{name}"),
                                       {"name": "name", "value": "a"})
            check(c.completion.values == ["a.txt", "alpha.md"] and c.completion.has_more is False, f"{c.completion}")
            check(("result_type" in c.model_fields_set) == STATELESS, "completion resultType")
            await expect_error(
                session.complete(types.ResourceTemplateReference(uri="doc://files/{name}"), {"name": "x", "value": ""}),
                -32602,
                "an argument that is no variable",
            )

            # A method neither the library nor the host serves: the host's -32601.
            await expect_error(session.list_tools(), -32601, "tools/list")
            r = await session.read_resource("doc://item/119")
            check(r.contents[0].text == "item 119", "the session goes on")
    validate_raw_lines()
    print(f"python client (C stdio server), {REVISION}: all checks passed")


RESULT_KINDS = [
    ("contents", "ReadResourceResult"),
    ("resourceTemplates", "ListResourceTemplatesResult"),
    ("resources", "ListResourcesResult"),
    ("completion", "CompleteResult"),
    ("supportedVersions", "DiscoverResult"),
    ("protocolVersion", "InitializeResult"),
]


def validate_raw_lines():
    """Every response the server sent, against the revision's JSON Schema."""
    schema_dir = os.environ.get("MCPR_SCHEMA_DIR")
    if not schema_dir:
        return
    kinds = set()
    for line in RAW_LINES:
        message = json.loads(line)
        if "error" in message:
            name, instance = "JSONRPCErrorResponse", message
        elif "result" in message:
            name = next((n for key, n in RESULT_KINDS if key in message["result"]), None)
            if name is None:
                continue
            instance = message["result"]
        else:
            continue
        errors = list(schema_validator(schema_dir, REVISION, name).iter_errors(instance))
        check(not errors, f"JSON Schema {name}: {[e.message for e in errors]} in {line[:200]}")
        kinds.add(name)
    want = {"ReadResourceResult", "ListResourcesResult", "ListResourceTemplatesResult", "CompleteResult",
            "JSONRPCErrorResponse", "DiscoverResult" if STATELESS else "InitializeResult"}
    check(want <= kinds, f"responses validated: {sorted(kinds)}, want {sorted(want)}")


anyio.run(main)
