/** server.close() closes middleware: server-wide and per-tool, each distinct one once, a failing close logged without stopping the others. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer, defineTool } from '../../../src/index.js';
import type { Middleware } from '../../../src/index.js';

function tracked(name: string, closed: string[], fail?: string): Middleware {
  return {
    name,
    handle: (_call, next) => next(),
    async close() {
      closed.push(name);
      if (fail !== undefined) throw new Error(fail);
    },
  };
}

describe('server.close() and middleware', () => {
  it('closes every server-wide and per-tool middleware once, in order; a throwing close is logged and the rest still close', async () => {
    const closed: string[] = [];
    const logged: [string, Record<string, unknown> | undefined][] = [];
    const shared = tracked('shared', closed);
    const a = defineTool({ name: 'a', inputSchema: { type: 'object' }, use: [shared, tracked('own-a', closed)], run: () => 'a' });
    const b = defineTool({ name: 'b', inputSchema: { type: 'object' }, use: [shared], run: () => 'b' });
    const server = createServer({
      name: 'close', version: '1', tools: [a, b],
      use: [tracked('broken', closed, 'disk gone'), tracked('wide', closed), { name: 'no-close', handle: (_c, next) => next() }],
      logger: { error: (message, detail) => logged.push([message, detail]) },
    });
    const listener = await server.listen({ port: 0 });
    await server.close();
    assert.deepEqual(closed, ['broken', 'wide', 'shared', 'own-a']);
    assert.deepEqual(logged, [['middleware broken: close() threw', { reason: 'disk gone' }]]);
    await assert.rejects(fetch(listener.url, { method: 'POST' }), TypeError, 'the listener is closed before middleware is');
  });

  it('a middleware whose close is not a function is refused at createServer', () => {
    assert.throws(() => createServer({ name: 'close', version: '1', tools: [], use: [{ name: 'odd', handle: (_c: unknown, next: () => unknown) => next(), close: 'soon' } as never] }), {
      name: 'TypeError',
      message: 'createServer: use[0] (odd) has a close that is not a function',
    });
  });
});
