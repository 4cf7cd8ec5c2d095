/**
 * A body far over `maxBodyBytes` gets the 413 answer, not a reset connection (issue 33 item 8): a
 * client still writing when the server refuses must be able to read the refusal. Checked with
 * node:http (which keeps writing after the answer arrives) and fetch, with a declared
 * Content-Length (refused before reading) and a chunked body (refused after the limit), and that
 * the tool never ran.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
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
