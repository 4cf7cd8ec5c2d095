/**
 * Resumability of the 2025 legacy wire over real HTTP on 127.0.0.1: every event of a session's
 * streams carries an id; a GET stream that dropped is resumed with GET + Last-Event-ID and gets
 * exactly the events it missed, in order, once; a POST whose stream dropped keeps running and its
 * progress and answer are delivered on the resumed stream; ids of another session, another
 * stream, garbage, huge, or dropped from the bounded buffer get the documented refusals with
 * nothing replayed; the 2026-07-28 path carries no ids and ignores the header. The legacyReplay*
 * rows of the outcome table are driven here (the last test checks).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore, createServer, defineTool } from '../../src/index.js';
import { getStreamOf } from '../../src/server/legacy/replay.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { OUTCOMES } from '../../src/server/outcomes.js';
import type { OutcomeName } from '../../src/server/outcomes.js';
import { gate } from '../support/gate.js';
import type { Gate } from '../support/gate.js';
import { exchange, openSession } from '../support/legacy-session-client.js';
import type { LegacySession } from '../support/legacy-session-client.js';
import { later, openEvents, parseSse } from '../support/sse-events.js';
import { serveFetchHandler } from '../support/serve-fetch-handler.js';
import type { SseEvent } from '../support/sse-events.js';
import { META, rpc } from '../fixtures/servers/raw-http.js';
import { until } from '../support/until.js';

type Json = Record<string, unknown>;
const covered = new Set<OutcomeName>();

let held: Gate = gate();
let reached: Gate = gate();
const finished: string[] = [];
const steps = defineTool({
  name: 'steps',
  description: 'Reports n progress steps.',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' }, tag: { type: 'string' } }, required: ['n'] } as const,
  run: (args, ctx) => {
    for (let i = 1; i <= args.n; i++) ctx.progress(i, args.n, `${args.tag ?? 'step'} ${i}`);
    return `did ${args.n}`;
  },
});
const gated = defineTool({
  name: 'gated',
  description: 'Reports progress, waits on the test\'s gate, reports again, answers.',
  inputSchema: { type: 'object' },
  run: async (_args, ctx) => {
    ctx.progress(1, 2, 'before the gate');
    reached.open();
    await held.opened;
    if (ctx.signal.aborted) {
      finished.push('aborted');
      return 'aborted';
    }
    ctx.progress(2, 2, 'after the gate');
    finished.push('gated');
    return 'through the gate';
  },
});

let server: McpServer;
let listener: HttpListener;
let url: string;

before(async () => {
  server = createServer({ name: 'resume', version: '1.0.0', tools: [steps, gated], legacy: { replayMaxEvents: 5 } });
  listener = await server.listen({ port: 0 });
  url = listener.url;
});
after(() => server.close());

const call = (id: number, name: string, args: Json, token: string): Json => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: token } } });
const messageOf = (e: SseEvent): unknown => (e.data.params as Json | undefined)?.message;
const textOf = (m: Json): string => (((m.result as Json).content as { text: string }[])[0] as { text: string }).text;

/** Progress of a call whose POST accepts only JSON: it goes to the session's GET stream. */
async function stepsOnGetStream(session: LegacySession, id: number, n: number, tag: string, at = url): Promise<void> {
  const done = await exchange(at, call(id, 'steps', { n, tag }, `t${id}`), session.headers, { accept: 'application/json' });
  assert.equal(textOf(done.messages[0] as Json), `did ${n}`);
}

/** GET with Last-Event-ID; a GET racing the server's notice of the previous stream's drop (409) is retried. */
async function resume(session: LegacySession, lastEventId: string | undefined, at = url): ReturnType<typeof openEvents> {
  const headers = lastEventId === undefined ? session.headers : { ...session.headers, 'last-event-id': lastEventId };
  for (let attempt = 0; ; attempt++) {
    const opened = await openEvents(at, { method: 'GET', headers });
    if (opened.status !== 409 || attempt === 50) return opened;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the GET stream', () => {
  it('every event has an id naming the stream; a dropped stream resumed after an id gets exactly the missed events, in order, once, then live ones', async () => {
    const session = await openSession(url);
    const first = await resume(session, undefined);
    await stepsOnGetStream(session, 1, 2, 'a');
    const [a1, a2] = [await first.next(), await first.next()];
    assert.deepEqual([messageOf(a1), messageOf(a2)], ['a 1', 'a 2']);
    // A GET stream's ids count on from where its buffer started (legacy-replay.ts).
    assert.match(a1.id ?? '', /^g[0-9a-f]{12}-[1-9][0-9]*$/);
    assert.equal(a2.id, later(a1.id, 1));
    first.drop();
    // Sent while no stream is open: kept for the client.
    await stepsOnGetStream(session, 2, 2, 'b');
    const again = await resume(session, a2.id);
    assert.equal(again.status, 200);
    const replayed = [await again.next(), await again.next()];
    assert.deepEqual(replayed.map((e) => [e.id, messageOf(e)]), [[later(a1.id, 2), 'b 1'], [later(a1.id, 3), 'b 2']]);
    // Then live, with the ids going on and nothing repeated.
    await stepsOnGetStream(session, 3, 1, 'c');
    const live = await again.next();
    assert.deepEqual([live.id, messageOf(live)], [later(a1.id, 4), 'c 1']);
    again.drop();
    // Resuming from an older id replays from there: exactly the events after it.
    const older = await resume(session, a1.id);
    assert.deepEqual([await older.next(), await older.next(), await older.next(), await older.next()].map((e) => e.id), [1, 2, 3, 4].map((k) => later(a1.id, k)));
    older.drop();
    await exchange(url, undefined, session.headers, { method: 'DELETE' });
  });
});

describe('a stream whose buffer expired while it lived on', () => {
  it('a GET stream quiet for the idle time goes on with the next event (its new buffer counts on from a restart)', async () => {
    const store = createMemoryStore();
    // sessionIdleMs 400: the buffer expires after 400 quiet ms, while the GET stream's beat keeps the session.
    const quiet = createServer({ name: 'quiet', version: '1.0.0', tools: [steps], store, legacy: { sessionIdleMs: 400 } });
    const served = await quiet.listen({ port: 0 });
    try {
      const session = await openSession(served.url);
      const sessionId = session.headers['mcp-session-id'] as string;
      const stream = await resume(session, undefined, served.url);
      await stepsOnGetStream(session, 1, 1, 'before', served.url);
      const before = await stream.next();
      assert.equal(messageOf(before), 'before 1');
      // The event awaited is the buffer's expiry in the store (no other signal exists): polled, bounded.
      const key = `legacy-replay:${sessionId}:${getStreamOf(sessionId)}`;
      for (let i = 0; i < 1000 && (await store.get(key)) !== undefined; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(await store.get(key), undefined, 'the buffer expired');
      await stepsOnGetStream(session, 2, 1, 'after', served.url);
      const after = await stream.next('the event after the quiet time');
      assert.equal(messageOf(after), 'after 1');
      assert.ok(Number(after.id?.split('-')[1]) > Number(before.id?.split('-')[1]), `${String(after.id)} counts on from ${String(before.id)}`);
      // An id of the expired buffer is refused, as evicted, rather than naming an event of the new one.
      stream.drop();
      const old = await resume(session, before.id, served.url);
      assert.equal(old.status, 410);
    } finally {
      await quiet.close();
    }
  });
});

describe('a POST whose stream dropped', () => {
  it('keeps running; GET + Last-Event-ID gets its progress after the id and its answer, then the stream ends', async () => {
    held = gate();
    reached = gate();
    finished.length = 0;
    const session = await openSession(url);
    const posted = await openEvents(url, { method: 'POST', headers: session.headers, body: call(7, 'gated', {}, 'g7') });
    const before = await posted.next('the progress before the gate');
    assert.equal(messageOf(before), 'before the gate');
    assert.match(before.id ?? '', /^p[0-9a-f]{16}-[1-9][0-9]*$/);
    await reached.opened;
    posted.drop(); // the client's network goes away mid-call
    const resumed = await resume(session, before.id);
    assert.equal(resumed.status, 200);
    held.open();
    const rest = await resumed.rest(); // the server ends the stream after the answer
    assert.deepEqual(rest.map((e) => e.id), [later(before.id, 1), later(before.id, 2)]);
    assert.equal(messageOf(rest[0] as SseEvent), 'after the gate');
    assert.deepEqual((rest[1] as SseEvent).data, { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'through the gate' }] } });
    assert.deepEqual(finished, ['gated'], 'the call ran to its end once, not cancelled by the disconnect');
    // After the call ended, the same resumption is pure replay.
    const replay = await resume(session, before.id);
    assert.deepEqual((await replay.rest()).map((e) => e.id), [later(before.id, 1), later(before.id, 2)]);
    // And after the answer's id: nothing more, the stream ends at once.
    const nothing = await resume(session, later(before.id, 1));
    assert.deepEqual((await nothing.rest()).map((e) => e.id), [later(before.id, 2)]);
    await exchange(url, undefined, session.headers, { method: 'DELETE' });
  });

  it('DELETE ends a resumed POST stream, and the call with it (the session\'s end cancels)', async () => {
    held = gate();
    reached = gate();
    finished.length = 0;
    const session = await openSession(url);
    const posted = await openEvents(url, { method: 'POST', headers: session.headers, body: call(8, 'gated', {}, 'd8') });
    const first = await posted.next();
    await reached.opened;
    posted.drop();
    const resumed = await resume(session, first.id);
    assert.equal(resumed.status, 200);
    assert.equal((await exchange(url, undefined, session.headers, { method: 'DELETE' })).status, 200);
    assert.deepEqual(await resumed.rest(), [], 'the stream ends with nothing more');
    held.open();
    await until(() => finished.length > 0, 'the held call finishing');
    assert.deepEqual(finished, ['aborted'], 'the call saw the end of the session as cancellation');
    const after = await resume(session, first.id);
    assert.equal(after.status, 404, 'the session is gone');
  });

  it('a resumed POST stream gets keep-alive comments while the call has nothing to say (idle proxies must not cut it), and its session outlives the idle time meanwhile', async () => {
    // sessionIdleMs 400: the keep-alive beat is half of it.
    const quick = createServer({ name: 'keep-alive', version: '1.0.0', tools: [gated], legacy: { sessionIdleMs: 400 } });
    const served = await quick.listen({ port: 0 });
    try {
      held = gate();
      reached = gate();
      const session = await openSession(served.url);
      const posted = await openEvents(served.url, { method: 'POST', headers: session.headers, body: call(9, 'gated', {}, 'k9') });
      const first = await posted.next();
      await reached.opened;
      posted.drop();
      const res = await fetch(served.url, { method: 'GET', headers: { ...session.headers, accept: 'text/event-stream', 'last-event-id': first.id as string } });
      assert.equal(res.status, 200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      // Three beats of 200 ms: longer than the session's idle time of 400 ms.
      while (text.split(': keep-alive\n\n').length - 1 < 3) {
        const chunk = await reader.read();
        assert.equal(chunk.done, false, `the stream ended before three keep-alives: ${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
      assert.equal(text.includes('event: message'), false, 'nothing else was said meanwhile');
      held.open();
      while (!text.includes('through the gate')) {
        const chunk = await reader.read();
        assert.equal(chunk.done, false, `the stream ended before the answer: ${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
      await reader.cancel();
      const ping = await exchange(served.url, { jsonrpc: '2.0', id: 10, method: 'ping' }, session.headers);
      assert.equal(ping.status, 200, 'the session lived on while its call ran');
    } finally {
      await quick.close();
    }
  });

  it('a resumption never mixes streams: a POST stream replays only its own events, the GET stream only its own', async () => {
    const session = await openSession(url);
    const getStream = await resume(session, undefined);
    await stepsOnGetStream(session, 1, 1, 'get');
    const onGet = await getStream.next();
    const one = await openEvents(url, { method: 'POST', headers: session.headers, body: call(2, 'steps', { n: 2, tag: 'one' }, 'o') });
    const two = await openEvents(url, { method: 'POST', headers: session.headers, body: call(3, 'steps', { n: 2, tag: 'two' }, 't') });
    const [oneEvents, twoEvents] = [await one.rest(), await two.rest()];
    assert.deepEqual(oneEvents.map((e) => messageOf(e) ?? textOf(e.data)), ['one 1', 'one 2', 'did 2']);
    const streams = new Set([oneEvents, twoEvents].map((events) => events[0]?.id?.split('-')[0]));
    assert.equal(streams.size, 2, 'each POST has its own stream');
    const fromOne = await resume(session, oneEvents[0]?.id);
    assert.deepEqual((await fromOne.rest()).map((e) => messageOf(e) ?? textOf(e.data)), ['one 2', 'did 2']);
    await stepsOnGetStream(session, 4, 1, 'get2');
    getStream.drop();
    const fromGet = await resume(session, onGet.id);
    const next = await fromGet.next();
    assert.equal(messageOf(next), 'get2 1');
    fromGet.drop();
    await exchange(url, undefined, session.headers, { method: 'DELETE' });
  });
});

describe('server.fetch (the web-standard handler) resumes the same way', () => {
  it('GET stream and a POST stream dropped mid-call, resumed with their ids', async () => {
    const served = await serveFetchHandler((request) => server.fetch(request));
    try {
      held = gate();
      reached = gate();
      finished.length = 0;
      const session = await openSession(served.url);
      const getStream = await resume(session, undefined, served.url);
      await stepsOnGetStream(session, 1, 1, 'f', served.url);
      const f1 = await getStream.next();
      assert.match(f1.id ?? '', /^g[0-9a-f]{12}-[1-9][0-9]*$/);
      getStream.drop();
      await stepsOnGetStream(session, 2, 1, 'g', served.url);
      const back = await resume(session, f1.id, served.url);
      const g1 = await back.next();
      assert.deepEqual([g1.id, messageOf(g1)], [later(f1.id, 1), 'g 1']);
      back.drop();
      const posted = await openEvents(served.url, { method: 'POST', headers: session.headers, body: call(3, 'gated', {}, 'fg') });
      const first = await posted.next();
      assert.match(first.id ?? '', /^p[0-9a-f]{16}-[1-9][0-9]*$/);
      await reached.opened;
      posted.drop();
      const resumed = await resume(session, first.id, served.url);
      held.open();
      const rest = await resumed.rest();
      assert.deepEqual(rest.map((e) => e.id), [1, 2].map((k) => later(first.id, k)));
      assert.equal(textOf((rest[1] as SseEvent).data), 'through the gate');
      assert.deepEqual(finished, ['gated']);
    } finally {
      await served.close();
    }
  });
});

describe('refused resumptions (nothing is replayed)', () => {
  it('legacyReplayBadEventId: garbage, or over 64 characters → 400 naming the header', async () => {
    const session = await openSession(url);
    const garbage = await resume(session, 'not-an-id');
    assert.deepEqual([garbage.status, garbage.refused], [400, { jsonrpc: '2.0', error: { code: -32600, message: 'Bad request: Last-Event-ID "not-an-id" is not an event id of this server; nothing was replayed' } }]);
    const huge = await resume(session, 'g'.repeat(8000));
    assert.deepEqual([huge.status, (huge.refused?.error as Json).message], [400, 'Bad request: Last-Event-ID 8000 characters (at most 64) is not an event id of this server; nothing was replayed']);
    covered.add('legacyReplayBadEventId');
    await exchange(url, undefined, session.headers, { method: 'DELETE' });
  });

  it('legacyReplayGone: an id of another session, one never issued, or one whose successors left the bounded buffer → 410', async () => {
    const mine = await openSession(url);
    const theirs = await openSession(url);
    const theirStream = await resume(theirs, undefined);
    await stepsOnGetStream(theirs, 1, 1, 'theirs');
    const theirEvent = await theirStream.next();
    const posted = await openEvents(url, { method: 'POST', headers: theirs.headers, body: call(2, 'steps', { n: 1 }, 'x') });
    const theirPost = (await posted.rest())[0] as SseEvent;
    const nowhere = 'it names no stream of this session (another session\'s, never issued, or expired); nothing was replayed; open the GET stream without Last-Event-ID';
    for (const foreign of [theirEvent.id, theirPost.id, 'p0123456789abcdef-1'] as string[]) {
      const refused = await resume(mine, foreign);
      assert.deepEqual([refused.status, refused.refused], [410, { jsonrpc: '2.0', error: { code: -32600, message: `Gone: cannot resume after Last-Event-ID ${foreign}: ${nowhere}` } }], foreign);
    }
    // An id of this stream it never issued yet.
    const ahead = later(theirEvent.id, 98);
    assert.equal((await resume(theirs, ahead)).status, 409, 'the GET stream is still open');
    theirStream.drop();
    const future = await resume(theirs, ahead);
    assert.deepEqual([future.status, (future.refused?.error as Json).message], [410, `Gone: cannot resume after Last-Event-ID ${ahead}: ${nowhere}`]);
    // replayMaxEvents is 5: after 7 events the buffer holds 3..7, so resuming after 1 would skip 2.
    await stepsOnGetStream(theirs, 3, 6, 'many');
    const evicted = await resume(theirs, theirEvent.id);
    assert.deepEqual([evicted.status, (evicted.refused?.error as Json).message], [410, `Gone: cannot resume after Last-Event-ID ${theirEvent.id}: the events after it were dropped from the replay buffer (at most 5 events and 1048576 bytes per stream are kept, for 1800000 ms after the last); nothing was replayed; open the GET stream without Last-Event-ID`]);
    // After 2 the rest is all there.
    const whole = await resume(theirs, later(theirEvent.id, 1));
    assert.deepEqual([await whole.next(), await whole.next(), await whole.next(), await whole.next(), await whole.next()].map((e) => e.id), [2, 3, 4, 5, 6].map((k) => later(theirEvent.id, k)));
    whole.drop();
    covered.add('legacyReplayGone');
    await exchange(url, undefined, mine.headers, { method: 'DELETE' });
    await exchange(url, undefined, theirs.headers, { method: 'DELETE' });
  });
});

describe('2026-07-28 is unchanged', () => {
  it('no ids on its event stream, and Last-Event-ID is ignored', async () => {
    const body = rpc('tools/call', { name: 'steps', arguments: { n: 2 }, _meta: { progressToken: 'm' } }, 9, META);
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'steps' };
    const plain = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
    const withHeader = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'last-event-id': 'g000000000000-1', ...headers }, body: JSON.stringify(body) });
    const [a, b] = [await plain.text(), await withHeader.text()];
    assert.equal(plain.headers.get('content-type'), 'text/event-stream');
    assert.equal(a, b);
    assert.doesNotMatch(a, /^id:/m);
    assert.deepEqual(parseSse(a).map((e) => e.id), [undefined, undefined, undefined], 'two progress events and the answer, none with an id');
  });

  it('covers every legacyReplay row of the outcome table', () => {
    assert.deepEqual([...covered].sort(), Object.keys(OUTCOMES).filter((name) => name.startsWith('legacyReplay')).sort());
  });
});
