/**
 * lenientCoercion's `handle`, called directly: it replaces the raw arguments before `next` (the
 * inner pipeline sees the repaired copy), notes and reports each repair, and returns `next`'s
 * outcome unchanged; arguments that need no repair are passed on as the same object, unnoted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import { lenientCoercion, REPAIRS_META_KEY } from '../../../src/server/middleware/lenient-coercion/index.js';
import { stageEnv } from '../../support/stage-fixture.js';
import { nextReturning, reportsOf, textResult, toolCall } from '../../support/tool-call.js';

const move = defineTool({
  name: 'move',
  inputSchema: {
    type: 'object',
    properties: { x: { type: 'number' }, n: { type: 'integer' }, fast: { type: 'boolean' }, label: { type: 'string' }, to: { type: 'object', properties: { z: { type: 'number' } } } },
  } as const,
  run: () => 'moved',
});

describe('lenientCoercion handle', () => {
  it('repairs before next: next sees the repaired copy, the note and the report list each repair, the outcome is next\'s', async () => {
    const coercion = lenientCoercion();
    const sent = { x: '12.5', n: '3', fast: 'false', label: '7', to: { z: '-1e2' } };
    const call = toolCall(stageEnv({ tools: [move] }), { middleware: coercion, args: sent });
    const ok = textResult('moved');
    const stub = nextReturning(call, ok);
    assert.equal(await coercion.handle(call, stub.next), ok);
    assert.deepEqual(stub.argumentsSeen, [{ x: 12.5, n: 3, fast: false, label: '7', to: { z: -100 } }]);
    assert.deepEqual(sent, { x: '12.5', n: '3', fast: 'false', label: '7', to: { z: '-1e2' } }, 'the sent arguments are not mutated');
    assert.deepEqual(call.notes, { [REPAIRS_META_KEY]: [
      { path: '/x', from: '"12.5"', to: 12.5 },
      { path: '/n', from: '"3"', to: 3 },
      { path: '/fast', from: '"false"', to: false },
      { path: '/to/z', from: '"-1e2"', to: -100 },
    ] });
    assert.deepEqual(reportsOf(call, coercion), ['/x: "12.5" -> 12.5, /n: "3" -> 3, /fast: "false" -> false, /to/z: "-1e2" -> -100']);
  });

  it('leaves what is not an exact JSON spelling for the shape check: same object, no note, no report', async () => {
    const coercion = lenientCoercion();
    const env = stageEnv({ tools: [move] });
    for (const args of [{ n: '1.5' }, { n: ' 15' }, { x: '0x10' }, { x: '1e' }, { x: 'NaN' }, { fast: 'TRUE' }, { fast: '1' }, { label: 'true' }, {}]) {
      const call = toolCall(env, { middleware: coercion, args });
      const stub = nextReturning(call, textResult('moved'));
      await coercion.handle(call, stub.next);
      assert.equal(stub.argumentsSeen[0], args, JSON.stringify(args));
      assert.equal(call.notes, undefined);
      assert.deepEqual(reportsOf(call, coercion), []);
    }
  });

  it('returns a refusal from next unchanged (the shape check still has the last word)', async () => {
    const coercion = lenientCoercion();
    const call = toolCall(stageEnv({ tools: [move] }), { args: { n: 'many' } });
    const refused = { kind: 'result', outcome: 'tool-error', result: { resultType: 'complete', content: [{ type: 'text', text: 'Invalid arguments for tool move' }], isError: true } } as const;
    assert.equal(await coercion.handle(call, nextReturning(call, refused).next), refused);
  });

  it('placed after validation it cannot repair: changing validated arguments throws, next is not called', async () => {
    const coercion = lenientCoercion();
    const call = toolCall(stageEnv({ tools: [move] }), { at: 'validated', args: { x: '1' } });
    const stub = nextReturning(call, textResult('moved'));
    assert.throws(() => coercion.handle(call, stub.next), { name: 'TypeError', message: 'middleware: the arguments of move were already validated; change them before next() in a middleware at "arguments"' });
    assert.equal(stub.calls, 0);
  });
});
