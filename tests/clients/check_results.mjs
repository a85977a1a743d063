// Checks the library's results and error objects with the official MCP
// TypeScript SDK (@modelcontextprotocol/sdk, pinned in package.json): its zod
// schemas must accept every result and error, and the parsed objects must
// hold what the manifest says.
//
// Usage: node check_results.mjs SAMPLES_DIR (written by `cargo run --example
// protocol_samples -- SAMPLES_DIR`). Prints "N passed, M failed" and exits
// non-zero when anything failed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ReadResourceResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  CompleteResultSchema,
  CallToolResultSchema,
  ListToolsResultSchema,
  JSONRPCErrorResponseSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

const FIELDS = ['resultType', 'ttlMs', 'cacheScope'];
const SCHEMAS = {
  'resources/read': ReadResourceResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
  'completion/complete': CompleteResultSchema,
  'tools/call': CallToolResultSchema,
  'tools/list': ListToolsResultSchema,
};

// A tool result: its blocks in order, isError, resultType exactly on
// 2026-07-28, the structured content of the resource tools.
function checkToolResult(entry, data, result, label) {
  const { revision, expect } = entry;
  check(('resultType' in data) === (revision === '2026-07-28'), `${label}: resultType present iff 2026`);
  check(Boolean(result.isError) === expect.isError, `${label}: isError`);
  check(result.content.length === expect.content.length, `${label}: block count`);
  expect.content.forEach(([kind, what], i) => {
    const got = result.content[i] ?? {};
    check(got.type === kind, `${label}: block ${i} type ${got.type}`);
    if (kind === 'resource') check(got.resource?.uri.startsWith(what), `${label}: embedded ${got.resource?.uri}`);
    else if (kind === 'resource_link') check(got.uri === what && typeof got.name === 'string', `${label}: link ${got.uri}`);
    else if (what !== null) check(got.text === what, `${label}: text`);
  });
  if (expect.structured === 'read_resource') {
    // On the wire: the same objects (the parsed ones follow the SDK's key order).
    const items = data.content.map((b) => b.resource);
    check(JSON.stringify(data.structuredContent.contents) === JSON.stringify(items), `${label}: structured contents`);
    check(result.structuredContent.contents.length === items.length, `${label}: parsed structured contents`);
  } else if (expect.structured === 'list_resources') {
    const sc = result.structuredContent;
    check(JSON.stringify(sc.resources.map((r) => r.uri)) === JSON.stringify(expect.resources), `${label}: listed resources`);
    check(JSON.stringify(sc.resourceTemplates.map((t) => t.uriTemplate)) === JSON.stringify(expect.templates), `${label}: listed templates`);
    check(JSON.stringify(JSON.parse(result.content[0].text)) === JSON.stringify(sc), `${label}: text block`);
  } else {
    check(result.structuredContent === undefined, `${label}: no structured content`);
    if (expect.resources) {
      // Before 2025-06-18: the one text block alone holds the page.
      const page = JSON.parse(result.content[0].text);
      check(JSON.stringify(page.resources.map((r) => r.uri)) === JSON.stringify(expect.resources), `${label}: listed resources (text)`);
      check(JSON.stringify(page.resourceTemplates.map((t) => t.uriTemplate)) === JSON.stringify(expect.templates), `${label}: listed templates (text)`);
      check(('nextCursor' in page) === expect.nextCursor, `${label}: nextCursor (text)`);
    }
  }
}

let passed = 0;
let failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else {
    failed++;
    console.error(`FAIL: ${what}`);
  }
}

function checkResult(entry, data, label) {
  const { revision, method, expect } = entry;
  const modern = revision === '2026-07-28';
  const parsed = SCHEMAS[method].safeParse(data);
  check(parsed.success, `${label}: rejected by the SDK: ${parsed.error}`);
  if (!parsed.success) return;
  const result = parsed.data;
  check(result._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'protocol-samples', `${label}: serverInfo in the result _meta`);
  if (method === 'tools/list') {
    check(JSON.stringify(result.tools.map((t) => t.name)) === JSON.stringify(expect.tools), `${label}: tool names`);
    return;
  }
  if (method === 'tools/call') {
    checkToolResult(entry, data, result, label);
    return;
  }
  if (method === 'completion/complete') {
    // resultType exactly on 2026-07-28; completions never carry cache hints.
    check(('resultType' in data) === modern, `${label}: resultType present iff 2026`);
    check(!('ttlMs' in data) && !('cacheScope' in data), `${label}: no cache hints`);
    const c = result.completion;
    check(JSON.stringify(c.values) === JSON.stringify(expect.values), `${label}: values`);
    check(c.total === expect.total && c.hasMore === expect.hasMore, `${label}: total and hasMore`);
    return;
  }
  check(FIELDS.every((k) => (k in result) === modern), `${label}: 2026 members present iff 2026`);
  if (modern) {
    check(result.resultType === 'complete', `${label}: resultType`);
    check(result.ttlMs === expect.cache.ttlMs, `${label}: ttlMs`);
    check(result.cacheScope === expect.cache.cacheScope, `${label}: cacheScope`);
  }
  if (method === 'resources/read') {
    if (expect.contents) {
      check(result.contents.length === expect.contents.length, `${label}: item count`);
      expect.contents.forEach((want, i) => {
        const got = result.contents[i] ?? {};
        check(got.uri === want.uri && got.mimeType === want.mimeType, `${label}: item ${i}`);
        if ('text' in want) check(got.text === want.text, `${label}: text of ${want.uri}`);
        if ('blob' in want) check(got.blob === want.blob, `${label}: blob of ${want.uri}`);
        // meta null: the revision defines no content _meta (before 2025-06-18)
        if ('meta' in want) check(JSON.stringify(got._meta ?? null) === JSON.stringify(want.meta), `${label}: _meta`);
      });
    }
    if (expect.partial) {
      check(result.contents.length === expect.items, `${label}: partial item count`);
      check(result.contents[0].uri.startsWith('mcp-warning://read/'), `${label}: warning first`);
    }
  } else if (method === 'resources/list') {
    check(JSON.stringify(result.resources.map((r) => r.uri)) === JSON.stringify(expect.uris), `${label}: uris`);
    check((result.nextCursor !== undefined) === expect.nextCursor, `${label}: nextCursor`);
  } else {
    const got = result.resourceTemplates.map((t) => t.uriTemplate);
    check(JSON.stringify(got) === JSON.stringify(expect.templates), `${label}: templates`);
    check((result.nextCursor !== undefined) === expect.nextCursor, `${label}: nextCursor`);
  }
}

function checkError(entry, data, label) {
  const { revision, expect } = entry;
  const parsed = JSONRPCErrorResponseSchema.safeParse({ jsonrpc: '2.0', id: 1, error: data });
  check(parsed.success, `${label}: error rejected by the SDK: ${parsed.error}`);
  if (!parsed.success) return;
  const { code, message, data: extra } = parsed.data.error;
  const err = McpError.fromError(code, message, extra);
  check(err.code === expect.code, `${label}: code ${err.code}`);
  if (expect.message) check(message === expect.message, `${label}: message`);
  if (expect.uri) check(err.data?.uri === expect.uri, `${label}: data.uri`);
  if (revision === '2026-07-28') check(code !== -32002, `${label}: -32002 is forbidden on 2026-07-28`);
}

const dir = process.argv[2];
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
check(manifest.length >= 60, 'manifest lists every sample of every revision');
for (const entry of manifest) {
  const data = JSON.parse(readFileSync(join(dir, entry.file), 'utf8'));
  if (entry.error) checkError(entry, data, entry.file);
  else checkResult(entry, data, entry.file);
}
// Negative control: the SDK refuses a content item without text or blob.
check(!ReadResourceResultSchema.safeParse({ contents: [{ uri: 'x:y' }] }).success, 'negative control');
console.log(`node client checks: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
