/** lenientCoercion: "15" -> 15 and "true" -> true against the schema before the shape check; never "15N". */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool, lenientCoercion, REPAIRS_META_KEY } from '../../../src/index.js';
import type { StageEvent } from '../../../src/index.js';
import { resultOf, serve } from './helpers.js';

const SCHEMA = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    fast: { type: 'boolean' },
    label: { type: 'string' },
    either: { type: ['integer', 'string'] },
    target: { type: 'object', properties: { z: { type: 'number' } } },
  },
  additionalProperties: false,
} as const;

describe('lenientCoercion', () => {
  it('repairs numbers and booleans sent as strings, reports each repair in _meta and the stage event', async () => {
    const events: StageEvent[] = [];
    const seen: unknown[] = [];
    const tool = defineTool({ name: 'move', inputSchema: SCHEMA, use: [lenientCoercion()], run: (args) => { seen.push(args); return 'ok'; } });
    await serve({ tools: [tool], onStageEvent: (e) => events.push(e) }, async (call) => {
      const result = resultOf(await call('move', { count: '15', ratio: '-0.5e1', fast: 'true', label: '7', either: '3', target: { z: '0.25' } }));
      assert.deepEqual(result.content, [{ type: 'text', text: 'ok' }]);
      assert.deepEqual(result._meta[REPAIRS_META_KEY], [
        { path: '/count', from: '"15"', to: 15 },
        { path: '/ratio', from: '"-0.5e1"', to: -5 },
        { path: '/fast', from: '"true"', to: true },
        { path: '/target/z', from: '"0.25"', to: 0.25 },
      ]);
    });
    assert.deepEqual(seen, [{ count: 15, ratio: -5, fast: true, label: '7', either: '3', target: { z: 0.25 } }]);
    assert.equal(events.find((e) => e.stage === 'middleware:lenient-coercion')?.detail, '/count: "15" -> 15, /ratio: "-0.5e1" -> -5, /fast: "true" -> true, /target/z: "0.25" -> 0.25');
  });

  it('never repairs what is not an exact JSON number or boolean: the shape check refuses, nothing runs', async () => {
    const runs: unknown[] = [];
    const tool = defineTool({ name: 'move', inputSchema: SCHEMA, use: [lenientCoercion()], run: (args) => { runs.push(args); return 'ok'; } });
    await serve({ tools: [tool] }, async (call) => {
      for (const args of [{ count: '15N' }, { count: '1.5' }, { count: ' 15' }, { count: '0x10' }, { ratio: '1e' }, { ratio: 'NaN' }, { fast: 'TRUE' }, { fast: '1' }]) {
        const result = resultOf(await call('move', args));
        assert.equal(result.isError, true, JSON.stringify(args));
        assert.match(result.content[0]!.text!, /^Invalid arguments for tool move:/);
        assert.equal(REPAIRS_META_KEY in result._meta, false);
      }
    });
    assert.deepEqual(runs, []);
  });

  it('is opt-in: a tool without it gets no repairs', async () => {
    const tool = defineTool({ name: 'strict', inputSchema: SCHEMA, run: () => 'ran' });
    await serve({ tools: [tool] }, async (call) => {
      assert.equal(resultOf(await call('strict', { count: '15' })).isError, true);
    });
  });
});
