"""End-to-end check of the Go example server (bindings/go/mcpsdk/example)
with an older official Python MCP client still in use: `mcp` 1.9.4 (pinned
in requirements.txt), whose newest protocol revision is 2025-03-26.

Usage: python_client.py SERVER_BINARY REVISION   (2025-03-26 or 2024-11-05)

The client offers its newest revision, 2025-03-26, in `initialize`. For
2024-11-05, which it also supports (its SUPPORTED_PROTOCOL_VERSIONS), the
revision it offers is set to 2024-11-05 (the module constant its
`initialize` sends); everything else is the client's own code. Every check
asserts on the client's own parsed objects. Exits non-zero on the first
failure.
"""

import json
import sys

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import McpError
from mcp.shared.version import SUPPORTED_PROTOCOL_VERSIONS

SERVER, REVISION = sys.argv[1], sys.argv[2]
if REVISION not in SUPPORTED_PROTOCOL_VERSIONS:
    raise SystemExit(f"mcp 1.9.4 does not support {REVISION}")
types.LATEST_PROTOCOL_VERSION = REVISION  # what initialize offers

LATER = {"resultType", "ttlMs", "cacheScope"}


def check(cond, what):
    if not cond:
        raise AssertionError(f"[python mcp 1.9.4, {REVISION}] {what}")


def extra(model):
    """The members the client's model does not define (its models keep them)."""
    return set((model.model_extra or {}).keys())


def no_later_members(result, what):
    """No 2026 member on the result, no member 2025-03-26 does not define on
    its descriptions and contents."""
    check(not (LATER & extra(result)), f"{what}: 2026 members {extra(result)}")
    for item in getattr(result, "resources", None) or getattr(result, "resourceTemplates", None) or []:
        check(not (extra(item) & {"title", "icons", "_meta"}), f"{what}: later members {extra(item)} of {item}")
        if item.annotations is not None:
            check(not extra(item.annotations), f"{what}: later annotation members {extra(item.annotations)}")
    for item in getattr(result, "contents", None) or []:
        check("_meta" not in extra(item), f"{what}: content _meta on {REVISION}: {item}")


async def expect_error(coro, code, what):
    try:
        await coro
    except McpError as e:
        check(e.error.code == code, f"{what}: code {e.error.code}, want {code}")
        return e.error
    raise AssertionError(f"[python mcp 1.9.4, {REVISION}] {what}: no error")


async def main():
    params = StdioServerParameters(command=SERVER, args=[])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.protocolVersion == REVISION, f"negotiated {init.protocolVersion}")
            caps = init.capabilities
            check(caps.resources is not None, "resources capability missing")
            check(not caps.resources.subscribe and not caps.resources.listChanged, f"capability {caps.resources}")

            # resources/list, following nextCursor to the end
            uris, listed, pages, cursor = [], [], 0, None
            while True:
                page = await session.list_resources(cursor)
                pages += 1
                no_later_members(page, f"list page {pages}")
                uris += [str(r.uri) for r in page.resources]
                listed += page.resources
                if not page.nextCursor:
                    break
                cursor = page.nextCursor
            check(pages == 3 and len(uris) == 124 and len(set(uris)) == 124, f"{len(uris)} resources in {pages} pages")
            check("doc://item/000" in uris and "doc://item/119" in uris, "items missing from the listing")
            full = next(r for r in listed if str(r.uri) == "doc://empty")
            check(full.description == "an explicitly empty text" and full.size == 0, f"doc://empty listed {full}")
            check(full.annotations.priority == 0.5 and full.annotations.audience == ["user"], f"annotations {full}")

            # a forged cursor is invalid params, never page one
            await expect_error(session.list_resources("forged"), -32602, "forged cursor")

            # resources/templates/list (doc://secret/{key} is hidden by the policy)
            templates = await session.list_resource_templates()
            no_later_members(templates, "templates")
            check(
                [t.uriTemplate for t in templates.resourceTemplates]
                == ["doc://files/{name}", "doc://many/{n}", "doc://projects/{project}/files/{file}"],
                f"templates {templates.resourceTemplates}",
            )

            # an exact read and a template read
            r = await session.read_resource("doc://item/007")
            no_later_members(r, "exact read")
            item = r.contents[0]
            check(len(r.contents) == 1 and isinstance(item, types.TextResourceContents), f"exact read {r.contents}")
            check(item.text == "item 7" and str(item.uri) == "doc://item/007", f"exact read {item}")
            r = await session.read_resource("doc://files/a.txt")
            check(r.contents[0].text == "file doc://files/a.txt", f"template read {r.contents}")

            # an explicitly empty text, without the content _meta 2025-03-26 does not define
            r = await session.read_resource("doc://empty")
            no_later_members(r, "empty read")
            item = r.contents[0]
            check(isinstance(item, types.TextResourceContents) and item.text == "", f"empty text {item}")

            # a partial bundle: the warning first, then the item that was read
            r = await session.read_resource("doc://bundle")
            no_later_members(r, "partial read")
            check(len(r.contents) == 2, f"partial bundle {r.contents}")
            check(str(r.contents[0].uri).startswith("mcp-warning:"), f"warning item {r.contents[0]}")
            check(r.contents[0].text.startswith("Incomplete bundle.\n"), f"warning text {r.contents[0]}")
            check(r.contents[1].text == "bundle head", f"bundle item {r.contents[1]}")
            report = (r.meta or {}).get("go.phpboyscout.uk/mcp.resourceRead", {})
            check(report.get("partial") is True and report.get("version") == 1, f"report {r.meta}")
            check("storage offline" not in json.dumps(r.model_dump(mode="json")), "private cause leaked")

            # not found: -32002 with data.uri on 2025-03-26 and 2024-11-05; a hidden
            # resource answers exactly the same
            e = await expect_error(session.read_resource("doc://missing"), -32002, "not found")
            check(e.message == "Resource not found" and e.data == {"uri": "doc://missing"}, f"not found {e}")
            h = await expect_error(session.read_resource("doc://secret/x"), -32002, "hidden read")
            check((h.message, h.data) == (e.message, {"uri": "doc://secret/x"}), f"hidden read {h}")

            # completion/complete of a template variable
            check(caps.completions is not None or REVISION == "2024-11-05", f"completions capability {caps}")
            ref = types.ResourceReference(type="ref/resource", uri="doc://files/{name}")
            c = await session.complete(ref, {"name": "name", "value": "a"})
            check(c.completion.values == ["a.txt", "alpha.md"], f"completion {c.completion}")
            check(c.completion.hasMore is False and c.completion.total is None, f"completion {c.completion}")
            check(not (LATER & extra(c)), f"completion members {extra(c)}")
            many = types.ResourceReference(type="ref/resource", uri="doc://many/{n}")
            c = await session.complete(many, {"name": "n", "value": ""})
            check(c.completion.values == [f"v{i:03d}" for i in range(100)], f"many {c.completion.values}")
            check(c.completion.hasMore is True and c.completion.total == 150, f"many {c.completion}")
            # not found, and an argument the template does not have
            for uri in ["doc://nowhere/{key}", "doc://secret/{key}"]:
                ref = types.ResourceReference(type="ref/resource", uri=uri)
                e = await expect_error(session.complete(ref, {"name": "key", "value": ""}), -32002, f"complete {uri}")
                check(e.data == {"uri": uri}, f"complete {uri}: data {e.data}")
            ref = types.ResourceReference(type="ref/resource", uri="doc://files/{name}")
            await expect_error(session.complete(ref, {"name": "owner", "value": ""}), -32602, "unknown argument")
            await tool_checks(session)
    print(f"python client mcp 1.9.4, {REVISION}: all checks passed")


async def tool_checks(session):
    """Tool results on an older revision: the library's definitions with only
    the members the revision defines, embedded resources as a read gives
    them, no structuredContent and no resource_link (the link form refused),
    one execution error for hidden, unregistered and invalid URIs, and
    list_resources paging through its text block."""
    tools = {t.name: t for t in (await session.list_tools()).tools}
    check({"fetch", "read_resource", "list_resources"} <= set(tools), f"tools {sorted(tools)}")
    for name in ["read_resource", "list_resources"]:
        t = tools[name]
        check(not (extra(t) & {"title", "outputSchema"}), f"{name}: later members {extra(t)}")
        has_annotations = "annotations" in extra(t) or getattr(t, "annotations", None) is not None
        check(has_annotations == (REVISION >= "2025-03-26"), f"{name}: annotations on {REVISION}")

    r = await session.call_tool("fetch", {"uris": ["doc://item/004", "doc://secret/x", "doc://nope", "doc://empty"]})
    check(not r.isError, f"fetch failed: {r}")
    check([type(c).__name__ for c in r.content] == ["EmbeddedResource"] * 2, f"fetch blocks {r.content}")
    check(str(r.content[0].resource.uri) == "doc://item/004" and r.content[0].resource.text == "item 4", f"fetch {r.content[0]}")
    check(r.content[1].resource.text == "", f"fetch empty text {r.content[1]}")
    for c in r.content:
        check("_meta" not in extra(c.resource), f"fetch: content _meta on {REVISION}: {c.resource}")
    check("structuredContent" not in extra(r), f"fetch: structuredContent {extra(r)}")
    # no resource_link before 2025-06-18: the host's link form fails
    failed = False
    try:
        linked = await session.call_tool("fetch", {"uris": ["doc://item/005"], "links": True})
        failed = linked.isError is True
    except McpError:
        failed = True
    check(failed, "the link form answered on an older revision")

    r = await session.call_tool("read_resource", {"uri": "doc://item/006"})
    check(not r.isError and r.content[0].resource.text == "item 6", f"read_resource {r}")
    check("structuredContent" not in extra(r) and not (LATER & extra(r)), f"read_resource members {extra(r)}")
    errors = []
    for uri in ["doc://secret/x", "doc://nope", "not a uri"]:
        e = await session.call_tool("read_resource", {"uri": uri})
        check(e.isError, f"read_resource {uri}: {e}")
        errors.append(json.dumps(e.model_dump(mode="json"), sort_keys=True))
    check(len(set(errors)) == 1, f"hidden, unregistered and invalid answer differently: {errors}")

    listed, templates, cursor = [], [], None
    for _ in range(20):
        r = await session.call_tool("list_resources", {"cursor": cursor} if cursor else {})
        check(not r.isError and "structuredContent" not in extra(r), f"list_resources {r}")
        page = json.loads(r.content[0].text)
        listed += [x["uri"] for x in page["resources"]]
        templates += [x["uriTemplate"] for x in page["resourceTemplates"]]
        cursor = page.get("nextCursor")
        if not cursor:
            break
    check(len(listed) == 124 and len(set(listed)) == 124, f"{len(listed)} resources listed")
    check(templates == ["doc://files/{name}", "doc://many/{n}", "doc://projects/{project}/files/{file}"], f"templates {templates}")


anyio.run(main)
