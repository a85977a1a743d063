"""End-to-end check of subscriptions with the official Python MCP client
(the pinned `mcp` package): two tenants, alpha and beta, are two sessions
of one Go example server (bindings/go/mcpsdk/example, run with -control;
beta's session reaches it through the example's -join relay), each driven
by its own client over stdio.

Usage: python_subscriptions.py SERVER_BINARY REVISION TRANSCRIPT
       (2025-11-25: resources/subscribe; 2026-07-28: subscriptions/listen)

Checks, on the client's own parsed objects: both tenants receive
notifications/resources/updated for a URI they may see; a URI hidden from
a tenant (another tenant's document, a template the policy hides) is not
honored exactly like an unregistered one; after a revocation the revoked
tenant is never told again; a reload tells only the tenant whose listing
changed. The server writes every message it sends to TRANSCRIPT, which
check_transcript.py validates against the revision's JSON Schema.
"""

import json
import os
import sys
import tempfile

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.subscriptions import ResourcesListChanged, ResourceUpdated, listen
from mcp.shared.exceptions import MCPError

SERVER, REVISION, TRANSCRIPT = sys.argv[1], sys.argv[2], sys.argv[3]
STATELESS = REVISION >= "2026-07-28"
WAIT = 10


def check(cond, what):
    if not cond:
        raise AssertionError(f"[python subscriptions {REVISION}] {what}")


class Tenant:
    """One tenant's session and the events it received, in order."""

    def __init__(self, name):
        self.name = name
        self.send, self.receive = anyio.create_memory_object_stream(100)
        self.session = None

    async def handler(self, message):
        # 2025-11-25: notifications arrive through the message handler (on
        # 2026-07-28 the listen streams' events are taken from the streams)
        if STATELESS:
            return
        if isinstance(message, types.ResourceUpdatedNotification):
            await self.send.send(("updated", str(message.params.uri)))
        elif isinstance(message, types.ResourceListChangedNotification):
            await self.send.send(("list_changed", None))

    async def next_event(self):
        with anyio.fail_after(WAIT):
            return await self.receive.receive()

    async def tool(self, tool_name, **arguments):
        r = await self.session.call_tool(tool_name, arguments)
        check(not r.is_error, f"{self.name}: tool {tool_name} failed: {r}")


async def pump(subscription, tenant):
    """2026-07-28: a listen stream's events, into the tenant's queue."""
    async for event in subscription:
        if isinstance(event, ResourceUpdated):
            await tenant.send.send(("updated", event.uri))
        elif isinstance(event, ResourcesListChanged):
            await tenant.send.send(("list_changed", None))


async def start(session):
    if STATELESS:
        d = await session.discover()
        check(REVISION in d.supported_versions, f"discover {d.supported_versions}")
        return d.capabilities
    r = await session.initialize()
    check(r.protocol_version == REVISION, f"negotiated {r.protocol_version}")
    return r.capabilities


async def not_found_like_unregistered(tenant, hidden_uri):
    """resources/subscribe of a URI the tenant may not see answers exactly
    like one of an unregistered URI (2025-11-25)."""
    seen = []
    for uri in (hidden_uri, "doc://missing"):
        try:
            await tenant.session.subscribe_resource(uri)
            raise AssertionError(f"{tenant.name}: {uri} was honored")
        except MCPError as e:
            check(e.code == -32002 and isinstance(e.data, dict) and e.data.get("uri") == uri, f"{uri}: {e.code} {e.data}")
            seen.append((e.code, e.message.replace(uri, "URI"), json.dumps({**e.data, "uri": "URI"})))
    check(seen[0] == seen[1], f"{hidden_uri} answers differently from an unregistered URI: {seen}")


async def scenario(alpha, beta, tg):
    # updates for a URI both may see
    await alpha.tool("touch", uri="doc://item/001")
    check(await alpha.next_event() == ("updated", "doc://item/001"), "alpha: the update")
    check(await beta.next_event() == ("updated", "doc://item/001"), "beta: the update")
    # beta's read permission is revoked: never told again
    await alpha.tool("revoke", tenant="beta", uri="doc://item/001")
    await alpha.tool("touch", uri="doc://item/001")
    check(await alpha.next_event() == ("updated", "doc://item/001"), "alpha: the second update")
    await alpha.tool("touch", uri="doc://item/002")
    got = await beta.next_event()
    check(got == ("updated", "doc://item/002"), f"beta was told of a revoked URI: {got}")
    # a reload adding alpha's document tells alpha only, and beta's beta only
    await alpha.tool("reload", tenant="alpha", name="new")
    check(await alpha.next_event() == ("list_changed", None), "alpha: its list change")
    await alpha.tool("reload", tenant="beta", name="new")
    check(await beta.next_event() == ("list_changed", None), "beta: its list change (and none of alpha's)")
    await alpha.tool("touch", uri="doc://item/001")
    check(await alpha.next_event() == ("updated", "doc://item/001"), "alpha was told of beta's list change")


async def main():
    sock = os.path.join(tempfile.mkdtemp(), "tenants.sock")
    alpha, beta = Tenant("alpha"), Tenant("beta")
    primary = StdioServerParameters(
        command=SERVER, args=["-control", "-tenant", "alpha", "-listen", sock, "-transcript", TRANSCRIPT]
    )
    joined = StdioServerParameters(command=SERVER, args=["-join", sock, "-tenant", "beta"])
    async with stdio_client(primary) as (ra, wa), ClientSession(ra, wa, message_handler=alpha.handler) as sa:
        alpha.session = sa
        caps = await start(sa)
        check(caps.resources.subscribe and caps.resources.list_changed, f"capability {caps.resources}")
        async with stdio_client(joined) as (rb, wb), ClientSession(rb, wb, message_handler=beta.handler) as sb:
            beta.session = sb
            await start(sb)
            if not STATELESS:
                for t in (alpha, beta):
                    await t.session.subscribe_resource("doc://item/001")
                await beta.session.subscribe_resource("doc://item/002")
                await not_found_like_unregistered(beta, "doc://secret/x")
                async with anyio.create_task_group() as tg:
                    await scenario(alpha, beta, tg)
                    # alpha's new document is another tenant's for beta
                    await not_found_like_unregistered(beta, "doc://tenant/alpha/new")
                    # after unsubscribing, beta is not told of doc://item/002 any more
                    check((await sb.unsubscribe_resource("doc://item/002")) is not None, "unsubscribe")
                    await sb.subscribe_resource("doc://tenant/beta/new")
                    await alpha.tool("touch", uri="doc://item/002")
                    await alpha.tool("touch", uri="doc://tenant/beta/new")
                    got = await beta.next_event()
                    check(got == ("updated", "doc://tenant/beta/new"), f"beta after unsubscribing: {got}")
                print(f"python subscriptions, {REVISION}: all checks passed")
                return
            asked_a = ["doc://item/001", "doc://secret/x", "doc://missing"]
            asked_b = ["doc://item/001", "doc://item/002", "doc://secret/x", "doc://missing"]
            async with listen(sa, resources_list_changed=True, resource_subscriptions=asked_a) as la, listen(
                sb, resources_list_changed=True, resource_subscriptions=asked_b
            ) as lb:
                # hidden and unregistered URIs are left out alike
                check(list(la.honored.resource_subscriptions) == ["doc://item/001"], f"alpha honored {la.honored}")
                check(list(lb.honored.resource_subscriptions) == ["doc://item/001", "doc://item/002"], f"beta {lb.honored}")
                check(la.honored.resources_list_changed and not la.honored.tools_list_changed, f"{la.honored}")
                async with anyio.create_task_group() as tg:
                    tg.start_soon(pump, la, alpha)
                    tg.start_soon(pump, lb, beta)
                    await scenario(alpha, beta, tg)
                    tg.cancel_scope.cancel()
            # a new listen of alpha's document by beta is not honored
            async with listen(sb, resource_subscriptions=["doc://tenant/alpha/new", "doc://tenant/beta/new"]) as l2:
                check(list(l2.honored.resource_subscriptions) == ["doc://tenant/beta/new"], f"beta {l2.honored}")
    print(f"python subscriptions, {REVISION}: all checks passed")


anyio.run(main)
