// End-to-end check of the Go example server (bindings/go/mcpsdk/example)
// with the official TypeScript MCP client, v2 line (the pinned
// @modelcontextprotocol/client).
//
// Usage: node node_v2_client.mjs SERVER_BINARY REVISION
//        (2025-06-18, 2025-11-25 or 2026-07-28)
//
// A 2025 revision is negotiated with the legacy initialize handshake,
// offering only that revision (supportedProtocolVersions); 2026-07-28 is
// pinned (versionNegotiation), so the client discovers the server with
// server/discover and attaches the stateless per-request _meta itself. The
// client starts the server with its default, bare environment. The checks
// (node_checks.mjs) call the client's own methods and assert on its parsed
// objects. Exits non-zero on the first failure.
import { Client, ProtocolError, ResourceNotFoundError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runChecks } from './node_checks.mjs';

const [server, revision] = process.argv.slice(2);
const stateless = revision >= '2026-07-28';
const fail = (what) => {
  throw new Error(`[node v2 ${revision}] ${what}`);
};

const options = { capabilities: {} };
if (stateless) options.versionNegotiation = { mode: { pin: revision } };
else options.supportedProtocolVersions = [revision];
const client = new Client({ name: 'mcp-resources-e2e-v2', version: '1.0.0' }, options);
await client.connect(new StdioClientTransport({ command: server, args: [] }));

if (client.getNegotiatedProtocolVersion() !== revision) {
  fail(`negotiated ${client.getNegotiatedProtocolVersion()}`);
}
if (client.getServerVersion() === undefined) fail('no server info');

await runChecks({
  label: 'node v2',
  revision,
  stateless,
  caps: client.getServerCapabilities(),
  // one page per call (listResources() without a cursor walks every page)
  list: (params) => client.request({ method: 'resources/list', params }),
  listTemplates: (params) => client.request({ method: 'resources/templates/list', params }),
  read: (uri, options) => client.readResource({ uri }, options),
  complete: (params) => client.complete(params),
  isProtocolError: (e) => ProtocolError.isInstance(e),
  // the client turns -32002 (before 2026-07-28) and -32602 with data.uri
  // alike into ResourceNotFoundError, code -32602
  notFound: (e) => ResourceNotFoundError.isInstance(e),
  notFoundCode: -32602,
  // its 2026-07-28 codec consumes resultType (it checks it is "complete")
  keepsResultType: false,
  listTools: () => client.listTools(),
  callTool: (name, args) => client.callTool({ name, arguments: args }),
});

// the client's own aggregation follows every nextCursor
const all = await client.listResources();
const uris = new Set(all.resources.map((r) => r.uri));
if (all.resources.length !== 124 || uris.size !== 124 || all.nextCursor) {
  fail(`aggregated listing: ${all.resources.length} resources, nextCursor ${all.nextCursor}`);
}

await client.close();
console.log(`node v2 client, ${revision}: all checks passed`);
