/**
 * A body far over `maxBodyBytes` gets the 413 answer, not a reset connection (issue 33 item 8): a
 * client still writing when the server refuses must be able to read the refusal. Checked with
 * node:http (which keeps writing after the answer arrives) and fetch, with a declared
 * Content-Length (refused before reading) and a chunked body (refused after the limit), and that
 * the tool never ran. The server reads and drops the rest of a refused body (within a bound) before it
 * closes: a socket closed with unread bytes sends a reset, which can discard the 413 at the client
 * before it was read (fetch with a string body, curl without 100-continue). So every try of a string
 * and a stream body, at several sizes, gets its 413; and a client that never stops sending is cut off
 * once the bound is reached.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { REFUSED_BODY_DRAIN_BYTES, REFUSED_BODY_DRAIN_MS } from '../../src/transport/refused-body.js';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener } from '../../src/index.js';
import { META, rpc, standardHeaders } from '../fixtures/servers/raw-http.js';

const LIMIT = 64 * 1024;
const TOO_LARGE = { jsonrpc: '2.0', error: { code: -31400, message: `Payload too large: the limit is ${LIMIT} bytes` } };
let runs = 0;
const server = createServer({
  name: 'oversized',
  version: '1',
  tools: [defineTool({ name: 'echo', description: 'Returns the text it is given.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, run: () => { runs++; return 'ran'; } })],
});
let listener: HttpListener;
before(async () => {
  listener = await server.listen({ port: 0, maxBodyBytes: LIMIT });
});
after(() => server.close());

const call = (text: string) => rpc('tools/call', { name: 'echo', arguments: { text } }, 1, META);
const HEADERS = standardHeaders(call(''));

/** A tools/call whose text makes the body `size` bytes long. */
function body(size: number): Buffer {
  const empty = Buffer.byteLength(JSON.stringify(call('')));
  return Buffer.from(JSON.stringify(call('a'.repeat(size - empty))));
}

/** Posts with node:http, writing 64 KiB chunks until done (chunked unless `declared`); the status and text, or the socket error's code. */
function postWithNodeHttp(payload: Buffer, declared: boolean): Promise<string> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...HEADERS };
    if (declared) headers['content-length'] = String(payload.length);
    const req = request(listener.url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    for (let i = 0; i < payload.length; i += 65536) req.write(payload.subarray(i, i + 65536));
    req.end();
  });
}

describe('an oversized request body gets its 413 (not EPIPE or ECONNRESET)', { timeout: 60_000 }, () => {
  for (const size of [LIMIT + 1, 8 * 1024 * 1024, 32 * 1024 * 1024]) {
    for (const declared of [true, false]) {
      it(`${size} bytes, ${declared ? 'Content-Length declared' : 'chunked'}, node:http`, async () => {
        const before = runs;
        assert.equal(await postWithNodeHttp(body(size), declared), `413 ${JSON.stringify(TOO_LARGE)}`);
        assert.equal(runs, before, 'the tool never ran');
      });
    }
  }

  it('32 MiB through fetch', async () => {
    const before = runs;
    const response = await fetch(listener.url, { method: 'POST', headers: HEADERS, body: new Uint8Array(body(32 * 1024 * 1024)) });
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), TOO_LARGE);
    assert.equal(runs, before);
  });

  it('the server still answers a call of normal size afterwards', async () => {
    const before = runs;
    const response = await fetch(listener.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(call('hi')) });
    assert.equal(response.status, 200);
    assert.equal(runs, before + 1);
  });
});

describe('every try of a body over the limit gets its 413, through fetch', { timeout: 180_000 }, () => {
  for (const size of [4 * 1024 * 1024, 16 * 1024 * 1024, 50 * 1024 * 1024]) {
    it(`${size / 1024 / 1024} MiB as a string body, 5 times`, async () => {
      const before = runs;
      const text = body(size).toString('utf8');
      for (let i = 0; i < 5; i++) {
        const response = await fetch(listener.url, { method: 'POST', headers: HEADERS, body: text });
        assert.equal(response.status, 413, `try ${i + 1}`);
        assert.deepEqual(await response.json(), TOO_LARGE, `try ${i + 1}`);
      }
      assert.equal(runs, before, 'the tool never ran');
    });
  }

  it('16 MiB as a stream body (chunked, no length known), 5 times', async () => {
    const before = runs;
    const payload = body(16 * 1024 * 1024);
    for (let i = 0; i < 5; i++) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < payload.length; at += 256 * 1024) controller.enqueue(new Uint8Array(payload.subarray(at, at + 256 * 1024)));
          controller.close();
        },
      });
      const response = await fetch(listener.url, { method: 'POST', headers: HEADERS, body: stream, duplex: 'half' } as RequestInit);
      assert.equal(response.status, 413, `try ${i + 1}`);
      assert.deepEqual(await response.json(), TOO_LARGE, `try ${i + 1}`);
    }
    assert.equal(runs, before, 'the tool never ran');
  });
});

/**
 * A raw client that declares a huge body and writes it (fast, or one small chunk every 100 ms) until
 * the server closes: what it read, how much it sent and how long the server let it.
 */
function sendForever(url: string, slow: boolean): Promise<{ received: string; sent: number; ms: number }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    // Half-open allowed: the server's FIN after its answer does not stop this client writing.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let received = '';
    let sent = 0;
    let done = false;
    const chunk = Buffer.alloc(slow ? 1024 : 256 * 1024, 0x61);
    const headers = Object.entries(HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    const finish = (): void => {
      if (done) return;
      done = true;
      clearInterval(timer);
      resolve({ received, sent, ms: performance.now() - started });
    };
    const pump = (): void => {
      while (!done && !socket.destroyed && socket.writable) {
        sent += chunk.length;
        if (!socket.write(chunk) || slow) return;
      }
    };
    const timer = slow ? setInterval(pump, 100) : undefined;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => (received += text));
    socket.on('drain', () => { if (!slow) pump(); });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${headers}content-length: ${10 * 1024 ** 3}\r\n\r\n`);
      pump();
    });
  });
}

describe('the drain of a refused body is bounded', { timeout: 60_000 }, () => {
  it(`a client that never stops writing fast is cut off after about ${REFUSED_BODY_DRAIN_BYTES} bytes, having been told 413`, async () => {
    const outcome = await sendForever(listener.url, false);
    assert.match(outcome.received, /^HTTP\/1\.1 413 /);
    assert.ok(outcome.sent >= REFUSED_BODY_DRAIN_BYTES, `sent ${outcome.sent} bytes: cut off before the bound`);
    assert.ok(outcome.sent < REFUSED_BODY_DRAIN_BYTES + 32 * 1024 * 1024, `sent ${outcome.sent} bytes before the server closed`);
  });

  it(`a client that never stops writing slowly is cut off after ${REFUSED_BODY_DRAIN_MS} ms`, async () => {
    const outcome = await sendForever(listener.url, true);
    assert.match(outcome.received, /^HTTP\/1\.1 413 /);
    assert.ok(outcome.ms >= REFUSED_BODY_DRAIN_MS - 50, `closed after ${Math.round(outcome.ms)} ms: before the bound`);
    assert.ok(outcome.ms < REFUSED_BODY_DRAIN_MS + 5_000, `closed after ${Math.round(outcome.ms)} ms`);
  });
});
