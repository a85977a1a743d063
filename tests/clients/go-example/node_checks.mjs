// The end-to-end checks of the Go example server (bindings/go/mcpsdk/example)
// shared by the official TypeScript clients: the v1 line
// (@modelcontextprotocol/sdk, node_client.mjs) and the v2 line
// (@modelcontextprotocol/client, node_v2_client.mjs). Each client script
// connects, then calls runChecks with the calls made through its own API;
// every check asserts on the client's own parsed objects.

// api: { label, revision, stateless, caps (the server's capabilities),
//        list(params), listTemplates(params), read(uri, options),
//        complete(params), isProtocolError(e) (the client's error class),
//        notFound(e) (whether e is the client's resource-not-found error),
//        notFoundCode (its code as the client reports it),
//        keepsResultType (the client leaves resultType in parsed results:
//        the v2 line consumes it on 2026-07-28),
//        listTools(), callTool(name, args) (the client's own tool calls,
//        which validate structured content against the tool's output
//        schema) }.
export async function runChecks(api) {
  const { revision, stateless } = api;
  const check = (cond, what) => {
    if (!cond) throw new Error(`[${api.label} ${revision}] ${what}`);
  };
  const caps = api.caps;
  const stats = async () => JSON.parse((await api.read('doc://stats')).contents[0].text);

  function complete(uri, name, value, context) {
    const params = { ref: { type: 'ref/resource', uri }, argument: { name, value } };
    if (context) params.context = { arguments: context };
    return api.complete(params);
  }

  function cacheFields(result, what) {
    if (stateless) {
      if (api.keepsResultType) check(result.resultType === 'complete', `${what}: resultType ${result.resultType}`);
      check(Number.isInteger(result.ttlMs) && result.ttlMs >= 0, `${what}: ttlMs ${result.ttlMs}`);
      check(result.cacheScope === 'public' || result.cacheScope === 'private', `${what}: cacheScope ${result.cacheScope}`);
    } else {
      for (const k of ['resultType', 'ttlMs', 'cacheScope']) check(!(k in result), `${what}: ${k} on ${revision}`);
    }
  }

  // resultType on 2026-07-28 only; completions never carry cache fields.
  function completionShape(result, what) {
    if (!stateless) check(!('resultType' in result), `${what}: resultType on ${revision}`);
    else if (api.keepsResultType) check(result.resultType === 'complete', `${what}: resultType ${result.resultType}`);
    for (const k of ['ttlMs', 'cacheScope']) check(!(k in result), `${what}: ${k}`);
  }

  async function expectError(promise, code, what) {
    try {
      await promise;
    } catch (e) {
      check(api.isProtocolError(e), `${what}: not the client's protocol error: ${e}`);
      check(e.code === code, `${what}: code ${e.code}, want ${code}`);
      return e;
    }
    throw new Error(`[${api.label} ${revision}] ${what}: no error`);
  }

  check(caps && caps.resources, `resources capability missing: ${JSON.stringify(caps)}`);
  check(!caps.resources.subscribe && !caps.resources.listChanged, `capability ${JSON.stringify(caps.resources)}`);

  // resources/list, following nextCursor to the end
  const uris = [];
  const listed = [];
  const scopes = new Set();
  let cursor;
  let pages = 0;
  for (;;) {
    const page = await api.list(cursor ? { cursor } : {});
    pages++;
    cacheFields(page, `list page ${pages}`);
    if (stateless) scopes.add(page.cacheScope);
    uris.push(...page.resources.map((r) => r.uri));
    listed.push(...page.resources);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  check(pages === 3 && uris.length === 124 && new Set(uris).size === 124, `${uris.length} resources in ${pages} pages`);
  check(uris.includes('doc://item/000') && uris.includes('doc://item/119'), 'items missing from the listing');
  check(scopes.size <= 1, `one cacheScope for every page: ${[...scopes]}`);

  // every revision lists the members it defines, and no other: icons from
  // 2025-11-25 on, title, _meta and annotations.lastModified from 2025-06-18 on
  const full = listed.find((r) => r.uri === 'doc://empty');
  const since0618 = revision >= '2025-06-18';
  const since1125 = revision >= '2025-11-25';
  check(full && full.description === 'an explicitly empty text' && full.size === 0, `doc://empty listed ${JSON.stringify(full)}`);
  check(full.annotations && full.annotations.priority === 0.5 && JSON.stringify(full.annotations.audience) === '["user"]', `annotations ${JSON.stringify(full.annotations)}`);
  check(('icons' in full) === since1125, `icons on ${revision}: ${JSON.stringify(full)}`);
  if (since1125) check(full.icons.length === 1 && full.icons[0].theme === 'light', `icons ${JSON.stringify(full.icons)}`);
  check((full.title === 'Empty') === since0618 && ('title' in full) === since0618, `title on ${revision}: ${JSON.stringify(full)}`);
  check(('_meta' in full) === since0618, `_meta on ${revision}: ${JSON.stringify(full)}`);
  check(('lastModified' in full.annotations) === since0618, `lastModified on ${revision}: ${JSON.stringify(full.annotations)}`);

  // a forged cursor is invalid params, never page one
  await expectError(api.list({ cursor: 'forged' }), -32602, 'forged cursor');

  // resources/templates/list
  const templates = await api.listTemplates({});
  cacheFields(templates, 'templates');
  // sorted by template; doc://secret/{key} is hidden by the policy
  check(
    JSON.stringify(templates.resourceTemplates.map((t) => t.uriTemplate)) ===
      '["doc://files/{name}","doc://many/{n}","doc://projects/{project}/files/{file}"]',
    `templates ${JSON.stringify(templates.resourceTemplates)}`,
  );

  // an exact read
  let r = await api.read('doc://item/007');
  cacheFields(r, 'exact read');
  check(r.contents.length === 1 && r.contents[0].text === 'item 7' && r.contents[0].uri === 'doc://item/007', `exact read ${JSON.stringify(r)}`);

  // a template read
  r = await api.read('doc://files/a.txt');
  check(r.contents[0].text === 'file doc://files/a.txt', `template read ${JSON.stringify(r.contents)}`);

  // completion/complete of a template variable
  check(caps.completions !== undefined, 'completions capability missing');
  let c = await complete('doc://files/{name}', 'name', 'a');
  check(JSON.stringify(c.completion.values) === '["a.txt","alpha.md"]', `completion ${JSON.stringify(c.completion)}`);
  check(c.completion.hasMore === false && !('total' in c.completion), `completion ${JSON.stringify(c.completion)}`);
  completionShape(c, 'completion');

  // two variables: {file} completes from the project in context.arguments
  const projects = 'doc://projects/{project}/files/{file}';
  c = await complete(projects, 'project', '');
  check(JSON.stringify(c.completion.values) === '["alpha","beta"]', `projects ${JSON.stringify(c.completion)}`);
  c = await complete(projects, 'file', 'ma', { project: 'alpha' });
  check(JSON.stringify(c.completion.values) === '["main.go","manual.md"]', `files of alpha ${JSON.stringify(c.completion)}`);
  completionShape(c, 'files of alpha');
  c = await complete(projects, 'file', 'ma', { project: 'beta' });
  check(JSON.stringify(c.completion.values) === '["main.py"]', `files of beta ${JSON.stringify(c.completion)}`);
  c = await complete(projects, 'file', 'ma');
  check(c.completion.values.length === 0 && c.completion.hasMore === false, `files, no project ${JSON.stringify(c.completion)}`);
  // a context value that could not be a capture is invalid params
  await expectError(complete(projects, 'file', '', { project: '../alpha' }), -32602, 'traversal in context');
  // the argument must be one of the template's variables
  await expectError(complete(projects, 'owner', ''), -32602, 'unknown argument');

  // a completer offering 150 values: the first 100 are sent, hasMore, the total offered
  c = await complete('doc://many/{n}', 'n', '');
  const first100 = Array.from({ length: 100 }, (_, i) => `v${String(i).padStart(3, '0')}`);
  check(JSON.stringify(c.completion.values) === JSON.stringify(first100), `many values ${JSON.stringify(c.completion.values)}`);
  check(c.completion.hasMore === true && c.completion.total === 150, `many ${c.completion.total} ${c.completion.hasMore}`);
  completionShape(c, 'many');

  // the hidden template completes exactly like an unregistered one, whatever the argument:
  // the same code, message and data, data.uri being the template URI sent
  const notFound = api.notFoundCode;
  const seen = new Set();
  for (const [uri, arg] of [
    ['doc://nowhere/{key}', 'key'],
    ['doc://secret/{key}', 'key'],
    ['doc://secret/{key}', 'nope'],
  ]) {
    const e = await expectError(complete(uri, arg, ''), notFound, `complete ${uri} ${arg}`);
    check(api.notFound(e), `complete ${uri} ${arg}: not the client's not-found error: ${e}`);
    check(e.data && e.data.uri === uri, `complete ${uri} ${arg}: data ${JSON.stringify(e.data)}`);
    const data = Object.fromEntries(Object.entries({ ...e.data, uri: 'URI' }).sort());
    seen.add(JSON.stringify([e.message.replaceAll(uri, 'URI'), data]));
  }
  check(seen.size === 1, `hidden and unregistered templates answer differently: ${[...seen]}`);
  // reading it is not found too, and its completer never ran
  const he = await expectError(api.read('doc://secret/x'), notFound, 'hidden read');
  check(he.data && he.data.uri === 'doc://secret/x', `hidden read data ${JSON.stringify(he.data)}`);
  check((await stats()).secretCompletions === 0, "the hidden template's completer ran");

  // a partial bundle: the warning first, then the item that was read
  r = await api.read('doc://bundle');
  check(r.contents.length === 2 && r.contents[0].uri.startsWith('mcp-warning:'), `partial bundle ${JSON.stringify(r.contents)}`);
  check(r.contents[1].text === 'bundle head', `bundle item ${JSON.stringify(r.contents[1])}`);
  check(!JSON.stringify(r).includes('storage offline'), 'private cause leaked');
  if (stateless) check(r.ttlMs === 0, 'a partial bundle has ttlMs 0');

  // an explicitly empty text stays a text item
  r = await api.read('doc://empty');
  check(r.contents.length === 1 && r.contents[0].text === '' && !('blob' in r.contents[0]), `empty text ${JSON.stringify(r.contents)}`);
  // content _meta exists from 2025-06-18 on
  check((JSON.stringify(r.contents[0]._meta) === '{"com.example/empty":true}') === since0618 && ('_meta' in r.contents[0]) === since0618, `content _meta on ${revision}: ${JSON.stringify(r.contents[0])}`);

  // not found (on the wire -32002 before 2026-07-28, -32602 from it); data.uri either way
  const e = await expectError(api.read('doc://missing'), notFound, 'not found');
  check(api.notFound(e), `not found: not the client's not-found error: ${e}`);
  check(e.data && e.data.uri === 'doc://missing', `not-found data ${JSON.stringify(e.data)}`);

  // a client-side cancellation reaches the reader; the session goes on
  const before = await stats();
  const abort = new AbortController();
  const slow = api.read('doc://slow', { signal: abort.signal, timeout: 60000 }).then(
    () => 'completed',
    (err) => `rejected: ${err}`,
  );
  const deadline = Date.now() + 30000;
  while ((await stats()).slowStarted <= before.slowStarted) {
    check(Date.now() < deadline, 'the slow reader never started');
    await new Promise((res) => setTimeout(res, 10));
  }
  abort.abort('client cancelled');
  check((await slow).startsWith('rejected'), 'the cancelled read completed');
  while ((await stats()).slowCanceled <= before.slowCanceled) {
    check(Date.now() < deadline, 'the cancellation never reached the reader');
    await new Promise((res) => setTimeout(res, 10));
  }
  r = await api.read('doc://item/001');
  check(r.contents[0].text === 'item 1', 'session unusable after the cancellation');

  await toolChecks(api, check);
}

// Resources in tool results: a host tool returning embedded resources and
// resource links, and the library's resource tools, as the client parses
// (and validates) them.
async function toolChecks(api, check) {
  const { stateless } = api;
  // Structured content and resource_link blocks exist from 2025-06-18 on.
  const structured = api.revision >= '2025-06-18';
  const toolShape = (r, what) => {
    if (!stateless) check(!('resultType' in r), `${what}: resultType before 2026-07-28`);
    else if (api.keepsResultType) check(r.resultType === 'complete', `${what}: resultType ${r.resultType}`);
    check(!('ttlMs' in r) && !('cacheScope' in r), `${what}: cache fields`);
  };
  const tools = Object.fromEntries((await api.listTools()).tools.map((t) => [t.name, t]));
  for (const n of ['fetch', 'read_resource', 'list_resources']) check(tools[n], `tool ${n} not listed`);
  // Each revision's Tool members: annotations from 2025-03-26, title and
  // outputSchema from 2025-06-18 (the library's definitions for the session).
  if (api.revision >= '2025-03-26') check(tools.read_resource.annotations.readOnlyHint === true, 'read_resource is read-only');
  else check(!('annotations' in tools.read_resource), 'read_resource: no annotations on 2024-11-05');
  for (const n of ['read_resource', 'list_resources']) {
    check(('outputSchema' in tools[n]) === structured && ('title' in tools[n]) === structured, `${n}: outputSchema and title iff 2025-06-18 on`);
  }

  // a host tool embedding resources: the reads' items, nothing for the hidden and the missing
  let r = await api.callTool('fetch', { uris: ['doc://item/004', 'doc://secret/x', 'doc://empty', 'doc://nope', 'doc://bundle'] });
  toolShape(r, 'fetch');
  check(!r.isError && r.content.length === 4 && r.content.every((c) => c.type === 'resource'), `fetch ${JSON.stringify(r.content)}`);
  check(r.content[0].resource.uri === 'doc://item/004' && r.content[0].resource.text === 'item 4', 'fetch item');
  check(r.content[1].resource.text === '' && !('blob' in r.content[1].resource), 'fetch empty text');
  check(r.content[2].resource.uri.startsWith('mcp-warning://read/'), 'fetch warning first');
  check(r.content[3].resource.text === 'bundle head', 'fetch bundle item');
  check(!JSON.stringify(r).includes('storage offline'), 'private cause leaked into a tool result');
  const hidden = await api.callTool('fetch', { uris: ['doc://secret/x'] });
  const missing = await api.callTool('fetch', { uris: ['doc://nope'] });
  check(JSON.stringify(hidden.content) === '[]' && JSON.stringify(missing.content) === '[]', 'hidden or missing gave blocks');

  // links from the registered descriptions (before 2025-06-18 the link form
  // is the host's mistake: the example's fetch tool fails)
  if (!structured) {
    let refused = false;
    try {
      r = await api.callTool('fetch', { uris: ['doc://item/005'], links: true });
      refused = r.isError === true;
    } catch (e) {
      refused = api.isProtocolError(e);
    }
    check(refused, `links before 2025-06-18 ${JSON.stringify(r)}`);
  } else {
  r = await api.callTool('fetch', { uris: ['doc://item/005', 'doc://secret/y', 'doc://files/x.txt'], links: true });
  check(r.content.length === 2 && r.content.every((c) => c.type === 'resource_link'), `links ${JSON.stringify(r.content)}`);
  check(r.content[0].uri === 'doc://item/005' && r.content[0].name === 'item-005' && r.content[0].mimeType === 'text/plain', 'link');
  check(r.content[1].uri === 'doc://files/x.txt' && r.content[1].name === 'files', 'template link');
  }

  // read_resource: embedded resources and the same items as structured content
  r = await api.callTool('read_resource', { uri: 'doc://item/006' });
  toolShape(r, 'read_resource');
  check(!r.isError && r.content[0].resource.text === 'item 6', `read_resource ${JSON.stringify(r)}`);
  if (structured) check(r.structuredContent.contents[0].text === 'item 6', 'read_resource structured content');
  else check(r.structuredContent === undefined, 'read_resource: no structured content before 2025-06-18');
  const errors = [];
  for (const uri of ['doc://secret/x', 'doc://nope', 'not a uri']) {
    const e = await api.callTool('read_resource', { uri });
    check(e.isError === true, `read_resource ${uri}: ${JSON.stringify(e)}`);
    errors.push(JSON.stringify(e));
  }
  check(new Set(errors).size === 1, `hidden, unregistered and invalid answer differently: ${errors}`);

  // list_resources: every page, resources then templates
  const listed = [];
  const templates = [];
  let cursor;
  let pages = 0;
  do {
    r = await api.callTool('list_resources', cursor ? { cursor } : {});
    check(!r.isError, `list_resources page ${pages}`);
    // Before 2025-06-18 the text block alone holds the page.
    const sc = structured ? r.structuredContent : JSON.parse(r.content[0].text);
    if (!structured) check(r.structuredContent === undefined, 'list_resources: no structured content before 2025-06-18');
    check(JSON.stringify(JSON.parse(r.content[0].text)) === JSON.stringify(sc), 'text block holds the structured content');
    listed.push(...sc.resources.map((x) => x.uri));
    templates.push(...sc.resourceTemplates.map((x) => x.uriTemplate));
    cursor = sc.nextCursor;
    pages++;
  } while (cursor);
  check(listed.length === 124 && new Set(listed).size === 124, `${listed.length} resources listed`);
  check(JSON.stringify(templates) === JSON.stringify(['doc://files/{name}', 'doc://many/{n}', 'doc://projects/{project}/files/{file}']),
    `templates ${templates}`);
  check(pages === 4, `${pages} pages`);
  r = await api.callTool('list_resources', { cursor: 'forged' });
  check(r.isError && r.content[0].text === 'Invalid cursor', `forged cursor ${JSON.stringify(r)}`);
}
