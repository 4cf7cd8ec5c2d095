/**
 * A catalog per caller (`visibleTo`), over real HTTP on loopback: two callers see different lists,
 * a hidden entry answers byte for byte as an unknown one and never runs, a throwing predicate
 * hides (logged once), cursors stay in their view, `cacheScope` follows `visibleTo`, a listen
 * stream hears only its own view's changes, and a 2025 session sees the filtered list.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, definePrompt, defineResource, defineResourceTemplate, defineTool, visibleWhen } from '../../src/index.js';
import type { AuthInfo, HttpListener, McpServer, ServerOptions } from '../../src/index.js';
import { createMemoryStore } from '../../src/server/store/memory-store.js';
import { post } from '../conformance/wire-client.js';
import { META, rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { bodyMessages } from '../support/sse-events.js';

type Json = Record<string, unknown>;

const TOKENS: Record<string, AuthInfo> = {
  alice: { subject: 'alice', scopes: ['ops'], extra: { tenant: 'acme' } },
  bob: { subject: 'bob', scopes: [], extra: { tenant: 'globex' } },
};
const authorize: ServerOptions['authorize'] = ({ bearerToken }) => (bearerToken === undefined ? { scopes: [] } : TOKENS[bearerToken] ?? null);
const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

const ran: string[] = [];
const state = { bobSeesBeta: false };
const logs: string[] = [];
const logger = { error: (message: string) => void logs.push(message) };

const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => 'pong' });
const acmeOnly = defineTool({
  name: 'acme-report', inputSchema: { type: 'object' },
  visibleTo: (viewer) => viewer.tenant === 'acme',
  check: () => { ran.push('check'); return []; },
  run: () => { ran.push('run'); return 'secret'; },
});
const broken = defineTool({ name: 'broken-gate', inputSchema: { type: 'object' }, visibleTo: () => { throw new Error('predicate bug'); }, run: () => { ran.push('broken'); return 'x'; } });
const beta = defineTool({ name: 'beta', inputSchema: { type: 'object' }, visibleTo: (v) => v.auth?.subject === 'alice' || (v.auth?.subject === 'bob' && state.bobSeesBeta), run: () => 'b' });
const wipe = defineTool({
  name: 'wipe', annotations: { destructiveHint: true }, inputSchema: { type: 'object' },
  visibleTo: visibleWhen({ risk: { annotations: { destructiveHint: true }, destructive: 'ops' } }), run: () => 'wiped',
});
const publicDoc = defineResource({ uri: 'doc://public', name: 'public', read: () => 'hello' });
const acmeDoc = defineResource({ uri: 'doc://acme', name: 'acme', visibleTo: (v) => v.tenant === 'acme', read: () => { ran.push('read'); return 'acme data'; } });
const acmeTemplate = defineResourceTemplate({ uriTemplate: 'acme://{id}', name: 'acme-items', visibleTo: (v) => v.tenant === 'acme', complete: { id: () => ['1'] }, read: (uri) => { ran.push('template'); return uri; } });
const greet = definePrompt({ name: 'greet', get: () => [] });
const acmePrompt = definePrompt({ name: 'acme-brief', arguments: [{ name: 'topic', complete: () => ['x'] }], visibleTo: (v) => v.tenant === 'acme', get: () => { ran.push('prompt'); return []; } });

function serverOptions(tools: ServerOptions['tools'], extra: Partial<ServerOptions> = {}): ServerOptions {
  return {
    name: 'views', version: '1.0.0', tools, authorize, logger, store: createMemoryStore(),
    resources: [publicDoc, acmeDoc, acmeTemplate], prompts: [greet, acmePrompt], listChanged: ['tools'], ...extra,
  };
}

let server: McpServer;
let listener: HttpListener;
/** The same server without any gated entry: what "unknown" looks like. */
let plain: McpServer;
let plainListener: HttpListener;

before(async () => {
  server = createServer(serverOptions([ping, acmeOnly, broken, beta, wipe]));
  listener = await server.listen({ port: 0 });
  plain = createServer(serverOptions([ping], { resources: [publicDoc], prompts: [greet] }));
  plainListener = await plain.listen({ port: 0 });
});
after(async () => {
  await server.close();
  await plain.close();
});

async function call(url: string, token: string, method: string, params: Json, id: number | string = 1): Promise<{ status: number; text: string; body: Json }> {
  const res = await post(url, rpc(method, params, id), as(token));
  return { status: res.status, text: res.text, body: res.body as Json };
}

const names = (result: Json, field: string, key = 'name'): string[] => (result[field] as Json[]).map((d) => d[key] as string);

describe('two callers, two catalogs', () => {
  it('tools/list differs per caller, is private, and omits a tool whose predicate throws', async () => {
    const alice = (await call(listener.url, 'alice', 'tools/list', {})).body.result as Json;
    const bob = (await call(listener.url, 'bob', 'tools/list', {})).body.result as Json;
    assert.deepEqual(names(alice, 'tools'), ['ping', 'acme-report', 'beta', 'wipe']);
    assert.deepEqual(names(bob, 'tools'), ['ping']);
    assert.equal(alice.cacheScope, 'private');
    assert.equal(bob.cacheScope, 'private');
    assert.equal(logs.filter((l) => l.includes('broken-gate')).length, 1, 'a throwing predicate is logged once per entry, however often it runs');
    assert.match(logs.find((l) => l.includes('broken-gate')) ?? '', /visibleTo of tool broken-gate threw; the entry is hidden/);
  });

  it('resources, templates and prompts lists differ per caller too', async () => {
    const list = async (token: string, method: string) => (await call(listener.url, token, method, {})).body.result as Json;
    assert.deepEqual(names(await list('alice', 'resources/list'), 'resources', 'uri'), ['doc://public', 'doc://acme']);
    assert.deepEqual(names(await list('bob', 'resources/list'), 'resources', 'uri'), ['doc://public']);
    assert.deepEqual(names(await list('alice', 'resources/templates/list'), 'resourceTemplates', 'uriTemplate'), ['acme://{id}']);
    assert.deepEqual(names(await list('bob', 'resources/templates/list'), 'resourceTemplates', 'uriTemplate'), []);
    assert.deepEqual(names(await list('alice', 'prompts/list'), 'prompts'), ['greet', 'acme-brief']);
    const bobPrompts = await list('bob', 'prompts/list');
    assert.deepEqual(names(bobPrompts, 'prompts'), ['greet']);
    assert.equal(bobPrompts.cacheScope, 'private');
  });

  it('a server without visibleTo keeps public list pages, the same for everyone', async () => {
    const alice = await call(plainListener.url, 'alice', 'tools/list', {});
    const bob = await call(plainListener.url, 'bob', 'tools/list', {});
    assert.equal((alice.body.result as Json).cacheScope, 'public');
    assert.equal(alice.text, bob.text);
    assert.equal(((await call(plainListener.url, 'bob', 'prompts/list', {})).body.result as Json).cacheScope, 'public');
  });
});

describe('a hidden entry answers as an unknown one', () => {
  it('tools/call of a hidden tool is byte-identical to an unknown name, and nothing of it runs', async () => {
    ran.length = 0;
    for (const name of ['acme-report', 'broken-gate', 'wipe']) {
      const hidden = await post(listener.url, rpc('tools/call', { name, arguments: {} }, 5), as('bob'));
      const unknown = await post(plainListener.url, rpc('tools/call', { name, arguments: {} }, 5), as('bob'));
      assert.equal(hidden.status, unknown.status);
      assert.equal(hidden.text, unknown.text, `${name}: same bytes as an unknown name`);
      assert.equal(hidden.headers.get('content-type'), unknown.headers.get('content-type'));
      assert.equal(hidden.headers.get('www-authenticate'), null);
      assert.deepEqual((hidden.body as Json).error, { code: -32602, message: `Unknown tool: ${name}` });
    }
    // Even a call with bad arguments: find-tool answers before any later stage could.
    const shaped = await post(listener.url, rpc('tools/call', { name: 'acme-report', arguments: 'nope' }, 5), as('bob'));
    const shapedUnknown = await post(plainListener.url, rpc('tools/call', { name: 'acme-report', arguments: 'nope' }, 5), as('bob'));
    assert.equal(shaped.text, shapedUnknown.text);
    assert.deepEqual(ran, []);
    const allowed = await call(listener.url, 'alice', 'tools/call', { name: 'acme-report', arguments: {} });
    assert.equal(((allowed.body.result as Json).content as Json[])[0]?.text, 'secret');
    assert.deepEqual(ran, ['check', 'run']);
  });

  it('resources/read, prompts/get and completion/complete of hidden entries answer as unknown ones', async () => {
    ran.length = 0;
    const pairs: [string, Json][] = [
      ['resources/read', { uri: 'doc://acme' }],
      ['resources/read', { uri: 'acme://42' }],
      ['prompts/get', { name: 'acme-brief' }],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'acme-brief' }, argument: { name: 'topic', value: '' } }],
      ['completion/complete', { ref: { type: 'ref/resource', uri: 'acme://{id}' }, argument: { name: 'id', value: '' } }],
    ];
    for (const [method, params] of pairs) {
      const hidden = await call(listener.url, 'bob', method, params);
      const unknown = await call(plainListener.url, 'bob', method, params);
      assert.equal(hidden.status, unknown.status);
      assert.equal(hidden.text, unknown.text, `${method} ${JSON.stringify(params)}`);
      assert.equal((hidden.body.error as Json).code, -32602);
    }
    assert.deepEqual(ran, []);
    const read = await call(listener.url, 'alice', 'resources/read', { uri: 'doc://acme' });
    assert.equal(((read.body.result as Json).contents as Json[])[0]?.text, 'acme data');
  });
});

describe('cursors stay in their view', () => {
  it('a cursor issued to one view is refused in another and honoured in its own', async () => {
    const paged = createServer(serverOptions([ping, acmeOnly, beta, wipe], { pageSize: 1 }));
    const pagedListener = await paged.listen({ port: 0 });
    try {
      const first = (await call(pagedListener.url, 'alice', 'tools/list', {})).body.result as Json;
      assert.deepEqual(names(first, 'tools'), ['ping']);
      const cursor = first.nextCursor as string;
      assert.equal(typeof cursor, 'string');
      const second = (await call(pagedListener.url, 'alice', 'tools/list', { cursor })).body.result as Json;
      assert.deepEqual(names(second, 'tools'), ['acme-report']);
      const refused = await call(pagedListener.url, 'bob', 'tools/list', { cursor });
      assert.deepEqual(refused.body.error, { code: -32602, message: 'Invalid cursor' });
      const bobFirst = (await call(pagedListener.url, 'bob', 'tools/list', {})).body.result as Json;
      assert.deepEqual(names(bobFirst, 'tools'), ['ping']);
      assert.equal(bobFirst.nextCursor, undefined);
    } finally {
      await paged.close();
    }
  });
});

/** Opens a `subscriptions/listen` stream over HTTP and reads it until `until` says enough (or it ends). */
async function openListen(url: string, token: string, id: string): Promise<{ next(until: (text: string) => boolean): Promise<string> }> {
  const message = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, id, META);
  const response = await fetch(url, { method: 'POST', headers: { ...standardHeaders(message), ...as(token) }, body: JSON.stringify(message), signal: AbortSignal.timeout(10_000) });
  assert.equal(response.status, 200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const next = async (until: (t: string) => boolean): Promise<string> => {
    while (!until(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    return text;
  };
  await next((t) => t.includes('notifications/subscriptions/acknowledged'));
  return { next };
}

describe('listen streams hear their own view only', () => {
  it('notifyListChanged reaches a stream only when its view key changed', async () => {
    const own = createServer(serverOptions([ping, acmeOnly, beta, wipe]));
    const ownListener = await own.listen({ port: 0 });
    try {
      const alice = await openListen(ownListener.url, 'alice', 'A');
      const bob = await openListen(ownListener.url, 'bob', 'B');
      assert.equal(own.notifyListChanged('tools'), 0, 'nothing changed for anyone');
      state.bobSeesBeta = true;
      assert.equal(own.notifyListChanged('tools'), 1, "only bob's view changed");
      const heard = await bob.next((t) => t.includes('notifications/tools/list_changed'));
      assert.match(heard, /"method":"notifications\/tools\/list_changed","params":\{"_meta":\{"io.modelcontextprotocol\/subscriptionId":"B"\}\}/);
      assert.equal(own.notifyListChanged('tools'), 0, 'told once per change');
      assert.deepEqual(names((await call(ownListener.url, 'bob', 'tools/list', {})).body.result as Json, 'tools'), ['ping', 'beta']);
      await own.close();
      assert.doesNotMatch(await alice.next(() => false), /list_changed/);
    } finally {
      state.bobSeesBeta = false;
      await own.close();
    }
  });

  it('a list without visibleTo entries notifies every listener, as before', async () => {
    const own = createServer(serverOptions([ping], { resources: [publicDoc], prompts: [greet] }));
    const ownListener = await own.listen({ port: 0 });
    try {
      const bob = await openListen(ownListener.url, 'bob', 'B');
      assert.equal(own.notifyListChanged('tools'), 1);
      assert.equal(own.notifyListChanged('tools'), 1);
      assert.match(await bob.next((t) => t.split('list_changed').length > 2), /list_changed[\s\S]*list_changed/);
    } finally {
      await own.close();
    }
  });
});

describe('2025 sessions', () => {
  it('a 2025-11-25 session sees its own filtered tools/list and a hidden tool as unknown', async () => {
    const send = async (token: string, body: Json, session?: string): Promise<{ status: number; headers: Headers; body: Json | undefined }> => {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...as(token) };
      if (session !== undefined) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
      const response = await fetch(listener.url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: bodyMessages(text)[0] };
    };
    const open = async (token: string): Promise<string> => {
      const init = await send(token, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      assert.equal(init.status, 200);
      const session = init.headers.get('mcp-session-id') as string;
      assert.equal((await send(token, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status, 202);
      return session;
    };
    const aliceSession = await open('alice');
    const bobSession = await open('bob');
    const aliceList = await send('alice', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, aliceSession);
    const bobList = await send('bob', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, bobSession);
    assert.deepEqual(names(aliceList.body?.result as Json, 'tools'), ['ping', 'acme-report', 'beta', 'wipe']);
    assert.deepEqual(names(bobList.body?.result as Json, 'tools'), ['ping']);
    ran.length = 0;
    const hidden = await send('bob', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'acme-report', arguments: {} } }, bobSession);
    const unknown = await send('bob', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no-such-tool', arguments: {} } }, bobSession);
    assert.deepEqual(hidden.body?.error, { code: -32602, message: 'Unknown tool: acme-report' });
    assert.deepEqual(unknown.body?.error, { code: -32602, message: 'Unknown tool: no-such-tool' });
    assert.deepEqual(ran, []);
    // server.tools stays the full catalog.
    assert.deepEqual(server.tools.map((t) => t.name), ['ping', 'acme-report', 'broken-gate', 'beta', 'wipe']);
  });
});

describe('definitions', () => {
  it('a visibleTo that is not a function is refused at definition', () => {
    assert.throws(() => defineTool({ name: 'x', inputSchema: { type: 'object' }, visibleTo: 'acme' as never, run: () => '' }), /visibleTo must be a function/);
    assert.throws(() => defineResource({ uri: 'a://b', name: 'b', visibleTo: 1 as never, read: () => '' }), /visibleTo must be a function/);
    assert.throws(() => definePrompt({ name: 'p', visibleTo: {} as never, get: () => [] }), /visibleTo must be a function/);
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], tenantOf: 'tenant' as never }), /tenantOf must be a function/);
  });

  it('visibleWhen combines tenant, scope and risk rules (spec defaults: silent annotations count as risky)', () => {
    const viewer = (scopes: string[], tenant?: string) => ({ auth: { scopes }, tenant });
    const rules = visibleWhen({ tenants: ['acme'], scopes: ['read'], risk: { annotations: undefined, destructive: 'admin', openWorld: 'net' } });
    assert.equal(rules(viewer(['read', 'admin', 'net'], 'acme')), true);
    assert.equal(rules(viewer(['read', 'admin', 'net'], 'globex')), false);
    assert.equal(rules(viewer(['read', 'admin'], 'acme')), false);
    assert.equal(rules(viewer(['read', 'admin', 'net'])), false);
    const readOnly = visibleWhen({ risk: { annotations: { readOnlyHint: true, openWorldHint: false }, destructive: 'admin', openWorld: 'net' } });
    assert.equal(readOnly(viewer([])), true);
  });
});
