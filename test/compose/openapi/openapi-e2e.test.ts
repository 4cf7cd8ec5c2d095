/**
 * OpenAPI import end to end: a real HTTP API on 127.0.0.1, its description imported with
 * toolsFromOpenApi, the tools served by a Toolwright server over HTTP and called with the
 * project's client. Asserts what the model sees and what reached the upstream.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { toolsFromOpenApi } from '../../../src/compose/openapi/index.js';
import type { OpenApiImport } from '../../../src/compose/openapi/index.js';
import { createServer } from '../../../src/index.js';
import type { HttpListener } from '../../../src/index.js';
import { petstoreDocument, startPetstoreApi } from './petstore-api.js';
import type { PetstoreApi } from './petstore-api.js';

let api: PetstoreApi;
let imported: OpenApiImport;
let server: ReturnType<typeof createServer>;
let listener: HttpListener;
let client: McpClient;

before(async () => {
  api = await startPetstoreApi();
  imported = await toolsFromOpenApi(petstoreDocument(), {
    baseUrl: api.url, timeoutMs: 300, maxResponseBytes: 1024,
    credentials: { token: { type: 'bearer', token: 'upstream-secret' }, key: { type: 'apiKey', value: 'k-123' } },
  });
  server = createServer({ name: 'openapi-e2e', version: '1.0.0', tools: imported.tools });
  listener = await server.listen({ port: 0 });
  client = connect(listener.url, { onWarning: () => {} });
});
after(async () => {
  await client?.close();
  await server?.close();
  await api?.close();
});

const text = (result: { content: unknown[] }): string => (result.content[0] as { text: string }).text;

describe('toolsFromOpenApi served over HTTP', () => {
  it('lists one tool per operation, named to fit every provider profile', async () => {
    const listing = await client.listTools();
    assert.deepEqual(listing.tools.map((tool) => tool.name), ['pets_get_pet', 'pets_create', 'tags_replace', 'things_get', 'get_names', 'boom', 'big', 'slow']);
    assert.deepEqual(imported.operations[0], { tool: 'pets_get_pet', method: 'GET', path: '/pets/{petId}', operationId: 'pets/get-pet' });
  });

  it('folds path, query and header parameters into one inputSchema, without the Authorization header', () => {
    const get = imported.tools[0]!.descriptor;
    assert.equal(get.description, 'Get a pet by id.');
    assert.deepEqual(get.inputSchema, {
      type: 'object',
      properties: { petId: { type: 'string', description: 'The pet id.' }, verbose: { type: 'boolean' }, 'X-Trace': { type: 'string' } },
      additionalProperties: false, required: ['petId'],
    });
    assert.deepEqual(get.outputSchema, {
      type: 'object', required: ['id', 'name'],
      properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: ['string', 'null'] }, verbose: { type: 'boolean' }, trace: { type: ['string', 'null'] } },
    });
    assert.ok(imported.problems.some((p) => p.operation === 'GET /pets/{petId}' && p.code === 'ignored-header' && p.message.includes('"Authorization"')));
  });

  it('a call reaches the upstream with the arguments in their places and returns structuredContent', async () => {
    const result = await client.callTool('pets_get_pet', { petId: '7', verbose: true, 'X-Trace': 'abc' });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, { id: 7, name: 'Rex', tag: null, verbose: true, trace: 'abc' });
    const seen = api.seen.at(-1)!;
    assert.equal(seen.url, '/pets/7?verbose=true');
    assert.equal(seen.headers['x-trace'], 'abc');
    assert.equal(seen.headers.authorization, undefined);
  });

  it('a flattened JSON body is sent with the operator\'s bearer credential, never the caller\'s', async () => {
    const result = await client.callTool('pets_create', { name: 'Tom', tag: 'cat' });
    assert.deepEqual(result.structuredContent, { id: 8, name: 'Tom', tag: 'cat' });
    const seen = api.seen.at(-1)!;
    assert.equal(seen.headers.authorization, 'Bearer upstream-secret');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(seen.body), { name: 'Tom', tag: 'cat' });
  });

  it('a non-object body is one argument named body', async () => {
    assert.deepEqual(imported.tools[2]!.descriptor.inputSchema, {
      type: 'object', properties: { body: { type: 'array', items: { type: 'string' } } }, additionalProperties: false, required: ['body'],
    });
    const result = await client.callTool('tags_replace', { body: ['a', 'b'] });
    assert.deepEqual(result.structuredContent, { tags: ['a', 'b'] });
    const refused = await client.callTool('tags_replace', { body: { not: 'an array' } });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^Invalid arguments for tool tags_replace:\n\/body: /);
    assert.equal(api.seen.filter((seen) => seen.url === '/tags').length, 1, 'the invalid call never reached the upstream');
  });

  it('a name used in two locations becomes <in>_<name>; a 3.0 exclusiveMinimum becomes a 2020-12 bound; query arrays follow explode; an API key goes in the query', async () => {
    assert.deepEqual(imported.tools[3]!.descriptor.inputSchema, {
      type: 'object',
      properties: { path_id: { type: 'string' }, query_id: { type: 'integer', exclusiveMinimum: 0 }, tags: { type: 'array', items: { type: 'string' } }, fields: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false, required: ['path_id'],
    });
    const result = await client.callTool('things_get', { path_id: 'a1', query_id: 5, tags: ['x', 'y'], fields: ['a', 'b'] });
    assert.deepEqual(result.structuredContent, { path: 'a1', query: '5', key: 'k-123', tags: ['x', 'y'], fields: ['a,b'] });
    assert.equal(api.seen.at(-1)!.url, '/things/a1?id=5&tags=x&tags=y&fields=a%2Cb&api_key=k-123');
    const zero = await client.callTool('things_get', { path_id: 'a1', query_id: 0 });
    assert.equal(zero.isError, true);
  });

  it('an operation without operationId gets a method+path name, and a non-object response is returned as text', async () => {
    assert.ok(imported.problems.some((p) => p.operation === 'GET /names' && p.code === 'missing-operation-id' && p.message.includes('"get_names"')));
    assert.ok(imported.problems.some((p) => p.operation === 'GET /names' && p.code === 'output-not-object'));
    assert.equal(imported.tools[4]!.descriptor.outputSchema, undefined);
    const result = await client.callTool('get_names', {});
    assert.equal(text(result), '["Rex","Tom"]');
  });

  it('an upstream 404 is an isError result with the status and the body', async () => {
    const result = await client.callTool('pets_get_pet', { petId: '99' });
    assert.equal(result.isError, true);
    assert.equal(text(result), 'Upstream GET /pets/{petId} answered HTTP 404 Not Found: {"message":"no pet 99"}');
  });

  it('an upstream 500 is an isError result with a short excerpt of the body', async () => {
    const result = await client.callTool('boom', {});
    assert.equal(result.isError, true);
    assert.equal(text(result), `Upstream GET /boom answered HTTP 500 Internal Server Error: database is down\n${'x'.repeat(483)}...`);
  });

  it('an oversized upstream response is refused, not read', async () => {
    const result = await client.callTool('big', {});
    assert.equal(result.isError, true);
    assert.equal(text(result), 'Upstream response to GET /big is larger than 1024 bytes; it was not read. Narrow the request (filters, pagination) and try again.');
  });

  it('an upstream that does not answer in time is an isError result naming the timeout', async () => {
    const result = await client.callTool('slow', {});
    assert.equal(result.isError, true);
    assert.equal(text(result), 'Upstream GET /slow did not answer within 300 ms.');
  });

  it('the import is linted and the findings come with the tools', () => {
    assert.equal(imported.lint.toolCount, 8);
    assert.ok(imported.lint.findings.length > 0);
    assert.ok(imported.lint.findings.every((finding) => finding.tool === undefined || imported.tools.some((tool) => tool.name === finding.tool)));
  });
});
