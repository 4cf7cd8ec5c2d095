/** The everything server over stdio: subscriptions/listen shares the line stream with other requests. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createEverythingServer } from '../../examples/conformance/everything-server.js';
import { META, rpc } from '../fixtures/servers/raw-http.js';
import { assertMessage } from './wire-client.js';
import { until } from '../support/until.js';

type Json = Record<string, unknown>;

describe('subscriptions over stdio', () => {
  it('listen acknowledges, stays open while other requests are answered, delivers tagged changes, ends on cancel', async () => {
    const server = createEverythingServer();
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = server.stdio({ input, output });
    const messages: Json[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let cut: number;
      while ((cut = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, cut)) as Json;
        buffered = buffered.slice(cut + 1);
        messages.push(message);
      }
    });
    const seen = (what: string) => () => `${what} (got ${JSON.stringify(messages)})`;
    try {
      input.write(`${JSON.stringify(rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'sub'))}\n`);
      await until(() => messages.length >= 1, seen('the acknowledgement'), { timeoutMs: 5000 });
      assertMessage(messages[0], 'subscriptions/listen');
      assert.equal(messages[0]?.method, 'notifications/subscriptions/acknowledged');
      input.write(`${JSON.stringify(rpc('tools/call', { name: 'test_trigger_tool_change', arguments: {} }, 2))}\n`);
      await until(() => messages.some((m) => m.id === 2), seen('the answer to call 2'), { timeoutMs: 5000 });
      const change = messages.find((m) => m.method === 'notifications/tools/list_changed');
      assert.deepEqual(change?.params, { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' } });
      assert.match(JSON.stringify(messages.find((m) => m.id === 2)), /Notified 1 subscription/);
      input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub' } })}\n`);
      input.write(`${JSON.stringify(rpc('tools/call', { name: 'test_trigger_tool_change', arguments: {} }, 3, META))}\n`);
      await until(() => messages.some((m) => m.id === 3), seen('the answer to call 3'), { timeoutMs: 5000 });
      assert.match(JSON.stringify(messages.find((m) => m.id === 3)), /Notified 0 subscription/);
      assert.equal(messages.filter((m) => m.id === 'sub').length, 0, 'a cancelled listen gets no response');
    } finally {
      connection.close();
      await server.close();
    }
  });
});
