/** rateLimit: token buckets per tool and subject on the server's store, driven by an injected clock. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, defineTool, rateLimit } from '../../../src/index.js';
import { resultOf, serve } from './helpers.js';

describe('rateLimit', () => {
  it('allows a burst of capacity, refuses with -31429 / HTTP 429 / Retry-After and runs nothing, refills with time', async () => {
    let now = 0;
    const clock = { now: () => now };
    const runs: string[] = [];
    const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, use: [rateLimit({ capacity: 2, refillPerSecond: 0.5 })], run: () => { runs.push('ping'); return 'pong'; } });
    await serve({ tools: [ping], store: createMemoryStore({ clock }) }, async (call) => {
      assert.equal(resultOf(await call('ping', {})).content[0]?.text, 'pong');
      assert.equal(resultOf(await call('ping', {})).content[0]?.text, 'pong');
      const refused = await call('ping', {});
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '2');
      assert.deepEqual(refused.body?.error, {
        code: -31429,
        message: 'Rate limited: tool ping for anonymous callers allows a burst of 2 calls, then 0.5 per second; retry in 2000 ms',
        data: { retryAfterMs: 2000 },
      });
      assert.equal(runs.length, 2);
      now += 2000;
      assert.equal(resultOf(await call('ping', {})).content[0]?.text, 'pong');
      assert.equal(runs.length, 3);
    });
  });

  it('buckets are per subject and per tool by default; per "tool" shares one bucket between callers', async () => {
    const authorize = ({ bearerToken }: { bearerToken: string | undefined }) => ({ scopes: [], subject: bearerToken ?? '' });
    const limited = (name: string, per?: 'tool') => defineTool({ name, inputSchema: { type: 'object' }, use: [rateLimit({ capacity: 1, refillPerSecond: 0.001, ...(per ? { per } : {}) })], run: () => name });
    await serve({ tools: [limited('a'), limited('b'), limited('shared', 'tool')], authorize }, async (call) => {
      const alice = { authorization: 'Bearer alice' };
      const bob = { authorization: 'Bearer bob' };
      assert.equal((await call('a', {}, alice)).status, 200);
      const refused = await call('a', {}, alice);
      assert.equal(refused.status, 429);
      assert.match((refused.body?.error as { message: string }).message, /^Rate limited: tool a for this caller allows a burst of 1 call, then 0\.001 per second; retry in \d+ ms$/);
      assert.equal((await call('a', {}, bob)).status, 200, 'bob has his own bucket');
      assert.equal((await call('b', {}, alice)).status, 200, 'tool b has its own bucket');
      assert.equal((await call('shared', {}, alice)).status, 200);
      const other = await call('shared', {}, bob);
      assert.equal(other.status, 429);
      assert.match((other.body?.error as { message: string }).message, /^Rate limited: tool shared allows a burst of 1 call, then 0\.001 per second; retry in \d+ ms$/);
    });
  });

  it('per "subject" names anonymous callers as one shared bucket', async () => {
    const solo = defineTool({ name: 'solo', inputSchema: { type: 'object' }, use: [rateLimit({ capacity: 1, refillPerSecond: 0.001, per: 'subject' })], run: () => 'solo' });
    await serve({ tools: [solo] }, async (call) => {
      assert.equal((await call('solo', {})).status, 200);
      const refused = await call('solo', {});
      assert.equal(refused.status, 429);
      assert.match((refused.body?.error as { message: string }).message, /^Rate limited: the limit for anonymous callers allows a burst of 1 call, then 0\.001 per second; retry in \d+ ms$/);
    });
  });

  it('rejects nonsense options', () => {
    assert.throws(() => rateLimit({ capacity: 0, refillPerSecond: 1 }), /capacity must be a number >= 1/);
    assert.throws(() => rateLimit({ capacity: 1, refillPerSecond: 0 }), /refillPerSecond must be a positive number/);
    assert.throws(() => rateLimit({ capacity: 1, refillPerSecond: 1, per: 'ip' as never }), /per must be/);
  });
});
