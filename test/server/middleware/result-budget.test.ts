/** resultBudget: results over N tokens or bytes are truncated with a marker and a _meta note, or refused. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countTextTokens } from '../../../src/host/token-estimate.js';
import { defineTool, resultBudget, TRUNCATION_META_KEY } from '../../../src/index.js';
import { resultOf, serve } from './helpers.js';

const LONG = 'word '.repeat(2000);
const tool = (name: string, value: () => unknown, use: ReturnType<typeof resultBudget>) =>
  defineTool({ name, inputSchema: { type: 'object' }, use: [use], run: () => value() as string });

describe('resultBudget', () => {
  it('truncates text over the token budget, says so in a marker and in _meta, and fits the budget', async () => {
    await serve({ tools: [tool('long', () => ({ content: [{ type: 'text', text: LONG }, { type: 'text', text: 'tail' }] }), resultBudget({ maxTokens: 200 }))] }, async (call) => {
      const result = resultOf(await call('long', {}));
      assert.equal(result.isError, undefined);
      assert.equal(result.content.length, 2);
      assert.ok(LONG.startsWith(result.content[0]!.text!));
      assert.match(result.content[1]!.text!, /^\[truncated by toolwright: the result was \d+ tokens, over the budget of 200; 1 of 2 text block\(s\) shown, the last one cut\]$/);
      assert.ok(countTextTokens(JSON.stringify({ content: result.content })) <= 200);
      const note = result._meta[TRUNCATION_META_KEY] as { unit: string; limit: number; original: number };
      assert.deepEqual({ unit: note.unit, limit: note.limit }, { unit: 'tokens', limit: 200 });
      assert.ok(note.original > 2000);
    });
  });

  it('a byte budget counts UTF-8 bytes and never cuts inside a character', async () => {
    await serve({ tools: [tool('cjk', () => '机械臂'.repeat(500), resultBudget({ maxBytes: 400 }))] }, async (call) => {
      const result = resultOf(await call('cjk', {}));
      assert.ok(Buffer.byteLength(JSON.stringify({ content: result.content })) <= 400);
      assert.match(result.content[0]!.text!, /^(机械臂)*(机|机械)?$/u);
      assert.equal((result._meta[TRUNCATION_META_KEY] as { unit: string }).unit, 'bytes');
    });
  });

  it('cuts a large text to the longest prefix that fits, never inside a surrogate pair', async () => {
    const emoji = '🤖 arm '.repeat(40_000);
    await serve({ tools: [tool('big', () => emoji, resultBudget({ maxBytes: 5000 }))] }, async (call) => {
      const result = resultOf(await call('big', {}));
      const shown = result.content[0]!.text!;
      assert.ok(emoji.startsWith(shown));
      assert.doesNotMatch(shown, /[\uD800-\uDBFF]$/, 'no lone high surrogate at the cut');
      const size = (text: string): number => Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text }, result.content[1]] }));
      assert.ok(size(shown) <= 5000, 'fits the budget');
      const longer = emoji.slice(0, shown.length + (/[\uD800-\uDBFF]/.test(emoji[shown.length]!) ? 2 : 1));
      assert.ok(size(longer) > 5000, 'one more character would not fit: the prefix is the longest');
      assert.equal((result._meta[TRUNCATION_META_KEY] as { original: number }).original, Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: emoji }] })));
    });
  });

  it('refuses when asked to, and always when structured content is over budget; small results pass untouched', async () => {
    const tools = [
      tool('refused', () => LONG, resultBudget({ maxTokens: 100, onExceed: 'refuse' })),
      tool('structured', () => ({ structuredContent: { rows: LONG.split(' ') } }), resultBudget({ maxBytes: 1000 })),
      tool('small', () => 'ok', resultBudget({ maxTokens: 100 })),
    ];
    await serve({ tools }, async (call) => {
      const refused = resultOf(await call('refused', {}));
      assert.equal(refused.isError, true);
      assert.match(refused.content[0]!.text!, /^The result of refused was \d+ tokens, over its budget of 100; it was withheld\. Ask for less/);
      const structured = resultOf(await call('structured', {}));
      assert.equal(structured.isError, true);
      assert.match(structured.content[0]!.text!, /it was withheld \(only text can be truncated, and this result carries structured or non-text content\)/);
      assert.equal(structured.structuredContent, undefined);
      const small = resultOf(await call('small', {}));
      assert.deepEqual(small.content, [{ type: 'text', text: 'ok' }]);
      assert.equal(TRUNCATION_META_KEY in small._meta, false);
    });
  });

  it('rejects nonsense options', () => {
    assert.throws(() => resultBudget({}), /give maxTokens, maxBytes or both/);
    assert.throws(() => resultBudget({ maxTokens: 10 }), /maxTokens must be an integer >= 64/);
    assert.throws(() => resultBudget({ maxBytes: 100, onExceed: 'summarise' as never }), /onExceed must be "truncate" or "refuse"/);
  });
});
