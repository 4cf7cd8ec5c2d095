/**
 * Resources, prompts, completion and subscriptions as server options: definition errors, handler
 * failures (-32603, never the handler's internals), unadvertised features (-32601/404) and the end
 * of a subscription at shutdown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer, definePrompt, defineResource, defineResourceTemplate, defineTool, elicitInput, text } from '../../src/index.js';
import type { McpServer, ServerLogger } from '../../src/index.js';
import { META, rpc } from '../fixtures/servers/raw-http.js';
import { post } from '../conformance/wire-client.js';

type Json = Record<string, unknown>;

async function send(server: McpServer, message: Json, notifications: Json[] = [], signal = new AbortController().signal): Promise<{ status: number; body: Json }> {
  const reply = await server.handleMessage({
    body: JSON.stringify(message),
    transport: 'stdio',
    header: undefined,
    signal,
    isAborted: () => signal.aborted,
    notify: (n) => notifications.push(n as unknown as Json),
  });
  return { status: reply.status, body: JSON.parse(reply.body ?? 'null') as Json };
}

function quietLogger(): ServerLogger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, error: (message, detail) => lines.push(`${message} ${JSON.stringify(detail)}`) };
}

const ping = defineTool({ name: 'ping', description: 'Replies pong.', inputSchema: { type: 'object' }, run: () => 'pong' });

describe('definition errors', () => {
  it('define* helpers refuse malformed definitions with a message naming the problem', () => {
    assert.throws(() => defineResource({ uri: 'relative/path', name: 'x', read: () => '' }), /absolute URI/);
    assert.throws(() => defineResource({ uri: 'test://a', name: '', read: () => '' }), /name/);
    assert.throws(() => defineResource({ uri: 'test://a', name: 'a', ttlMs: -1, read: () => '' }), /ttlMs/);
    assert.throws(() => defineResourceTemplate({ uriTemplate: 'test://{id}', name: 't', complete: { other: () => [] }, read: () => '' }), /names no template variable/);
    assert.throws(() => definePrompt({ name: 'bad name', get: () => [] }), /name must be/);
    assert.throws(() => definePrompt({ name: 'p', arguments: [{ name: 'a' }, { name: 'a' }], get: () => [] }), /declared twice/);
  });

  it('createServer refuses duplicates, foreign objects and unknown listChanged kinds', () => {
    const a = defineResource({ uri: 'test://a', name: 'a', read: () => '' });
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], resources: [a, a] }), /defined twice/);
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], resources: [{ uri: 'test://a' } as never] }), /not made by defineResource/);
    const p = definePrompt({ name: 'p', get: () => [] });
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], prompts: [p, p] }), /defined twice/);
    assert.throws(() => createServer({ name: 's', version: '1', tools: [], listChanged: ['widgets' as never] }), /listChanged entries/);
  });
});

describe('unadvertised features', () => {
  it('without resources or prompts options those methods are -32601 (HTTP 404) and not declared', async () => {
    const server = createServer({ name: 's', version: '1', tools: [ping] });
    const listener = await server.listen({ port: 0 });
    try {
      for (const method of ['resources/list', 'resources/read', 'prompts/list', 'prompts/get', 'completion/complete']) {
        const res = await post(listener.url, rpc(method, method === 'resources/read' ? { uri: 'test://a' } : {}));
        assert.equal(res.status, 404, method);
        assert.equal((res.body?.error as Json).code, -32601);
      }
      const discover = await post(listener.url, rpc('server/discover'));
      assert.deepEqual((discover.body?.result as Json).capabilities, { tools: {}, logging: {} });
    } finally {
      await server.close();
    }
  });
});

describe('handler failures', () => {
  it('a throwing read, prompt or completer is -32603 with a generic message; details go to the logger only', async () => {
    const logger = quietLogger();
    const server = createServer({
      name: 's', version: '1', tools: [], logger,
      resources: [defineResource({ uri: 'test://boom', name: 'boom', read: () => { throw new Error('secret path /etc/x'); } })],
      prompts: [
        definePrompt({ name: 'boom', get: () => { throw new Error('secret prompt'); } }),
        definePrompt({ name: 'bad', get: () => [{ role: 'system', content: text('x') }] as never }),
        definePrompt({ name: 'completes', arguments: [{ name: 'a', complete: () => { throw new Error('secret completer'); } }], get: () => [] }),
      ],
    });
    const cases: Array<[Json, RegExp]> = [
      [rpc('resources/read', { uri: 'test://boom' }), /reading test:\/\/boom failed/],
      [rpc('prompts/get', { name: 'boom' }), /prompt boom failed/],
      [rpc('prompts/get', { name: 'bad' }), /malformed messages/],
      [rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'completes' }, argument: { name: 'a', value: '' } }), /completion of a failed/],
    ];
    for (const [message, pattern] of cases) {
      const { status, body } = await send(server, message);
      assert.equal(status, 500);
      const error = body.error as { code: number; message: string };
      assert.equal(error.code, -32603);
      assert.match(error.message, pattern);
      assert.doesNotMatch(error.message, /secret/);
    }
    assert.equal(logger.lines.length, 4);
    assert.match(logger.lines.join('\n'), /secret path/);
  });

  it('a read returning unusable contents is -32603; a template read returning undefined is not found', async () => {
    const logger = quietLogger();
    const server = createServer({
      name: 's', version: '1', tools: [], logger,
      resources: [
        defineResource({ uri: 'test://empty', name: 'empty', read: () => [] }),
        defineResourceTemplate({ uriTemplate: 'test://items/{id}', name: 'items', read: (_uri, { id }) => (id === '1' ? 'one' : undefined) }),
      ],
    });
    assert.equal((await send(server, rpc('resources/read', { uri: 'test://empty' }))).status, 500);
    const missing = await send(server, rpc('resources/read', { uri: 'test://items/2' }));
    assert.deepEqual(missing.body.error, { code: -32602, message: 'Resource not found: test://items/2', data: { uri: 'test://items/2' } });
    const found = await send(server, rpc('resources/read', { uri: 'test://items/1' }));
    assert.deepEqual((found.body.result as Json).contents, [{ uri: 'test://items/1', text: 'one' }]);
  });

  it('an unknown list cursor is -32602 Invalid cursor', async () => {
    const server = createServer({ name: 's', version: '1', tools: [], prompts: [definePrompt({ name: 'p', get: () => [] })] });
    const { body } = await send(server, rpc('prompts/list', { cursor: 'abc' }));
    assert.deepEqual(body.error, { code: -32602, message: 'Invalid cursor' });
  });
});

describe('subscriptions at shutdown', () => {
  it('server.close() ends an open listen with a complete result tagged with its subscriptionId', async () => {
    const server = createServer({ name: 's', version: '1', tools: [ping], listChanged: ['tools'] });
    const notifications: Json[] = [];
    const pending = send(server, rpc('subscriptions/listen', { notifications: { toolsListChanged: true, promptsListChanged: true } }, 'L1'), notifications);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(notifications, [{
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'L1' } },
    }]);
    assert.equal(server.notifyListChanged('prompts'), 0);
    assert.equal(server.notifyListChanged('tools'), 1);
    await server.close();
    const { status, body } = await pending;
    assert.equal(status, 200);
    assert.equal((body.result as Json).resultType, 'complete');
    assert.equal(((body.result as Json)._meta as Json)['io.modelcontextprotocol/subscriptionId'], 'L1');
    assert.equal(server.notifyListChanged('tools'), 0);
  });

  it('over HTTP the final result reaches the client before the socket closes', async () => {
    const server = createServer({ name: 's', version: '1', tools: [ping], listChanged: ['tools'] });
    const listener = await server.listen({ port: 0 });
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify(rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 7, META)),
      signal: AbortSignal.timeout(5000),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    assert.match(first.value ?? '', /notifications\/subscriptions\/acknowledged/);
    await server.close();
    let rest = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += value;
    }
    assert.match(rest, /"id":7,"result":\{"resultType":"complete","_meta":\{"io.modelcontextprotocol\/subscriptionId":7/);
  });

  it('resource subscriptions: only the named URIs are delivered, only when resourceUpdates is declared', async () => {
    const watched = defineResource({ uri: 'test://watched', name: 'watched', read: () => 'x' });
    const server = createServer({ name: 's', version: '1', tools: [], resources: [watched], resourceUpdates: true });
    const notifications: Json[] = [];
    const pending = send(server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['test://watched', 'test://watched'] } }, 'R'), notifications);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual((notifications[0]?.params as Json).notifications, { resourceSubscriptions: ['test://watched'] });
    assert.equal(server.notifyResourceUpdated('test://other'), 0);
    assert.equal(server.notifyResourceUpdated('test://watched'), 1);
    assert.deepEqual(notifications[1], { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched', _meta: { 'io.modelcontextprotocol/subscriptionId': 'R' } } });
    const bad = await send(server, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: 'test://watched' } }));
    assert.equal((bad.body.error as Json).code, -32602);
    await server.close();
    await pending;
    const quiet = createServer({ name: 's', version: '1', tools: [], resources: [watched] });
    const seen: Json[] = [];
    const held = send(quiet, rpc('subscriptions/listen', { notifications: { resourceSubscriptions: ['test://watched'] } }), seen);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual((seen[0]?.params as Json).notifications, {});
    assert.equal(quiet.notifyResourceUpdated('test://watched'), 0);
    await quiet.close();
    await held;
  });
});

describe('input-required on resources/read', () => {
  const secret = defineResource({
    uri: 'test://secret',
    name: 'secret',
    mimeType: 'text/plain',
    read: (ctx) => {
      const got = ctx.inputs.require({ ok: elicitInput({ message: 'Reveal the secret?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }) }, { requireState: true });
      if (!got.ready) return got.result;
      return got.responses.ok.content?.ok === true ? 'the secret' : 'withheld';
    },
  });
  const server = createServer({ name: 's', version: '1', tools: [], resources: [secret] });
  const caps = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

  it('asks first, then reads with the sealed answer', async () => {
    const first = await send(server, rpc('resources/read', { uri: 'test://secret' }, 1, caps));
    const asked = first.body.result as Json;
    assert.equal(asked.resultType, 'input_required');
    assert.equal('ttlMs' in asked, false);
    const done = await send(server, rpc('resources/read', { uri: 'test://secret', inputResponses: { ok: { action: 'accept', content: { ok: true } } }, requestState: asked.requestState }, 2, caps));
    assert.deepEqual((done.body.result as Json).contents, [{ uri: 'test://secret', mimeType: 'text/plain', text: 'the secret' }]);
  });

  it('without the capability -32021; malformed inputResponses or requestState -32602; a state for another URI -32602', async () => {
    const missing = await send(server, rpc('resources/read', { uri: 'test://secret' }));
    assert.equal(missing.status, 400);
    assert.equal((missing.body.error as Json).code, -32021);
    assert.equal(((await send(server, rpc('resources/read', { uri: 'test://secret', inputResponses: [] }, 3, caps))).body.error as Json).code, -32602);
    assert.equal(((await send(server, rpc('resources/read', { uri: 'test://secret', requestState: 5 }, 4, caps))).body.error as Json).code, -32602);
    const other = defineResource({ uri: 'test://other', name: 'other', read: (ctx) => { const got = ctx.inputs.require({ ok: elicitInput({ message: 'x', requestedSchema: { type: 'object' } }) }); return got.ready ? 'x' : got.result; } });
    const both = createServer({ name: 's', version: '1', tools: [], resources: [secret, other], requestStateSecret: 'k'.repeat(16) });
    const asked = (await send(both, rpc('resources/read', { uri: 'test://other' }, 5, caps))).body.result as Json;
    const stolen = await send(both, rpc('resources/read', { uri: 'test://secret', inputResponses: { ok: { action: 'accept', content: { ok: true } } }, requestState: asked.requestState }, 6, caps));
    assert.match(((stolen.body.error as Json).message as string), /different call/);
  });
});

