/**
 * OpenAPI import, bad documents: each gets its specific error (a thrown OpenApiImportError for the
 * document as a whole, a `skipped` problem naming the operation otherwise) and no tool is made for
 * what cannot be represented.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenApiImportError, toolsFromOpenApi } from '../../../src/compose/openapi/index.js';

const BASE = 'http://127.0.0.1:9';
const ok = { 200: { description: 'ok' } };

function doc(paths: Record<string, unknown>, components: Record<string, unknown> = {}, openapi = '3.0.3'): Record<string, unknown> {
  return { openapi, info: { title: 't', version: '1' }, paths, components };
}

async function refused(source: unknown, code: string, message: RegExp, options = { baseUrl: BASE }): Promise<void> {
  await assert.rejects(toolsFromOpenApi(source as object, options), (error: unknown) => {
    assert.ok(error instanceof OpenApiImportError, `expected OpenApiImportError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

describe('toolsFromOpenApi: bad documents', () => {
  it('a $ref cycle refuses the operations that reach it, naming the ref, and imports the rest', async () => {
    const result = await toolsFromOpenApi(doc({
      '/nodes': { post: { operationId: 'nodes/create', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } }, responses: ok } },
      '/ping': { get: { operationId: 'ping', responses: ok } },
    }, { schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } } }), { baseUrl: BASE });
    assert.deepEqual(result.tools.map((tool) => tool.name), ['ping']);
    assert.deepEqual(result.problems, [{
      operation: 'POST /nodes', code: 'ref-cycle', severity: 'skipped',
      message: 'schema at /requestBody refers back to "#/components/schemas/Node" (a $ref cycle, which a tool schema cannot carry)',
    }]);
  });

  it('an invalid $ref refuses the document with invalid_ref', async () => {
    await refused(doc({ '/a': { get: { operationId: 'a', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } } } } } } }),
      'invalid_ref', /^invalid \$ref: Missing \$ref pointer "#\/components\/schemas\/Missing"/);
  });

  it('an external $ref is not fetched: the operation is skipped with ref-unresolved', async () => {
    const result = await toolsFromOpenApi(doc({ '/a': { get: { operationId: 'a', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: 'https://example.invalid/s.json' } } } } } } } }), { baseUrl: BASE });
    assert.equal(result.tools.length, 0);
    assert.deepEqual(result.problems.map((p) => [p.code, p.severity]), [['ref-unresolved', 'skipped']]);
  });

  it('two operations that become the same tool name are refused, naming both', async () => {
    await refused(doc({
      '/a': { get: { operationId: 'repos/get-content', responses: ok } },
      '/b': { get: { operationId: 'repos_get_content', responses: ok } },
    }), 'name_collision', /^GET \/a \(operationId "repos\/get-content"\) and GET \/b \(operationId "repos_get_content"\) both become the tool name "repos_get_content"/);
  });

  it('missing operationIds give method+path names, and two that derive the same name collide', async () => {
    const result = await toolsFromOpenApi(doc({ '/pets/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } } }), { baseUrl: BASE });
    assert.deepEqual(result.operations, [{ tool: 'get_pets_id', method: 'GET', path: '/pets/{id}', operationId: undefined }]);
    await refused(doc({ '/pets/{id}': { get: { responses: ok } }, '/pets/id': { get: { responses: ok } } }), 'name_collision', /^GET \/pets\/\{id\} and GET \/pets\/id both become the tool name "get_pets_id"/);
  });

  it('the provider choice decides the characters: with OpenAI and Anthropic only, a "-" is kept', async () => {
    const result = await toolsFromOpenApi(doc({ '/a': { get: { operationId: 'repos/get-content', responses: ok } } }), { baseUrl: BASE, providers: ['openai-chat', 'anthropic'] });
    assert.equal(result.tools[0]?.name, 'repos_get-content');
    const long = await toolsFromOpenApi(doc({ '/a': { get: { operationId: 'x'.repeat(100), responses: ok } } }), { baseUrl: BASE });
    assert.match(long.tools[0]!.name, /^x{55}_[0-9a-f]{8}$/);
  });

  it('a body that is not JSON: required refuses the operation, optional is left out with a warning', async () => {
    const body = (required: boolean) => ({ post: { operationId: `upload${required ? 'Required' : 'Optional'}`, requestBody: { required, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }, responses: ok } });
    const result = await toolsFromOpenApi(doc({ '/r': body(true), '/o': body(false) }), { baseUrl: BASE });
    assert.deepEqual(result.tools.map((tool) => tool.name), ['uploadOptional']);
    assert.deepEqual(result.problems.map((p) => [p.operation, p.code, p.severity]), [['POST /r', 'unsupported-body', 'skipped'], ['POST /o', 'unsupported-body', 'warning']]);
  });

  it('a required cookie parameter, an object query parameter and a pipe-delimited one refuse their operations', async () => {
    const result = await toolsFromOpenApi(doc({
      '/c': { get: { operationId: 'c', parameters: [{ name: 'session', in: 'cookie', required: true, schema: { type: 'string' } }], responses: ok } },
      '/q': { get: { operationId: 'q', parameters: [{ name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object' } }], responses: ok } },
      '/p': { get: { operationId: 'p', parameters: [{ name: 'ids', in: 'query', style: 'pipeDelimited', schema: { type: 'array' } }], responses: ok } },
    }), { baseUrl: BASE });
    assert.equal(result.tools.length, 0);
    assert.deepEqual(result.problems.map((p) => [p.code, p.severity]), [['cookie-parameter', 'skipped'], ['unsupported-parameter', 'skipped'], ['unsupported-parameter', 'skipped']]);
    assert.equal(result.problems[2]!.message, 'query parameter "ids" has style "pipeDelimited"; only "form" is supported');
  });

  it('a body that cannot be flattened next to a parameter named body is refused as a clash', async () => {
    const result = await toolsFromOpenApi(doc({ '/b': { post: { operationId: 'b', parameters: [{ name: 'body', in: 'query', schema: { type: 'string' } }], requestBody: { content: { 'application/json': { schema: { type: 'array' } } } }, responses: ok } } }), { baseUrl: BASE });
    assert.equal(result.tools.length, 0);
    assert.deepEqual(result.problems.map((p) => p.code), ['parameter-clash']);
  });

  it('security without a usable credential is a warning naming why', async () => {
    const result = await toolsFromOpenApi(doc({ '/s': { get: { operationId: 's', security: [{ oauth: [] }, { token: [] }], responses: ok } } }, {
      securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://example.invalid/t', scopes: {} } } }, token: { type: 'http', scheme: 'bearer' } },
    }), { baseUrl: BASE });
    assert.equal(result.tools.length, 1);
    assert.deepEqual(result.problems, [{ operation: 'GET /s', code: 'missing-credentials', severity: 'warning', message: 'no usable credentials: no credential given for scheme "oauth"; no credential given for scheme "token"' }]);
  });

  it('3.0 nullable on a composition and on an enum become 2020-12', async () => {
    const result = await toolsFromOpenApi(doc({ '/n': { post: { operationId: 'n', requestBody: { content: { 'application/json': { schema: {
      type: 'object', properties: { a: { nullable: true, description: 'A.', allOf: [{ type: 'string' }] }, b: { type: 'string', enum: ['x'], nullable: true, example: 'x' } },
    } } } }, responses: ok } } }), { baseUrl: BASE });
    assert.deepEqual(result.tools[0]!.descriptor.inputSchema.properties, {
      a: { description: 'A.', anyOf: [{ allOf: [{ type: 'string' }] }, { type: 'null' }] },
      b: { type: ['string', 'null'], enum: ['x', null], examples: ['x'] },
    });
  });

  it('documents that are not OpenAPI 3.x, unreadable files and missing base URLs are refused', async () => {
    await refused({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} }, 'invalid_document', /^not an OpenAPI 3\.0 or 3\.1 document \(openapi: null\)$/);
    await refused('/nonexistent/openapi.json', 'invalid_document', /^cannot read \/nonexistent\/openapi\.json: ENOENT/);
    await refused(doc({}), 'no_base_url', /^the document has no absolute server URL \(no servers\); give options\.baseUrl$/, {} as { baseUrl: string });
    await refused(doc({}), 'invalid_options', /^unknown provider "nope" in options\.providers$/, { baseUrl: BASE, providers: ['nope'] } as never);
  });
});
