/** The Store contract (store-contract.ts) against the in-memory store and against a real redis-server. */
import { createMemoryStore } from '../../src/server/store/index.js';
import { createRedisStore } from '../../src/server/store/redis-store.js';
import { missing, startRedis } from '../support/local-services.js';
import { storeContract } from './store-contract.js';

storeContract('memory', async () => {
  let now = 1_000_000;
  const store = createMemoryStore({ clock: { now: () => now } });
  return {
    a: store,
    b: store,
    now: () => now,
    elapse: async (ms) => {
      now += ms;
    },
    close: async () => store.close?.(),
  };
});

const noRedis = missing('redis-server');
if (noRedis !== undefined) process.stdout.write(`# skipping the Redis store contract: ${noRedis}\n`);
storeContract(
  'redis',
  async () => {
    const redis = await startRedis();
    const a = createRedisStore({ url: redis.url });
    const b = createRedisStore({ url: redis.url });
    await Promise.all([a.ready(), b.ready()]);
    return {
      a,
      b,
      now: () => Date.now(),
      // Redis expires keys on its own clock: time has to pass for real here.
      elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      close: async () => {
        await Promise.all([a.close(), b.close()]);
        await redis.stop();
      },
    };
  },
  noRedis,
);
