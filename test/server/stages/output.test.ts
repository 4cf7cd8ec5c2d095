/** The `output` stage: the structured result against the output schema. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import type { CallToolResult } from '../../../src/protocol/wire-types.js';
import { output } from '../../../src/server/stages/output.js';
import type { PipelineEnv } from '../../../src/server/stages/pipeline-env.js';
import { assertRefused, extend, shaped, stageEnv } from '../../support/stage-fixture.js';
import { sampleTool } from '../../support/sample-tool.js';

const typed = defineTool({
  name: 'typed',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  run: () => ({ structuredContent: { n: 1 } }),
});
const env = stageEnv({ tools: [typed, sampleTool()] });
const executed = (e: PipelineEnv, tool: string, result: CallToolResult) => extend(shaped(e, { tool }), { result });

describe('output stage', () => {
  it('answers a result of a tool without an output schema as is', () => {
    const result: CallToolResult = { resultType: 'complete', content: [{ type: 'text', text: 'x' }] };
    assert.deepEqual(output.run(executed(env, 'echo', result), env), { kind: 'result', outcome: 'respond', result });
  });

  it('answers structured content that fits the schema', () => {
    const result: CallToolResult = { resultType: 'complete', content: [], structuredContent: { n: 2 } };
    assert.deepEqual(output.run(executed(env, 'typed', result), env), { kind: 'result', outcome: 'respond', result });
  });

  it('does not apply the schema to an error result (errorResultUnchecked)', () => {
    const result: CallToolResult = { resultType: 'complete', content: [{ type: 'text', text: 'failed' }], isError: true };
    assert.deepEqual(output.run(executed(env, 'typed', result), env), { kind: 'result', outcome: 'tool-error', result });
  });

  it('withholds a result without structuredContent from a tool that promised it, and logs it', () => {
    const e = stageEnv({ tools: [typed] });
    assertRefused(output.run(executed(e, 'typed', { resultType: 'complete', content: [] }), e), 'outputContractBroken',
      'Internal error: tool typed returned no structuredContent although it declares an outputSchema');
    assert.deepEqual(e.logged, [{ message: 'tool returned no structuredContent although it declares an outputSchema', detail: { tool: 'typed' } }]);
  });

  it('withholds output that breaks the schema, logging the value and why', () => {
    const e = stageEnv({ tools: [typed] });
    assertRefused(output.run(executed(e, 'typed', { resultType: 'complete', content: [], structuredContent: { n: 'two' } }), e), 'outputContractBroken',
      'Internal error: tool typed produced output that breaks its outputSchema');
    assert.equal(e.logged.length, 1);
    assert.equal(e.logged[0]!.message, 'tool output breaks its outputSchema; the value was withheld');
    assert.deepEqual({ ...e.logged[0]!.detail, errors: undefined }, { tool: 'typed', structuredContent: { n: 'two' }, errors: undefined });
    assert.ok((e.logged[0]!.detail!.errors as string[]).length > 0);
  });
});
