/**
 * JSON-RPC batches on stdio, in a real child process (`toolwright serve` of the batch fixture,
 * limit 4): a 2025-03-26 session answers a batch line with one array line (members' responses in
 * member order); notifications only answer nothing; the empty batch, invalid members, initialize
 * in a batch, and the member limit (nothing runs, read back from the `count` tool); a 2025-06-18
 * session and 2026-07-28 traffic refuse an array exactly as before. Every stdout line, array
 * lines included, is validated against the official schema of the session's revision.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StdioChild } from '../fixtures/servers/stdio-child.js';

type Json = Record<string, unknown>;
const FIXTURE = 'test/fixtures/servers/batch-tools.ts';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const call = (id: number | string, name: string, args: Json = {}): Json => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const text = (m: Json | undefined): string => String(((m?.result as Json).content as Json[])[0]?.text);

async function withSession(revision: '2025-03-26' | '2025-06-18', body: (child: StdioChild) => Promise<void>): Promise<void> {
  const child = new StdioChild(['serve', FIXTURE]);
  try {
    child.revision = revision;
    child.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    assert.equal(((await child.response('init')).result as Json).protocolVersion, revision);
    child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await body(child);
    assert.equal(await child.end(), 0);
    assert.deepEqual(child.violations, []);
  } finally {
    child.kill();
  }
}

describe('stdio: JSON-RPC batches in a 2025-03-26 session', () => {
  it('batches answered with one array line each; notifications alone answer nothing; empty, invalid, initialize and over-limit batches refused', async () => {
    await withSession('2025-03-26', async (child) => {
      // Two calls and a notification: one array line with the two responses, in member order.
      child.sendBatch([call(1, 'echo', { text: 'one' }), { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, call(2, 'count')]);
      const first = await child.batch(0);
      assert.deepEqual(first.map((m) => m.id), [1, 2]);
      assert.deepEqual([text(first[0]), text(first[1])], ['one', '1']);

      // Notifications only: no line at all (the ping after it is the next thing answered).
      child.sendBatch([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]);
      child.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      await child.response(3);
      assert.equal(child.batches.length, 1);

      // The empty batch: one error object (not an array).
      child.writeLine('[]');
      await child.until(() => child.lines.some((m) => !('id' in m) && 'error' in m), 'the empty batch error');
      assert.deepEqual(child.lines.find((m) => !('id' in m) && 'error' in m), { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: the batch is empty; a JSON-RPC batch holds at least one message' } });

      // Invalid members and initialize each get their own error; the valid member runs.
      child.sendBatch([{ jsonrpc: '2.0', id: 4, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } }, 'x', call(5, 'count')]);
      const mixed = await child.batch(1);
      assert.deepEqual(mixed.map((m) => [m.id, (m.error as Json | undefined)?.code]), [[4, -32600], [undefined, -32600], [5, undefined]]);
      assert.match(String((mixed[0]?.error as Json).message), /initialize must not be part of a JSON-RPC batch/);
      assert.equal(text(mixed[2]), '2');

      // Over the limit of 4: one error naming it, and nothing ran (count goes on from 2).
      child.sendBatch([call(6, 'count'), call(7, 'count'), call(8, 'count'), call(9, 'count'), call(10, 'count')]);
      await child.until(() => child.lines.some((m) => (m.error as Json | undefined)?.message?.toString().startsWith('Batch too large') === true), 'the over-limit error');
      assert.deepEqual((child.lines.find((m) => String((m.error as Json | undefined)?.message).startsWith('Batch too large'))?.error as Json).data, { limit: 4, received: 5 });
      child.send(call(11, 'count'));
      assert.equal(text(await child.response(11)), '3', 'no call of the refused batch ran');
    });
  });

  it('initialize inside a batch as the first line: refused, and the process can still open a session', async () => {
    const child = new StdioChild(['serve', FIXTURE]);
    child.revision = '2025-03-26';
    try {
      child.sendBatch([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } }]);
      await child.until(() => child.lines.length > 0, 'the refusal');
      assert.deepEqual(child.lines[0], { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: initialize must not be part of a JSON-RPC batch (MCP 2025-03-26, lifecycle); send it alone, then batch the requests that follow' } });
      child.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } });
      assert.equal(((await child.response(2)).result as Json).protocolVersion, '2025-03-26');
    } finally {
      child.kill();
    }
  });
});

describe('stdio: arrays outside 2025-03-26 sessions are refused exactly as before', () => {
  const REFUSAL = { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: batch arrays are not supported; send one message at a time' } };

  it('a 2025-06-18 session: the same -32600 as before, nothing runs', async () => {
    await withSession('2025-06-18', async (child) => {
      child.sendBatch([call(1, 'count'), call(2, 'count')]);
      await child.until(() => child.lines.some((m) => 'error' in m), 'the refusal');
      assert.deepEqual(child.lines.find((m) => 'error' in m), REFUSAL);
      child.send(call(3, 'count'));
      assert.equal(text(await child.response(3)), '1');
      assert.equal(child.batches.length, 0);
    });
  });

  it('2026-07-28 traffic: the same -32600 as before, nothing runs', async () => {
    const child = new StdioChild(['serve', FIXTURE]);
    try {
      child.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } });
      await child.response(1);
      child.sendBatch([{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: MODERN_META } }]);
      await child.until(() => child.lines.some((m) => 'error' in m), 'the refusal');
      assert.deepEqual(child.lines.find((m) => 'error' in m), REFUSAL);
      child.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: MODERN_META } });
      assert.equal(text(await child.response(3)), '1');
      assert.equal(await child.end(), 0);
      assert.deepEqual(child.violations, []);
    } finally {
      child.kill();
    }
  });
});
