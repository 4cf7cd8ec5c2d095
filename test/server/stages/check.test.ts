/** The `check` stage: the tool's business rules. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import type { RuleViolation, ToolContext } from '../../../src/index.js';
import { check } from '../../../src/server/stages/check.js';
import { assertPassed, assertToolError, settle, shaped, stageEnv } from '../../support/stage-fixture.js';
import { sampleTool } from '../../support/sample-tool.js';

function ruled(rules: (args: Record<string, unknown>, ctx: ToolContext) => readonly (RuleViolation | string)[] | Promise<readonly (RuleViolation | string)[]>) {
  return stageEnv({ tools: [defineTool({ name: 'ruled', inputSchema: { type: 'object' }, check: rules, run: () => 'ran' })] });
}

describe('check stage', () => {
  it('passes synchronously for a tool without rules', () => {
    const env = stageEnv({ tools: [sampleTool()] });
    const s = shaped(env, { args: { text: 'x' } });
    assertPassed(check.run(s, env), s);
  });

  it('passes when the rules find nothing, handing them the arguments and the context', async () => {
    const seen: unknown[] = [];
    const env = ruled((args, ctx) => { seen.push(args, ctx); return []; });
    const s = shaped(env, { args: { n: 1 } });
    assertPassed(await settle(check.run(s, env)), s);
    assert.deepEqual(seen, [{ n: 1 }, s.ctx]);
  });

  it('refuses with every violation listed, with or without a path', async () => {
    const env = ruled(async () => ['too late in the day', { path: '/n', message: 'must be even' }, { path: '', message: 'no path' }]);
    assertToolError(await settle(check.run(shaped(env, { args: { n: 1 } }), env)), 'businessRuleViolation', 'Tool ruled refused the call:\n- too late in the day\n- /n: must be even\n- no path');
  });

  it('refuses when the rules throw or reject', async () => {
    const thrown = ruled(() => { throw new Error('rules db down'); });
    assertToolError(await settle(check.run(shaped(thrown, {}), thrown)), 'checkThrew', 'Tool ruled could not check the arguments: rules db down');
    const rejected = ruled(() => Promise.reject(new Error('late failure')));
    assertToolError(await settle(check.run(shaped(rejected, {}), rejected)), 'checkThrew', 'Tool ruled could not check the arguments: late failure');
  });

  it('reports a throw after the client went away as a cancellation', async () => {
    const controller = new AbortController();
    const env = ruled(() => { controller.abort(); throw new Error('aborted'); });
    assert.deepEqual(await settle(check.run(shaped(env, { signal: controller.signal }), env)), { kind: 'cancelled' });
  });
});
