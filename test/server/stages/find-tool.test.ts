/** The `find-tool` stage: the named tool and the call's parameters, each of the right JSON type. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findTool } from '../../../src/server/stages/find-tool.js';
import { assertPassed, assertRefused, stageEnv, versioned } from '../../support/stage-fixture.js';

const env = stageEnv();

describe('find-tool stage', () => {
  it('finds the tool and records arguments, inputResponses and requestState', () => {
    const s = versioned('tools/call', { name: 'echo', arguments: { text: 'hi' }, inputResponses: { a: {} }, requestState: 'st' });
    assertPassed(findTool.run(s, env), s);
    assert.equal(s.tool, env.toolsByName.get('echo'));
    assert.deepEqual([s.args, s.inputResponses, s.requestState], [{ text: 'hi' }, { a: {} }, 'st']);
  });

  it('treats absent arguments as {} (argumentsAbsent)', () => {
    const s = versioned('tools/call', { name: 'echo' });
    assertPassed(findTool.run(s, env), s);
    assert.deepEqual([s.args, s.inputResponses, s.requestState], [{}, undefined, undefined]);
  });

  it('refuses a name that is not a string', () => {
    assertRefused(findTool.run(versioned('tools/call', {}), env), 'invalidCallParams', 'Invalid params: tools/call needs a string "name", got undefined');
    assertRefused(findTool.run(versioned('tools/call', { name: 4 }), env), 'invalidCallParams', 'Invalid params: tools/call needs a string "name", got number');
  });

  it('refuses an unknown tool, echoing its name', () => {
    assertRefused(findTool.run(versioned('tools/call', { name: 'nope' }), env), 'unknownTool', 'Unknown tool: nope');
  });

  it('refuses arguments that are not an object', () => {
    assertRefused(findTool.run(versioned('tools/call', { name: 'echo', arguments: ['hi'] }), env), 'argumentsNotObject', 'Invalid params: arguments must be an object, got array');
  });

  it('refuses malformed inputResponses or requestState', () => {
    assertRefused(findTool.run(versioned('tools/call', { name: 'echo', inputResponses: 'x' }), env), 'invalidCallParams', 'Invalid params: inputResponses must be an object, got string');
    assertRefused(findTool.run(versioned('tools/call', { name: 'echo', requestState: 5 }), env), 'invalidCallParams', 'Invalid params: requestState must be a string, got number');
  });
});
