/**
 * The stage list's order is checked when it compiles: a stage is accepted only after the stages that
 * establish the state it reads. The `@ts-expect-error` lines are the test (`npm run typecheck`
 * fails if one of them compiles); the runtime part checks the order the runner gets.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { authenticate } from '../../src/server/stages/authenticate.js';
import { decode } from '../../src/server/stages/decode.js';
import { envelope } from '../../src/server/stages/envelope.js';
import { execute } from '../../src/server/stages/execute.js';
import { output } from '../../src/server/stages/output.js';
import { STAGES, stageChain } from '../../src/server/stages/stage-list.js';

it('refuses, at compile time, a stage placed before the one that establishes its input', () => {
  const decoded = stageChain().then(authenticate).then(decode);
  // @ts-expect-error `output` reads the executed result, which nothing before it has set.
  decoded.then(output);
  // @ts-expect-error `execute` needs the shaped state (tool, arguments, context), not the decoded message.
  decoded.then(execute);
  // @ts-expect-error `envelope` needs the decoded message: it cannot come first.
  stageChain().then(envelope);
  assert.deepEqual(decoded.names, ['authenticate', 'decode']);
});

it('gives the runner the stages in the documented order', () => {
  assert.deepEqual([...STAGES], [
    'authenticate', 'decode', 'envelope', 'version', 'headers', 'route', 'find-tool', 'param-headers', 'client-capabilities',
    'request-state', 'shape', 'context', 'check', 'authorize', 'approval', 'task', 'claim', 'execute', 'output',
  ]);
});
