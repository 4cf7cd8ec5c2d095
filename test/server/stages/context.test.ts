/** The `context` stage: makes the handler context once the arguments passed the shape check. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallContext } from '../../../src/server/stages/call-context.js';
import { context } from '../../../src/server/stages/context.js';
import { assertPassed, redeemed, stageEnv } from '../../support/stage-fixture.js';

describe('context stage', () => {
  it('gives the call a context that reads this request', () => {
    const env = stageEnv();
    const controller = new AbortController();
    const auth = { subject: 'alice', scopes: ['read'] };
    const s = redeemed(env, { args: { text: 'hi' }, auth, capabilities: { elicitation: {} }, headers: {}, signal: controller.signal, requestState: 'st', inputResponses: { a: 1 } });
    assertPassed(context.run(s, env), s);
    assert.ok(s.ctx instanceof CallContext);
    const ctx = s.ctx;
    assert.deepEqual([ctx.toolName, ctx.requestId, ctx.transport, ctx.auth, ctx.scopes, ctx.clientCapabilities, ctx.requestState, ctx.inputResponses],
      ['echo', 1, 'http', auth, ['read'], { elicitation: {} }, 'st', { a: 1 }]);
    assert.equal(ctx.requestMeta, s.meta);
    assert.equal(ctx.signal, controller.signal);
  });

  it('makes a new context per call', () => {
    const env = stageEnv();
    const a = redeemed(env, { args: { text: 'a' } });
    const b = redeemed(env, { args: { text: 'b' } });
    context.run(a, env);
    context.run(b, env);
    assert.notEqual(a.ctx, b.ctx);
  });
});
