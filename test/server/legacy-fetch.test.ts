/**
 * Legacy sessions through the web-standard handler (`server.fetch`): initialize, the GET stream
 * carrying a list change, DELETE ending the session and its stream. Every message is validated
 * against the official 2025-11-25 schema.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { sseMessagesAsTheyArrive } from '../support/sse-events.js';

type Json = Record<string, unknown>;

it('server.fetch serves a 2025 session: initialize, GET stream, DELETE', async () => {
  const server = createServer({ name: 'f', version: '1', listChanged: ['tools'], tools: [defineTool({ name: 't', description: 'd', inputSchema: { type: 'object' }, run: () => 'ok' })] });
  try {
    const post = (body: Json, headers: Record<string, string> = {}): Promise<Response> =>
      server.fetch(new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) }));
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
    const initBody = (await init.json()) as Json;
    assertServerMessage(initBody, 'initialize', '2025-11-25');
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25' };
    assert.match(session['mcp-session-id'], /^[0-9a-f-]{36}$/);
    const get = await server.fetch(new Request('http://localhost/mcp', { method: 'GET', headers: { accept: 'text/event-stream', ...session } }));
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('content-type'), 'text/event-stream');
    const events = sseMessagesAsTheyArrive(get.body!);
    assert.equal(server.notifyListChanged('tools'), 1);
    const event = (await events.next()).value as Json;
    assertServerMessage(event, undefined, '2025-11-25');
    assert.deepEqual(event, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const del = await server.fetch(new Request('http://localhost/mcp', { method: 'DELETE', headers: session }));
    assert.equal(del.status, 200);
    assert.equal((await events.next()).done, true, 'DELETE ends the GET stream');
    const after = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, session);
    assert.equal(after.status, 404);
    assert.deepEqual(await after.json(), { jsonrpc: '2.0', id: 2, error: { code: -31404, message: 'Session not found: it expired or was deleted; send initialize again' } });
  } finally {
    await server.close();
  }
});

it('a GET whose client left while the stream was being opened lets go of the claim: the next GET is served, not refused as a second stream', async () => {
  const server = createServer({ name: 'f', version: '1', tools: [defineTool({ name: 't', description: 'd', inputSchema: { type: 'object' }, run: () => 'ok' })] });
  try {
    const init = await server.fetch(new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }) }));
    await init.text();
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25' };
    const gone = new AbortController();
    gone.abort();
    const abandoned = await server.fetch(new Request('http://localhost/mcp', { method: 'GET', headers: { accept: 'text/event-stream', ...session }, signal: gone.signal }));
    assert.equal(abandoned.status, 200);
    assert.equal((await abandoned.body!.getReader().read()).done, true, 'the abandoned stream is ended at once');
    const next = await server.fetch(new Request('http://localhost/mcp', { method: 'GET', headers: { accept: 'text/event-stream', ...session } }));
    assert.equal(next.status, 200, 'a second GET would be refused 409 while the abandoned one held the claim');
    await next.body!.cancel();
  } finally {
    await server.close();
  }
});
