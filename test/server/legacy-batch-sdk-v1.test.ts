/**
 * The official SDK v1 (@modelcontextprotocol/sdk 1.32.2) as the peer of a 2025-03-26 batch over
 * real HTTP: its StreamableHTTPClientTransport sends an array (`send(JSONRPCMessage[])`) and reads
 * both answers this server gives, a JSON array and an event stream of one message per event. (Its
 * `Client` sends one message per request and has no batch API; its stdio transport reads one message
 * per line and cannot parse an array line, so stdio batches are tested with a raw child process.)
 * Every message the SDK hands over is also checked against the official 2025-03-26 schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { count, countRuns, echo } from '../fixtures/servers/batch-tools.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { until } from '../support/until.js';

type Json = Record<string, unknown>;
/** The method of each request id the test sends (for the schema check of its answer). */
const METHODS = new Map<unknown, string>([[0, 'initialize'], [1, 'tools/call'], [2, 'tools/call'], [3, 'tools/call'], [4, 'ping']]);
let server: McpServer;
let listener: HttpListener;

before(async () => {
  server = createServer({ name: 'sdk-batches', version: '1.0.0', tools: [count, echo] });
  listener = await server.listen({ port: 0, host: '127.0.0.1' });
});
after(() => server.close());

/** The SDK transport with every message it receives collected and schema-checked. */
function transport(): { sdk: StreamableHTTPClientTransport; received: JSONRPCMessage[]; receivedAtLeast(n: number): Promise<void> } {
  const sdk = new StreamableHTTPClientTransport(new URL(listener.url));
  const received: JSONRPCMessage[] = [];
  sdk.onmessage = (m) => {
    const message = m as Json;
    assertServerMessage(message, METHODS.get(message.id), '2025-03-26');
    received.push(m);
  };
  sdk.onerror = (error) => assert.fail(`SDK transport error: ${error.message}`);
  const receivedAtLeast = (n: number): Promise<void> => until(() => received.length >= n, () => `the SDK receiving ${n} messages (it has ${received.length}: ${JSON.stringify(received)})`);
  return { sdk, received, receivedAtLeast };
}

describe('SDK v1 client transport sending batches to a 2025-03-26 session', () => {
  it('a JSON array answer and an event-stream answer both reach the SDK, one message each', async () => {
    const { sdk, received, receivedAtLeast } = transport();
    await sdk.start();
    // initialize alone (2025-03-26 forbids it in a batch); no setProtocolVersion: a 2025-03-26 client sends no version header.
    await sdk.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'sdk-v1', version: '1.32.2' } } });
    await receivedAtLeast(1);
    assert.equal(((received[0] as Json).result as Json).protocolVersion, '2025-03-26');
    assert.ok(sdk.sessionId);
    await sdk.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    const before = countRuns();
    // Two calls and a notification: answered as one application/json array, which the SDK splits.
    await sdk.send([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'via sdk' } } },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'count', arguments: {} } },
    ]);
    await receivedAtLeast(3);
    assert.deepEqual(received.slice(1).map((m) => (m as Json).id), [1, 2]);
    assert.deepEqual(((received[1] as Json).result as Json).content, [{ type: 'text', text: 'via sdk' }]);
    assert.equal(countRuns(), before + 1);

    // Progress asked for: the answer is an event stream; the SDK reads the progress and each response as its own event.
    await sdk.send([
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'streamed' }, _meta: { progressToken: 'p' } } },
      { jsonrpc: '2.0', id: 4, method: 'ping' },
    ]);
    await receivedAtLeast(6);
    assert.deepEqual(received.slice(3).map((m) => ('method' in m ? m.method : (m as Json).id)), ['notifications/progress', 3, 4]);

    // Notifications only: 202, nothing for the SDK.
    await sdk.send([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]);
    await sdk.terminateSession();
    await sdk.close();
    assert.equal(received.length, 6);
  });
});
