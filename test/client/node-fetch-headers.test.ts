/**
 * The client's node:http request path (src/client/node-fetch.ts) sends a request's headers exactly
 * as the global fetch does: a plain record is copied without building a `Headers` object, anything
 * else goes through `Headers`. Each case sends the same headers both ways to a loopback server and
 * compares what arrived; an invalid header is refused with fetch's TypeError and nothing is sent.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createNodeFetch } from '../../src/client/node-fetch.js';
import type { NodeFetch } from '../../src/client/node-fetch.js';

let server: Server;
let url: URL;
let pool: NodeFetch;
const arrived: IncomingHttpHeaders[] = [];

before(async () => {
  server = createServer((req, res) => {
    arrived.push(req.headers);
    req.resume();
    req.once('end', () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  pool = createNodeFetch();
});

after(async () => {
  pool.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The headers `names` as the server received them from one POST sent by `send`. */
async function received(send: typeof fetch, headers: HeadersInit, names: readonly string[]): Promise<Record<string, string | string[] | undefined>> {
  const before = arrived.length;
  const response = await send(url, { method: 'POST', headers, body: '{}' });
  await response.text();
  assert.equal(arrived.length, before + 1, 'one request arrived');
  const got = arrived[before]!;
  return Object.fromEntries(names.map((name) => [name, got[name]]));
}

/** Sends `headers` with node-fetch and with the global fetch; both must deliver the same `names`, equal to `expected`. */
async function sameAsFetch(headers: () => HeadersInit, names: readonly string[], expected: Record<string, string | undefined>): Promise<void> {
  const ours = await received(pool.fetch, headers(), names);
  const theirs = await received(fetch, headers(), names);
  assert.deepEqual(theirs, expected, 'the global fetch sends this');
  assert.deepEqual(ours, expected, 'node-fetch sends the same');
}

describe('node-fetch request headers are the ones fetch sends', () => {
  it('a plain record: names in any case arrive with their values unchanged', async () => {
    await sameAsFetch(() => ({ 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Name': 'calc%20sum', authorization: 'Bearer a.b.c' }), ['content-type', 'mcp-protocol-version', 'mcp-name', 'authorization'], {
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-name': 'calc%20sum',
      authorization: 'Bearer a.b.c',
    });
  });

  it('values with surrounding spaces and tabs are trimmed; inner whitespace is kept', async () => {
    await sameAsFetch(() => ({ 'x-padded': ' \tone  two\t ', 'x-plain': 'three' }), ['x-padded', 'x-plain'], { 'x-padded': 'one  two', 'x-plain': 'three' });
  });

  it('one name given twice in different case is sent once, the values joined', async () => {
    await sameAsFetch(() => ({ 'X-Twice': 'a', 'x-twice': 'b' }), ['x-twice'], { 'x-twice': 'a, b' });
  });

  it('a header named constructor is a header like any other', async () => {
    await sameAsFetch(() => ({ constructor: 'c', 'x-after': 'z' }), ['constructor', 'x-after'], { constructor: 'c', 'x-after': 'z' });
  });

  it('a Headers object and a list of pairs are sent as fetch sends them', async () => {
    await sameAsFetch(() => new Headers({ 'X-From-Headers': 'h' }), ['x-from-headers'], { 'x-from-headers': 'h' });
    await sameAsFetch(() => [['X-Pair', '1'], ['x-pair', '2']], ['x-pair'], { 'x-pair': '1, 2' });
  });

  for (const [what, headers] of [
    ['a value with a line feed', { 'x-bad': 'a\nb' }],
    ['a value with a NUL', { 'x-bad': 'a\0b' }],
    ['a name with a space', { 'bad name': 'v' }],
    ['a value past Latin-1', { 'x-bad': 'snow \u2603' }],
  ] as const) {
    it(`${what} is refused with fetch's TypeError (a rejection, as fetch's) before anything is sent`, async () => {
      const before = arrived.length;
      const theirs = await fetch(url, { method: 'POST', headers, body: '{}' }).then(() => undefined, (error: unknown) => error);
      const ours = await pool.fetch(url, { method: 'POST', headers, body: '{}' }).then(() => undefined, (error: unknown) => error);
      assert.ok(theirs instanceof TypeError, `fetch refuses it: ${String(theirs)}`);
      assert.ok(ours instanceof TypeError, `node-fetch refuses it: ${String(ours)}`);
      assert.equal((ours as TypeError).message, (theirs as TypeError).message);
      assert.equal(arrived.length, before, 'no request arrived');
    });
  }
});
