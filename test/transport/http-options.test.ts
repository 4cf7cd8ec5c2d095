/**
 * HTTP option values are checked when they are resolved: a timeout of NaN would mean "never" to
 * node:http and a path without "/" would match no request, so both fail at once with the option named.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } as const,
  run: (args) => args.text,
});

const BAD_NUMBERS: readonly [string, unknown, string][] = [
  ['writeTimeoutMs', Number.NaN, 'HTTP option writeTimeoutMs must be a positive whole number, got NaN'],
  ['headersTimeoutMs', 0, 'HTTP option headersTimeoutMs must be a positive whole number, got 0'],
  ['requestTimeoutMs', -5, 'HTTP option requestTimeoutMs must be a positive whole number, got -5'],
  ['keepAliveTimeoutMs', 1.5, 'HTTP option keepAliveTimeoutMs must be a positive whole number, got 1.5'],
  ['maxBodyBytes', Number.POSITIVE_INFINITY, 'HTTP option maxBodyBytes must be a positive whole number, got Infinity'],
  ['maxResponseBytes', '1000', 'HTTP option maxResponseBytes must be a positive whole number, got "1000"'],
];

describe('HTTP options are validated', () => {
  for (const [name, value, message] of BAD_NUMBERS) {
    it(`listen() refuses ${name}: ${String(value)} and binds nothing`, async () => {
      const server = createServer({ name: 'options', version: '1.0.0', tools: [echo] });
      await assert.rejects(server.listen({ port: 0, [name]: value }), { name: 'RangeError', message });
    });
  }

  it('createServer refuses a bad option in its http defaults at once, before any fetch()', () => {
    assert.throws(() => createServer({ name: 'options', version: '1.0.0', tools: [echo], http: { writeTimeoutMs: -1 } }), {
      name: 'RangeError',
      message: 'HTTP option writeTimeoutMs must be a positive whole number, got -1',
    });
  });

  for (const path of ['mcp', '/m cp', '/mcp?x=1', '']) {
    it(`listen() refuses path ${JSON.stringify(path)}`, async () => {
      const server = createServer({ name: 'options', version: '1.0.0', tools: [echo] });
      await assert.rejects(server.listen({ port: 0, path }), {
        name: 'RangeError',
        message: `HTTP option path must start with "/" and hold no spaces, "?" or "#", got ${JSON.stringify(path)}`,
      });
    });
  }

  it('valid values are accepted and served', async () => {
    const server = createServer({ name: 'options', version: '1.0.0', tools: [echo] });
    const listener = await server.listen({ port: 0, path: '/tools', writeTimeoutMs: 1000, headersTimeoutMs: 2000, requestTimeoutMs: 3000, keepAliveTimeoutMs: 500, maxBodyBytes: 4096 });
    try {
      assert.match(listener.url, /^http:\/\/127\.0\.0\.1:\d+\/tools$/);
      assert.equal(listener.server.keepAliveTimeout, 500);
      assert.equal(listener.server.headersTimeout, 2000);
      assert.equal(listener.server.requestTimeout, 3000);
    } finally {
      await listener.close();
    }
  });
});
