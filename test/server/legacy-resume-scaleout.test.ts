/**
 * Resumption across instances behind one real Redis (redis-server on a free loopback port): a
 * legacy session's stream drops on instance A and is resumed on instance B, which replays the
 * missed events from the shared replay buffer and then shows live ones raised on A. Both the GET
 * stream and a POST's stream (its call still running on A, answered on B's resumed stream).
 * Skipped when redis-server is not installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { createRedisStore } from '../../src/server/store/index.js';
import type { RedisStore } from '../../src/server/store/index.js';
import { gate } from '../support/gate.js';
import { exchange, openSession } from '../support/legacy-session-client.js';
import type { LegacySession } from '../support/legacy-session-client.js';
import { missing, startRedis } from '../support/local-services.js';
import type { RedisProcess } from '../support/local-services.js';
import { later, openEvents } from '../support/sse-events.js';
import type { SseEvent } from '../support/sse-events.js';

type Json = Record<string, unknown>;
const skip = missing('redis-server');

const held = gate();
const reached = gate();
const ranOn: string[] = [];
function tools(instance: string): ReturnType<typeof defineTool>[] {
  return [
    defineTool({
      name: 'steps',
      description: 'Reports n progress steps.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' }, tag: { type: 'string' } }, required: ['n'] } as const,
      run: (args, ctx) => {
        for (let i = 1; i <= args.n; i++) ctx.progress(i, args.n, `${args.tag ?? 'step'} ${i} on ${instance}`);
        return `did ${args.n}`;
      },
    }),
    defineTool({
      name: 'gated',
      description: 'Waits on the test\'s gate between two progress reports.',
      inputSchema: { type: 'object' },
      run: async (_args, ctx) => {
        ctx.progress(1, 2, `before the gate on ${instance}`);
        reached.open();
        await held.opened;
        ctx.progress(2, 2, `after the gate on ${instance}`);
        ranOn.push(instance);
        return `through the gate on ${instance}`;
      },
    }),
  ] as ReturnType<typeof defineTool>[];
}

describe('resumption on another instance (real Redis)', { skip }, () => {
  let redis: RedisProcess;
  const stores: RedisStore[] = [];
  const servers: McpServer[] = [];
  let a: string;
  let b: string;

  before(async () => {
    redis = await startRedis();
    for (const instance of ['A', 'B']) {
      const store = createRedisStore({ url: redis.url });
      stores.push(store);
      servers.push(createServer({ name: `resume-${instance}`, version: '1.0.0', tools: tools(instance), store }));
    }
    const listeners: HttpListener[] = await Promise.all(servers.map((s) => s.listen({ port: 0 })));
    [a, b] = listeners.map((l) => l.url) as [string, string];
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await Promise.all(stores.map((s) => s.close?.()));
    await redis?.stop();
  });

  const call = (id: number, name: string, args: Json): Json => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: `t${id}` } } });
  const messageOf = (e: SseEvent): unknown => (e.data.params as Json | undefined)?.message;

  /** GET (with Last-Event-ID) at `url`; a GET racing A's notice of the drop (409 while A still holds the claim) is retried. */
  async function resumeAt(url: string, session: LegacySession, lastEventId: string | undefined): ReturnType<typeof openEvents> {
    const headers = lastEventId === undefined ? session.headers : { ...session.headers, 'last-event-id': lastEventId };
    for (let attempt = 0; ; attempt++) {
      const opened = await openEvents(url, { method: 'GET', headers });
      if (opened.status !== 409 || attempt === 100) return opened;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('the GET stream drops on A; B replays what A kept meanwhile, then shows what A raises live', async () => {
    const session = await openSession(a);
    const onA = await resumeAt(a, session, undefined);
    assert.equal(onA.status, 200);
    await exchange(a, call(1, 'steps', { n: 2, tag: 'x' }), session.headers, { accept: 'application/json' });
    const [x1, x2] = [await onA.next(), await onA.next()];
    assert.deepEqual([messageOf(x1), messageOf(x2)], ['x 1 on A', 'x 2 on A']);
    onA.drop();
    await exchange(a, call(2, 'steps', { n: 2, tag: 'y' }), session.headers, { accept: 'application/json' });
    const onB = await resumeAt(b, session, x2.id);
    assert.equal(onB.status, 200, JSON.stringify(onB.refused));
    const replayed = [await onB.next(), await onB.next()];
    assert.deepEqual(replayed.map((e) => [e.id, messageOf(e)]), [[later(x1.id, 2), 'y 1 on A'], [later(x1.id, 3), 'y 2 on A']]);
    await exchange(a, call(3, 'steps', { n: 1, tag: 'z' }), session.headers, { accept: 'application/json' });
    const live = await onB.next('the live event raised on A');
    assert.deepEqual([live.id, messageOf(live)], [later(x1.id, 4), 'z 1 on A']);
    onB.drop();
    await exchange(b, undefined, session.headers, { method: 'DELETE' });
  });

  it('a POST\'s stream drops on A mid-call; GET + Last-Event-ID on B gets the progress after the id and the answer of the call still running on A', async () => {
    const session = await openSession(a);
    const posted = await openEvents(a, { method: 'POST', headers: session.headers, body: call(7, 'gated', {}) });
    const first = await posted.next('the progress before the gate');
    assert.equal(messageOf(first), 'before the gate on A');
    await reached.opened;
    posted.drop();
    const onB = await resumeAt(b, session, first.id);
    assert.equal(onB.status, 200, JSON.stringify(onB.refused));
    held.open();
    const rest = await onB.rest();
    assert.deepEqual(rest.map((e) => e.id), [later(first.id, 1), later(first.id, 2)]);
    assert.equal(messageOf(rest[0] as SseEvent), 'after the gate on A');
    assert.deepEqual((rest[1] as SseEvent).data, { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'through the gate on A' }] } });
    assert.deepEqual(ranOn, ['A'], 'the call ran once, on A, to its end');
    await exchange(b, undefined, session.headers, { method: 'DELETE' });
  });
});
