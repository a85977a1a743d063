// End-to-end check of the Go example server (bindings/go/mcpsdk/example)
// with the official TypeScript MCP client, v1 line (the pinned
// @modelcontextprotocol/sdk).
//
// Usage: node node_client.mjs SERVER_BINARY REVISION   (2025-11-25 or 2026-07-28)
//
// The pinned client negotiates 2025-11-25 with initialize (it offers no
// other 2025 revision). For 2026-07-28 it sends server/discover and every
// request with the stateless per-request _meta (protocol version, client
// capabilities, client info), which the server honours per request. The
// client starts the server with its default, bare environment (no
// LD_LIBRARY_PATH). The checks (node_checks.mjs) assert on the client's own
// parsed objects. Exits non-zero on the first failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CompleteResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  McpError,
  ReadResourceResultSchema,
  ResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { runChecks } from './node_checks.mjs';

const [server, revision] = process.argv.slice(2);
const stateless = revision >= '2026-07-28';
const clientInfo = { name: 'mcp-resources-e2e', version: '1.0.0' };

function withMeta(params = {}) {
  if (!stateless) return params;
  return {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': revision,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': clientInfo,
    },
  };
}

const client = new Client(clientInfo, { capabilities: {} });
await client.connect(new StdioClientTransport({ command: server, args: [] }));
const call = (method, params, schema, options) => client.request({ method, params: withMeta(params) }, schema, options);

// initialize (2025-11-25) or server/discover (2026-07-28)
let caps;
if (stateless) {
  const d = await call('server/discover', {}, ResultSchema);
  if (!Array.isArray(d.supportedVersions) || !d.supportedVersions.includes(revision)) {
    throw new Error(`[node ${revision}] discover ${JSON.stringify(d)}`);
  }
  caps = d.capabilities;
} else {
  if (client.getServerVersion() === undefined) throw new Error(`[node ${revision}] no server info`);
  caps = client.getServerCapabilities();
}

await runChecks({
  label: 'node',
  revision,
  stateless,
  caps,
  list: (params) => call('resources/list', params, ListResourcesResultSchema),
  listTemplates: (params) => call('resources/templates/list', params, ListResourceTemplatesResultSchema),
  read: (uri, options) => call('resources/read', { uri }, ReadResourceResultSchema, options),
  complete: (params) => call('completion/complete', params, CompleteResultSchema),
  isProtocolError: (e) => e instanceof McpError,
  // the wire code: -32002 before 2026-07-28, -32602 from it
  notFound: (e) => e.code === (stateless ? -32602 : -32002),
  notFoundCode: stateless ? -32602 : -32002,
  keepsResultType: true,
  // the client's own methods (callTool validates structured content
  // against the output schema listTools cached), with the per-request _meta
  listTools: () => client.listTools(withMeta({})),
  callTool: (name, args) => client.callTool(withMeta({ name, arguments: args })),
});

await client.close();
console.log(`node client, ${revision}: all checks passed`);
