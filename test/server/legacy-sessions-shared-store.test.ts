/**
 * Legacy 2025 sessions on THE store: three servers in one process sharing one memory store behave
 * as one deployment (any instance serves any session, notifications reach the stream wherever it
 * is held, DELETE ends it everywhere), while servers on their own default stores know only their
 * own sessions. The same scenario runs with real processes and Redis in scaleout.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore, createServer } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { scaleoutServer } from '../fixtures/servers/scaleout-server.js';
import { legacySessionAcrossInstances } from '../support/legacy-across-instances.js';
import type { Endpoint } from '../support/legacy-across-instances.js';
import { exchange, openSession } from '../support/legacy-session-client.js';

async function start(servers: McpServer[]): Promise<HttpListener[]> {
  return Promise.all(servers.map((s) => s.listen({ port: 0, host: '127.0.0.1' })));
}

describe('three servers on one shared store', () => {
  const store = createMemoryStore();
  const servers = ['i1', 'i2', 'i3'].map((instance) => scaleoutServer({ instance, store }));
  let endpoints: Endpoint[];
  before(async () => {
    endpoints = (await start(servers)).map((l, i) => ({ url: l.url, name: `i${i + 1}` }));
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  it('serve one legacy session together: opened on one, calls and the GET stream on others, DELETE ends it everywhere', async () => {
    await legacySessionAcrossInstances(endpoints as [Endpoint, Endpoint, Endpoint]);
  });

  it('a stream claim lapses with its stream: once closed on one instance, the GET stream opens on another', async () => {
    const [a, b] = endpoints as [Endpoint, Endpoint];
    const session = await openSession(a.url);
    const controller = new AbortController();
    const first = await fetch(a.url, { method: 'GET', headers: { accept: 'text/event-stream', ...session.headers }, signal: controller.signal });
    assert.equal(first.status, 200);
    const conflict = await exchange(b.url, undefined, session.headers, { method: 'GET', accept: 'text/event-stream' });
    assert.equal(conflict.status, 409);
    controller.abort();
    // The release is written when the server sees the stream close: retry (bounded) until b may take it.
    let status = 409;
    for (let i = 0; i < 200 && status === 409; i++) {
      const retry = await fetch(b.url, { method: 'GET', headers: { accept: 'text/event-stream', ...session.headers }, signal: AbortSignal.timeout(5000) });
      status = retry.status;
      await retry.body?.cancel();
      if (status === 409) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(status, 200);
    assert.equal((await exchange(b.url, undefined, session.headers, { method: 'DELETE' })).status, 200);
  });
});

describe('servers on their own default stores', () => {
  const tools: never[] = [];
  const servers = [createServer({ name: 'alone-1', version: '1', tools }), createServer({ name: 'alone-2', version: '1', tools })];
  let listeners: HttpListener[];
  before(async () => {
    listeners = await start(servers);
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  it('each serves its own sessions; the other answers 404 (sharing needs a shared store)', async () => {
    const [one, two] = listeners as [HttpListener, HttpListener];
    const session = await openSession(one.url);
    assert.deepEqual((await exchange(one.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, session.headers)).messages[0], { jsonrpc: '2.0', id: 1, result: {} });
    const elsewhere = await exchange(two.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, session.headers);
    assert.equal(elsewhere.status, 404);
    assert.equal((await exchange(one.url, undefined, session.headers, { method: 'DELETE' })).status, 200);
  });

  it('the removed legacy.store option is refused by name', () => {
    assert.throws(() => createServer({ name: 'x', version: '1', tools: [], legacy: { store: {} } as never }), {
      name: 'TypeError',
      message: "createServer: legacy.store is gone; legacy sessions live in the server's store (createServer({ store }))",
    });
  });
});
