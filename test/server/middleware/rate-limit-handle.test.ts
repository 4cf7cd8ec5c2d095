/**
 * rateLimit's `handle`, called directly: a call within the bucket runs `next` and returns its outcome
 * as it is; an empty bucket returns the rateLimited refusal (-31429, HTTP 429, Retry-After, data)
 * without calling `next`; buckets are keyed per tool and subject as `per` says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimit } from '../../../src/server/middleware/rate-limit/index.js';
import { rpcError } from '../../../src/server/outcomes.js';
import { createMemoryStore } from '../../../src/server/store/memory-store.js';
import { sampleTool } from '../../support/sample-tool.js';
import { assertRefused, stageEnv } from '../../support/stage-fixture.js';
import { nextReturning, reportsOf, textResult, toolCall } from '../../support/tool-call.js';

function clockedEnv() {
  const clock = { now: 0 };
  const env = stageEnv({ tools: [sampleTool(), sampleTool({ name: 'other' })], store: createMemoryStore({ clock: { now: () => clock.now } }) });
  return { env, clock };
}

describe('rateLimit handle', () => {
  it('passes a burst of capacity through next unchanged, then refuses with the rateLimited row, calling nothing; refills with time', async () => {
    const { env, clock } = clockedEnv();
    const limit = rateLimit({ capacity: 2, refillPerSecond: 0.5 });
    const ok = textResult('ran');
    const call = toolCall(env, { middleware: limit, args: { text: 'hi' } });
    const stub = nextReturning(call, ok);
    assert.equal(await limit.handle(call, stub.next), ok);
    assert.equal(await limit.handle(call, stub.next), ok);
    const refused = await limit.handle(call, stub.next);
    assertRefused(refused, 'rateLimited', 'Rate limited: tool echo for anonymous callers allows a burst of 2 calls, then 0.5 per second; retry in 2000 ms', {
      data: { retryAfterMs: 2000 },
      headers: { 'Retry-After': '2' },
    });
    assert.equal(stub.calls, 2, 'the refused call did not reach next');
    assert.deepEqual(reportsOf(call, limit), ['bucket empty; retry after 2000 ms']);
    clock.now += 2000;
    assert.equal(await limit.handle(call, stub.next), ok);
    assert.equal(stub.calls, 3);
  });

  it('Retry-After rounds up to whole seconds, at least 1', async () => {
    const { env } = clockedEnv();
    const limit = rateLimit({ capacity: 1, refillPerSecond: 4 });
    const call = toolCall(env, { middleware: limit });
    const stub = nextReturning(call, textResult('ran'));
    await limit.handle(call, stub.next);
    assertRefused(await limit.handle(call, stub.next), 'rateLimited', 'Rate limited: tool echo for anonymous callers allows a burst of 1 call, then 4 per second; retry in 250 ms', {
      data: { retryAfterMs: 250 },
      headers: { 'Retry-After': '1' },
    });
  });

  it('default buckets are per tool and subject: another subject or another tool still passes', async () => {
    const { env } = clockedEnv();
    const limit = rateLimit({ capacity: 1, refillPerSecond: 0.001 });
    const alice = toolCall(env, { middleware: limit, auth: { subject: 'alice', scopes: [] } });
    const stub = nextReturning(alice, textResult('ran'));
    await limit.handle(alice, stub.next);
    assertRefused(await limit.handle(alice, stub.next), 'rateLimited', 'Rate limited: tool echo for this caller allows a burst of 1 call, then 0.001 per second; retry in 1000000 ms');
    const bob = toolCall(env, { middleware: limit, auth: { subject: 'bob', scopes: [] } });
    assert.equal((await limit.handle(bob, stub.next)).kind, 'result');
    const aliceOther = toolCall(env, { middleware: limit, tool: 'other', auth: { subject: 'alice', scopes: [] } });
    assert.equal((await limit.handle(aliceOther, stub.next)).kind, 'result');
    assert.equal(stub.calls, 3);
  });

  it('per "tool" shares one bucket between subjects; per "subject" one across tools', async () => {
    const { env } = clockedEnv();
    const byTool = rateLimit({ capacity: 1, refillPerSecond: 0.001, per: 'tool' });
    const first = toolCall(env, { auth: { subject: 'alice', scopes: [] } });
    await byTool.handle(first, nextReturning(first, textResult('ran')).next);
    const second = toolCall(env, { auth: { subject: 'bob', scopes: [] } });
    assertRefused(await byTool.handle(second, nextReturning(second, textResult('ran')).next), 'rateLimited', 'Rate limited: tool echo allows a burst of 1 call, then 0.001 per second; retry in 1000000 ms');

    const bySubject = rateLimit({ capacity: 1, refillPerSecond: 0.001, per: 'subject' });
    const echo = toolCall(env, {});
    await bySubject.handle(echo, nextReturning(echo, textResult('ran')).next);
    const other = toolCall(env, { tool: 'other' });
    const stub = nextReturning(other, textResult('ran'));
    assertRefused(await bySubject.handle(other, stub.next), 'rateLimited', 'Rate limited: the limit for anonymous callers allows a burst of 1 call, then 0.001 per second; retry in 1000000 ms');
    assert.equal(stub.calls, 0);
  });

  it('returns what next returns, an error or a cancellation included', async () => {
    const { env } = clockedEnv();
    const limit = rateLimit({ capacity: 5, refillPerSecond: 1 });
    const call = toolCall(env, {});
    const cancelled = { kind: 'cancelled' } as const;
    assert.equal(await limit.handle(call, nextReturning(call, cancelled).next), cancelled);
    const forbidden = { kind: 'error', error: rpcError('insufficientScope', 'no') } as const;
    assert.equal(await limit.handle(call, nextReturning(call, forbidden).next), forbidden);
  });
});
