/**
 * Change and task notifications across instances (src/server/catalog/change-relay.ts): two servers
 * on one shared store, a `subscriptions/listen` stream on one, the change raised on the other.
 * Each arrives once (an instance ignores its own echo).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, createServer, defineTool } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { sendInProcess as send, turnsUntil as until } from '../fixtures/servers/in-process.js';
import type { Json } from '../fixtures/servers/in-process.js';
import { gate } from '../support/gate.js';

describe('notifications across instances sharing a store', () => {
  it('a list change and a resource update raised on one instance reach a listen stream on the other, once each', async () => {
    const store = createMemoryStore();
    const make = (): McpServer => createServer({ name: 's', version: '1', tools: [], store, listChanged: ['tools'], resourceUpdates: true });
    const [a, b] = [make(), make()];
    try {
      const onB: Json[] = [];
      const onA: Json[] = [];
      const stop = new AbortController();
      const filter = { notifications: { toolsListChanged: true, resourceSubscriptions: ['x://status'] } };
      const listens = [send(b, 'subscriptions/listen', filter, { notifications: onB, signal: stop.signal }), send(a, 'subscriptions/listen', filter, { notifications: onA, signal: stop.signal })];
      await until(() => onA.length > 0 && onB.length > 0);
      assert.equal(a.notifyListChanged('tools'), 1, 'the count is of this instance\'s streams');
      assert.equal(a.notifyResourceUpdated('x://status'), 1);
      await until(() => onB.length >= 3);
      for (const seen of [onA, onB]) {
        assert.deepEqual(seen.map((n) => n.method), ['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed', 'notifications/resources/updated']);
      }
      assert.equal(onB[2]!.params.uri, 'x://status');
      stop.abort();
      await Promise.all(listens);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a task running on one instance reports its status to the creator\'s listen stream on the other', async () => {
    const store = createMemoryStore();
    const release = gate();
    const job = defineTool({ name: 'job', inputSchema: { type: 'object' }, task: true, run: async () => { await release.opened; return 'finished'; } });
    const make = (): McpServer => createServer({ name: 's', version: '1', tools: [job], store });
    const [a, b] = [make(), make()];
    try {
      const created = (await send(a, 'tools/call', { name: 'job', arguments: {} })).result;
      assert.equal(typeof created.taskId, 'string');
      const onB: Json[] = [];
      const stop = new AbortController();
      const listen = send(b, 'subscriptions/listen', { notifications: { taskIds: [created.taskId] } }, { notifications: onB, signal: stop.signal });
      await until(() => onB.length > 0);
      release.open();
      await until(() => onB.some((n) => n.params?.status === 'completed'));
      const done = onB.filter((n) => n.method === 'notifications/tasks').at(-1)!;
      assert.equal(done.params.taskId, created.taskId);
      assert.equal(done.params.status, 'completed');
      assert.deepEqual(done.params.result.content, [{ type: 'text', text: 'finished' }]);
      stop.abort();
      await listen;
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
