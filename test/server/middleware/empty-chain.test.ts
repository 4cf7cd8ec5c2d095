/**
 * An empty chain costs nothing: `use: []` (and middleware that applies to no tool) registers no
 * middleware layer at all, so the runner (pipeline/compose.ts) takes the same path as a server
 * without `use`. The bench's "empty middleware chain vs none" row therefore compares two servers
 * running the same code, and its spread is the run's noise (bench/README.md).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer, defineTool } from '../../../src/index.js';
import type { Middleware } from '../../../src/index.js';
import { registerTools } from '../../../src/server/tools/tool-registry.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

const sum = defineTool({
  name: 'calculate_sum',
  description: 'Adds two integers a and b and returns their sum.',
  inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false },
  run: ({ a, b }) => ({ structuredContent: { sum: (a as number) + (b as number) } }),
});

function call(id: number) {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'calculate_sum', arguments: { a: 19, b: 23 }, _meta: META } });
  return { body, transport: 'stdio' as const, header: undefined, signal: new AbortController().signal, isAborted: () => false, notify: () => {} };
}

describe('an empty middleware chain', () => {
  it('registers no middleware layer, exactly as a server without use', () => {
    const [without] = registerTools([sum], { canAuthorize: false });
    const [empty] = registerTools([sum], { canAuthorize: false, use: [] });
    assert.equal(without!.layers, undefined);
    assert.equal(empty!.layers, undefined);
  });

  it('registers no layer for middleware that applies to no tool of the server', () => {
    let ran = 0;
    const elsewhere: Middleware = { name: 'elsewhere', appliesTo: (tool) => tool === 'another_tool', handle: (_call, next) => { ran++; return next(); } };
    const [registered] = registerTools([sum], { canAuthorize: false, use: [elsewhere] });
    assert.equal(registered!.layers, undefined);
    assert.equal(ran, 0);
  });

  it('registers a layer as soon as one middleware applies (the check above can fail)', () => {
    const noop: Middleware = { name: 'noop', handle: (_call, next) => next() };
    const [registered] = registerTools([sum], { canAuthorize: false, use: [noop] });
    assert.deepEqual(registered!.layers, { arguments: [noop] });
  });

  it('answers byte for byte as a server without use', async () => {
    const answers = await Promise.all([createServer({ name: 'a', version: '1.0.0', tools: [sum] }), createServer({ name: 'a', version: '1.0.0', tools: [sum], use: [] })].map((server) => server.handleMessage(call(7))));
    assert.equal(answers[0]!.body, answers[1]!.body);
    assert.match(answers[0]!.body ?? '', /"sum":42/);
  });
});
