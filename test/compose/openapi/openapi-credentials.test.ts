/**
 * OpenAPI import, upstream credentials and an unreachable upstream: HTTP basic and a header API
 * key are applied from options (never from arguments), and a refused connection is an isError
 * result naming the operation.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { toolsFromOpenApi } from '../../../src/compose/openapi/index.js';
import type { OpenApiImport } from '../../../src/compose/openapi/index.js';
import { createServer } from '../../../src/index.js';
import type { Tool } from '../../../src/index.js';
import { connect } from '../../../src/client/index.js';

const seen: IncomingHttpHeaders[] = [];
const upstream = createHttpServer((req, res) => {
  seen.push(req.headers);
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
});
let url: string;
let imported: OpenApiImport;

/** Serves `tools` over HTTP on loopback, makes one call with the project's client, and shuts both down. */
async function callServed(tools: Tool[], name: string, args: Record<string, unknown> = {}) {
  const server = createServer({ name: 'creds', version: '1', tools });
  const listener = await server.listen({ port: 0 });
  const client = connect(listener.url, { onWarning: () => {} });
  try {
    return await client.callTool(name, args);
  } finally {
    await client.close();
    await server.close();
  }
}
const call = (name: string, args: Record<string, unknown> = {}) => callServed(imported.tools, name, args);

before(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const ok = { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
  imported = await toolsFromOpenApi({
    openapi: '3.1.0', info: { title: 'c', version: '1' }, servers: [{ url: '{scheme}://127.0.0.1:{port}', variables: { scheme: { default: 'http' }, port: { default: '1' } } }],
    components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' }, key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
    paths: {
      '/basic': { get: { operationId: 'basic', security: [{ basic: [] }], responses: ok } },
      '/key': { get: { operationId: 'key', security: [{ key: [] }], parameters: [{ name: 'X-Api-Key', in: 'header', schema: { type: 'string' } }], responses: ok } },
    },
  }, { baseUrl: url, credentials: { basic: { type: 'basic', username: 'ann', password: 's3cret' }, key: { type: 'apiKey', value: 'k-9' } } });
});
after(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

describe('toolsFromOpenApi: credentials', () => {
  it('HTTP basic is sent from options', async () => {
    const result = await call('basic');
    assert.deepEqual(result.structuredContent, { ok: true });
    assert.equal(seen.at(-1)?.authorization, `Basic ${Buffer.from('ann:s3cret').toString('base64')}`);
  });

  it('a header API key is sent from options, and the same header is not an argument a caller could set', async () => {
    assert.deepEqual(imported.tools[1]!.descriptor.inputSchema, { type: 'object', properties: {}, additionalProperties: false });
    const refused = await call('key', { 'X-Api-Key': 'caller-value' });
    assert.equal(refused.isError, true);
    const before = seen.length;
    const result = await call('key');
    assert.deepEqual(result.structuredContent, { ok: true });
    assert.equal(seen.length, before + 1);
    assert.equal(seen.at(-1)?.['x-api-key'], 'k-9');
  });

  it('a credential of the wrong type is a missing-credentials warning naming the mismatch', async () => {
    const result = await toolsFromOpenApi({
      openapi: '3.0.3', info: { title: 'c', version: '1' }, components: { securitySchemes: { key: { type: 'apiKey', in: 'cookie', name: 'sid' }, b: { type: 'http', scheme: 'bearer' } } },
      paths: { '/x': { get: { operationId: 'x', security: [{ key: [] }, { b: [] }], responses: { 200: { description: 'ok' } } } } },
    }, { baseUrl: url, credentials: { key: { type: 'apiKey', value: 'v' }, b: { type: 'basic', username: 'u', password: 'p' } } });
    assert.deepEqual(result.problems.map((p) => p.message), ['no usable credentials: scheme "key" (apiKey in cookie) is not supported; scheme "b" is HTTP bearer but its credential is basic']);
  });

  it('an unreachable upstream is an isError result naming the operation and the cause', async () => {
    const closed = createHttpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gone = await toolsFromOpenApi({ openapi: '3.0.3', info: { title: 'g', version: '1' }, paths: { '/g': { get: { operationId: 'g', responses: { 200: { description: 'ok' } } } } } }, { baseUrl: `http://127.0.0.1:${port}` });
    const result = await callServed(gone.tools, 'g');
    assert.equal(result.isError, true);
    assert.match((result.content[0] as { text: string }).text, /^Upstream GET \/g could not be reached \(fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\)\.$/);
  });
});
