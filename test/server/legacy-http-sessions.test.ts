/**
 * The 2025 session rules over real HTTP on loopback: revisions negotiated and results shaped per
 * revision, the bounded session table (503 + Retry-After, no eviction, idle expiry), the GET stream
 * (list changes, resource updates, progress and server-to-client requests for POSTs that accept no
 * stream), DELETE, input timeouts and round limits. Every legacy row of the outcome table is driven
 * here (the last test checks). Every server message is validated against the official schema of
 * the revision the session negotiated.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore, createServer, defineResource, defineTool, elicitInput } from '../../src/index.js';
import type { HttpListener, McpServer, Store } from '../../src/index.js';
import { OUTCOMES } from '../../src/server/outcomes.js';
import type { OutcomeName } from '../../src/server/outcomes.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import type { McpRevision } from '../fixtures/servers/wire-schema.js';
import { exchange, openStream, type LegacyExchange, type SessionStream } from '../support/legacy-session-client.js';
import { sseMessagesAsTheyArrive } from '../support/sse-events.js';

type Json = Record<string, unknown>;
const covered = new Set<OutcomeName>();

const greet = defineTool({
  name: 'greet',
  title: 'Greeter',
  description: 'Greets with structured output.',
  inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'], additionalProperties: false } as const,
  outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
  run: (args, ctx) => {
    ctx.progress(1, 2, 'half');
    return { structuredContent: { text: `Hello, ${args.who}!` } };
  },
});
const askTwice = defineTool({
  name: 'ask_twice',
  description: 'Needs two answers, one round after the other.',
  inputSchema: { type: 'object' },
  run: (_args, ctx) => {
    const first = ctx.inputs.require({ a: elicitInput({ message: 'First?', requestedSchema: { type: 'object', properties: { v: { type: 'string' } } } }) });
    if (!first.ready) return first.result;
    const second = ctx.inputs.require({ b: elicitInput({ message: 'Second?', requestedSchema: { type: 'object', properties: { v: { type: 'string' } } } }) });
    if (!second.ready) return second.result;
    return `${String(first.responses.a.content?.v)} ${String(second.responses.b.content?.v)}`;
  },
});
const status = defineResource({ uri: 'test://status', name: 'status', read: () => 'ok' });

let clock = 1_000_000;
let server: McpServer;
let listener: HttpListener;
let runs = 0;

before(async () => {
  server = createServer({
    name: 'sessions', version: '2.0.0', title: 'Sessions fixture', description: 'not in 2025-03-26',
    tools: [greet, askTwice, defineTool({ name: 'count', description: 'Counts runs.', inputSchema: { type: 'object' }, run: () => String(++runs) })],
    resources: [status], resourceUpdates: true, listChanged: ['tools'],
    // Sessions live in the server's store, on this clock (the default memory store uses it).
    clock: { now: () => clock },
    // A long input timeout: answering tests read the question and post the answer in time on a loaded machine (the timeout itself has its own server below).
    legacy: { maxSessions: 3, sessionIdleMs: 60_000, inputTimeoutMs: 30_000, maxInputRounds: 1 },
  });
  listener = await server.listen({ port: 0 });
});
after(() => server.close());

/** One request, with every message the server sent checked against the official schema of `revision`. */
async function send(body: Json, headers: Record<string, string>, revision: McpRevision, init: { method?: string; accept?: string } = {}): Promise<LegacyExchange> {
  const res = await exchange(listener.url, body, headers, init);
  // GET/DELETE refusals answer no request, so they carry no id; only 2025-11-25 defines that shape (earlier revisions require an id).
  for (const m of res.messages) assertServerMessage(m, m.id === body.id ? (body.method as string) : undefined, m.id === undefined && 'error' in m ? '2025-11-25' : revision);
  return res;
}

async function open(protocolVersion: string, capabilities: Json = { elicitation: {} }): Promise<{ headers: Record<string, string>; result: Json; revision: McpRevision }> {
  const res = await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities, clientInfo: { name: 't', version: '1' } } }, {}, '2025-11-25');
  assert.equal(res.status, 200, JSON.stringify(res.messages));
  const result = res.messages[0]?.result as Json;
  const revision = result.protocolVersion as McpRevision;
  assertServerMessage(res.messages[0], 'initialize', revision);
  const headers = { 'mcp-session-id': res.headers.get('mcp-session-id') as string, 'mcp-protocol-version': revision };
  assert.equal((await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers, revision)).status, 202);
  return { headers, result, revision };
}

async function close(headers: Record<string, string>): Promise<void> {
  const res = await send({}, headers, '2025-11-25', { method: 'DELETE' });
  assert.equal(res.status, 200);
}

/** The session's GET stream, read message by message, every message checked against the revision's schema. */
function stream(headers: Record<string, string>, revision: McpRevision): Promise<SessionStream> {
  return openStream(listener.url, { headers }, (m) => assertServerMessage(m, undefined, revision));
}

describe('revisions', () => {
  it('each 2025 revision is answered with itself; results carry exactly that revision\'s fields', async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const { headers, result, revision } = await open(version);
      assert.equal(result.protocolVersion, version);
      const info = result.serverInfo as Json;
      assert.equal('description' in info, version === '2025-11-25', version);
      assert.equal('title' in info, version !== '2025-03-26', version);
      assert.deepEqual(result.capabilities, { tools: { listChanged: true }, logging: {}, resources: { subscribe: true } });
      const list = await send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers, revision);
      const tool = ((list.messages[0]?.result as Json).tools as Json[]).find((t) => t.name === 'greet') as Json;
      assert.equal('outputSchema' in tool, version !== '2025-03-26', version);
      const call = await send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { who: 'Ada' } } }, headers, revision);
      const final = call.messages.at(-1)?.result as Json;
      assert.deepEqual(final.content, [{ type: 'text', text: '{"text":"Hello, Ada!"}' }]);
      assert.equal('structuredContent' in final, version !== '2025-03-26', version);
      await close(headers);
    }
  });
});

describe('the bounded session table', () => {
  it('when full, initialize gets 503 with Retry-After; live sessions keep working; idle ones expire (404)', async () => {
    const sessions = [await open('2025-11-25'), await open('2025-11-25'), await open('2025-11-25')];
    const full = await send({ jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }, {}, '2025-11-25');
    assert.equal(full.status, 503);
    assert.equal(full.headers.get('retry-after'), '60');
    assert.deepEqual(full.messages[0], { jsonrpc: '2.0', id: 9, error: { code: -31503, message: 'Server busy: all 3 sessions are in use; retry in 60 s' } });
    covered.add('legacySessionsFull');
    for (const s of sessions) assert.deepEqual((await send({ jsonrpc: '2.0', id: 3, method: 'ping' }, s.headers, s.revision)).messages[0], { jsonrpc: '2.0', id: 3, result: {} });
    // Idle expiry: the first two go quiet past the timeout, the third is used just before.
    clock += 59_000;
    await send({ jsonrpc: '2.0', id: 4, method: 'ping' }, sessions[2]!.headers, '2025-11-25');
    clock += 2_000;
    const gone = await send({ jsonrpc: '2.0', id: 5, method: 'ping' }, sessions[0]!.headers, '2025-11-25');
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.messages[0], { jsonrpc: '2.0', id: 5, error: { code: -31404, message: 'Session not found: it expired or was deleted; send initialize again' } });
    covered.add('legacySessionNotFound');
    const fresh = await open('2025-11-25');
    assert.equal((await send({ jsonrpc: '2.0', id: 6, method: 'ping' }, sessions[2]!.headers, '2025-11-25')).status, 200);
    for (const s of [fresh, sessions[2]!]) await close(s.headers);
  });

  it('requests without a session are 400; initialize with one is 400; DELETE ends a session (then 404)', async () => {
    const none = await send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' }, '2025-11-25');
    assert.equal(none.status, 400);
    assert.deepEqual(none.messages[0], { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Bad request: Mcp-Session-Id header is required; send initialize first' } });
    const { headers } = await open('2025-11-25');
    const again = await send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }, headers, '2025-11-25');
    assert.equal(again.status, 400);
    assert.equal((again.messages[0]?.error as Json).message, 'Invalid request: initialize must not carry an Mcp-Session-Id; it opens a new session');
    covered.add('legacySessionRequired');
    const bad = await send({ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: 7, capabilities: {} } }, {}, '2025-11-25');
    assert.deepEqual([bad.status, bad.messages[0]?.error], [400, { code: -32602, message: 'Invalid params: initialize needs a string protocolVersion and a capabilities object' }]);
    covered.add('legacyInvalidInitialize');
    await close(headers);
    assert.equal((await send({ jsonrpc: '2.0', id: 4, method: 'ping' }, headers, '2025-11-25')).status, 404);
    const twice = await send({}, headers, '2025-11-25', { method: 'DELETE' });
    assert.deepEqual([twice.status, (twice.messages[0]?.error as Json).code], [404, -31404]);
  });
});

describe('the GET stream', () => {
  it('carries list changes and updates of subscribed resources only; DELETE closes it', async () => {
    const { headers, revision } = await open('2025-06-18');
    const events = await stream(headers, revision);
    server.notifyListChanged('tools');
    assert.deepEqual(await events.next(), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    server.notifyResourceUpdated('test://status'); // not subscribed yet: must not arrive
    const sub = await send({ jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri: 'test://status' } }, headers, revision);
    assert.deepEqual(sub.messages[0], { jsonrpc: '2.0', id: 1, result: {} });
    server.notifyResourceUpdated('test://status');
    assert.deepEqual(await events.next(), { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://status' } });
    const badSub = await send({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: {} }, headers, revision);
    assert.deepEqual(badSub.messages[0]?.error, { code: -32602, message: 'Invalid params: resources/subscribe needs a string "uri"' });
    covered.add('legacyInvalidParams');
    await send({ jsonrpc: '2.0', id: 3, method: 'resources/unsubscribe', params: { uri: 'test://status' } }, headers, revision);
    server.notifyResourceUpdated('test://status'); // unsubscribed: must not arrive before the next list change
    server.notifyListChanged('tools');
    assert.equal((await events.next()).method, 'notifications/tools/list_changed');
    const second = await send({}, headers, revision, { method: 'GET', accept: 'text/event-stream' });
    assert.deepEqual([second.status, (second.messages[0]?.error as Json).message], [409, 'Conflict: this session already has an open GET stream']);
    covered.add('legacyStreamConflict');
    const noAccept = await send({}, headers, revision, { method: 'GET', accept: 'application/json' });
    assert.deepEqual([noAccept.status, (noAccept.messages[0]?.error as Json).code], [406, -32600]);
    covered.add('legacyNotAcceptable');
    await close(headers);
    await events.closed; // the server ended the stream
  });

  it('two GETs of one session at the same time: one stream, the other 409 (both would pass a claim made by this same instance)', async () => {
    // A store answering a macrotask later, as a networked one does: the two GETs' claims interleave.
    const memory = createMemoryStore();
    const later = <T>(value: Promise<T>): Promise<T> => value.then((v) => new Promise<T>((resolve) => setImmediate(() => resolve(v))));
    const slow: Store = Object.assign(Object.create(memory) as Store, {
      get: (...args: Parameters<Store['get']>) => later(memory.get(...args)),
      compareAndSet: (...args: Parameters<Store['compareAndSet']>) => later(memory.compareAndSet(...args)),
    });
    const racing = createServer({ name: 'racing', version: '1.0.0', tools: [], store: slow });
    const served = await racing.listen({ port: 0 });
    try {
      const init = await exchange(served.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, {});
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-06-18' };
      const both = await Promise.all([0, 1].map(() => fetch(served.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } })));
      assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
      const refused = both.find((r) => r.status === 409) as Response;
      assert.deepEqual(((await refused.json()) as Json).error, { code: -32600, message: 'Conflict: this session already has an open GET stream' });
      await both.find((r) => r.status === 200)?.body?.cancel();
    } finally {
      await racing.close();
    }
  });

  it('a POST that accepts only JSON gets its progress and its elicitation on the GET stream', async () => {
    const { headers, revision } = await open('2025-11-25');
    const events = await stream(headers, revision);
    const call = send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'greet', arguments: { who: 'Bo' }, _meta: { progressToken: 'p1' } } }, headers, revision, { accept: 'application/json' });
    assert.deepEqual(await events.next(), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2, message: 'half' } });
    const done = await call;
    assert.equal(done.headers.get('content-type'), 'application/json');
    assert.deepEqual((done.messages[0]?.result as Json).structuredContent, { text: 'Hello, Bo!' });
    await events.cancel();
    await close(headers);
  });
});

describe('server-to-client requests', () => {
  it('unanswered: the call ends with -31408 after inputTimeoutMs and the tool never completes', async () => {
    const impatient = createServer({ name: 'impatient', version: '1.0.0', tools: [askTwice], legacy: { inputTimeoutMs: 300 } });
    const served = await impatient.listen({ port: 0 });
    try {
      const init = await exchange(served.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } } }, {});
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25' };
      const res = await exchange(served.url, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'ask_twice', arguments: {} } }, headers);
      for (const m of res.messages) assertServerMessage(m, m.id === 8 ? 'tools/call' : undefined, '2025-11-25');
      assert.equal(res.messages[0]?.method, 'elicitation/create');
      assert.deepEqual(res.messages.at(-1), { jsonrpc: '2.0', id: 8, error: { code: -31408, message: 'No answer to elicitation/create within 300 ms; the request was not run' } });
      covered.add('legacyInputTimeout');
    } finally {
      await impatient.close();
    }
  });

  it('a call needing more rounds than maxInputRounds ends with -32603; an error answer is -32603 naming it', async () => {
    const { headers, revision } = await open('2025-11-25');
    const res = await answering(headers, revision, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask_twice', arguments: {} } }, () => ({ result: { action: 'accept', content: { v: 'x' } } }));
    assert.deepEqual(res.at(-1), { jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Internal error: tools/call still needed input after 1 rounds' } });
    covered.add('legacyInputRounds');
    const failed = await answering(headers, revision, { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'ask_twice', arguments: {} } }, () => ({ error: { code: -2, message: 'no dialog' } }));
    assert.deepEqual(failed.at(-1), { jsonrpc: '2.0', id: 10, error: { code: -32603, message: 'Internal error: the client answered elicitation/create with error -2: no dialog' } });
    covered.add('legacyInputFailed');
    await close(headers);
  });
});

/** Posts `body` and answers each server-to-client request on its stream with `answer`; returns every message. */
async function answering(headers: Record<string, string>, revision: McpRevision, body: Json, answer: () => Json): Promise<Json[]> {
  const response = await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  const seen: Json[] = [];
  for await (const m of sseMessagesAsTheyArrive(response.body!)) {
    assertServerMessage(m, m.id === body.id ? (body.method as string) : undefined, revision);
    seen.push(m);
    if (m.method === 'elicitation/create') assert.equal((await send({ jsonrpc: '2.0', id: m.id, ...answer() }, headers, revision)).status, 202);
  }
  return seen;
}

describe('stdio era rule (in-process pipes; child processes in legacy-stdio.test.ts)', () => {
  it('initialize after 2026-07-28 traffic is refused naming the rule', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const connection = server.stdio({ input, output });
    const lines: Json[] = [];
    let buffered = '';
    const got = new Promise<void>((resolve) => output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, i)) as Json);
        buffered = buffered.slice(i + 1);
      }
      if (lines.length === 2) resolve();
    }));
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } })}\n`);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } })}\n`);
    await got;
    input.end();
    await connection.closed;
    // Replies on stdio come in completion order, not request order.
    const byId = new Map(lines.map((l) => [l.id, l]));
    assert.equal((byId.get(1)?.result as Json).resultType, 'complete');
    assert.deepEqual(byId.get(2), { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid request: initialize refused: this stdio connection already speaks 2026-07-28; the era is chosen by the first message of a process and cannot change (start a new process for a 2025 session)' } });
    assertServerMessage(byId.get(2), 'initialize', '2025-11-25');
    covered.add('legacyEraLocked');
  });

  it('covers every legacy row of the outcome table', () => {
    // The batch rows (legacyBatch*) are driven by test/server/legacy-batch.test.ts, the replay rows
    // (legacyReplay*) by test/server/legacy-resume.test.ts; each checks its own.
    const legacyRows = Object.keys(OUTCOMES).filter((name) => name.startsWith('legacy') && name !== 'legacyInitialize' && !name.startsWith('legacyBatch') && !name.startsWith('legacyReplay')).sort();
    assert.deepEqual([...covered].sort(), legacyRows);
  });
});
