// Hostile connections over real loopback HTTP: idle keep-alive and silent sockets, a body dripped
// one byte at a time, a reader that never reads, and clients that vanish mid-response (JSON and
// SSE). Each asserts what the server does (exact status, closed socket, aborted handler) and that
// it keeps answering others. Time appears only as the configured bounds and generous test timeouts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener } from '../../src/index.js';
import { rpc, standardHeaders } from '../fixtures/servers/raw-http.js';

const big = defineTool({ name: 'big', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } as const, run: ({ n }) => 'x'.repeat(n ?? 0) });

/** Resolves with how the SSE tool's handler ended: 'aborted' when the client's disconnect reached it. */
let handlerEnded: (how: string) => void = () => undefined;
const waits = defineTool({
  name: 'waits',
  inputSchema: { type: 'object' } as const,
  run: async (_args, ctx) => {
    ctx.progress(1, 2, 'started');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 50_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    handlerEnded(ctx.signal.aborted ? 'aborted' : 'finished');
    return 'late';
  },
});

const server = createServer({ name: 'hostile-connections', version: '1', tools: [big, waits] });
let listener: HttpListener;
const serverSockets: Socket[] = [];
before(async () => {
  listener = await server.listen({ port: 0, keepAliveTimeoutMs: 2000, headersTimeoutMs: 1000, requestTimeoutMs: 1500, writeTimeoutMs: 500 });
  listener.server.on('connection', (socket: Socket) => serverSockets.push(socket));
});
after(() => server.close());

function httpRequest(message: Record<string, unknown>, connection = 'keep-alive'): string {
  const body = JSON.stringify(message);
  const headers = Object.entries(standardHeaders(message)).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: ${connection}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const list = (id: number): Record<string, unknown> => rpc('tools/list', {}, id);

/** A raw client socket that collects what it receives and records when the server closes it. */
class RawClient {
  readonly socket: Socket;
  text = '';
  readonly closed: Promise<void>;
  #waiters: (() => void)[] = [];
  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => {
      this.text += chunk;
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }
  /** Resolves once `count` complete responses (by `"jsonrpc"` bodies) have arrived. */
  async responses(count: number): Promise<void> {
    while ((this.text.match(/HTTP\/1\.1 \d{3} /g) ?? []).length < count || !this.text.trimEnd().endsWith('}')) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

async function stillAnswers(id: number): Promise<void> {
  const message = list(id);
  const response = await fetch(listener.url, { method: 'POST', body: JSON.stringify(message), headers: standardHeaders(message), signal: AbortSignal.timeout(30_000) });
  assert.equal(response.status, 200);
  assert.equal(((await response.json()) as { id: number }).id, id);
}

describe('idle and silent connections', () => {
  it('a keep-alive connection serves several requests, then is closed by the server once idle past keepAliveTimeoutMs', { timeout: 60_000 }, async () => {
    const client = new RawClient(listener.port);
    client.socket.write(httpRequest(list(1)));
    await client.responses(1);
    client.socket.write(httpRequest(list(2)));
    await client.responses(2);
    // The configured bound, announced to the client (Node's default would say timeout=5).
    assert.match(client.text, /\r\nKeep-Alive: timeout=2\r\n/);
    await stillAnswers(3);
    await client.closed; // nothing on our side closes it: only the server's idle timeout can end this wait
    assert.equal((client.text.match(/"id":1,/g) ?? []).length, 1);
    assert.equal((client.text.match(/"id":2,/g) ?? []).length, 1);
    assert.ok(client.text.length < 10_000);
    await stillAnswers(4);
  });

  it('a connection that never sends a byte is closed by the header timeout; others are answered meanwhile', { timeout: 60_000 }, async () => {
    const silent = new RawClient(listener.port);
    await new Promise((resolve) => silent.socket.once('connect', resolve));
    await stillAnswers(5);
    await silent.closed;
    assert.ok(silent.text === '' || /^HTTP\/1\.1 408 /.test(silent.text), silent.text.slice(0, 200));
  });
});

describe('slow bodies and slow readers', () => {
  it('a body dripped one byte at a time is cut at requestTimeoutMs with exactly 408, and the handler never runs', { timeout: 60_000 }, async () => {
    const client = new RawClient(listener.port);
    const body = JSON.stringify(rpc('tools/call', { name: 'waits', arguments: {} }, 6));
    client.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    let sent = 0;
    // Bounded: at most the body's length in drips, stopped as soon as the server answers or closes.
    const drip = setInterval(() => {
      if (sent < body.length && !client.socket.destroyed) client.socket.write(body[sent++]!);
    }, 100);
    try {
      await client.closed;
    } finally {
      clearInterval(drip);
    }
    assert.match(client.text, /^HTTP\/1\.1 408 /);
    assert.ok(sent < body.length, `the whole body (${sent} bytes) got through`);
    assert.ok(client.text.length < 1000);
    await stillAnswers(7);
  });

  it('a client that never reads a large answer is disconnected after writeTimeoutMs (its bytes are not kept)', { timeout: 60_000 }, async () => {
    const before = serverSockets.length;
    const client = new RawClient(listener.port);
    client.socket.pause(); // never reads
    client.socket.write(httpRequest(rpc('tools/call', { name: 'big', arguments: { n: 12_000_000 } }, 8), 'close'));
    // Wait for the server's side of this connection, then for the server to drop it.
    while (serverSockets.length === before) await new Promise((resolve) => setImmediate(resolve));
    const serverSide = serverSockets[serverSockets.length - 1]!;
    await new Promise<void>((resolve) => (serverSide.destroyed ? resolve() : serverSide.once('close', () => resolve())));
    client.socket.resume();
    await client.closed;
    assert.match(client.text, /^HTTP\/1\.1 200 /);
    assert.ok(client.text.length < 12_000_000, `all ${client.text.length} bytes arrived; the slow reader was not dropped`);
    await stillAnswers(9);
  });
});

describe('abrupt disconnects', () => {
  it('a client gone mid-response (JSON) leaves the server answering others', { timeout: 60_000 }, async () => {
    const client = new RawClient(listener.port);
    client.socket.write(httpRequest(rpc('tools/call', { name: 'big', arguments: { n: 4_000_000 } }, 10), 'close'));
    while (client.text.length === 0) await new Promise((resolve) => client.socket.once('data', resolve));
    client.socket.destroy();
    await client.closed;
    await stillAnswers(11);
  });

  it('a client gone mid-stream (SSE, handler waiting) aborts the handler; nothing is written after', { timeout: 60_000 }, async () => {
    const ended = new Promise<string>((resolve) => (handlerEnded = resolve));
    const client = new RawClient(listener.port);
    client.socket.write(httpRequest(rpc('tools/call', { name: 'waits', arguments: {}, _meta: { progressToken: 'p' } }, 12)));
    while (!client.text.includes('notifications/progress')) await new Promise((resolve) => client.socket.once('data', resolve));
    assert.match(client.text, /^HTTP\/1\.1 200 [^]*text\/event-stream/);
    client.socket.destroy();
    assert.equal(await ended, 'aborted');
    await stillAnswers(13);
  });

  it('a client gone mid-body leaves the server answering others', { timeout: 60_000 }, async () => {
    const client = new RawClient(listener.port);
    client.socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"jsonrpc":"2.0","id":14,');
    client.socket.destroy();
    await client.closed;
    await stillAnswers(15);
  });
});
