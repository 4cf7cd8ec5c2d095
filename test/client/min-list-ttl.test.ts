/** ClientOptions.minListTtlMs: a tools/list with ttlMs 0 is reused between calls for at least that long (the proxy's setting). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { connect } from '../../src/client/index.js';
import { createServer } from '../../src/index.js';
import { calculateSum } from '../../examples/demo/server.js';

it('lists once for many calls with minListTtlMs, and before every call without it', async () => {
  const server = createServer({ name: 'up', version: '1.0.0', tools: [calculateSum], listTtlMs: 0 });
  const listener = await server.listen({ port: 0 });
  const count = async (minListTtlMs: number | undefined): Promise<number> => {
    let lists = 0;
    const counting: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"method":"tools/list"')) lists++;
      return fetch(input, init);
    };
    const client = connect({ url: listener.url, fetch: counting }, { onWarning: () => {}, ...(minListTtlMs !== undefined ? { minListTtlMs } : {}) });
    try {
      for (let i = 0; i < 3; i++) assert.deepEqual((await client.callTool('calculate_sum', { a: i, b: 1 })).structuredContent, { sum: i + 1 });
    } finally {
      await client.close();
    }
    return lists;
  };
  try {
    assert.equal(await count(60_000), 1);
    assert.equal(await count(undefined), 3);
  } finally {
    await listener.close();
    await server.close();
  }
});
