/** The in-memory store: every operation of the Store interface, expiry on an injected clock, and its bounds. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, StoreFullError } from '../../src/server/store/index.js';

function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => { now += ms; } };
}

describe('claims (single use with expiry)', () => {
  it('the first claim wins, a second is refused with the first record, until it expires', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock });
    const first = await store.claimOnce('a', { expiresAt: clock.now() + 1000, value: { approvedBy: 'user:ada' } });
    assert.deepEqual(first, { claimed: true, record: { claimedAt: clock.now(), expiresAt: clock.now() + 1000, value: { approvedBy: 'user:ada' } } });
    const again = await store.claimOnce('a', { expiresAt: clock.now() + 5000 });
    assert.equal(again.claimed, false);
    if (!again.claimed) assert.deepEqual(again.existing.value, { approvedBy: 'user:ada' });
    assert.deepEqual((await store.getClaim('a'))?.value, { approvedBy: 'user:ada' });
    clock.advance(999);
    assert.equal((await store.claimOnce('a', { expiresAt: clock.now() + 10 })).claimed, false);
    clock.advance(1);
    assert.equal(await store.getClaim('a'), undefined);
    assert.equal((await store.claimOnce('a', { expiresAt: clock.now() + 10 })).claimed, true);
  });

  it('of concurrent claims of one key exactly one wins', async () => {
    const store = createMemoryStore();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claimOnce('k', { expiresAt: Date.now() + 60_000 })));
    assert.equal(results.filter((r) => r.claimed).length, 1);
  });

  it('a full claim space fails closed instead of forgetting a live claim; expired claims make room', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock, maxEntries: 2 });
    await store.claimOnce('a', { expiresAt: clock.now() + 100 });
    await store.claimOnce('b', { expiresAt: clock.now() + 1000 });
    await assert.rejects(store.claimOnce('c', { expiresAt: clock.now() + 1000 }), (error: unknown) => error instanceof StoreFullError && error.space === 'claims' && /store is full: 2 live claims/.test(error.message));
    assert.equal((await store.claimOnce('a', { expiresAt: clock.now() + 1000 })).claimed, false, 'a is still claimed');
    clock.advance(100);
    assert.equal((await store.claimOnce('c', { expiresAt: clock.now() + 1000 })).claimed, true);
    assert.equal((await store.claimOnce('b', { expiresAt: clock.now() + 1000 })).claimed, false);
  });

  it('rejects a non-finite expiry', async () => {
    await assert.rejects(createMemoryStore().claimOnce('a', { expiresAt: Number.NaN }), /expiresAt must be a finite time/);
  });
});

describe('token buckets and counters', () => {
  it('a bucket starts full, empties, refuses with the wait, and refills continuously', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock });
    const rule = { capacity: 2, refillPerSecond: 1 };
    assert.deepEqual(await store.takeTokens('t', rule), { allowed: true, remaining: 1, retryAfterMs: 0 });
    assert.deepEqual(await store.takeTokens('t', rule), { allowed: true, remaining: 0, retryAfterMs: 0 });
    assert.deepEqual(await store.takeTokens('t', rule), { allowed: false, remaining: 0, retryAfterMs: 1000 });
    clock.advance(500);
    assert.deepEqual(await store.takeTokens('t', rule), { allowed: false, remaining: 0, retryAfterMs: 500 });
    clock.advance(500);
    assert.deepEqual(await store.takeTokens('t', rule), { allowed: true, remaining: 0, retryAfterMs: 0 });
    clock.advance(60_000);
    assert.deepEqual(await store.takeTokens('t', rule), { allowed: true, remaining: 1, retryAfterMs: 0 }, 'never above capacity');
    assert.deepEqual(await store.takeTokens('t', rule, 5), { allowed: false, remaining: 1, retryAfterMs: 4000 }, 'a cost above capacity is refused and takes nothing');
  });

  it('buckets are per key and a full bucket space drops its oldest key', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock, maxEntries: 2 });
    const rule = { capacity: 1, refillPerSecond: 0.001 };
    for (const key of ['a', 'b']) assert.equal((await store.takeTokens(key, rule)).allowed, true);
    assert.equal((await store.takeTokens('a', rule)).allowed, false);
    assert.equal((await store.takeTokens('c', rule)).allowed, true, 'c evicts the oldest, a');
    assert.equal((await store.takeTokens('b', rule)).allowed, false, 'b survived');
    assert.equal((await store.takeTokens('a', rule)).allowed, true, 'a came back fresh');
  });

  it('rejects nonsense rules', async () => {
    const store = createMemoryStore();
    await assert.rejects(store.takeTokens('x', { capacity: 0, refillPerSecond: 1 }), /capacity must be a positive number/);
    await assert.rejects(store.takeTokens('x', { capacity: 1, refillPerSecond: -1 }), /refillPerSecond must be a positive number/);
    await assert.rejects(store.takeTokens('x', { capacity: 1, refillPerSecond: 1 }, -1), /cost must be a non-negative number/);
  });

  it('counters add up and lapse ttlMs after creation', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock });
    assert.equal(await store.increment('n', { ttlMs: 1000 }), 1);
    assert.equal(await store.increment('n', { ttlMs: 1000, by: 4 }), 5);
    clock.advance(1000);
    assert.equal(await store.increment('n', { ttlMs: 1000 }), 1);
    await assert.rejects(store.increment('n', { ttlMs: 0 }), /ttlMs must be a positive number/);
  });
});

describe('records (TTL and compare-and-set)', () => {
  it('set/get/delete with versions and expiry', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock });
    assert.equal(await store.get('r'), undefined);
    assert.deepEqual(await store.set('r', { a: 1 }, { ttlMs: 100 }), { value: { a: 1 }, version: 1, expiresAt: clock.now() + 100 });
    assert.deepEqual(await store.set('r', { a: 2 }), { value: { a: 2 }, version: 2, expiresAt: undefined });
    assert.deepEqual((await store.get('r'))?.value, { a: 2 });
    assert.equal(await store.delete('r'), true);
    assert.equal(await store.delete('r'), false);
    await store.set('s', 'x', { ttlMs: 100 });
    clock.advance(100);
    assert.equal(await store.get('s'), undefined);
  });

  it('compareAndSet writes only over the expected version; 0 means absent; concurrent writers: one wins', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock });
    const created = await store.compareAndSet('task', 0, { state: 'working' }, { ttlMs: 1000 });
    assert.equal(created.ok, true);
    const stale = await store.compareAndSet('task', 0, { state: 'other' });
    assert.deepEqual(stale, { ok: false, current: { value: { state: 'working' }, version: 1, expiresAt: clock.now() + 1000 } });
    const racers = await Promise.all([store.compareAndSet('task', 1, { state: 'done' }, { ttlMs: 1000 }), store.compareAndSet('task', 1, { state: 'failed' }, { ttlMs: 1000 })]);
    assert.deepEqual(racers.map((r) => r.ok), [true, false]);
    assert.deepEqual((await store.get('task'))?.value, { state: 'done' });
    clock.advance(1000);
    assert.equal((await store.compareAndSet('task', 0, { state: 'again' })).ok, true, 'an expired record counts as absent');
    await assert.rejects(store.compareAndSet('task', -1, null), /expectedVersion must be a non-negative integer/);
  });

  it('a full record space fails closed', async () => {
    const store = createMemoryStore({ maxEntries: 1 });
    await store.set('a', 1);
    await store.set('a', 2);
    await assert.rejects(store.set('b', 1), (error: unknown) => error instanceof StoreFullError && error.space === 'records');
    assert.equal((await store.compareAndSet('b', 0, 1).catch((error: unknown) => error)) instanceof StoreFullError, true);
  });
});

describe('publish/subscribe', () => {
  it('delivers to every subscriber of the channel, stops after unsubscribe, survives a throwing listener', async () => {
    const store = createMemoryStore();
    const got: unknown[] = [];
    const stop = await store.subscribe!('c', (m) => got.push(['one', m]));
    await store.subscribe!('c', () => { throw new Error('listener bug'); });
    await store.subscribe!('other', (m) => got.push(['other', m]));
    await assert.rejects(store.publish!('c', { n: 1 }), (error: unknown) => error instanceof AggregateError && error.errors.length === 1);
    assert.deepEqual(got, [['one', { n: 1 }]]);
    stop();
    await assert.rejects(store.publish!('c', { n: 2 }), AggregateError);
    assert.deepEqual(got, [['one', { n: 1 }]]);
    assert.equal(await store.publish!('nobody', 1), 0);
  });
});

describe('options', () => {
  it('maxEntries must be a positive integer', () => {
    assert.throws(() => createMemoryStore({ maxEntries: 0 }), /maxEntries must be a positive integer/);
  });
});
