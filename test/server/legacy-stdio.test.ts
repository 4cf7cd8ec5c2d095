/**
 * The era of a stdio process is chosen by its first message (digest §1.4), in real child
 * processes (`toolwright serve` of the demo module): `initialize` makes the process one 2025
 * session (answered with the requested revision; `ping`, `logging/setLevel`, translated requests;
 * a second `initialize` and 2026-07-28-only methods refused), a 2026-07-28 request makes it modern (`server/discover` alone does not).
 * `--eras` narrows what is served. Every stdout line is validated against the official schema of
 * the revision in force.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StdioChild } from '../fixtures/servers/stdio-child.js';

type Json = Record<string, unknown>;
const DEMO = 'examples/demo/server.ts';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

async function withChild(args: string[], body: (child: StdioChild) => Promise<void>): Promise<void> {
  const child = new StdioChild(['serve', DEMO, ...args]);
  try {
    await body(child);
    assert.equal(await child.end(), 0);
    assert.deepEqual(child.violations, []);
  } finally {
    child.kill();
  }
}

describe('stdio: the first message chooses the era of the process', () => {
  it('initialize → a 2025-06-18 session: translated calls, ping, setLevel; a second initialize and server/discover are refused', async () => {
    await withChild([], async (child) => {
      child.revision = '2025-06-18';
      child.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'desktop', version: '1' } } });
      const init = (await child.response(1)).result as Json;
      assert.equal(init.protocolVersion, '2025-06-18');
      assert.deepEqual(init.serverInfo, { name: 'toolwright-demo', version: '0.1.0' }); // 2025-06-18 Implementation: no description, icons or websiteUrl
      child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      child.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const tools = ((await child.response(2)).result as Json).tools as Json[];
      assert.deepEqual(tools.map((t) => t.name).sort(), ['calculate_sum', 'server_time']);
      child.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'calculate_sum', arguments: { a: 2, b: 3 } } });
      const sum = (await child.response(3)).result as Json;
      assert.equal('resultType' in sum, false);
      assert.deepEqual(sum.structuredContent, { sum: 5 });
      child.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
      assert.deepEqual(await child.response(4), { jsonrpc: '2.0', id: 4, result: {} });
      child.send({ jsonrpc: '2.0', id: 5, method: 'logging/setLevel', params: { level: 'warning' } });
      assert.deepEqual(await child.response(5), { jsonrpc: '2.0', id: 5, result: {} });
      child.send({ jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } });
      assert.deepEqual((await child.response(6)).error, { code: -32600, message: 'Invalid request: this stdio connection is already initialized; a process has one session' });
      child.send({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: MODERN_META } });
      assert.deepEqual((await child.response(7)).error, { code: -32601, message: 'Method not found: server/discover (not part of 2025-06-18)' });
    });
  });

  it('server/discover alone decides nothing: an initialize after an (unanswered) probe opens a 2025 session', async () => {
    await withChild([], async (child) => {
      // (test/interop/stdio-probe-fallback.test.ts sends both lines at once, as @ai-sdk/mcp does.)
      child.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } });
      assert.equal(((await child.response(1)).result as Json).resultType, 'complete');
      child.revision = '2025-11-25';
      child.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      assert.equal(((await child.response(2)).result as Json).protocolVersion, '2025-11-25');
    });
  });

  it('a 2026-07-28 request → modern: a later initialize is refused with an error naming the rule', async () => {
    await withChild([], async (child) => {
      child.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } });
      assert.equal(((await child.response(1)).result as Json).resultType, 'complete');
      child.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      const refused = (await child.response(2)).error as Json;
      assert.equal(refused.code, -32600);
      assert.match(refused.message as string, /the era is chosen by the first message of a process and cannot change/);
    });
  });

  it('--eras modern: initialize gets -32022 naming 2026-07-28; --eras legacy: modern requests get -32022 naming the 2025 revisions', async () => {
    await withChild(['--eras', 'modern'], async (child) => {
      child.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
      const error = (await child.response(1)).error as Json;
      assert.equal(error.code, -32022);
      assert.deepEqual(error.data, { supported: ['2026-07-28'], requested: '2025-11-25' });
    });
    await withChild(['--eras', 'legacy'], async (child) => {
      child.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } });
      const error = (await child.response(1)).error as Json;
      assert.equal(error.code, -32022);
      assert.deepEqual(error.data, { supported: ['2025-11-25', '2025-06-18', '2025-03-26'], requested: '2026-07-28' });
    });
  });

  it('an unknown --eras value is a usage error (exit 2) naming the accepted words', async () => {
    const child = new StdioChild(['serve', DEMO, '--eras', '2024']);
    try {
      assert.equal(await child.exited, 2);
      assert.match(child.stderr, /^toolwright serve: --eras: unknown era "2024"; use modern, legacy, both, or revisions \(2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2025\)\n/);
    } finally {
      child.kill();
    }
  });
});
