/**
 * The fetch handler's body limit: a body is counted as it streams in, so a request without a
 * Content-Length (or with a streamed body) over `maxBodyBytes` is refused with 413 before the
 * pipeline sees it, and the rest of the body is not read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFetchHandler, createServer } from '../../src/index.js';
import { sampleTool } from '../support/sample-tool.js';
import { rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';

const LIMIT = 512;
const TOO_LARGE = { jsonrpc: '2.0', error: { code: -31400, message: `Payload too large: the limit is ${LIMIT} bytes` } };

let runs = 0;
const echo = sampleTool({ onRun: () => runs++ });
const server = createServer({ name: 'limits', version: '1.0.0', tools: [echo], http: { maxBodyBytes: LIMIT } });

/** A tools/call of `echo` serialised to exactly `size` bytes (padded with trailing spaces, still valid JSON). */
function callOfSize(size: number): { message: Record<string, unknown>; body: string } {
  const message = rpc('tools/call', { name: 'echo', arguments: { text: 'hi' } });
  const json = JSON.stringify(message);
  assert.ok(json.length <= size, `the call alone is ${json.length} bytes`);
  return { message, body: json + ' '.repeat(size - json.length) };
}

async function refusedExactly(response: Response): Promise<void> {
  assert.equal(response.status, 413);
  assert.equal(response.headers.get('content-type'), 'application/json');
  const body = (await response.json()) as Record<string, unknown>;
  assert.deepEqual(body, TOO_LARGE);
  assertServerMessage(body);
}

describe('fetch handler body limit (413)', () => {
  it('accepts a body of exactly maxBodyBytes and refuses one byte more, without running the tool', async () => {
    const at = callOfSize(LIMIT);
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: standardHeaders(at.message), body: at.body });
    // No Content-Length header: the preflight cannot refuse early, so the counting reader decides.
    assert.equal(request.headers.get('content-length'), null);
    const ok = await server.fetch(request);
    assert.equal(ok.status, 200);
    const answered = (await ok.json()) as Record<string, unknown>;
    assertServerMessage(answered, 'tools/call');
    assert.deepEqual((answered.result as Record<string, unknown>).content, [{ type: 'text', text: 'hi' }]);
    assert.equal(runs, 1);

    const over = callOfSize(LIMIT + 1);
    await refusedExactly(await server.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: standardHeaders(over.message), body: over.body })));
    assert.equal(runs, 1, 'the over-limit call never reached the tool');
  });

  it('counts a streamed body across chunks and stops reading once the limit is passed', async () => {
    const { message, body } = callOfSize(LIMIT * 4);
    const bytes = new TextEncoder().encode(body);
    const chunk = 100;
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const start = pulled * chunk;
          if (start >= bytes.length) return controller.close();
          pulled++;
          controller.enqueue(bytes.slice(start, start + chunk));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: standardHeaders(message), body: stream, duplex: 'half' } as RequestInit & { duplex: 'half' });
    await refusedExactly(await server.fetch(request));
    assert.equal(cancelled, true, 'the handler cancels the body it refuses');
    // 6 chunks of 100 bytes pass 512; the remaining 14 of the 2048-byte body are never pulled.
    assert.ok(pulled < Math.ceil(bytes.length / chunk), `pulled ${pulled} chunks of ${Math.ceil(bytes.length / chunk)}`);
    assert.equal(runs, 1);
  });

  it('refuses a declared Content-Length over the limit before reading, with the same status and body', async () => {
    const handler = createFetchHandler(server, { maxBodyBytes: LIMIT });
    const { message, body } = callOfSize(LIMIT + 1);
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new TextEncoder().encode(body));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const headers = { ...standardHeaders(message), 'content-length': String(LIMIT + 1) };
    await refusedExactly(await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit & { duplex: 'half' })));
    assert.equal(pulled, false, 'the body is never read');
    assert.equal(runs, 1);
  });

  it('createFetchHandler uses the 1 MiB default when no limit is given', async () => {
    const handler = createFetchHandler(server);
    const { message, body } = callOfSize(1024 * 1024 + 1);
    const response = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: standardHeaders(message), body }));
    assert.equal(response.status, 413);
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', error: { code: -31400, message: 'Payload too large: the limit is 1048576 bytes' } });
    assert.equal(runs, 1);
  });
});
