/** The `client-capabilities` stage: what a tool needs of the client must be declared on this request. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import { clientCapabilities, missingCapabilities } from '../../../src/server/stages/client-capabilities.js';
import { TASKS_EXTENSION } from '../../../src/server/tasks/task-wire.js';
import { assertPassed, assertRefused, stageEnv, toolFound } from '../../support/stage-fixture.js';
import { sampleTool } from '../../support/sample-tool.js';

const sampling = defineTool({ name: 'sampling', inputSchema: { type: 'object' }, requiredClientCapabilities: { sampling: {}, elicitation: { url: {} } }, run: () => 'ok' });
const taskOnly = defineTool({ name: 'task_only', inputSchema: { type: 'object' }, task: { support: 'required' }, run: () => 'ok' });
const env = stageEnv({ tools: [sampleTool(), sampling, taskOnly] });

describe('client-capabilities stage', () => {
  it('passes a tool that needs nothing', () => {
    const s = toolFound(env, { tool: 'echo' });
    assertPassed(clientCapabilities.run(s, env), s);
  });

  it('passes when every required capability (and nested one) is declared', () => {
    const s = toolFound(env, { tool: 'sampling', capabilities: { sampling: {}, elicitation: { url: {}, form: {} } } });
    assertPassed(clientCapabilities.run(s, env), s);
  });

  it('refuses naming exactly what is missing, nested parts included', () => {
    assertRefused(clientCapabilities.run(toolFound(env, { tool: 'sampling', capabilities: { elicitation: { form: {} } } }), env), 'missingClientCapability',
      'Missing required client capability: sampling, elicitation (tool sampling cannot run without it)', { data: { requiredCapabilities: { sampling: {}, elicitation: { url: {} } } } });
  });

  it('refuses a task-only tool to a client without the tasks extension', () => {
    assertRefused(clientCapabilities.run(toolFound(env, { tool: 'task_only' }), env), 'missingClientCapability',
      `Missing required client capability: extensions["${TASKS_EXTENSION}"] (tool task_only runs only as a task)`, { data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } });
    const declared = toolFound(env, { tool: 'task_only', capabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    assertPassed(clientCapabilities.run(declared, env), declared);
  });

  it('missingCapabilities treats null as absent and an empty requirement as "any value"', () => {
    assert.deepEqual(missingCapabilities({ a: {}, b: {} }, { a: null, b: 'yes' }), { a: {} });
    assert.equal(missingCapabilities({}, {}), undefined);
  });
});
