// End-to-end check of subscriptions with the official TypeScript MCP
// clients: two tenants, alpha and beta, are two sessions of one Go example
// server (run with -control; beta's session reaches it through the
// example's -join relay), each driven by its own client over stdio.
//
// Usage: node node_subscriptions.mjs SERVER_BINARY REVISION TRANSCRIPT LINE
//        LINE: v1 (@modelcontextprotocol/sdk) or v2 (@modelcontextprotocol/client)
//
// 2025-11-25: both lines subscribe with their subscribeResource and receive
// notifications through their notification handlers. 2026-07-28: the v2
// line opens subscriptions/listen with its listen(); the v1 line has no
// listen API, so it sends subscriptions/listen as a raw request (with the
// stateless per-request _meta its other requests carry) and reads the
// acknowledgement through a notification handler of its own schema, the
// lowest level it offers. The same checks as python_subscriptions.py, on
// the clients' own parsed objects; TRANSCRIPT is written by the server and
// validated by check_transcript.py.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

const [server, revision, transcript, line] = process.argv.slice(2);
const stateless = revision >= '2026-07-28';
const label = `node ${line} subscriptions ${revision}`;
const fail = (what) => {
  throw new Error(`[${label}] ${what}`);
};
const check = (cond, what) => {
  if (!cond) fail(what);
};
const sock = join(mkdtempSync(join(tmpdir(), 'mcpr-')), 'tenants.sock');
const META = {
  'io.modelcontextprotocol/protocolVersion': revision,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-resources-e2e', version: '1.0.0' },
};

let v1, v2;
if (line === 'v1') {
  v1 = {
    ...(await import('@modelcontextprotocol/sdk/client/index.js')),
    ...(await import('@modelcontextprotocol/sdk/client/stdio.js')),
    ...(await import('@modelcontextprotocol/sdk/types.js')),
  };
} else {
  v2 = {
    ...(await import('@modelcontextprotocol/client')),
    ...(await import('@modelcontextprotocol/client/stdio')),
  };
}

// One tenant: its client and the events it received, in order.
class Tenant {
  constructor(name) {
    this.name = name;
    this.events = [];
    this.waiters = [];
  }
  push(event) {
    const w = this.waiters.shift();
    if (w) w(event);
    else this.events.push(event);
  }
  next() {
    if (this.events.length) return Promise.resolve(this.events.shift());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`[${label}] ${this.name}: no notification`)), 10000);
      this.waiters.push((e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
  }
  async connect(args) {
    const onUpdated = (n) => this.push(`updated ${n.params.uri}`);
    const onListed = () => this.push('list_changed');
    if (v1) {
      this.client = new v1.Client({ name: this.name, version: '1' }, { capabilities: {} });
      this.client.setNotificationHandler(v1.ResourceUpdatedNotificationSchema, onUpdated);
      this.client.setNotificationHandler(v1.ResourceListChangedNotificationSchema, onListed);
      await this.client.connect(new v1.StdioClientTransport({ command: server, args }));
      if (stateless) {
        const d = await this.call('server/discover', {}, v1.ResultSchema);
        check(d.supportedVersions.includes(revision), `discover ${JSON.stringify(d)}`);
        return d.capabilities;
      }
      return this.client.getServerCapabilities();
    }
    const options = { capabilities: {} };
    if (stateless) options.versionNegotiation = { mode: { pin: revision } };
    else options.supportedProtocolVersions = [revision];
    this.client = new v2.Client({ name: this.name, version: '1' }, options);
    this.client.setNotificationHandler('notifications/resources/updated', onUpdated);
    this.client.setNotificationHandler('notifications/resources/list_changed', onListed);
    await this.client.connect(new v2.StdioClientTransport({ command: server, args }));
    check(this.client.getNegotiatedProtocolVersion() === revision, 'negotiated revision');
    return this.client.getServerCapabilities();
  }
  // v1 on 2026-07-28: every request carries the stateless _meta
  call(method, params, schema, options) {
    return this.client.request({ method, params: stateless ? { ...params, _meta: META } : params }, schema, options);
  }
  async tool(name, args) {
    const r = v1
      ? await this.call('tools/call', { name, arguments: args }, v1.CallToolResultSchema)
      : await this.client.callTool({ name, arguments: args });
    check(!r.isError, `${this.name}: tool ${name} failed`);
  }
  subscribe(uri) {
    return this.client.subscribeResource({ uri });
  }
  // subscriptions/listen: the honored filter
  async listen(filter) {
    if (v2) {
      const s = await this.client.listen(filter);
      this.subscription = s;
      return s.honoredFilter;
    }
    // v1: a raw request whose response comes only when the stream ends,
    // and the acknowledgement through a handler of its own schema
    const acked = new Promise((resolve) => {
      this.client.setNotificationHandler(
        z.object({ method: z.literal('notifications/subscriptions/acknowledged'), params: z.any() }),
        (n) => resolve(n.params),
      );
    });
    this.pending = this.call('subscriptions/listen', { notifications: filter }, v1.ResultSchema, {
      timeout: 600000,
    }).catch(() => {});
    const params = await acked;
    check(typeof params._meta['io.modelcontextprotocol/subscriptionId'] !== 'undefined', 'ack carries the stream id');
    return params.notifications;
  }
}

// A URI the tenant may not see answers exactly like an unregistered one.
async function notFoundLikeUnregistered(t, hidden) {
  const seen = [];
  for (const uri of [hidden, 'doc://missing']) {
    try {
      await t.subscribe(uri);
      fail(`${t.name}: ${uri} was honored`);
    } catch (e) {
      const code = v1 ? e.code : e.code;
      const data = e.data ?? {};
      check(data.uri === uri || e.message.includes(uri), `${uri}: ${code} ${JSON.stringify(data)}`);
      // v2 turns -32002 into its ResourceNotFoundError (code -32602)
      check(code === (v1 ? -32002 : -32602), `${uri}: code ${code}`);
      seen.push(JSON.stringify([code, e.message.replaceAll(uri, 'URI'), { ...data, uri: 'URI' }]));
    }
  }
  check(seen[0] === seen[1], `${hidden} answers differently from an unregistered URI: ${seen}`);
}

async function scenario(alpha, beta) {
  const expect = async (t, want, what) => {
    const got = await t.next();
    check(got === want, `${what}: got ${got}`);
  };
  await alpha.tool('touch', { uri: 'doc://item/001' });
  await expect(alpha, 'updated doc://item/001', 'alpha: the update');
  await expect(beta, 'updated doc://item/001', 'beta: the update');
  await alpha.tool('revoke', { tenant: 'beta', uri: 'doc://item/001' });
  await alpha.tool('touch', { uri: 'doc://item/001' });
  await expect(alpha, 'updated doc://item/001', 'alpha: the second update');
  await alpha.tool('touch', { uri: 'doc://item/002' });
  await expect(beta, 'updated doc://item/002', 'beta was told of a revoked URI');
  await alpha.tool('reload', { tenant: 'alpha', name: 'new' });
  await expect(alpha, 'list_changed', "alpha: its list change");
  await alpha.tool('reload', { tenant: 'beta', name: 'new' });
  await expect(beta, 'list_changed', "beta: its list change (and none of alpha's)");
  await alpha.tool('touch', { uri: 'doc://item/001' });
  await expect(alpha, 'updated doc://item/001', "alpha was told of beta's list change");
}

const alpha = new Tenant('alpha');
const beta = new Tenant('beta');
const caps = await alpha.connect(['-control', '-tenant', 'alpha', '-listen', sock, '-transcript', transcript]);
check(caps.resources?.subscribe && caps.resources?.listChanged, `capability ${JSON.stringify(caps.resources)}`);
await beta.connect(['-join', sock, '-tenant', 'beta']);
if (!stateless) {
  await alpha.subscribe('doc://item/001');
  await beta.subscribe('doc://item/001');
  await beta.subscribe('doc://item/002');
  await notFoundLikeUnregistered(beta, 'doc://secret/x');
  await scenario(alpha, beta);
  await notFoundLikeUnregistered(beta, 'doc://tenant/alpha/new');
} else {
  const a = await alpha.listen({
    resourcesListChanged: true,
    resourceSubscriptions: ['doc://item/001', 'doc://secret/x', 'doc://missing'],
  });
  check(JSON.stringify(a.resourceSubscriptions) === '["doc://item/001"]', `alpha honored ${JSON.stringify(a)}`);
  check(a.resourcesListChanged === true && !a.toolsListChanged, `alpha honored ${JSON.stringify(a)}`);
  const b = await beta.listen({
    resourcesListChanged: true,
    resourceSubscriptions: ['doc://item/001', 'doc://item/002', 'doc://secret/x', 'doc://missing'],
  });
  check(JSON.stringify(b.resourceSubscriptions) === '["doc://item/001","doc://item/002"]', `beta ${JSON.stringify(b)}`);
  await scenario(alpha, beta);
  if (alpha.subscription) await alpha.subscription.close();
  if (beta.subscription) await beta.subscription.close();
}
await beta.client.close();
await alpha.client.close();
console.log(`${label}: all checks passed`);
