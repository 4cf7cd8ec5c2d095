/**
 * The HTTP client's keep-alive pool (src/client/node-fetch.ts) against a server that closes a pooled
 * connection just as the next request is written on it. A request the server closed under before any
 * byte of an answer, on a reused socket, is sent once more on a new socket; a request is never sent
 * again once part of its answer arrived, nor when its socket was new, nor a second time.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { connect } from '../../src/client/index.js';
import type { McpClient } from '../../src/client/index.js';
import { rejectsWith } from './rejects-with.js';
import { startRawServer } from './raw-keep-alive-server.js';
import type { Fate, RawRequest, RawServer } from './raw-keep-alive-server.js';

let server: RawServer;
let client: McpClient;

beforeEach(async () => {
  server = await startRawServer();
  client = connect({ url: server.url }, { onWarning: () => {} });
});

afterEach(async () => {
  await client.close();
  await server.close();
});

/** Each arrival of one request: connection, place on it, fate. */
const arrivals = (id: number): [number, number, Fate][] => server.requests.filter((r) => r.body.id === id).map((r) => [r.connection, r.index, r.fate]);
/** The call whose arguments have `a` = `a`. */
const isCall = (request: Omit<RawRequest, 'fate'>, a: number): boolean => request.body.method === 'tools/call' && request.body.params?.arguments?.a === a;

describe('a pooled connection closed under the next request', () => {
  for (const fate of ['rst', 'fin'] as const) {
    it(`before any answer (${fate === 'rst' ? 'reset' : 'closed'}): the request goes once more on a new socket and is answered once`, async () => {
      server.plan = (request) => (isCall(request, 2) && request.connection === 1 ? fate : 'answer');
      assert.deepEqual((await client.callTool('add', { a: 1, b: 1 })).structuredContent, { sum: 2 });
      const second = await client.callTool('add', { a: 2, b: 5 });
      assert.deepEqual(second.structuredContent, { sum: 7 });
      const resent = server.requests.find((r) => isCall(r, 2))!;
      // Written on the first connection's third request (a reused socket), then on a connection of its own.
      assert.deepEqual(arrivals(resent.body.id as number), [[1, 3, fate], [2, 1, 'answer']]);
      assert.equal(server.connections, 2);
      assert.equal(server.requests.filter((r) => r.body.method === 'tools/call' && r.fate === 'answer').length, 2, 'each call answered once');
    });
  }

  it('the resend never takes another pooled socket (it could be as stale as the first)', async () => {
    server.plan = (request) => (isCall(request, 3) && request.index > 1 ? 'rst' : 'answer');
    // Two calls at once leave two idle sockets in the pool.
    await Promise.all([client.callTool('add', { a: 1, b: 1 }), client.callTool('add', { a: 2, b: 2 })]);
    assert.equal(server.connections, 2);
    assert.deepEqual((await client.callTool('add', { a: 3, b: 4 })).structuredContent, { sum: 7 });
    const resent = server.requests.find((r) => isCall(r, 3))!;
    const seen = arrivals(resent.body.id as number);
    assert.equal(seen.length, 2, `one reset and one answer, got ${JSON.stringify(seen)}`);
    assert.deepEqual(seen[1], [3, 1, 'answer']);
  });

  it('after part of the answer arrived: the call fails and is not sent again', async () => {
    server.plan = (request) => (isCall(request, 2) ? 'partial' : 'answer');
    await client.callTool('add', { a: 1, b: 1 });
    await rejectsWith(client.callTool('add', { a: 2, b: 5 }), { kind: 'transport', method: 'tools/call', message: `cannot reach ${server.url}: ECONNRESET` });
    const cut = server.requests.find((r) => isCall(r, 2))!;
    assert.deepEqual(arrivals(cut.body.id as number), [[1, 3, 'partial']]);
    assert.equal(server.connections, 1);
  });

  it('closed again on the new socket: the call fails after exactly one resend', async () => {
    server.plan = (request) => (isCall(request, 2) ? 'rst' : 'answer');
    await client.callTool('add', { a: 1, b: 1 });
    await rejectsWith(client.callTool('add', { a: 2, b: 5 }), { kind: 'transport', method: 'tools/call', message: `cannot reach ${server.url}: ECONNRESET` });
    const cut = server.requests.find((r) => isCall(r, 2))!;
    assert.deepEqual(arrivals(cut.body.id as number), [[1, 3, 'rst'], [2, 1, 'rst']]);
    assert.equal(server.connections, 2);
  });
});

describe('a new connection closed under its first request', () => {
  it('fails the request without sending it again (the server may have read it)', async () => {
    server.plan = () => 'rst';
    await rejectsWith(client.listTools(), { kind: 'transport', method: 'tools/list', message: `cannot reach ${server.url}: ECONNRESET` });
    assert.deepEqual(server.requests.map((r) => [r.connection, r.index, r.body.method, r.fate]), [[1, 1, 'tools/list', 'rst']]);
    assert.equal(server.connections, 1);
  });
});
