/**
 * One proxied call to an HTTP upstream failing at the transport (the upstream drops its connection)
 * fails that call only: the other calls in flight on the same client are answered, the next call
 * goes through a new client, and the old one is closed once its last call is done.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Upstream } from '../../../src/compose/proxy/upstream.js';
import { gate } from '../../support/gate.js';
import { until } from '../../support/until.js';

const TOOLS = ['slow', 'cut', 'quick'].map((name) => ({ name, inputSchema: { type: 'object' } }));

function textOf(result: { content?: unknown[] }): string {
  return ((result.content ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('');
}

describe('an HTTP upstream that drops the connection of one call', () => {
  const slowMayAnswer = gate();
  const arrived: string[] = [];
  const sockets = new Set<Socket>();
  let closedSockets = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string; params: { name?: string } };
      const answer = (result: unknown): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
      };
      if (body.method === 'tools/list') return answer({ resultType: 'complete', tools: TOOLS, ttlMs: 60_000, cacheScope: 'public' });
      const name = body.params.name ?? '';
      arrived.push(name);
      if (name === 'cut') return void req.socket.destroy();
      if (name === 'slow') return void slowMayAnswer.opened.then(() => answer({ resultType: 'complete', content: [{ type: 'text', text: 'slow answered' }] }));
      answer({ resultType: 'complete', content: [{ type: 'text', text: `${name} answered` }] });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      closedSockets++;
    });
  });
  let upstream: Upstream;
  const ctx = { signal: new AbortController().signal, progress: () => {}, requestMeta: {} };

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    upstream = new Upstream({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }, { label: 'u', maxReconnects: 1 });
    await upstream.listTools();
  });
  after(async () => {
    await upstream?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('fails that call only; the call in flight beside it is answered; the next call reconnects', async () => {
    const slow = upstream.call('slow', {}, ctx);
    await until(() => arrived.includes('slow'), 'the slow call reaching the upstream');
    const cut = await upstream.call('cut', {}, ctx);
    assert.equal(cut.isError, true);
    assert.match(textOf(cut), /^Upstream u failed during cut: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: ECONNRESET\. The call may or may not have run there; the next call reconnects\.$/);
    const closedBefore = closedSockets;
    slowMayAnswer.open();
    const answered = await slow;
    assert.equal(answered.isError, undefined, textOf(answered));
    assert.equal(textOf(answered), 'slow answered');
    // Its last call done, the retired client is closed: its pooled socket goes with it.
    await until(() => closedSockets > closedBefore, 'the retired client closing its idle socket');
    const next = await upstream.call('quick', {}, ctx);
    assert.equal(textOf(next), 'quick answered');
  });
});
