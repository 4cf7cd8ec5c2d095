/**
 * The era router in front of the pipeline and the 2025 wire: which messages go where (unit, from
 * the classifier), and, over real HTTP, that a 2025 session's request is authenticated once, in
 * front of the wire, with the caller reaching the tool, while a modern request is authenticated by
 * the pipeline alone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { classifyHttp } from '../../src/server/era-router/http.js';
import { createServer, defineTool } from '../../src/index.js';
import type { AuthorizeRequest, McpServer } from '../../src/index.js';
import type { InboundMessage } from '../../src/transport/message-dispatcher.js';
import { post, rpc } from '../fixtures/servers/raw-http.js';
import { exchange } from '../support/legacy-session-client.js';

function message(body: unknown, headers: Record<string, string> | undefined): InboundMessage {
  return {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    transport: 'http',
    header: headers === undefined ? undefined : (name) => headers[name],
    signal: new AbortController().signal,
    isAborted: () => false,
    notify: () => undefined,
  };
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const modernCall = rpc('tools/call', { name: 'who', arguments: {} });
const legacyCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'who', arguments: {} } };

describe('classifyHttp', () => {
  const cases: [string, unknown, Record<string, string> | undefined, 'modern' | 'legacy' | 'reply'][] = [
    ['a message made in process (no headers)', initialize, undefined, 'modern'],
    ['a 2026-07-28 request with its headers', modernCall, { 'mcp-protocol-version': '2026-07-28' }, 'modern'],
    ['a 2026-07-28 header with a stray session id (R-80)', modernCall, { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': 'x' }, 'modern'],
    ['no header, no initialize (the pipeline reports the missing _meta)', legacyCall, {}, 'modern'],
    ['a body that is not JSON', '{nope', { 'mcp-session-id': 'x' }, 'modern'],
    ['initialize without a claim', initialize, {}, 'legacy'],
    ['initialize claiming 2026-07-28 in _meta', { ...initialize, params: { ...initialize.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }, {}, 'modern'],
    ['a request naming a session', legacyCall, { 'mcp-session-id': 'x' }, 'legacy'],
    ['a request naming a 2025 revision', legacyCall, { 'mcp-protocol-version': '2025-06-18' }, 'legacy'],
    ['a 2025 header, but a 2026-07-28 claim in _meta (the pipeline reports the mismatch)', modernCall, { 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': 'x' }, 'modern'],
    ['a batch opening a session', [initialize], {}, 'legacy'],
    ['a batch naming a session', [legacyCall], { 'mcp-session-id': 'x' }, 'legacy'],
    ['a version header naming nothing served, no claim', legacyCall, { 'mcp-protocol-version': '1999-01-01' }, 'reply'],
    ['a version header naming nothing served, with a claim', modernCall, { 'mcp-protocol-version': '1999-01-01' }, 'modern'],
  ];
  for (const [name, body, headers, era] of cases) {
    it(`${name}: ${era}`, () => assert.equal(classifyHttp(message(body, headers), true).era, era));
  }

  it('an unknown version header is refused with -32022 naming every revision served; a notification gets 202', () => {
    const refused = classifyHttp(message(legacyCall, { 'mcp-protocol-version': '1999-01-01' }), true);
    assert.equal(refused.era, 'reply');
    const reply = (refused as { reply: { status: number; body: string } }).reply;
    const error = (JSON.parse(reply.body) as { error: { code: number; data: { supported: string[] } } }).error;
    assert.equal(error.code, -32022);
    assert.deepEqual(error.data.supported, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
    const note = classifyHttp(message({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': '1999-01-01' }), true);
    assert.deepEqual((note as { reply: unknown }).reply, { status: 202, body: undefined });
  });

  it('a server serving 2025 only leaves every other version header to its modern refusal', () => {
    assert.equal(classifyHttp(message(legacyCall, { 'mcp-protocol-version': '1999-01-01' }), false).era, 'modern');
  });

  it('a body parsed for the decision is kept for the pipeline', () => {
    const m = message(legacyCall, {});
    classifyHttp(m, true);
    assert.deepEqual(m.parsed, legacyCall);
  });
});

describe('authentication in front of the 2025 wire, once per request', () => {
  let server: McpServer;
  let url: string;
  const asked: string[] = [];
  const ran: string[] = [];

  before(async () => {
    const who = defineTool({ name: 'who', inputSchema: { type: 'object' }, run: (_a, ctx) => {
      ran.push(`${ctx.auth?.subject}/${ctx.auth?.clientId}`);
      return `hello ${ctx.auth?.subject}`;
    } });
    server = createServer({
      name: 'era', version: '1', tools: [who], logger: { error: () => undefined },
      authorize: (request: AuthorizeRequest) => {
        asked.push(request.bearerToken ?? '-');
        return request.bearerToken === 'good' ? { subject: 'alice', clientId: 'app-1', scopes: [] } : null;
      },
    });
    url = (await server.listen({ port: 0 })).url;
  });
  after(() => server.close());

  it('initialize, a notification and a call each ask the authorizer once; the tool sees the caller', async () => {
    asked.length = 0;
    ran.length = 0;
    const bearer = { authorization: 'Bearer good' };
    const opened = await exchange(url, initialize, bearer);
    assert.equal(opened.status, 200);
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25', ...bearer };
    assert.equal((await exchange(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status, 202);
    const called = await exchange(url, legacyCall, session);
    assert.equal(called.status, 200);
    assert.deepEqual((called.messages[0] as { result: { content: unknown } }).result.content, [{ type: 'text', text: 'hello alice' }]);
    assert.deepEqual(asked, ['good', 'good', 'good']);
    assert.deepEqual(ran, ['alice/app-1']);
    assert.equal((await exchange(url, undefined, session, { method: 'DELETE' })).status, 200);
  });

  it('a refused 2025 call is answered 401 by the front door and nothing runs', async () => {
    const opened = await exchange(url, initialize, { authorization: 'Bearer good' });
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25' };
    asked.length = 0;
    ran.length = 0;
    const refused = await exchange(url, legacyCall, { ...session, authorization: 'Bearer bad' });
    assert.equal(refused.status, 401);
    assert.deepEqual((refused.messages[0] as { error: unknown }).error, { code: -31401, message: 'Unauthorized: a valid bearer token is required' });
    assert.deepEqual(asked, ['bad']);
    assert.deepEqual(ran, []);
  });

  it('a modern call asks the authorizer once, in the pipeline', async () => {
    asked.length = 0;
    ran.length = 0;
    const answered = await post(url, modernCall, { authorization: 'Bearer good' });
    assert.equal(answered.status, 200);
    assert.deepEqual(asked, ['good']);
    assert.deepEqual(ran, ['alice/app-1']);
  });
});
