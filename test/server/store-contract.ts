/**
 * The behaviour every {@link Store} must have, as one set of cases run against each backend
 * (store-contract.test.ts: memory and Redis). A harness gives two stores on one backend (two
 * "instances") and a way to let time pass: the memory store moves its injected clock; Redis
 * expires on its own clock, so there time really passes (windows of about a second: short enough to stay cheap, long enough for the steps inside one on a loaded machine).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StoreEpochError } from '../../src/server/store/index.js';
import type { Store } from '../../src/server/store/index.js';
import type { JsonValue } from '../../src/protocol/json-rpc.js';

/** Two stores sharing one backend, and time. */
export interface StoreHarness {
  readonly a: Store;
  readonly b: Store;
  /** Lets at least `ms` pass on the store's clock. */
  elapse(ms: number): Promise<void>;
  /** The store's notion of now (ms since epoch). */
  now(): number;
  close(): Promise<void>;
}

let unique = 0;
const key = (what: string): string => `${what}-${process.pid}-${Date.now()}-${unique++}`;

/** Registers the contract cases for one backend; `skip` is a printed reason to skip them all. */
export function storeContract(backend: string, makeHarness: () => Promise<StoreHarness>, skip?: string): void {
  describe(`Store contract: ${backend}`, { skip }, () => {
    let h: StoreHarness;
    before(async () => {
      h = await makeHarness();
    });
    after(async () => {
      await h?.close();
    });

    it('claimOnce: the first claim wins on any instance; the second sees the first record until it lapses', async () => {
      const k = key('claim');
      // Windows of a second: Redis expires on its own clock, and the steps before the lapse must fit in it on a loaded machine.
      const first = await h.a.claimOnce(k, { expiresAt: h.now() + 1000, value: { approvedBy: 'user:ada' } });
      assert.equal(first.claimed, true);
      if (first.claimed) assert.deepEqual(first.record.value, { approvedBy: 'user:ada' });
      const second = await h.b.claimOnce(k, { expiresAt: h.now() + 10_000, value: 'other' });
      assert.equal(second.claimed, false);
      if (!second.claimed) assert.deepEqual(second.existing.value, { approvedBy: 'user:ada' });
      assert.deepEqual((await h.b.getClaim(k))?.value, { approvedBy: 'user:ada' });
      await h.elapse(1100);
      assert.equal(await h.a.getClaim(k), undefined);
      assert.equal((await h.b.claimOnce(k, { expiresAt: h.now() + 10_000 })).claimed, true);
    });

    it('epoch: one per backend life; a claim sealed under it is made, under another it is refused and nothing is claimed', async () => {
      const epoch = h.a.epoch();
      assert.equal(typeof epoch, 'string');
      assert.ok(epoch.length >= 8);
      assert.equal(h.b.epoch(), epoch, 'every instance on one backend sees the same epoch');
      const k = key('epoch');
      await assert.rejects(h.a.claimOnce(k, { expiresAt: h.now() + 60_000, epoch: `${epoch}-old` }), (error: unknown) =>
        error instanceof StoreEpochError && error.expected === `${epoch}-old` && error.current === epoch &&
        error.message === `store epoch changed: the claim was sealed under epoch ${epoch}-old, the store is now in epoch ${epoch} (it lost its memory, e.g. a Redis restarted empty)`);
      assert.equal(await h.b.getClaim(k), undefined, 'the refused claim wrote nothing');
      assert.equal((await h.b.claimOnce(k, { expiresAt: h.now() + 60_000, epoch })).claimed, true);
      assert.equal((await h.a.claimOnce(k, { expiresAt: h.now() + 60_000, epoch })).claimed, false);
    });

    it('claimOnce: of 20 concurrent claims on two instances exactly one wins', async () => {
      const k = key('race');
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? h.a : h.b).claimOnce(k, { expiresAt: h.now() + 60_000, value: i })));
      assert.equal(results.filter((r) => r.claimed).length, 1);
    });

    it('claimOnce: an already lapsed claim is granted but not kept; a non-finite expiry is a RangeError', async () => {
      const k = key('lapsed');
      assert.equal((await h.a.claimOnce(k, { expiresAt: h.now() - 1 })).claimed, true);
      assert.equal(await h.a.getClaim(k), undefined);
      await assert.rejects(h.a.claimOnce(k, { expiresAt: Number.NaN }), { name: 'RangeError', message: 'claimOnce: expiresAt must be a finite time' });
    });

    it('takeTokens: a bucket shared by both instances allows its capacity, then refuses with a retry time, then refills', async () => {
      const k = key('bucket');
      const rule = { capacity: 3, refillPerSecond: 1 };
      const verdicts = [await h.a.takeTokens(k, rule), await h.b.takeTokens(k, rule), await h.a.takeTokens(k, rule)];
      assert.deepEqual(verdicts.map((v) => [v.allowed, v.remaining, v.retryAfterMs]), [[true, 2, 0], [true, 1, 0], [true, 0, 0]]);
      const refused = await h.b.takeTokens(k, rule);
      assert.equal(refused.allowed, false);
      assert.equal(refused.remaining, 0);
      assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= 1000, `one token comes back within 1000 ms, got ${refused.retryAfterMs}`);
      await h.elapse(refused.retryAfterMs + 20);
      assert.equal((await h.a.takeTokens(k, rule)).allowed, true);
    });

    it('takeTokens: of 12 concurrent takes on a bucket of 5, exactly 5 are allowed', async () => {
      const k = key('bucket-race');
      const rule = { capacity: 5, refillPerSecond: 0.001 };
      const verdicts = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? h.a : h.b).takeTokens(k, rule)));
      assert.equal(verdicts.filter((v) => v.allowed).length, 5);
    });

    it('takeTokens: a bad rule or cost is a RangeError and takes nothing', async () => {
      const k = key('bucket-bad');
      await assert.rejects(h.a.takeTokens(k, { capacity: 0, refillPerSecond: 1 }), { name: 'RangeError', message: 'takeTokens: capacity must be a positive number, got 0' });
      await assert.rejects(h.a.takeTokens(k, { capacity: 1, refillPerSecond: -1 }), { name: 'RangeError', message: 'takeTokens: refillPerSecond must be a positive number, got -1' });
      await assert.rejects(h.a.takeTokens(k, { capacity: 1, refillPerSecond: 1 }, -2), { name: 'RangeError', message: 'takeTokens: cost must be a non-negative number, got -2' });
      assert.deepEqual(await h.a.takeTokens(k, { capacity: 1, refillPerSecond: 1 }), { allowed: true, remaining: 0, retryAfterMs: 0 });
    });

    it('increment: counts across instances, lapses ttlMs after creation, rejects a bad ttl', async () => {
      const k = key('counter');
      assert.equal(await h.a.increment(k, { ttlMs: 1000 }), 1);
      assert.equal(await h.b.increment(k, { ttlMs: 1000 }), 2);
      assert.equal(await h.a.increment(k, { ttlMs: 1000, by: 5 }), 7);
      await h.elapse(1100);
      assert.equal(await h.b.increment(k, { ttlMs: 1000 }), 1);
      await assert.rejects(h.a.increment(k, { ttlMs: 0 }), { name: 'RangeError', message: 'increment: ttlMs must be a positive number, got 0' });
    });

    it('records: set bumps the version; get on the other instance sees it; delete says whether it removed one', async () => {
      const k = key('record');
      const first = await h.a.set(k, { state: 'working' });
      assert.equal(first.version, 1);
      assert.equal(first.expiresAt, undefined);
      const second = await h.b.set(k, { state: 'done', n: [1, 2] });
      assert.equal(second.version, 2);
      assert.deepEqual(await h.a.get(k), { value: { state: 'done', n: [1, 2] }, version: 2, expiresAt: undefined });
      assert.equal(await h.b.delete(k), true);
      assert.equal(await h.a.get(k), undefined);
      assert.equal(await h.a.delete(k), false);
    });

    it('compareAndSet: writes only over the expected version (0 = absent) and reports what is there otherwise', async () => {
      const k = key('cas');
      const created = await h.a.compareAndSet(k, 0, 'v1');
      assert.equal(created.ok, true);
      if (created.ok) assert.equal(created.record.version, 1);
      const stale = await h.b.compareAndSet(k, 0, 'lost');
      assert.equal(stale.ok, false);
      if (!stale.ok) assert.deepEqual(stale.current, { value: 'v1', version: 1, expiresAt: undefined });
      const next = await h.b.compareAndSet(k, 1, 'v2');
      assert.equal(next.ok, true);
      assert.deepEqual((await h.a.get(k))?.value, 'v2');
      const absent = await h.a.compareAndSet(key('cas-absent'), 3, 'x');
      assert.deepEqual(absent, { ok: false, current: undefined });
      await assert.rejects(h.a.compareAndSet(k, -1, 'x'), { name: 'RangeError', message: 'compareAndSet: expectedVersion must be a non-negative integer, got -1' });
    });

    it('compareAndSet: of 10 concurrent writers of one version exactly one succeeds', async () => {
      const k = key('cas-race');
      await h.a.set(k, 0);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? h.a : h.b).compareAndSet(k, 1, i)));
      assert.equal(results.filter((r) => r.ok).length, 1);
      assert.equal((await h.a.get(k))?.version, 2);
    });

    it('records with a TTL: expiresAt is reported, the record lapses, then it counts as absent for compareAndSet', async () => {
      const k = key('ttl');
      const before = h.now();
      const written = await h.a.set(k, 'short', { ttlMs: 150 });
      assert.ok(written.expiresAt !== undefined && written.expiresAt >= before + 100 && written.expiresAt <= h.now() + 150, `expiresAt ${written.expiresAt} is about now + 150`);
      await h.elapse(200);
      assert.equal(await h.b.get(k), undefined);
      assert.equal((await h.b.compareAndSet(k, 0, 'again', { ttlMs: 1000 })).ok, true);
      await assert.rejects(h.a.set(k, 'x', { ttlMs: -5 }), { name: 'RangeError', message: 'set: ttlMs must be a positive number, got -5' });
    });

    it('publish/subscribe: a message published on one instance reaches listeners on the other, until they stop listening', async () => {
      assert.ok(h.a.publish !== undefined && h.b.subscribe !== undefined);
      const channel = key('channel');
      const probe = key('probe');
      const got: JsonValue[] = [];
      let arrived: (m: JsonValue) => void = () => undefined;
      const stop = await h.b.subscribe(channel, (m) => {
        got.push(m);
        arrived(m);
      });
      const first = new Promise<JsonValue>((resolve) => (arrived = resolve));
      await h.a.publish(channel, { method: 'notifications/tools/list_changed', n: 1 });
      assert.deepEqual(await first, { method: 'notifications/tools/list_changed', n: 1 });
      stop();
      // A later message on another channel arrives after anything still in flight on the first.
      const probed = new Promise<JsonValue>((resolve) => void h.b.subscribe!(probe, resolve).then(() => h.a.publish!(channel, 'after stop').then(() => h.a.publish!(probe, 'probe'))));
      assert.equal(await probed, 'probe');
      assert.deepEqual(got, [{ method: 'notifications/tools/list_changed', n: 1 }]);
    });
  });
}
