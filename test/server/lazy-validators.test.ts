/** Validators are built on first use and warmed in the background; creating a server never loads Ajv (nor the Redis client). */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import type { CompiledSchema, ValidationResult } from '../../src/schema/index.js';
import { warmValidators } from '../../src/server/tools/tool-registry.js';
import type { RegisteredTool } from '../../src/server/tools/tool-registry.js';

// Not the raw-http fixture: its wire-schema check loads Ajv itself.
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const require = createRequire(import.meta.url);
const ajvLoaded = () => Object.keys(require.cache).some((path) => /node_modules[\\/]ajv[\\/]/.test(path));
// The package root exports createRedisStore; its client (~100 ms to load) must wait for a Redis store.
const redisLoaded = () => Object.keys(require.cache).some((path) => /node_modules[\\/]@redis[\\/]client[\\/]/.test(path));

const sum = defineTool({
  name: 'calculate_sum',
  description: 'Adds two integers a and b and returns their sum.',
  inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false },
  run: ({ a, b }) => ({ structuredContent: { sum: (a as number) + (b as number) } }),
});

function message(method: string, params: Record<string, unknown>) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } });
  const signal = new AbortController().signal;
  return { body, transport: 'stdio' as const, header: undefined, signal, isAborted: () => false, notify: () => {} };
}

/** A compiled schema that counts its calls and answers with a fixed verdict. */
function counting(verdict: ValidationResult): CompiledSchema & { calls: number } {
  const compiled = { schema: {}, dialect: '2020-12' as const, engine: 'fast' as const, calls: 0, validate: () => { compiled.calls++; return verdict; } };
  return compiled;
}
const registered = (name: string, input: CompiledSchema, output?: CompiledSchema): RegisteredTool =>
  ({ tool: sum, name, descriptor: sum.descriptor, input, output, headers: [], layers: undefined }) as RegisteredTool;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('lazy validators', () => {
  // This file runs in its own process; nothing before this test loads the schema compiler.
  it('createServer and the first server/discover do not load Ajv; the warm-up builds validators after that answer', async () => {
    // calculate_sum's schema gets the specialised validator, which needs no Ajv; `pick` (oneOf) needs Ajv, so its warm-up shows when validators are built.
    const pick = defineTool({ name: 'pick', inputSchema: { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } }, run: () => 'ok' });
    const server = createServer({ name: 'lazy', version: '1.0.0', tools: [sum, pick] });
    assert.equal(ajvLoaded(), false);
    const discover = await server.handleMessage(message('server/discover', {}));
    assert.equal(discover.status, 200);
    assert.equal(ajvLoaded(), false);
    assert.equal(redisLoaded(), false, 'no Redis client is loaded without a Redis store');
    await turn();
    await turn();
    assert.equal(ajvLoaded(), true);
    const bad = JSON.parse((await server.handleMessage(message('tools/call', { name: 'calculate_sum', arguments: { a: 2, c: 3 } }))).body!);
    assert.equal(bad.result.isError, true);
    const good = JSON.parse((await server.handleMessage(message('tools/call', { name: 'calculate_sum', arguments: { a: 2, b: 3 } }))).body!);
    assert.deepEqual(good.result.structuredContent, { sum: 5 });
  });

  it('a first tools/call builds its validator itself and validates correctly', async () => {
    const server = createServer({ name: 'lazy-call', version: '1.0.0', tools: [sum] });
    const bad = JSON.parse((await server.handleMessage(message('tools/call', { name: 'calculate_sum', arguments: { a: 2, b: 'x' } }))).body!);
    assert.equal(bad.result.isError, true);
    const good = JSON.parse((await server.handleMessage(message('tools/call', { name: 'calculate_sum', arguments: { a: 1, b: 3 } }))).body!);
    assert.deepEqual(good.result.structuredContent, { sum: 4 });
  });
});

describe('warmValidators', () => {
  const ok: ValidationResult = { valid: true, errors: [] };
  const refused: ValidationResult = {
    valid: false,
    errors: [{ instancePath: '', keyword: 'validation', schemaPath: '#', message: '/: value could not be validated (fast engine refused the schema: boom)' }],
  };
  const plainInvalid: ValidationResult = { valid: false, errors: [{ instancePath: '', keyword: 'type', schemaPath: '#/type', message: '/: must be object' }] };

  it('builds every input and output validator once, after the current turn, and reports only refusals', async () => {
    const a = counting(ok);
    const aOut = counting(plainInvalid);
    const b = counting(refused);
    const reports: unknown[][] = [];
    warmValidators([registered('a', a, aOut), registered('b', counting(ok), b)], (...args) => reports.push(args));
    assert.deepEqual([a.calls, aOut.calls, b.calls], [0, 0, 0]);
    for (let i = 0; i < 5; i++) await turn();
    assert.deepEqual([a.calls, aOut.calls, b.calls], [1, 1, 1]);
    assert.deepEqual(reports, [['b', 'outputSchema', 'value could not be validated (fast engine refused the schema: boom)']]);
  });

  it('does nothing once stopped', async () => {
    const a = counting(refused);
    const reports: unknown[][] = [];
    const stop = warmValidators([registered('a', a)], (...args) => reports.push(args));
    stop();
    for (let i = 0; i < 5; i++) await turn();
    assert.equal(a.calls, 0);
    assert.deepEqual(reports, []);
  });
});
