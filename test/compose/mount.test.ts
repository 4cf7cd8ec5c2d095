/**
 * `createServer({ mount })` over real HTTP on loopback with the project's client: a mounted server's
 * tools and prompts under `<prefix>__`, its resources under their URIs, every call through the FRONT
 * server's pipeline (its authorize and views, its middleware; the mounted server's own middleware
 * never runs) and then the mounted handler; collisions and bad names refused at start naming both
 * sides; an upstream `list_changed` reaching the front's listen streams, bounded in rate.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore, createServer, definePrompt, defineResource, defineTool, MountError } from '../../src/index.js';
import type { AuthInfo, HttpListener, McpServer, Middleware, ServerOptions } from '../../src/index.js';
import { connect } from '../../src/client/index.js';
import { filterTools, rename, transformTools } from '../../src/compose/index.js';
import { META, rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { openEvents } from '../support/sse-events.js';

const TOKENS: Record<string, AuthInfo> = { alice: { subject: 'alice', scopes: ['arm'] }, bob: { subject: 'bob', scopes: [] } };
const authorize: ServerOptions['authorize'] = ({ bearerToken }) => (bearerToken === undefined ? null : TOKENS[bearerToken] ?? null);

const ran: string[] = [];
const seenBy = (who: string): Middleware => ({ name: `seen-by-${who}`, handle: (call, next) => { ran.push(`${who}:${call.tool.name}`); return next(); } });

const status = defineTool({ name: 'status', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, run: (_a, ctx) => { ran.push(`run:${ctx.toolName}`); return 'idle'; } });
const move = defineTool({
  name: 'move', scopes: ['arm'],
  inputSchema: { type: 'object', properties: { x: { type: 'number', maximum: 10 } }, required: ['x'], additionalProperties: false } as const,
  run: ({ x }) => { ran.push(`move:${x}`); return `moved to ${x}`; },
});
const secret = defineTool({ name: 'secret', inputSchema: { type: 'object' }, visibleTo: (v) => v.auth?.subject === 'alice', run: () => { ran.push('secret'); return 's'; } });
const manual = defineResource({ uri: 'arm://manual', name: 'manual', read: () => 'read me' });
const brief = definePrompt({ name: 'brief', get: () => [{ role: 'user', content: { type: 'text', text: 'brief the arm' } }] });

function upstream(extra: Partial<ServerOptions> = {}): McpServer {
  return createServer({
    name: 'arm', version: '1', tools: [status, move, secret], resources: [manual], prompts: [brief],
    authorize: () => ({ scopes: [] }), use: [seenBy('upstream')], store: createMemoryStore(), ...extra,
  });
}

const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => 'pong' });

describe('mount: the front server serves the mounted catalog through its own pipeline', () => {
  let arm: McpServer;
  let front: McpServer;
  let listener: HttpListener;
  before(async () => {
    arm = upstream();
    front = createServer({ name: 'front', version: '1', tools: [ping], authorize, use: [seenBy('front')], store: createMemoryStore(), mount: [{ prefix: 'arm', server: arm }] });
    listener = await front.listen({ port: 0 });
  });
  after(async () => {
    await listener.close();
    await front.close();
    await arm.close();
  });
  const client = (token: string) => connect({ url: listener.url, headers: { authorization: `Bearer ${token}` } }, { onWarning: () => {} });

  it('lists the front tools then the mounted ones under the prefix, each caller its own view', async () => {
    const alice = client('alice');
    const bob = client('bob');
    try {
      assert.deepEqual((await alice.listTools()).tools.map((t) => t.name), ['ping', 'arm__status', 'arm__move', 'arm__secret']);
      assert.deepEqual((await bob.listTools()).tools.map((t) => t.name), ['ping', 'arm__status', 'arm__move']);
      assert.deepEqual(front.tools.map((t) => t.name), ['ping', 'arm__status', 'arm__move', 'arm__secret']);
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it('a call runs the front middleware and the mounted handler, never the mounted server\'s middleware', async () => {
    ran.length = 0;
    const alice = client('alice');
    try {
      const result = await alice.callTool('arm__move', { x: 4 });
      assert.deepEqual(result.content, [{ type: 'text', text: 'moved to 4' }]);
      assert.deepEqual(ran, ['front:arm__move', 'move:4']);
      ran.length = 0;
      await alice.callTool('arm__status', {});
      assert.deepEqual(ran, ['front:arm__status', 'run:arm__status'], 'the handler sees the name it was called by');
    } finally {
      await alice.close();
    }
  });

  it('the front checks the shape, the scopes and the view before the mounted handler runs', async () => {
    ran.length = 0;
    const message = (name: string, args: object, id: number) => rpc('tools/call', { name, arguments: args }, id, META);
    const send = async (token: string, m: Record<string, unknown>) => {
      const response = await fetch(listener.url, { method: 'POST', headers: { ...standardHeaders(m), authorization: `Bearer ${token}` }, body: JSON.stringify(m), signal: AbortSignal.timeout(10_000) });
      return { status: response.status, body: await response.json() as Record<string, any> };
    };
    const tooFar = await send('alice', message('arm__move', { x: 11 }, 1));
    assert.equal(tooFar.body.result.isError, true);
    assert.equal(tooFar.body.result.content[0].text, 'Invalid arguments for tool arm__move:\n/x: expected number <= 10, got number 11');
    const noScope = await send('bob', message('arm__move', { x: 1 }, 2));
    assert.equal(noScope.status, 403);
    const hidden = await send('bob', message('arm__secret', {}, 3));
    assert.equal(hidden.body.error.code, -32602);
    assert.equal(hidden.body.error.message, 'Unknown tool: arm__secret');
    assert.deepEqual(ran.filter((r) => !r.startsWith('front:')), [], 'no mounted handler ran');
  });

  it('serves the mounted prompt under the prefix and the mounted resource under its own URI', async () => {
    const alice = client('alice');
    try {
      const prompts = await alice.request('prompts/list', {});
      assert.deepEqual((prompts.prompts as { name: string }[]).map((p) => p.name), ['arm__brief']);
      const got = await alice.request('prompts/get', { name: 'arm__brief' });
      assert.deepEqual(got.messages, [{ role: 'user', content: { type: 'text', text: 'brief the arm' } }]);
      const read = await alice.request('resources/read', { uri: 'arm://manual' });
      assert.equal((read.contents as { text: string }[])[0]!.text, 'read me');
    } finally {
      await alice.close();
    }
  });
});

describe('mount: refused at start', () => {
  const arm = upstream();
  after(() => arm.close());
  const front = (options: Partial<ServerOptions>) => () => createServer({ name: 'front', version: '1', tools: [], authorize, ...options });

  it('a front tool colliding with a mounted one, naming both', () => {
    const clash = defineTool({ name: 'arm__status', inputSchema: { type: 'object' }, run: () => 'x' });
    assert.throws(front({ tools: [clash], mount: [{ prefix: 'arm', server: arm }] }), {
      name: 'MountError',
      message: 'createServer: tool "arm__status" of mount[0] (prefix "arm", server "arm") collides with the one of this server',
    });
  });

  it('two mounts with one prefix, and a resource URI served twice', () => {
    assert.throws(front({ mount: [{ prefix: 'arm', server: arm }, { prefix: 'arm', server: arm }] }), { message: 'createServer: mount[1]: prefix "arm" is already used by mount[0]' });
    assert.throws(front({ mount: [{ prefix: 'a', server: arm }, { prefix: 'b', server: arm }] }), {
      message: 'createServer: resource "arm://manual" of mount[1] (prefix "b", server "arm") collides with the one of mount[0] (prefix "a", server "arm")',
    });
    assert.throws(front({ resources: [manual], mount: [{ prefix: 'a', server: arm }] }), /resource "arm:\/\/manual" of mount\[0\] .* collides with the one of this server/);
  });

  it('a prompt collision', () => {
    const clash = definePrompt({ name: 'arm__brief', get: () => [] });
    assert.throws(front({ prompts: [clash], mount: [{ prefix: 'arm', server: arm }] }), { message: 'createServer: prompt "arm__brief" of mount[0] (prefix "arm", server "arm") collides with the one of this server' });
  });

  it('bad prefixes, and a name the prefix makes too long', () => {
    for (const prefix of ['', 'a__b', '_a', 'a_', 'a b', 'x'.repeat(65)]) {
      assert.throws(front({ mount: [{ prefix, server: arm }] }), (error: unknown) => error instanceof MountError && error.message.startsWith('createServer: mount[0]: prefix must be 1-64 of [A-Za-z0-9_.-]'), prefix);
    }
    const long = defineTool({ name: 'n'.repeat(100), inputSchema: { type: 'object' }, run: () => 'x' });
    const wide = createServer({ name: 'wide', version: '1', tools: [long] });
    assert.throws(front({ mount: [{ prefix: 'p'.repeat(30), server: wide }] }), {
      message: `createServer: mount[0]: tool "${'n'.repeat(100)}" would be named "${'p'.repeat(30)}__${'n'.repeat(100)}" (132 characters), which breaks the tool-name rule (1 to 128 of A-Z a-z 0-9 _ . -)`,
    });
  });

  it('something that is not a server', () => {
    assert.throws(front({ mount: [{ prefix: 'a', server: {} as McpServer }] }), { message: 'createServer: mount[0]: server must be a Toolwright server (createServer)' });
  });

  it('mounted scopes still need the front to authorize', () => {
    assert.throws(() => createServer({ name: 'front', version: '1', tools: [], mount: [{ prefix: 'arm', server: arm }] }), /tool "arm__move": .*scopes/);
  });
});

describe('mount: transform', () => {
  it('reshapes the mounted tools by their own names before the prefix is put on', () => {
    const arm = upstream();
    const front = createServer({
      name: 'front', version: '1', tools: [], authorize,
      mount: [{ prefix: 'arm', server: arm, transform: (tools) => transformTools(tools, [filterTools({ destructiveHint: true }), rename('status', 'state')]) }],
    });
    assert.deepEqual(front.tools.map((t) => t.name), ['arm__state', 'arm__move', 'arm__secret']);
    void arm.close();
    void front.close();
  });
});

describe('mount: upstream list_changed', () => {
  it('reaches the front\'s listen streams whose view changed; a burst is forwarded once per interval', async () => {
    const state = { bobSeesBeta: false };
    const beta = defineTool({ name: 'beta', inputSchema: { type: 'object' }, visibleTo: (v) => v.auth?.subject === 'alice' || (v.auth?.subject === 'bob' && state.bobSeesBeta), run: () => 'b' });
    const arm = createServer({ name: 'arm', version: '1', tools: [status, beta], authorize: () => ({ scopes: [] }), listChanged: ['tools'], store: createMemoryStore() });
    const front = createServer({ name: 'front', version: '1', tools: [], authorize, store: createMemoryStore(), mount: [{ prefix: 'arm', server: arm, minChangeIntervalMs: 60_000 }] });
    const listener = await front.listen({ port: 0 });
    const forwarded: string[] = [];
    const stopCounting = front.mountable.onListChanged((kind) => forwarded.push(kind));
    try {
      assert.deepEqual(front.mountable.listChanged, ['tools'], 'the front announces what its mounts announce');
      const message = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'L', META);
      const events = await openEvents(listener.url, { method: 'POST', headers: { ...standardHeaders(message), authorization: 'Bearer bob' }, body: message });
      assert.equal((await events.next('the acknowledgement')).data.method, 'notifications/subscriptions/acknowledged');
      state.bobSeesBeta = true;
      for (let i = 0; i < 5; i++) arm.notifyListChanged('tools');
      assert.deepEqual((await events.next('the list change')).data, { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' } } });
      assert.deepEqual(forwarded, ['tools'], 'five upstream changes within the interval: one now, the rest held for its end');
      events.drop();
    } finally {
      stopCounting();
      await listener.close();
      await front.close();
      await arm.close();
    }
    assert.deepEqual(forwarded, ['tools'], 'closing the front drops the held notification');
  });
});
