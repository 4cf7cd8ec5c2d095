/**
 * The 2025-11-25 wire over real HTTP (the HTTP session rules are in legacy-http-sessions.test.ts): sessions, the methods answered per session, translation onto
 * the 2026-07-28 pipeline, and input-required turned into server-to-client requests. Every message
 * the server sends is checked against the official schema of the revision it was sent on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool, elicitInput } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import type { McpRevision } from '../fixtures/servers/wire-schema.js';
import { sseMessages, sseMessagesAsTheyArrive } from '../support/sse-events.js';

type Json = Record<string, unknown>;

const ask = defineTool({
  name: 'ask_name',
  description: 'Asks for a name, then greets.',
  inputSchema: { type: 'object', properties: { greeting: { type: 'string', 'x-mcp-header': 'Greeting' } }, additionalProperties: false } as const,
  run: (args, ctx) => {
    const got = ctx.inputs.require({ who: elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }) });
    if (!got.ready) return got.result;
    return `${args.greeting ?? 'Hello'}, ${String(got.responses.who.content?.name)}!`;
  },
});
const logs = defineTool({
  name: 'logs',
  description: 'Logs at debug and error.',
  inputSchema: { type: 'object' },
  run: (_args, ctx) => {
    ctx.log('debug', 'fine detail');
    ctx.log('error', 'bad thing');
    return 'done';
  },
});

let server: McpServer;
let listener: HttpListener;

before(async () => {
  // legacyWire: true is the deprecated spelling of the default; it must keep working.
  server = createServer({ name: 'legacy', version: '1.0.0', tools: [ask, logs], legacyWire: true, instructions: 'be nice' });
  listener = await server.listen({ port: 0 });
});
after(() => server.close());

interface Exchange { status: number; headers: Headers; messages: Json[] }

async function postRaw(body: Json, headers: Record<string, string> = {}): Promise<Exchange> {
  const response = await fetch(listener.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const sse = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const messages: Json[] = text === '' ? [] : sse ? sseMessages(text) : [JSON.parse(text) as Json];
  // Requests carrying the 2026-07-28 version header are on the modern wire; everything else here is a 2025-11-25 session.
  const revision: McpRevision = headers['mcp-protocol-version'] === '2026-07-28' ? '2026-07-28' : '2025-11-25';
  for (const message of messages) assertServerMessage(message, typeof body.method === 'string' ? body.method : undefined, revision);
  return { status: response.status, headers: response.headers, messages };
}

async function openSession(capabilities: Json = { elicitation: {} }): Promise<Record<string, string>> {
  const res = await postRaw({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '1' } } });
  assert.equal(res.status, 200);
  const sessionId = res.headers.get('mcp-session-id');
  assert.match(sessionId ?? '', /^[\x21-\x7e]+$/);
  const result = res.messages[0]?.result as Json;
  assert.equal(result.protocolVersion, '2025-11-25');
  assert.deepEqual(result.serverInfo, { name: 'legacy', version: '1.0.0' });
  assert.equal(result.instructions, 'be nice');
  assert.deepEqual(result.capabilities, { tools: {}, logging: {} });
  const headers = { 'mcp-session-id': sessionId as string, 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await postRaw({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status, 202);
  return headers;
}

describe('legacy sessions', () => {
  it('initialize opens a session; an unknown version is answered with the newest legacy one', async () => {
    await openSession();
    const res = await postRaw({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {} } });
    assert.equal((res.messages[0]?.result as Json).protocolVersion, '2025-11-25');
  });

  it('requests without a session are 400, with an unknown session 404; malformed initialize is -32602', async () => {
    const noSession = await postRaw({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' });
    assert.equal(noSession.status, 400);
    assert.match(((noSession.messages[0]?.error as Json).message as string), /Mcp-Session-Id header is required/);
    const unknown = await postRaw({ jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': 'nope', 'mcp-protocol-version': '2025-11-25' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.messages[0]?.id, 3);
    const bad = await postRaw({ jsonrpc: '2.0', id: 4, method: 'initialize', params: { capabilities: {} } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.messages[0]?.error, { code: -32602, message: 'Invalid params: initialize needs a string protocolVersion and a capabilities object' });
  });

  it('ping and logging/setLevel answer {}; an unknown level is -32602; modern-only methods are -32601', async () => {
    const headers = await openSession();
    assert.deepEqual((await postRaw({ jsonrpc: '2.0', id: 5, method: 'ping' }, headers)).messages[0], { jsonrpc: '2.0', id: 5, result: {} });
    assert.deepEqual((await postRaw({ jsonrpc: '2.0', id: 6, method: 'logging/setLevel', params: { level: 'error' } }, headers)).messages[0], { jsonrpc: '2.0', id: 6, result: {} });
    assert.equal(((await postRaw({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 'loud' } }, headers)).messages[0]?.error as Json).code, -32602);
    // This server has no resources, so it offers no subscriptions (and did not declare them).
    const subscribe = await postRaw({ jsonrpc: '2.0', id: 81, method: 'resources/subscribe', params: { uri: 'test://x' } }, headers);
    assert.deepEqual(subscribe.messages[0]?.error, { code: -32601, message: 'Method not found: resources/subscribe (this server has no resources)' });
    const discover = await postRaw({ jsonrpc: '2.0', id: 8, method: 'server/discover', params: {} }, headers);
    assert.equal(discover.status, 404);
    assert.equal((discover.messages[0]?.error as Json).code, -32601);
  });

  it('results read as 2025-11-25 (no resultType, ttlMs, cacheScope or serverInfo _meta); the session log level filters logs', async () => {
    const headers = await openSession();
    const list = await postRaw({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }, headers);
    assert.deepEqual(Object.keys(list.messages[0]?.result as Json), ['tools']);
    const all = await postRaw({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'logs', arguments: {} } }, headers);
    assert.deepEqual(all.messages.filter((m) => m.method === 'notifications/message').map((m) => (m.params as Json).level), ['debug', 'error']);
    assert.deepEqual(all.messages.at(-1), { jsonrpc: '2.0', id: 10, result: { content: [{ type: 'text', text: 'done' }] } });
    await postRaw({ jsonrpc: '2.0', id: 11, method: 'logging/setLevel', params: { level: 'error' } }, headers);
    const filtered = await postRaw({ jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'logs', arguments: {} } }, headers);
    assert.deepEqual(filtered.messages.filter((m) => m.method === 'notifications/message').map((m) => (m.params as Json).level), ['error']);
  });
});

describe('input requests on the legacy wire', () => {
  /** Calls ask_name and answers the server's elicitation request with `answer` as soon as it arrives. */
  async function callAnswering(headers: Record<string, string>, answer: (request: Json) => Json, id: number): Promise<{ request: Json | undefined; final: Json | undefined }> {
    const response = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask_name', arguments: { greeting: 'Hi' } } }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const final = (await response.json()) as Json;
      assertServerMessage(final, 'tools/call', '2025-11-25');
      return { request: undefined, final };
    }
    let request: Json | undefined;
    for await (const message of sseMessagesAsTheyArrive(response.body!)) {
      assertServerMessage(message, message.id === id ? 'tools/call' : undefined, '2025-11-25');
      if (message.method === 'elicitation/create') {
        request = message;
        const posted = await postRaw({ jsonrpc: '2.0', id: message.id as string, ...answer(message) }, headers);
        assert.equal(posted.status, 202);
      } else if (message.id === id) return { request, final: message };
    }
    return { request, final: undefined };
  }

  it('the elicitation is sent as a server-to-client request; the answer completes the same call', async () => {
    const headers = await openSession({ elicitation: {} });
    const { request, final } = await callAnswering(headers, () => ({ result: { action: 'accept', content: { name: 'Ada' } } }), 20);
    assert.equal(request?.method, 'elicitation/create');
    assert.equal((request?.params as Json).message, 'Name?');
    assert.deepEqual(final, { jsonrpc: '2.0', id: 20, result: { content: [{ type: 'text', text: 'Hi, Ada!' }] } });
  });

  it('a client error answer ends the call with -32603 naming it', async () => {
    const headers = await openSession({ elicitation: {} });
    const { final } = await callAnswering(headers, () => ({ error: { code: -1, message: 'user closed the dialog' } }), 21);
    assert.equal((final?.error as Json).code, -32603);
    assert.match((final?.error as Json).message as string, /elicitation\/create with error -1: user closed the dialog/);
  });

  it('a session without the elicitation capability gets -32021, never a request', async () => {
    const headers = await openSession({});
    const { request, final } = await callAnswering(headers, () => ({ result: {} }), 22);
    assert.equal(request, undefined);
    assert.equal((final?.error as Json).code, -32021);
  });

  it('modern requests on the same endpoint are unaffected, even with a stray Mcp-Session-Id', async () => {
    for (const extra of [{}, { 'mcp-session-id': 'stale' }] as Record<string, string>[]) {
      const res = await postRaw(
        { jsonrpc: '2.0', id: 30, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', ...extra },
      );
      assert.equal((res.messages[0]?.result as Json).resultType, 'complete');
      assert.equal(res.headers.get('mcp-session-id'), null);
    }
  });

  it("with eras: 'modern', initialize is refused with -32022 naming the supported versions", async () => {
    const modernOnly = createServer({ name: 'm', version: '1', tools: [logs], eras: 'modern' });
    const l = await modernOnly.listen({ port: 0 });
    try {
      const res = await fetch(l.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }) });
      const body = (await res.json()) as Json;
      assert.equal(res.status, 400);
      assert.equal((body.error as Json).code, -32022);
      // A 2025-11-25 client must be able to read the refusal, and it is the official 2026-07-28 UnsupportedProtocolVersionError.
      assertServerMessage(body, 'initialize', '2025-11-25');
      assertServerMessage(body, 'initialize');
    } finally {
      await modernOnly.close();
    }
  });
});
