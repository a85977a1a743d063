"""End-to-end check of the Go example server (bindings/go/mcpsdk/example)
with the official Python MCP client (the pinned `mcp` package).

Usage: python_client.py SERVER_BINARY REVISION   (2025-11-25 or 2026-07-28)

The client starts the server over stdio with the client's default, bare
environment (no LD_LIBRARY_PATH), so it also checks that the server binary
needs no shared library at run time. Every check asserts on the client's own
parsed objects. Exits non-zero on the first failure.
"""

import json
import sys

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

SERVER, REVISION = sys.argv[1], sys.argv[2]
STATELESS = REVISION >= "2026-07-28"


def check(cond, what):
    if not cond:
        raise AssertionError(f"[python {REVISION}] {what}")


def cache_fields(result, what):
    """2026-07-28 results carry resultType, ttlMs and cacheScope; earlier ones none of them."""
    present = {"ttl_ms", "cache_scope"} & result.model_fields_set
    if STATELESS:
        check(present == {"ttl_ms", "cache_scope"}, f"{what}: ttlMs/cacheScope missing ({result.model_fields_set})")
        check(result.cache_scope in ("public", "private") and result.ttl_ms >= 0, f"{what}: cache hints {result}")
        check("result_type" in result.model_fields_set and result.result_type == "complete", f"{what}: resultType")
    else:
        check(not present, f"{what}: cache fields on {REVISION}: {present}")


async def stats(session):
    r = await session.read_resource("doc://stats")
    return json.loads(r.contents[0].text)


async def expect_error(coro, code, what):
    try:
        await coro
    except MCPError as e:
        check(e.code == code, f"{what}: code {e.code}, want {code}")
        return e
    raise AssertionError(f"[python {REVISION}] {what}: no error")


def completion_shape(result, what):
    """resultType on 2026-07-28 only; completions never carry cache fields."""
    check(not ({"ttl_ms", "cache_scope"} & result.model_fields_set), f"{what}: cache fields {result.model_fields_set}")
    check(("result_type" in result.model_fields_set) == STATELESS, f"{what}: resultType on {REVISION}")


async def main():
    params = StdioServerParameters(command=SERVER, args=[])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            # initialize (2025-11-25) or server/discover (2026-07-28)
            if STATELESS:
                result = await session.discover()
                check(REVISION in result.supported_versions, f"discover versions {result.supported_versions}")
                caps = result.capabilities
            else:
                result = await session.initialize()
                check(result.protocol_version == REVISION, f"negotiated {result.protocol_version}")
                caps = result.capabilities
            def complete(uri, name, value, context=None):
                return session.complete(
                    types.ResourceTemplateReference(uri=uri), {"name": name, "value": value}, context_arguments=context
                )

            check(session.protocol_version == REVISION, f"session version {session.protocol_version}")
            check(caps.resources is not None, "resources capability missing")
            check(not caps.resources.subscribe and not caps.resources.list_changed, f"capability {caps.resources}")

            # resources/list, following nextCursor to the end
            uris, pages, cursor, scopes, listed = [], 0, None, set(), []
            while True:
                page = await session.list_resources(
                    params=types.PaginatedRequestParams(cursor=cursor) if cursor else None
                )
                pages += 1
                cache_fields(page, f"list page {pages}")
                if STATELESS:
                    scopes.add(page.cache_scope)
                uris += [r.uri for r in page.resources]
                listed += page.resources
                if not page.next_cursor:
                    break
                cursor = page.next_cursor
            check(pages == 3 and len(uris) == 124 and len(set(uris)) == 124, f"{len(uris)} resources in {pages} pages")
            check("doc://item/000" in uris and "doc://item/119" in uris, "items missing from the listing")
            check(len(scopes) <= 1, f"one cacheScope for every page: {scopes}")

            # the description with every standard member, as this revision defines them
            full = next(r for r in listed if r.uri == "doc://empty")
            check(full.title == "Empty" and full.size == 0, f"doc://empty listed {full}")
            check(full.annotations.priority == 0.5 and full.annotations.last_modified == "2025-01-12T15:00:58Z",
                  f"annotations {full.annotations}")
            check(full.icons and full.icons[0].theme == "light" and full.meta == {"com.example/kind": "empty"},
                  f"icons and _meta {full}")

            # a forged cursor is invalid params, never page one
            await expect_error(
                session.list_resources(params=types.PaginatedRequestParams(cursor="forged")), -32602, "forged cursor"
            )

            # resources/templates/list
            templates = await session.list_resource_templates()
            cache_fields(templates, "templates")
            # sorted by template; doc://secret/{key} is hidden by the policy
            check(
                [t.uri_template for t in templates.resource_templates]
                == ["doc://files/{name}", "doc://many/{n}", "doc://projects/{project}/files/{file}"],
                f"templates {templates.resource_templates}",
            )

            # an exact read
            r = await session.read_resource("doc://item/007")
            cache_fields(r, "exact read")
            if STATELESS:
                # the server's identity in every result's _meta, after the library's report
                info = (r.meta or {}).get("io.modelcontextprotocol/serverInfo", {})
                check(info.get("name") == "mcp-resources-example", f"serverInfo {r.meta}")
                check(list(r.meta)[0] == "go.phpboyscout.uk/mcp.resourceRead", f"report first {r.meta}")
            check(len(r.contents) == 1, f"exact read contents {r.contents}")
            item = r.contents[0]
            check(isinstance(item, types.TextResourceContents) and item.text == "item 7", f"exact read {item}")
            check(item.uri == "doc://item/007", f"exact read uri {item.uri}")

            # a template read
            r = await session.read_resource("doc://files/a.txt")
            check(r.contents[0].text == "file doc://files/a.txt", f"template read {r.contents}")

            # completion/complete of a template variable
            check(caps.completions is not None, "completions capability missing")
            c = await complete("doc://files/{name}", "name", "a")
            check(c.completion.values == ["a.txt", "alpha.md"], f"completion {c.completion}")
            check(c.completion.has_more is False and c.completion.total is None, f"completion {c.completion}")
            completion_shape(c, "completion")

            # two variables: {file} completes from the project in context.arguments
            projects = "doc://projects/{project}/files/{file}"
            c = await complete(projects, "project", "")
            check(c.completion.values == ["alpha", "beta"], f"projects {c.completion}")
            c = await complete(projects, "file", "ma", {"project": "alpha"})
            check(c.completion.values == ["main.go", "manual.md"], f"files of alpha {c.completion}")
            completion_shape(c, "files of alpha")
            c = await complete(projects, "file", "ma", {"project": "beta"})
            check(c.completion.values == ["main.py"], f"files of beta {c.completion}")
            c = await complete(projects, "file", "ma")
            check(c.completion.values == [] and c.completion.has_more is False, f"files, no project {c.completion}")
            # a context value that could not be a capture is invalid params
            await expect_error(complete(projects, "file", "", {"project": "../alpha"}), -32602, "traversal in context")
            # the argument must be one of the template's variables
            await expect_error(complete(projects, "owner", ""), -32602, "unknown argument")

            # a completer offering 150 values: the first 100 are sent, hasMore, the total offered
            c = await complete("doc://many/{n}", "n", "")
            check(c.completion.values == [f"v{i:03d}" for i in range(100)], f"many values {c.completion.values}")
            check(
                c.completion.has_more is True and c.completion.total == 150,
                f"many: total {c.completion.total}, hasMore {c.completion.has_more}",
            )
            completion_shape(c, "many")

            # the hidden template completes exactly like an unregistered one, whatever the argument:
            # the same code, message and data, data.uri being the template URI sent
            not_found = -32602 if STATELESS else -32002
            seen = []
            cases = [("doc://nowhere/{key}", "key"), ("doc://secret/{key}", "key"), ("doc://secret/{key}", "nope")]
            for uri, arg in cases:
                e = await expect_error(complete(uri, arg, ""), not_found, f"complete {uri} {arg}")
                check(isinstance(e.data, dict) and e.data.get("uri") == uri, f"complete {uri} {arg}: data {e.data}")
                seen.append((e.message.replace(uri, "URI"), json.dumps({**e.data, "uri": "URI"}, sort_keys=True)))
            check(len(set(seen)) == 1, f"hidden and unregistered templates answer differently: {seen}")
            # reading it is not found too, and its completer never ran
            e = await expect_error(session.read_resource("doc://secret/x"), not_found, "hidden read")
            check(isinstance(e.data, dict) and e.data.get("uri") == "doc://secret/x", f"hidden read data {e.data}")
            check((await stats(session))["secretCompletions"] == 0, "the hidden template's completer ran")

            # a partial bundle: the warning first, then the item that was read
            r = await session.read_resource("doc://bundle")
            check(len(r.contents) == 2, f"partial bundle {r.contents}")
            check(r.contents[0].uri.startswith("mcp-warning:"), f"warning item {r.contents[0]}")
            check(r.contents[1].text == "bundle head", f"bundle item {r.contents[1]}")
            check("storage offline" not in json.dumps(r.model_dump(mode="json")), "private cause leaked")
            if STATELESS:
                check(r.ttl_ms == 0, "a partial bundle has ttlMs 0")

            # an explicitly empty text stays a text item
            r = await session.read_resource("doc://empty")
            item = r.contents[0]
            check(isinstance(item, types.TextResourceContents) and item.text == "", f"empty text {item}")
            check(item.meta == {"com.example/empty": True}, f"content _meta {item}")

            # not found: -32002 before 2026-07-28, -32602 from it; data.uri either way
            e = await expect_error(
                session.read_resource("doc://missing"), -32602 if STATELESS else -32002, "not found"
            )
            check(isinstance(e.data, dict) and e.data.get("uri") == "doc://missing", f"not-found data {e.data}")

            # a client-side cancellation reaches the reader; the session goes on
            before = await stats(session)
            with anyio.move_on_after(30):
                async with anyio.create_task_group() as tg:
                    scope = anyio.CancelScope()

                    async def slow_read():
                        with scope:
                            await session.read_resource("doc://slow")

                    tg.start_soon(slow_read)
                    while (await stats(session))["slowStarted"] <= before["slowStarted"]:
                        await anyio.sleep(0.01)
                    scope.cancel()
            with anyio.fail_after(30):
                while (await stats(session))["slowCanceled"] <= before["slowCanceled"]:
                    await anyio.sleep(0.01)
            r = await session.read_resource("doc://item/001")
            check(r.contents[0].text == "item 1", "session unusable after the cancellation")

            await tool_checks(session)
    print(f"python client, {REVISION}: all checks passed")


def tool_shape(result, what):
    """resultType on 2026-07-28 only; tool results never carry cache fields."""
    check(("result_type" in result.model_fields_set) == STATELESS, f"{what}: resultType on {REVISION}")
    check(not ({"ttl_ms", "cache_scope"} & result.model_fields_set), f"{what}: cache fields")


async def tool_checks(session):
    """Resources in tool results: a host tool returning embedded resources and
    resource links, and the library's resource tools (read_resource,
    list_resources), as the client parses and validates them."""
    tools = {t.name: t for t in (await session.list_tools()).tools}
    check({"fetch", "read_resource", "list_resources"} <= set(tools), f"tools {sorted(tools)}")
    check(tools["read_resource"].annotations.read_only_hint is True, "read_resource is read-only")
    check(tools["read_resource"].output_schema["required"] == ["contents"], "read_resource output schema")

    # a host tool embedding resources: the reads' items, nothing for the hidden and the missing
    uris = ["doc://item/004", "doc://secret/x", "doc://empty", "doc://nope", "doc://bundle"]
    r = await session.call_tool("fetch", {"uris": uris})
    tool_shape(r, "fetch")
    check(not r.is_error, f"fetch failed: {r}")
    kinds = [type(c).__name__ for c in r.content]
    check(kinds == ["EmbeddedResource"] * 4, f"fetch blocks {kinds}")
    res = [c.resource for c in r.content]
    check(res[0].uri == "doc://item/004" and res[0].text == "item 4", f"fetch item {res[0]}")
    check(isinstance(res[1], types.TextResourceContents) and res[1].text == "", f"fetch empty text {res[1]}")
    check(res[2].uri.startswith("mcp-warning://read/") and res[2].text.startswith("Incomplete bundle."), f"warning {res[2]}")
    check(res[3].text == "bundle head", f"bundle item {res[3]}")
    check("storage offline" not in json.dumps(r.model_dump(mode="json")), "private cause leaked into a tool result")
    hidden = await session.call_tool("fetch", {"uris": ["doc://secret/x"]})
    missing = await session.call_tool("fetch", {"uris": ["doc://nope"]})
    check(hidden.content == [] and missing.content == [], f"hidden {hidden.content}, missing {missing.content}")

    # the same tool with links: from the registered descriptions, nothing read
    r = await session.call_tool("fetch", {"uris": ["doc://item/005", "doc://secret/y", "doc://files/x.txt"], "links": True})
    check([type(c).__name__ for c in r.content] == ["ResourceLink", "ResourceLink"], f"links {r.content}")
    check((r.content[0].uri, r.content[0].name, r.content[0].mime_type) == ("doc://item/005", "item-005", "text/plain"),
          f"link {r.content[0]}")
    check((r.content[1].uri, r.content[1].name) == ("doc://files/x.txt", "files"), f"template link {r.content[1]}")

    # read_resource: embedded resources and the same items as structured content
    # (the client validates it against the tool's output schema)
    r = await session.call_tool("read_resource", {"uri": "doc://item/006"})
    tool_shape(r, "read_resource")
    check(not r.is_error and r.content[0].resource.text == "item 6", f"read_resource {r}")
    check(r.structured_content["contents"][0]["text"] == "item 6", f"structured {r.structured_content}")
    # hidden and unregistered: the same execution error, byte for byte in what the client parsed
    errors = []
    for uri in ["doc://secret/x", "doc://nope", "not a uri"]:
        r = await session.call_tool("read_resource", {"uri": uri})
        check(r.is_error, f"read_resource {uri}: {r}")
        errors.append(json.dumps(r.model_dump(mode="json"), sort_keys=True))
    check(len(set(errors)) == 1, f"hidden, unregistered and invalid answer differently: {errors}")

    # list_resources: every page, resources then templates (the hidden template never)
    listed, templates, pages, cursor = [], [], 0, None
    while True:
        r = await session.call_tool("list_resources", {"cursor": cursor} if cursor else {})
        check(not r.is_error, f"list_resources page {pages}: {r}")
        sc = r.structured_content
        check(json.loads(r.content[0].text) == sc, "the text block holds the structured content")
        listed += [x["uri"] for x in sc["resources"]]
        templates += [x["uriTemplate"] for x in sc["resourceTemplates"]]
        pages += 1
        cursor = sc.get("nextCursor")
        if not cursor:
            break
    check(len(listed) == 124 and len(set(listed)) == 124, f"{len(listed)} resources listed")
    check(templates == ["doc://files/{name}", "doc://many/{n}", "doc://projects/{project}/files/{file}"], f"templates {templates}")
    check(pages == 4, f"{pages} pages")
    r = await session.call_tool("list_resources", {"cursor": "forged"})
    check(r.is_error and r.content[0].text == "Invalid cursor", f"forged cursor {r}")


anyio.run(main)
