// End-to-end check of the Go example server (bindings/go/mcpsdk/example)
// with an older official TypeScript MCP client still in use:
// @modelcontextprotocol/sdk 1.12.3 (pinned in package.json beside this
// file, installed into its own node_modules), whose newest protocol
// revision is 2025-03-26.
//
// Usage: node node_client.mjs SERVER_BINARY REVISION   (2025-03-26 or 2024-11-05)
//
// The client offers 2025-03-26 in initialize. For 2024-11-05, which it
// also supports (SUPPORTED_PROTOCOL_VERSIONS), its initialize request is
// given 2024-11-05 on the way out (a wrapper around its stdio transport);
// it then accepts the server's answer itself. The checks are the ones every
// TypeScript client runs (../go-example/node_checks.mjs), asserting on the
// client's own parsed objects. Exits non-zero on the first failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CompleteResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  McpError,
  ReadResourceResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { runChecks } from '../go-example/node_checks.mjs';

const [server, revision] = process.argv.slice(2);
if (!SUPPORTED_PROTOCOL_VERSIONS.includes(revision)) throw new Error(`sdk 1.12.3 does not support ${revision}`);

const transport = new StdioClientTransport({ command: server, args: [] });
const send = transport.send.bind(transport);
transport.send = (message, options) => {
  if (message.method === 'initialize') message = { ...message, params: { ...message.params, protocolVersion: revision } };
  return send(message, options);
};
const client = new Client({ name: 'mcp-resources-e2e-legacy', version: '1.0.0' }, { capabilities: {} });
await client.connect(transport);
const call = (method, params, schema, options) => client.request({ method, params }, schema, options);

await runChecks({
  label: 'node sdk 1.12.3',
  revision,
  stateless: false,
  caps: client.getServerCapabilities(),
  list: (params) => call('resources/list', params, ListResourcesResultSchema),
  listTemplates: (params) => call('resources/templates/list', params, ListResourceTemplatesResultSchema),
  read: (uri, options) => call('resources/read', { uri }, ReadResourceResultSchema, options),
  complete: (params) => call('completion/complete', params, CompleteResultSchema),
  isProtocolError: (e) => e instanceof McpError,
  notFound: (e) => e.code === -32002,
  notFoundCode: -32002,
  keepsResultType: true,
  // the client's own tool methods
  listTools: () => client.listTools({}),
  callTool: (name, args) => client.callTool({ name, arguments: args }),
});

await client.close();
console.log(`node client sdk 1.12.3, ${revision}: all checks passed`);
