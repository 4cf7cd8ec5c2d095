/**
 * The era rules and the legacy wire, exactly, against scripted answers from a real HTTP server on
 * 127.0.0.1; and the client's bounds against hostile servers (slow drip, endless events, endless
 * resumption, a flood of server requests).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replyError, replyResult } from './scripted-http-server.js';
import type { RecordedRequest } from './scripted-http-server.js';
import { useScriptedServerForFile } from './scripted-server-per-file.js';
import { rejectsWith } from './rejects-with.js';

const { server, client } = useScriptedServerForFile();


const TOOLS = [{ name: 'add', inputSchema: { type: 'object' } }];
const isModern = (r: RecordedRequest): boolean => r.headers['mcp-protocol-version'] === '2026-07-28';

/** A 2025-11-25 server with sessions: modern requests get 400 -32000 "Server not initialized". */
function legacyServer(options: { version?: string; sessionId?: string } = {}): void {
  server.script = (request, res) => {
    const method = request.body.method;
    if (method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': options.sessionId ?? 'sess-1' });
      return res.end(JSON.stringify({ jsonrpc: '2.0', id: request.body.id, result: { protocolVersion: options.version ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'legacy', version: '1' } } }));
    }
    if (request.headers['mcp-session-id'] === undefined) return replyError(res, request, { code: -32000, message: 'Bad Request: Server not initialized' }, 400);
    if (method === 'notifications/initialized') return void res.writeHead(202).end();
    if (method === 'tools/list') return replyResult(res, request, { tools: TOOLS });
    if (method === 'tools/call') return replyResult(res, request, { content: [{ type: 'text', text: 'ok' }] });
    replyError(res, request, { code: -32601, message: 'Method not found' });
  };
}

describe('finding the era over HTTP', () => {
  it('a 400 without a modern error: initialize (declared capabilities), initialized, then session id and negotiated version on every request', async () => {
    legacyServer();
    const c = client({ capabilities: { sampling: {} }, clientInfo: { name: 'probe', version: '9' } });
    const result = await c.callTool('add', {});
    assert.deepEqual(result.content, [{ type: 'text', text: 'ok' }]);
    const posts = server.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(posts.map((r) => r.body.method), ['tools/list', 'initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    const [probe, init, initialized, list, call] = posts as [RecordedRequest, RecordedRequest, RecordedRequest, RecordedRequest, RecordedRequest];
    // Declaring sampling means the server may ask at any time: the session's GET stream is opened for that
    // (concurrently with the calls, so its arrival is awaited rather than assumed).
    for (let i = 0; i < 500 && !server.requests.some((r) => r.method === 'GET'); i++) await new Promise((r) => setTimeout(r, 10));
    const gets = server.requests.filter((r) => r.method === 'GET');
    assert.equal(gets.length, 1);
    assert.equal(gets[0]?.headers['mcp-session-id'], 'sess-1');
    assert.equal(gets[0]?.headers.accept, 'text/event-stream');
    assert.ok(isModern(probe));
    assert.deepEqual(init.body.params, { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'probe', version: '9' } });
    assert.equal(init.headers['mcp-session-id'], undefined);
    for (const later of [initialized, list, call]) {
      assert.equal(later.headers['mcp-session-id'], 'sess-1');
      assert.equal(later.headers['mcp-protocol-version'], '2025-11-25');
      assert.equal(later.headers['mcp-method'], undefined, 'no 2026-07-28 headers on the legacy wire');
    }
    // Legacy requests carry no 2026-07-28 _meta.
    assert.deepEqual(call.body.params, { name: 'add', arguments: {} });
    assert.equal(c.era, 'legacy');
    // The tool list is kept for the session: a second call does not list again.
    const before = server.requests.length;
    await c.callTool('add', {});
    assert.deepEqual(server.requests.slice(before).map((r) => r.body.method), ['tools/call']);
  });

  it('recognised modern errors (-32020, -32021, -32022 for another modern version) are surfaced, never a fallback', async () => {
    for (const code of [-32020, -32021, -32022]) {
      server.requests.length = 0;
      server.script = (request, res) => replyError(res, request, { code, message: `modern ${code}`, ...(code === -32022 ? { data: { supported: ['2027-01-01'], requested: '2026-07-28' } } : {}) }, 400);
      await rejectsWith(client().listTools(), { kind: 'rpc', code, httpStatus: 400 });
      assert.deepEqual(server.requests.map((r) => r.body.method), ['tools/list'], `no initialize after ${code}`);
    }
  });

  it('a -32022 that lists only legacy revisions means legacy', async () => {
    server.script = (request, res) => {
      if (request.body.method === 'initialize') return replyResult(res, request, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'old', version: '1' } });
      if (request.body.method === 'notifications/initialized') return void res.writeHead(202).end();
      if (isModern(request)) return replyError(res, request, { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2025-06-18'], requested: '2026-07-28' } }, 400);
      replyResult(res, request, { tools: [] });
    };
    const c = client();
    await c.listTools();
    assert.equal(c.protocolVersion, '2025-06-18');
    assert.deepEqual(server.requests.map((r) => r.body.method), ['tools/list', 'initialize', 'notifications/initialized', 'tools/list']);
  });

  it('when initialize fails too, the error names both answers', async () => {
    server.script = (request, res) => replyError(res, request, { code: -32000, message: 'Bad Request: nope' }, 400);
    const error = await rejectsWith(client().listTools(), { kind: 'rpc', code: -32000, httpStatus: 400, method: 'tools/list' });
    assert.equal(error.message, 'tools/list failed: Bad Request: nope (JSON-RPC -32000, HTTP 400); the legacy handshake failed too: initialize failed: Bad Request: nope (JSON-RPC -32000, HTTP 400)');
  });

  it('a negotiated revision the client does not speak is a protocol error', async () => {
    legacyServer({ version: '2024-01-01' });
    const error = await rejectsWith(client().listTools(), { kind: 'rpc', httpStatus: 400 });
    assert.match(error.message, /the legacy handshake failed too: initialize: the server chose protocol version "2024-01-01", which this client does not speak/);
  });

  it('a session the server forgot (404) is opened again once; DELETE ends it on close()', async () => {
    let sessions = 0;
    let live = new Set<string>();
    server.script = (request, res) => {
      if (request.body.method === 'initialize') {
        const id = `sess-${++sessions}`;
        live.add(id);
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': id });
        return res.end(JSON.stringify({ jsonrpc: '2.0', id: request.body.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
      }
      const sid = request.headers['mcp-session-id'];
      if (sid === undefined) return replyError(res, request, { code: -32000, message: 'Server not initialized' }, 400);
      if (!live.has(String(sid))) return replyError(res, request, { code: -32001, message: 'Session not found' }, 404);
      if (request.body.method === 'notifications/initialized') return void res.writeHead(202).end();
      replyResult(res, request, request.body.method === 'tools/list' ? { tools: TOOLS } : { content: [] });
    };
    const c = client();
    await c.listTools();
    live = new Set();
    await c.callTool('add', {});
    assert.equal(sessions, 2);
    assert.equal(server.requests.at(-1)?.headers['mcp-session-id'], 'sess-2');
    await c.close();
    const last = server.requests.at(-1);
    assert.equal(last?.method, 'DELETE');
    assert.equal(last?.headers['mcp-session-id'], 'sess-2');
  });
});

describe('bounds against a hostile server', () => {
  it('an SSE stream that sends notifications forever is cut off by the request timeout', async () => {
    server.script = (request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })}\n\n`), 5);
      res.on('close', () => clearInterval(timer));
    };
    let seen = 0;
    // A second: long enough for the first notifications to arrive on a loaded machine.
    await rejectsWith(client({ era: 'modern' }).request('tools/list', {}, { timeoutMs: 1000, onNotification: () => seen++ }), { kind: 'timeout', message: 'tools/list: no response within 1000 ms; the request was cancelled' });
    assert.ok(seen > 0, 'the notifications were read as they came');
  });

  it('one event that never ends is refused at maxMessageBytes', async () => {
    server.script = (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      const timer = setInterval(() => res.write('x'.repeat(4096)), 1);
      res.on('close', () => clearInterval(timer));
    };
    const c = client({ era: 'modern' }, { maxMessageBytes: 64 * 1024 });
    await rejectsWith(c.listTools(), { kind: 'protocol', message: `tools/list: an event on the stream exceeds ${64 * 1024} bytes` });
  });

  it('endless pages are bounded by one deadline for the whole listing', async () => {
    let page = 0;
    server.script = (request, res) => setTimeout(() => replyResult(res, request, { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public', nextCursor: `p${++page}` }), 20);
    await rejectsWith(client({ era: 'modern', timeoutMs: 400 }).listTools(), { kind: 'timeout', message: 'tools/list: the listing did not finish within 400 ms; stopped' });
    assert.ok(page < 1000, 'stopped long before maxPages');
  });

  it('a legacy stream closed again and again is resumed at most 5 times, then the call fails', async () => {
    legacyServer();
    const base = server.script;
    server.script = (request, res) => {
      if (request.body.method !== 'tools/call' && request.body.method !== undefined) return base(request, res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('id: e1\nretry: 1\ndata: \n\n');
    };
    const c = client();
    await c.listTools();
    await rejectsWith(c.callTool('add', {}), { kind: 'transport', message: 'tools/call: the event stream ended before the response (re-issue the request with a new id)' });
    const resumes = server.requests.filter((r) => r.method === 'GET');
    assert.equal(resumes.length, 5);
    for (const r of resumes) assert.equal(r.headers['last-event-id'], 'e1');
  });
});
