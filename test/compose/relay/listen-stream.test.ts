/**
 * The relay's GET stream against a real HTTP server on loopback that answers each GET as the test
 * says: a server that keeps failing is tried `maxReconnects` times in a row after the first attempt,
 * then the loop gives up (and says so); 405 (no GET stream offered) and 404 (the session is gone) end
 * it at once; events are delivered as they arrive and a stream that delivered resets the count.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { listen } from '../../../src/compose/relay/listen-stream.js';
import { UpstreamHttp } from '../../../src/compose/relay/upstream-http.js';

describe('relay GET stream: bounded reconnect', () => {
  let server: Server;
  let url: URL;
  let answer: (req: IncomingMessage, res: ServerResponse, attempt: number) => void = () => undefined;
  let attempts = 0;
  before(async () => {
    server = createServer((req, res) => answer(req, res, ++attempts));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  after(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));

  const run = (delivered: string[], logged: string[]) =>
    listen({ http: new UpstreamHttp(url, fetch, 1024 * 1024), headers: () => ({ 'Mcp-Session-Id': 's1' }), deliver: (data) => delivered.push(data), log: (line) => logged.push(line), maxReconnects: 3, reconnectDelayMs: 1 }, new AbortController().signal);

  it('a server that keeps answering 500: the first attempt and 3 more, then it gives up and says so', async () => {
    attempts = 0;
    answer = (_req, res) => res.writeHead(500).end('down');
    const logged: string[] = [];
    assert.equal(await run([], logged), 'gave-up');
    assert.equal(attempts, 4);
    assert.equal(logged.at(-1), 'GET stream: gave up after 3 attempts in a row; it is opened again after the next message that reaches the server');
    assert.equal(logged.filter((line) => line === `GET stream: ${url.href} answered HTTP 500`).length, 4);
  });

  it('405 (no GET stream offered) and 404 (the session is gone) end the loop at once', async () => {
    for (const [status, end] of [[405, 'not-offered'], [404, 'session-gone']] as const) {
      attempts = 0;
      answer = (_req, res) => res.writeHead(status).end();
      assert.equal(await run([], []), end);
      assert.equal(attempts, 1);
    }
  });

  it('events are delivered with the session\'s headers; a stream that delivered resets the count, and Last-Event-ID resumes it', async () => {
    attempts = 0;
    const lastEventIds: (string | undefined)[] = [];
    answer = (req, res, attempt) => {
      lastEventIds.push(req.headers['last-event-id'] as string | undefined);
      assert.equal(req.headers['mcp-session-id'], 's1');
      if (attempt <= 2) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`id: e${attempt}\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"n":${attempt}}}\n\n`);
      } else res.writeHead(503).end();
    };
    const delivered: string[] = [];
    assert.equal(await run(delivered, []), 'gave-up');
    assert.deepEqual(delivered.map((d) => (JSON.parse(d) as { params: { n: number } }).params.n), [1, 2]);
    // Two delivering streams (each resets the count to one), then 503s until three in a row.
    assert.equal(attempts, 2 + 3);
    assert.deepEqual(lastEventIds.slice(0, 3), [undefined, 'e1', 'e2']);
  });
});
