// `npx tsx bench/claim-guard.bench.ts`: what the claim counter (src/server/store/claim-counter-guard.ts)
// adds to a claim on a real redis-server with the AOF (appendfsync everysec) on loopback: claims
// per second and µs per claim, plain `createRedisStore().claimOnce` against the guarded one, one at
// a time (latency) and 32 in flight (throughput). Median over rounds; rounds alternate the two.
//
//   npx tsx bench/claim-guard.bench.ts [--rounds 5] [--claims 5000]
//
// Redis and the counter file live in temporary directories removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisStore, guardRedisStore } from '../src/server/store/index.js';
import type { Store } from '../src/server/store/index.js';
import { startRedis } from '../test/support/local-services.js';
import { intOption } from './lib/int-option.js';

const option = intOption;

const rounds = option('--rounds', 5);
const claims = option('--claims', 5000);
let serial = 0;

/** µs per claim for `claims` claims with `inFlight` at a time. */
async function measure(store: Store, inFlight: number): Promise<number> {
  const expiresAt = Date.now() + 600_000;
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < claims) {
      next++;
      const result = await store.claimOnce(`approval:bench-${serial++}`, { expiresAt, value: { call: 'tools/call bench' } });
      if (!result.claimed) throw new Error('a fresh key was not claimed');
    }
  }));
  return Number(process.hrtime.bigint() - started) / 1000 / claims;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const redis = await startRedis({ appendonly: true });
const dir = mkdtempSync(join(tmpdir(), 'tw-claim-bench-'));
const plain = createRedisStore({ url: redis.url });
const guarded = guardRedisStore(createRedisStore({ url: redis.url, keyPrefix: 'guarded:' }), { counterFile: join(dir, 'counter.json'), log: () => undefined });
try {
  await plain.ready();
  await guarded.ready();
  if (!(await guarded.start())) throw new Error('the guarded store did not start');
  for (const inFlight of [1, 32]) {
    const times = { plain: [] as number[], guarded: [] as number[] };
    await measure(plain, inFlight); // warm-up: connections, script cache, JIT
    await measure(guarded, inFlight);
    for (let r = 0; r < rounds; r++) {
      times.plain.push(await measure(plain, inFlight));
      times.guarded.push(await measure(guarded, inFlight));
    }
    const p = median(times.plain);
    const g = median(times.guarded);
    process.stdout.write(`in flight ${String(inFlight).padStart(2)}: plain ${p.toFixed(1)} µs/claim (${Math.round(1e6 / p)}/s), guarded ${g.toFixed(1)} µs/claim (${Math.round(1e6 / g)}/s), +${(g - p).toFixed(1)} µs (${((g / p - 1) * 100).toFixed(0)}%)\n`);
  }
  // Redis's own CPU per command (load on the machine inflates the wall-clock figures above, not these).
  const stats = String(await plain.command<string>(['INFO', 'commandstats'])).split(/\r?\n/).filter((l) => /^cmdstat_(set|evalsha):/.test(l));
  process.stdout.write(`redis: ${stats.map((l) => l.replace(/,rejected_calls.*$/, '')).join('; ')} (set: the plain claim; evalsha: the guarded one)\n`);
} finally {
  await plain.close();
  await guarded.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
