/** The `execute` stage: runs the tool and turns what `run` returned into a tool result (or the answer it amounts to). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import { ProtocolError } from '../../../src/protocol/protocol-error.js';
import { execute } from '../../../src/server/stages/execute.js';
import type { CallInit, TestEnv } from '../../support/stage-fixture.js';
import { assertRefused, assertToolError, settle, shaped, stageEnv } from '../../support/stage-fixture.js';

/** An env whose one tool `t` runs `run`; `resultMeta` as given. */
function running(run: (args: Record<string, unknown>) => unknown, resultMeta = {}): TestEnv {
  return stageEnv({ tools: [defineTool({ name: 't', inputSchema: { type: 'object' }, run: run as never })], resultMeta });
}

async function resultOf(env: TestEnv, init: CallInit = {}): Promise<unknown> {
  const s = shaped(env, init);
  const out = await settle(execute.run(s, env));
  assert.equal(out, s, `expected the stage to pass, got ${JSON.stringify(out)}`);
  return s.result;
}

const stopOf = (env: TestEnv, init: CallInit = {}) => settle(execute.run(shaped(env, init), env));

describe('execute stage', () => {
  it('passes the arguments to run and keeps a synchronous run synchronous', () => {
    const seen: unknown[] = [];
    const env = running((args) => { seen.push(args); return 'done'; });
    const s = shaped(env, { args: { a: 1 } });
    assert.equal(execute.run(s, env), s);
    assert.deepEqual(seen, [{ a: 1 }]);
  });

  it('turns a string, nothing, or a promise of either into text content', async () => {
    assert.deepEqual(await resultOf(running(() => 'hi')), { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] });
    assert.deepEqual(await resultOf(running(() => undefined)), { resultType: 'complete', content: [] });
    assert.deepEqual(await resultOf(running(async () => 'later')), { resultType: 'complete', content: [{ type: 'text', text: 'later' }] });
  });

  it('mirrors structured content as text when no content came (structuredOnly)', async () => {
    assert.deepEqual(await resultOf(running(() => ({ structuredContent: { n: 1 } }))), { resultType: 'complete', content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } });
  });

  it("keeps content, isError and the tool's _meta, adding the server's result _meta to it", async () => {
    const env = running(() => ({ content: [{ type: 'text', text: 'no' }], isError: true, _meta: { mine: 1 } }), { server: 'x' });
    assert.deepEqual(await resultOf(env), { resultType: 'complete', content: [{ type: 'text', text: 'no' }], isError: true, _meta: { mine: 1, server: 'x' } });
  });

  it('answers an input_required result whose requests the client can serve', async () => {
    const request = { method: 'elicitation/create', params: { mode: 'form', message: 'ok?', requestedSchema: { type: 'object', properties: {} } } };
    const env = running(() => ({ resultType: 'input_required', inputRequests: { q: request }, requestState: 's1', _meta: { m: 1 } }));
    assert.deepEqual(await stopOf(env, { capabilities: { elicitation: {} } }), {
      kind: 'result', outcome: 'respond', result: { resultType: 'input_required', inputRequests: { q: request }, requestState: 's1', _meta: { m: 1 } },
    });
  });

  it('refuses input requests for a capability the client did not declare (R-60)', async () => {
    const env = running(() => ({ resultType: 'input_required', inputRequests: { q: { method: 'sampling/createMessage', params: {} } } }));
    assertRefused(await stopOf(env), 'missingClientCapability', 'Missing required client capability: sampling (tool t needs it to continue)', { data: { requiredCapabilities: { sampling: {} } } });
  });

  it('refuses what is not a tool result as an internal error, and logs it', async () => {
    const cases: [unknown, string][] = [
      [42, 'returned number'],
      [null, 'returned null'],
      [{ resultType: 'input_required' }, 'returned input_required without inputRequests or requestState'],
      [{ resultType: 'input_required', requestState: 5 }, 'returned a requestState that is not a string'],
      [{ resultType: 'input_required', inputRequests: [] }, 'returned inputRequests that is not an object'],
      [{ resultType: 'input_required', inputRequests: { q: { method: 'nope' } } }, 'returned an input request with unknown method "nope"'],
      [{ resultType: 'partial' }, 'returned unknown resultType "partial"'],
      [{ content: 'x' }, 'returned content that is not an array'],
      [{ content: [], isError: 'yes' }, 'returned isError that is not a boolean'],
    ];
    for (const [value, what] of cases) {
      const env = running(() => value);
      assertRefused(await stopOf(env), 'invalidRunResult', `Internal error: tool t ${what}`);
      assert.deepEqual(env.logged, [{ message: `tool ${what}`, detail: { tool: 't' } }]);
    }
  });

  it('answers a throw or rejection with an isError result (runThrew)', async () => {
    assertToolError(await stopOf(running(() => { throw new Error('motor stalled'); })), 'runThrew', 'motor stalled');
    assertToolError(await stopOf(running(() => Promise.reject(new Error('late stall')))), 'runThrew', 'late stall');
    assertToolError(await stopOf(running(() => { throw 'plain string'; })), 'runThrew', 'plain string');
  });

  it('passes a ProtocolError the tool throws on as the JSON-RPC error', async () => {
    const error = new ProtocolError(-32602, 'Invalid params: nope');
    assert.deepEqual(await stopOf(running(() => { throw error; })), { kind: 'error', error });
  });

  it('runs nothing for a request already cancelled, and reports a cancellation during the run', async () => {
    let runs = 0;
    const gone = new AbortController();
    gone.abort();
    const env = running(() => { runs++; return 'x'; });
    assert.deepEqual(execute.run(shaped(env, { signal: gone.signal }), env), { kind: 'cancelled' });
    assert.equal(runs, 0);
    const during = new AbortController();
    assert.deepEqual(await stopOf(running(async () => { during.abort(); return 'x'; }), { signal: during.signal }), { kind: 'cancelled' });
    const threw = new AbortController();
    assert.deepEqual(await stopOf(running(() => { threw.abort(); throw new Error('aborted'); }), { signal: threw.signal }), { kind: 'cancelled' });
  });
});
