/**
 * A request of a 2025 session whose MCP-Protocol-Version header names no served revision is
 * answered as an unsupported version (OUTCOMES unsupportedVersion, -32022, naming every revision
 * served), not as a 2026-07-28 request missing its `_meta`; nothing runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { exchange, openSession } from '../support/legacy-session-client.js';
import type { LegacySession } from '../support/legacy-session-client.js';

let runs = 0;
const count = defineTool({ name: 'count', description: 'Counts its calls.', inputSchema: { type: 'object' }, run: () => `run ${++runs}` });
let server: McpServer;
let listener: HttpListener;
let session: LegacySession;

before(async () => {
  server = createServer({ name: 'versions', version: '1.0.0', tools: [count] });
  listener = await server.listen({ port: 0 });
  session = await openSession(listener.url);
});
after(() => server.close());

const MESSAGE = 'Unsupported protocol version: 2099-01-01 (MCP-Protocol-Version header); this server supports 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26';

describe('legacy session: unknown MCP-Protocol-Version', () => {
  it('tools/call with MCP-Protocol-Version 2099-01-01 in a 2025 session: 400, -32022 naming the supported versions, the tool not run', async () => {
    const headers = { ...session.headers, 'mcp-protocol-version': '2099-01-01' };
    const answer = await exchange(listener.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'count', arguments: {} } }, headers);
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.messages, [{
      jsonrpc: '2.0', id: 7,
      error: { code: -32022, message: MESSAGE, data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '2099-01-01' } },
    }]);
    assert.equal(runs, 0);
    // The session is unharmed: the same call with its own version runs.
    const ok = await exchange(listener.url, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'count', arguments: {} } }, session.headers);
    assert.equal(ok.status, 200);
    assert.equal(runs, 1);
  });

  it('a notification with that header is accepted (202) without an answer; a body claiming 2026-07-28 still gets the header mismatch', async () => {
    const notification = await exchange(listener.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, { ...session.headers, 'mcp-protocol-version': '2099-01-01' });
    assert.deepEqual([notification.status, notification.messages], [202, []]);
    const modernBody = { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
    const mismatch = await exchange(listener.url, modernBody, { 'mcp-protocol-version': '2099-01-01' });
    assert.equal(mismatch.status, 400);
    assert.equal((mismatch.messages[0]!.error as { code: number }).code, -32020);
  });
});
