/**
 * JSON-RPC batches in 2025-03-26 sessions over real HTTP on 127.0.0.1 (src/server/legacy-batch.ts):
 * a mixed batch answered as one JSON array in member order, every call through the whole pipeline
 * (middleware, audit, approval); notifications or responses only → 202; the empty batch, invalid
 * members, `initialize` in a batch; progress and elicitation turning the answer into an SSE stream
 * of one event per message; the member limit (nothing runs); and arrays in 2025-06-18 and
 * 2025-11-25 sessions and 2026-07-28 traffic refused exactly as before batches existed. Every
 * server message is checked against the official schema of the session's revision.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { auditLog, createServer } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import type { Middleware } from '../../src/server/middleware/middleware.js';
import type { OutcomeName } from '../../src/server/outcomes.js';
import { askModel, count, countRuns, echo, guarded, MAX_BATCH } from '../fixtures/servers/batch-tools.js';
import { assertServerBatch, assertServerMessage } from '../fixtures/servers/wire-schema.js';
import type { McpRevision } from '../fixtures/servers/wire-schema.js';
import { openSession } from '../support/legacy-session-client.js';
import { sseMessages, sseMessagesAsTheyArrive } from '../support/sse-events.js';

type Json = Record<string, unknown>;
const covered = new Set<OutcomeName>();
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
// What an array got before batches existed, word for word (and what it still gets outside 2025-03-26 sessions).
const NOT_ONE = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: expected one JSON-RPC 2.0 message (batches are not accepted)"}}';
const MODERN_REFUSAL = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: batch arrays are not supported; send one message at a time"}}';

let server: McpServer;
let listener: HttpListener;
let dir: string;
const seen: string[] = [];
const recorder: Middleware = { name: 'recorder', handle: (call, next) => (seen.push(call.tool.name), next()) };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-batch-'));
  server = createServer({ name: 'batches', version: '1.0.0', tools: [count, echo, guarded, askModel], use: [recorder, auditLog({ path: join(dir, 'audit.jsonl') })], legacy: { maxBatchSize: MAX_BATCH } });
  listener = await server.listen({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (id: number | string, name: string, args: Json = {}, meta?: Json): Json => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) } });
const countResult = (m: Json | undefined): number => Number(((m?.result as Json).content as Json[])[0]?.text);

interface Answer { status: number; type: string; text: string; json: unknown; events: Json[] }

/** POSTs `body` (sent as is when a string) and reads the answer as JSON or as an event stream. */
async function post(body: unknown, headers: Record<string, string>, accept = 'application/json, text/event-stream'): Promise<Answer> {
  const response = await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const stream = type.startsWith('text/event-stream');
  return { status: response.status, type, text, json: text === '' || stream ? undefined : JSON.parse(text), events: stream ? sseMessages(text) : [] };
}

/** A session at `revision`; 2025-03-26 clients send no MCP-Protocol-Version header (it came with 2025-06-18), so none is sent for it. */
async function session(revision: McpRevision = '2025-03-26'): Promise<Record<string, string>> {
  const opened = await openSession(listener.url, { elicitation: {} }, revision);
  return revision === '2025-03-26' ? { 'mcp-session-id': opened.id } : opened.headers;
}

/** Asserts a batch answer and returns it by id. */
function answers(json: unknown, methods: Record<string, string>): Map<unknown, Json> {
  assertServerBatch(json, (id) => methods[String(id)]);
  return new Map((json as Json[]).map((m) => [m.id, m]));
}

describe('JSON-RPC batches in a 2025-03-26 session (HTTP)', () => {
  it('two calls and a notification: one JSON array of the two responses, in member order; each call ran through middleware and audit', async () => {
    const headers = await session();
    const before = countRuns();
    const res = await post([call('a', 'echo', { text: 'first' }), { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, call('b', 'count')], headers);
    assert.equal(res.status, 200, res.text);
    assert.match(res.type, /^application\/json/);
    const byId = answers(res.json, { a: 'tools/call', b: 'tools/call' });
    assert.deepEqual((res.json as Json[]).map((m) => m.id), ['a', 'b']);
    assert.deepEqual((byId.get('a')?.result as Json).content, [{ type: 'text', text: 'first' }]);
    assert.equal(countResult(byId.get('b')), before + 1);
    assert.deepEqual(seen.slice(-2).sort(), ['count', 'echo']);
    const audited = readFileSync(join(dir, 'audit.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Json).slice(-2);
    assert.deepEqual(audited.map((r) => [r.tool, r.request_id]).sort(), [['count', 'b'], ['echo', 'a']]);
  });

  it('notifications only, or responses only: 202 with no body', async () => {
    const headers = await session();
    const notifications = await post([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nothing-running' } }], headers);
    assert.deepEqual([notifications.status, notifications.text], [202, '']);
    const responses = await post([{ jsonrpc: '2.0', id: 'tw-unknown', result: {} }], headers);
    assert.deepEqual([responses.status, responses.text], [202, '']);
  });

  it('an empty batch: one -32600 error, not an array', async () => {
    const res = await post([], await session());
    assert.equal(res.status, 400);
    assert.deepEqual(res.json, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: the batch is empty; a JSON-RPC batch holds at least one message' } });
    assertServerMessage(res.json, undefined, '2025-11-25'); // id-less errors: only 2025-11-25 defines the shape
  });

  it('invalid members each get their own error in place; the valid ones run', async () => {
    const headers = await session();
    const before = countRuns();
    const res = await post([5, call(1, 'count'), { jsonrpc: '1.0', id: 2, method: 'ping' }, { jsonrpc: '2.0', id: 3 }], headers);
    assert.equal(res.status, 200, res.text);
    const all = res.json as Json[];
    answers(all, { 1: 'tools/call' });
    assert.deepEqual(all.map((m) => [m.id, (m.error as Json | undefined)?.message]), [
      [undefined, 'Invalid request: batch member 0 is number, not a JSON-RPC message'],
      [1, undefined],
      [2, 'Invalid request: batch member 2: jsonrpc must be "2.0"'],
      [3, 'Invalid request: batch member 3: method must be a string'],
    ]);
    assert.equal(countResult(all[1]), before + 1);
    // Nothing valid to run: the input as a whole is refused (an HTTP error status), each member answered.
    const none = await post([{ jsonrpc: '2.0', id: 9, method: 7 }], headers);
    assert.equal(none.status, 400);
    answers(none.json, {});
  });

  it('initialize in a batch: refused whole without a session; in a session its member is refused and the others run', async () => {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const opening = await post([init, { jsonrpc: '2.0', method: 'notifications/initialized' }], {});
    assert.equal(opening.status, 400);
    assert.equal(opening.text, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request: initialize must not be part of a JSON-RPC batch (MCP 2025-03-26, lifecycle); send it alone, then batch the requests that follow"}}');
    const inSession = await post([init, { jsonrpc: '2.0', id: 1, method: 'ping' }], await session());
    assert.equal(inSession.status, 200);
    const byId = answers(inSession.json, { 1: 'ping' });
    assert.equal((byId.get(0)?.error as Json).code, -32600);
    assert.match(String((byId.get(0)?.error as Json).message), /^Invalid request: initialize must not be part of a JSON-RPC batch/);
    assert.deepEqual(byId.get(1)?.result, {});
    covered.add('legacyBatchInitialize');
  });

  it(`more than ${MAX_BATCH} messages: 413 naming the limit, and nothing in the batch runs`, async () => {
    const headers = await session();
    const before = countRuns();
    const res = await post(Array.from({ length: MAX_BATCH + 1 }, (_, i) => call(i, 'count')), headers);
    assert.equal(res.status, 413);
    assert.deepEqual(res.json, { jsonrpc: '2.0', error: { code: -32600, message: `Batch too large: ${MAX_BATCH + 1} messages; this server accepts at most ${MAX_BATCH} per batch (legacy.maxBatchSize); nothing in it was run`, data: { limit: MAX_BATCH, received: MAX_BATCH + 1 } } });
    assertServerMessage(res.json, undefined, '2025-11-25');
    assert.equal(countRuns(), before, 'no call of the refused batch ran');
    const exactly = await post(Array.from({ length: MAX_BATCH }, (_, i) => call(i, 'count')), headers);
    assert.equal(exactly.status, 200);
    assert.equal(countRuns(), before + MAX_BATCH);
    covered.add('legacyBatchTooLarge');
  });

  it('progress of a call in the batch makes the answer an SSE stream: the progress, then one event per response in member order', async () => {
    const headers = await session();
    const res = await post([call('p', 'echo', { text: 'streamed' }, { progressToken: 'tok' }), call('q', 'count')], headers);
    assert.equal(res.status, 200);
    assert.match(res.type, /^text\/event-stream/);
    for (const m of res.events) assertServerMessage(m, 'id' in m ? 'tools/call' : undefined, '2025-03-26');
    assert.deepEqual(res.events.map((m) => m.method ?? m.id), ['notifications/progress', 'p', 'q']);
    assert.deepEqual(res.events[0]?.params, { progressToken: 'tok', progress: 1, total: 2, message: 'half way' });
    // Without an event stream in Accept, the same batch is one JSON array (its progress would go to the GET stream).
    const json = await post([call('p2', 'echo', { text: 'x' }, { progressToken: 't2' }), call('q2', 'count')], headers, 'application/json');
    assert.match(json.type, /^application\/json/);
    assert.deepEqual((json.json as Json[]).map((m) => m.id), ['p2', 'q2']);
  });

  it('operator approval inside a batch: the call is held until the operator decides, the rest of the batch waits with it', async () => {
    const headers = await session();
    const queued = new Promise<{ id: string; digest: string }>((resolve) => {
      const stop = server.approvals.subscribe((event) => {
        if (event.type === 'pending' && event.pending.tool === 'guarded') {
          stop();
          resolve(event.pending);
        }
      });
    });
    const answer = post([call('g', 'guarded'), { jsonrpc: '2.0', id: 'h', method: 'ping' }], headers, 'application/json');
    const pending = await queued;
    await server.approvals.decide(pending.id, { approve: true, operator: 'ops', digest: pending.digest });
    const res = await answer;
    assert.equal(res.status, 200, res.text);
    const byId = answers(res.json, { g: 'tools/call', h: 'ping' });
    assert.deepEqual((byId.get('g')?.result as Json).content, [{ type: 'text', text: 'guarded ran' }]);
    assert.ok(seen.includes('guarded'));
  });

  it('a server-to-client request inside a batch: sampling goes out on the stream, the client answers it in a batch of its own (202), the call completes', async () => {
    const opened = await openSession(listener.url, { sampling: {} }, '2025-03-26');
    const headers = { 'mcp-session-id': opened.id };
    const response = await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify([call('s', 'ask_model'), { jsonrpc: '2.0', id: 'h', method: 'ping' }]) });
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const received: Json[] = [];
    for await (const m of sseMessagesAsTheyArrive(response.body!)) {
      assertServerMessage(m, m.id === 's' ? 'tools/call' : m.id === 'h' ? 'ping' : undefined, '2025-03-26');
      received.push(m);
      if (m.method === 'sampling/createMessage') {
        const reply = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'test-model' };
        const answered = await post([{ jsonrpc: '2.0', id: m.id, result: reply }], headers);
        assert.deepEqual([answered.status, answered.text], [202, '']);
      }
    }
    assert.deepEqual(received.map((m) => m.method ?? m.id), ['sampling/createMessage', 's', 'h']);
    assert.deepEqual((received[1]?.result as Json).content, [{ type: 'text', text: 'model said: hi' }]);
  });

  it('ids beyond 2^53 are answered digit for digit in a batch', async () => {
    const headers = await session();
    const res = await post('[{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"},{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}]', headers);
    assert.equal(res.text, '[{"jsonrpc":"2.0","id":9007199254740993,"result":{}},{"jsonrpc":"2.0","id":9007199254740992,"result":{}}]');
  });
});

describe('JSON-RPC batches through server.fetch (the web-standard handler)', () => {
  it('the same answers: a JSON array, and an event stream ending with one event per response', async () => {
    const request = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
      server.fetch(new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) }));
    const init = await request({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } });
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') as string };
    const json = await request([call(1, 'count'), { jsonrpc: '2.0', id: 2, method: 'ping' }], headers);
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    answers(await json.json(), { 1: 'tools/call', 2: 'ping' });
    const streamed = await request([call(3, 'echo', { text: 'f' }, { progressToken: 'f' }), { jsonrpc: '2.0', id: 4, method: 'ping' }], headers);
    assert.match(streamed.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = sseMessages(await streamed.text());
    for (const m of events) assertServerMessage(m, m.id === 3 ? 'tools/call' : m.id === 4 ? 'ping' : undefined, '2025-03-26');
    assert.deepEqual(events.map((m) => m.method ?? m.id), ['notifications/progress', 3, 4]);
  });
});

describe('arrays outside 2025-03-26 sessions are refused exactly as before', () => {
  for (const revision of ['2025-06-18', '2025-11-25'] as const) {
    it(`a ${revision} session: 400 and the same error, nothing runs`, async () => {
      const headers = await session(revision);
      const before = countRuns();
      for (const body of [[call(1, 'count'), call(2, 'count')], [], [{ jsonrpc: '2.0', method: 'notifications/initialized' }]]) {
        const res = await post(body, headers);
        assert.deepEqual([res.status, res.text], [400, NOT_ONE]);
      }
      // The session's revision decides, whatever version header comes with it; and a 2025-06-18 header refuses without a lookup.
      assert.deepEqual((await post([call(3, 'count')], { 'mcp-session-id': headers['mcp-session-id'] as string })).text, NOT_ONE);
      assert.equal(countRuns(), before);
    });
  }

  it('a 2025-03-26 session addressed with a later revision header: refused as before', async () => {
    const headers = await session();
    const res = await post([call(1, 'count')], { ...headers, 'mcp-protocol-version': '2025-06-18' });
    assert.deepEqual([res.status, res.text], [400, NOT_ONE]);
  });

  it('2026-07-28 traffic (header, _meta claims, or no session at all): the pipeline\'s refusal, unchanged', async () => {
    const before = countRuns();
    const modern = [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: MODERN_META } }];
    const claims: Record<string, string>[] = [{ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' }, {}, { ...(await session()), 'mcp-protocol-version': '2026-07-28' }];
    for (const headers of claims) {
      const res = await post(modern, headers);
      assert.deepEqual([res.status, res.text], [400, MODERN_REFUSAL], JSON.stringify(headers));
    }
    assert.equal(countRuns(), before);
  });
});

describe('outcome rows', () => {
  it('every batch row of the outcome table is driven here', () => {
    assert.deepEqual([...covered].sort(), ['legacyBatchInitialize', 'legacyBatchTooLarge']);
  });
});
