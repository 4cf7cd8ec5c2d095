/**
 * The replay buffer of one stream (legacy-replay.ts) on the memory store: event ids, the bounds by
 * count and by bytes (the newest event always kept), and what a Last-Event-ID finds. The HTTP
 * behaviour built on it is test/server/legacy-resume.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, type Store } from '../../src/index.js';
import { eventIdOf, FINISHED_STREAM_TTL_MS, getStreamOf, newPostStream, parseEventId, ReplayLog } from '../../src/server/legacy/replay.js';

const SESSION = '0b4c8f6e-1d2a-4e5f-9a7b-3c6d8e0f1a2b';
// A clock at 1 ms: every new buffer counts from 100 (100 × the time in ms; legacy-replay.ts).
const clock = { now: () => 1 };
const FIRST = 100;
const nth = (n: number): number => FIRST + n - 1;

describe('replay buffers', () => {
  it('ids name their stream; the GET stream of a session is stable and another session\'s differs', () => {
    assert.match(getStreamOf(SESSION), /^g[0-9a-f]{12}$/);
    assert.equal(getStreamOf(SESSION), getStreamOf(SESSION));
    assert.notEqual(getStreamOf(SESSION), getStreamOf('9b4c8f6e-1d2a-4e5f-9a7b-3c6d8e0f1a2b'));
    const post = newPostStream();
    assert.match(post, /^p[0-9a-f]{16}$/);
    assert.deepEqual(parseEventId(eventIdOf(post, 12)), { stream: post, seq: 12 });
    for (const bad of ['', 'g-1', `${post}-0`, `${post}-01`, `${post}-1x`, `x${post.slice(1)}-1`, `${post}-1234567890123456`, ' '.repeat(65)]) assert.equal(parseEventId(bad), undefined, bad);
  });

  it('bounded by bytes: the oldest go first, the newest stays even when alone it is over the bound', async () => {
    const log = new ReplayLog(createMemoryStore(), { maxEvents: 100, maxBytes: 100, ttlMs: 60_000 }, clock);
    const stream = newPostStream();
    for (let i = 1; i <= 5; i++) await log.append(SESSION, stream, 'x'.repeat(40), false, () => undefined);
    // 5 × 40 bytes, bound 100: events 4 and 5 remain, so a resumption after 3 works and after 2 does not.
    const after3 = await log.lookup(SESSION, { stream, seq: nth(3) });
    assert.deepEqual(after3.ok ? after3.events.map((e) => e.seq) : after3, [nth(4), nth(5)]);
    assert.deepEqual(await log.lookup(SESSION, { stream, seq: nth(2) }), { ok: false, reason: 'evicted' });
    const big = 'é'.repeat(200); // 400 bytes in UTF-8: counted as bytes, not characters
    const last = await log.append(SESSION, stream, big, true, () => undefined);
    assert.deepEqual([last.seq, last.final], [nth(6), true]);
    const after5 = await log.lookup(SESSION, { stream, seq: nth(5) });
    assert.deepEqual(after5.ok ? after5.events.map((e) => [e.seq, e.json === big, e.final]) : after5, [[nth(6), true, true]]);
    assert.deepEqual(await log.lookup(SESSION, { stream, seq: nth(4) }), { ok: false, reason: 'evicted' });
  });

  it('a stream that carried its answer (final event) is kept FINISHED_STREAM_TTL_MS, not the whole session idle time', async () => {
    let now = 1_000_000;
    const log = new ReplayLog(createMemoryStore({ clock: { now: () => now } }), { maxEvents: 100, maxBytes: 1 << 20, ttlMs: 30 * 60_000 }, { now: () => now });
    const open = newPostStream();
    const done = newPostStream();
    const opened = await log.append(SESSION, open, '{"progress":1}', false, () => undefined);
    const progress = await log.append(SESSION, done, '{"progress":1}', false, () => undefined);
    await log.append(SESSION, done, '{"result":{}}', true, () => undefined);
    now += FINISHED_STREAM_TTL_MS - 1;
    assert.equal((await log.lookup(SESSION, { stream: done, seq: progress.seq })).ok, true, 'still there for a client reconnecting soon');
    now += 2;
    assert.deepEqual(await log.lookup(SESSION, { stream: done, seq: progress.seq }), { ok: false, reason: 'unknown' });
    assert.equal((await log.lookup(SESSION, { stream: open, seq: opened.seq })).ok, true, 'a stream still running keeps the session idle time');
  });

  it('appends to one stream are delivered in order even when started together', async () => {
    const log = new ReplayLog(createMemoryStore(), { maxEvents: 3, maxBytes: 1 << 20, ttlMs: 60_000 }, clock);
    const stream = newPostStream();
    const delivered: number[] = [];
    await Promise.all([1, 2, 3, 4, 5].map((n) => log.append(SESSION, stream, String(n), false, (e) => delivered.push(Number(e.json) * 1000 + e.seq))));
    assert.deepEqual(delivered, [1, 2, 3, 4, 5].map((n) => n * 1000 + nth(n)));
    assert.deepEqual(await log.lookup(SESSION, { stream, seq: nth(9) }), { ok: false, reason: 'unknown' });
    assert.deepEqual(await log.lookup(SESSION, { stream: newPostStream(), seq: FIRST }), { ok: false, reason: 'unknown' });
  });

  it('a burst of appends to one stream costs one buffer write per batch, not one per event', async () => {
    const store = createMemoryStore();
    let writes = 0;
    const counted: Store = Object.assign(Object.create(store) as Store, {
      compareAndSet: (...args: Parameters<Store['compareAndSet']>) => {
        writes++;
        return store.compareAndSet(...args);
      },
    });
    const log = new ReplayLog(counted, { maxEvents: 1000, maxBytes: 1 << 20, ttlMs: 60_000 }, clock);
    const stream = newPostStream();
    const events = await Promise.all(Array.from({ length: 50 }, (_, i) => log.append(SESSION, stream, `{"progress":${i}}`, i === 49, () => undefined)));
    assert.deepEqual(events.map((e) => e.seq), Array.from({ length: 50 }, (_, i) => nth(i + 1)));
    // The first append is written alone (nothing waited yet); the other 49 arrived meanwhile: one more write.
    assert.equal(writes, 2);
    const all = await log.lookup(SESSION, { stream, seq: FIRST - 1 });
    assert.deepEqual(all.ok ? all.events.map((e) => [e.seq, e.final, e.restart]) : all, Array.from({ length: 50 }, (_, i) => [nth(i + 1), i === 49, i === 0]));
  });

  it('a store that fails rejects the appends of that write only; the next append is written', async () => {
    const store = createMemoryStore();
    let failNext = true;
    const flaky: Store = Object.assign(Object.create(store) as Store, {
      compareAndSet: (...args: Parameters<Store['compareAndSet']>) => {
        if (!failNext) return store.compareAndSet(...args);
        failNext = false;
        return Promise.reject(new Error('store unreachable'));
      },
    });
    const log = new ReplayLog(flaky, { maxEvents: 100, maxBytes: 1 << 20, ttlMs: 60_000 }, clock);
    const stream = newPostStream();
    const delivered: string[] = [];
    await assert.rejects(log.append(SESSION, stream, 'lost', false, (e) => delivered.push(e.json)), /store unreachable/);
    const kept = await log.append(SESSION, stream, 'kept', false, (e) => delivered.push(e.json));
    assert.equal(kept.seq, FIRST, 'the failed append issued no id');
    assert.deepEqual(delivered, ['kept'], 'what was not stored was not shown either');
  });

  it('a delivery that throws fails its own append only', async () => {
    const log = new ReplayLog(createMemoryStore(), { maxEvents: 100, maxBytes: 1 << 20, ttlMs: 60_000 }, clock);
    const stream = newPostStream();
    const outcomes = await Promise.allSettled([
      log.append(SESSION, stream, 'a', false, () => undefined),
      log.append(SESSION, stream, 'b', false, () => { throw new Error('stream gone'); }),
      log.append(SESSION, stream, 'c', false, () => undefined),
    ]);
    assert.deepEqual(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.seq : String(o.reason))), [nth(1), 'Error: stream gone', nth(3)]);
  });

  it('a stream whose buffer expired while it lived on counts on above every id it issued: an old Last-Event-ID reads as evicted; the new buffer starts with a restart event', async () => {
    let now = 1_750_000_000_000;
    const fake = { now: () => now };
    const log = new ReplayLog(createMemoryStore({ clock: fake }), { maxEvents: 100, maxBytes: 1 << 20, ttlMs: 30 * 60_000 }, fake);
    const stream = getStreamOf(SESSION);
    const first = await Promise.all([1, 2, 3].map((n) => log.append(SESSION, stream, String(n), false, () => undefined)));
    assert.deepEqual(first.map((e) => e.seq), [now * 100, now * 100 + 1, now * 100 + 2]);
    assert.deepEqual(parseEventId(first[2]!.id), { stream, seq: now * 100 + 2 }, 'the id stays one parseEventId accepts');
    now += 30 * 60_000 + 1; // nothing sent for the idle time: the buffer expired
    const again = await Promise.all([4, 5, 6, 7].map((n) => log.append(SESSION, stream, String(n), false, () => undefined)));
    assert.ok(again[0]!.seq > first[2]!.seq, `${again[0]!.seq} must be above ${first[2]!.seq}`);
    assert.deepEqual(again.map((e) => e.restart), [true, false, false, false]);
    assert.deepEqual(await log.lookup(SESSION, { stream, seq: first[0]!.seq }), { ok: false, reason: 'evicted' });
    // A stream shown live has everything up to the expired buffer's last event: no gap for it.
    const live = await log.lookup(SESSION, { stream, seq: first[2]!.seq }, { acrossRestart: true });
    assert.deepEqual(live.ok ? live.events.map((e) => e.json) : live, ['4', '5', '6', '7']);
    const resumed = await log.lookup(SESSION, { stream, seq: again[1]!.seq });
    assert.deepEqual(resumed.ok ? resumed.events.map((e) => e.json) : resumed, ['6', '7']);
    assert.equal(await log.position(SESSION, stream), again[3]!.seq);
    assert.equal(await log.position(SESSION, newPostStream()), undefined);
  });

  it('a clock outside milliseconds still gives ids parseEventId accepts', async () => {
    for (const at of [0, 0.5, 1e16]) {
      const log = new ReplayLog(createMemoryStore(), { maxEvents: 10, maxBytes: 1 << 20, ttlMs: 60_000 }, { now: () => at });
      const event = await log.append(SESSION, newPostStream(), '{}', false, () => undefined);
      assert.ok(parseEventId(event.id) !== undefined, `clock ${at}: ${event.id}`);
    }
  });
});
