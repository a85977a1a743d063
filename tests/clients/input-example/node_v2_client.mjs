// End-to-end check of input-required reads (docs/BEHAVIOUR.md §18) with the
// official TypeScript MCP client, v2 line (the pinned
// @modelcontextprotocol/client), on 2026-07-28. The v1 line
// (@modelcontextprotocol/sdk 1.32.2) knows no 2026-07-28 and no
// InputRequiredResult; the Python check validates every message against
// the 2026-07-28 JSON Schema instead.
//
// Usage: node node_v2_client.mjs SERVER_BINARY   (the input_stdio example)
//
// The client's own auto-fulfilment driver completes a read whose policy
// asks for consent through its elicitation handler and one whose body read
// asks for the roots through its roots handler; the manual path
// (allowInputRequired) hands back the parsed InputRequiredResult, whose
// tampered state is -32602. Hidden and unregistered never reach a handler.
// Every check asserts on the client's parsed objects. Exits non-zero on the
// first failure.
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [server] = process.argv.slice(2);
const REVISION = '2026-07-28';
const ROOT = 'file:///srv/projects/alpha';
const fail = (what) => {
  throw new Error(`[node v2 ${REVISION}, input-required reads] ${what}`);
};
const calls = { elicit: [], roots: 0 };

async function connect(capabilities, answer) {
  const client = new Client(
    { name: 'mcp-resources-input-e2e', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: REVISION } } },
  );
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      calls.elicit.push(request.params);
      return answer;
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler('roots/list', async () => {
      calls.roots += 1;
      return { roots: [{ uri: ROOT, name: 'alpha' }] };
    });
  }
  await client.connect(new StdioClientTransport({ command: server, args: [] }));
  if (client.getNegotiatedProtocolVersion() !== REVISION) fail(`negotiated ${client.getNegotiatedProtocolVersion()}`);
  return client;
}

async function expectError(promise, code, what) {
  try {
    await promise;
  } catch (e) {
    if (!ProtocolError.isInstance(e) && e.code === undefined) fail(`${what}: ${e}`);
    if (e.code !== code) fail(`${what}: code ${e.code}, want ${code} (${e.message})`);
    return e;
  }
  fail(`${what}: no error`);
}

const accept = { action: 'accept', content: { confirm: true } };
const c = await connect({ elicitation: {}, roots: {} }, accept);

let r = await c.readResource({ uri: 'doc://consent' });
if (r.contents[0].text !== 'consented body') fail(`consent read ${JSON.stringify(r)}`);
if (calls.elicit.length !== 1 || calls.elicit[0].message !== 'Read the sensitive document?') {
  fail(`elicitations ${JSON.stringify(calls.elicit)}`);
}
if (!calls.elicit[0].requestedSchema.properties.confirm) fail(`schema ${JSON.stringify(calls.elicit[0])}`);
// The retried result must not be cached.
if (r.ttlMs !== 0 || r.cacheScope !== 'private') fail(`retried cache hints ${r.ttlMs} ${r.cacheScope}`);

r = await c.readResource({ uri: 'doc://roots' });
if (calls.roots !== 1 || !r.contents[0].text.includes(ROOT)) fail(`roots read ${JSON.stringify(r)}`);

r = await c.readResource({ uri: 'doc://plain' });
if (r.contents[0].text !== 'plain body' || calls.elicit.length !== 1 || calls.roots !== 1) fail('a plain read asked');

for (const uri of ['doc://hidden', 'doc://nowhere']) {
  await expectError(c.readResource({ uri }), -32602, uri);
}
if (calls.elicit.length !== 1) fail('a hidden read asked');

// The manual path: the parsed InputRequiredResult, then a tampered state.
const first = await c.readResource({ uri: 'doc://consent' }, { allowInputRequired: true });
if (first.resultType !== 'input_required' || first.inputRequests?.consent?.method !== 'elicitation/create') {
  fail(`first round ${JSON.stringify(first)}`);
}
const state = first.requestState;
if (typeof state !== 'string' || state.length < 40) fail(`state ${state}`);
const tampered = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
const inputResponses = { consent: accept };
let e = await expectError(
  c.request({ method: 'resources/read', params: { uri: 'doc://consent', inputResponses, requestState: tampered } }),
  -32602,
  'tampered state',
);
if (!e.message.includes('Invalid request state')) fail(`tampered: ${e.message}`);
const done = await c.request({ method: 'resources/read', params: { uri: 'doc://consent', inputResponses, requestState: state } });
if (done.contents?.[0]?.text !== 'consented body') fail(`manual retry ${JSON.stringify(done)}`);
await c.close();

const declining = await connect({ elicitation: {} }, { action: 'decline' });
await expectError(declining.readResource({ uri: 'doc://consent' }), -32602, 'declined');
await declining.close();

const bare = await connect({}, undefined);
e = await expectError(bare.readResource({ uri: 'doc://consent' }), -32021, 'no elicitation declared');
await bare.close();
console.log('node v2: input-required reads OK');
