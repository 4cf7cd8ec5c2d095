/** The `shape` stage: the arguments against the tool's input schema. */
import { describe, it } from 'node:test';
import { shape } from '../../../src/server/stages/shape.js';
import { assertPassed, assertToolError, redeemed, stageEnv } from '../../support/stage-fixture.js';

const env = stageEnv();

describe('shape stage', () => {
  it('passes arguments that fit the schema', () => {
    const s = redeemed(env, { args: { text: 'hi' } });
    assertPassed(shape.run(s, env), s);
  });

  it('answers arguments that do not fit with an isError result naming each problem', () => {
    assertToolError(shape.run(redeemed(env, { args: {} }), env), 'invalidArguments', 'Invalid arguments for tool echo:\n/: missing required property "text"');
    assertToolError(shape.run(redeemed(env, { args: { text: 1, more: true } }), env), 'invalidArguments', 'Invalid arguments for tool echo:\n/: unexpected property "more"\n/text: expected string, got number 1');
  });
});
