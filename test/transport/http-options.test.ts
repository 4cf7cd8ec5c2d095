/**
 * HTTP option values are checked when they are resolved: a timeout of NaN would mean "never" to
 * node:http and a path without "/" would match no request, so both fail at once with the option named.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer } from '../../src/index.js';
import { sampleTool } from '../support/sample-tool.js';

const echo = sampleTool();

const BAD_NUMBERS: readonly [string, unknown, string][] = [
  ['writeTimeoutMs', Number.NaN, 'HTTP option writeTimeoutMs must be a positive whole number, got NaN'],
  ['headersTimeoutMs', 0, 'HTTP option headersTimeoutMs must be a positive whole number, got 0'],
  ['requestTimeoutMs', -5, 'HTTP option requestTimeoutMs must be a positive whole number, got -5'],
  ['keepAliveTimeoutMs', 1.5, 'HTTP option keepAliveTimeoutMs must be a positive whole number, got 1.5'],
  ['maxBodyBytes', Number.POSITIVE_INFINITY, 'HTTP option maxBodyBytes must be a positive whole number, got Infinity'],
  ['maxResponseBytes', '1000', 'HTTP option maxResponseBytes must be a positive whole number, got "1000"'],
  // Node turns a timer over 2^31-1 ms into 1 ms (TimeoutOverflowWarning): refused, not served with a 1 ms timeout.
  ...(['writeTimeoutMs', 'headersTimeoutMs', 'requestTimeoutMs', 'keepAliveTimeoutMs'] as const).map((name): [string, unknown, string] => [
    name, 2_147_483_648, `HTTP option ${name} must be at most 2147483647 ms (about 24.8 days, the longest timer Node keeps), got 2147483648`,
  ]),
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

  it('headersTimeoutMs above requestTimeoutMs is refused naming both options, from listen() and createServer', async () => {
    const message = 'HTTP option headersTimeoutMs (40000) must not exceed requestTimeoutMs (20000): the headers are part of the request';
    const server = createServer({ name: 'options', version: '1.0.0', tools: [echo] });
    await assert.rejects(server.listen({ port: 0, headersTimeoutMs: 40_000, requestTimeoutMs: 20_000 }), { name: 'RangeError', message });
    assert.throws(() => createServer({ name: 'options', version: '1.0.0', tools: [echo], http: { headersTimeoutMs: 40_000, requestTimeoutMs: 20_000 } }), { name: 'RangeError', message });
  });

  it('one of headersTimeoutMs / requestTimeoutMs alone moves the default of the other instead of failing', async () => {
    const cases: [Record<string, number>, number, number][] = [
      [{ headersTimeoutMs: 60_000 }, 60_000, 60_000],
      [{ requestTimeoutMs: 5000 }, 5000, 5000],
      [{ headersTimeoutMs: 2147483647 }, 2147483647, 2147483647],
      [{}, 10_000, 30_000],
    ];
    for (const [options, headers, request] of cases) {
      const server = createServer({ name: 'options', version: '1.0.0', tools: [echo] });
      const listener = await server.listen({ port: 0, ...options });
      try {
        assert.deepEqual([listener.server.headersTimeout, listener.server.requestTimeout], [headers, request], JSON.stringify(options));
      } finally {
        await listener.close();
      }
    }
  });

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
