/**
 * resultBudget's `handle`, called directly: `next` answers a chosen result and the middleware's
 * outcome is checked whole: a small result and every non-result outcome come back as the same
 * object; a text result over budget is cut to the exact marker, note and report; with `refuse`, or
 * with structured content, the result is withheld as a resultTooLarge tool error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resultBudget, TRUNCATION_META_KEY } from '../../../src/server/middleware/result-budget/index.js';
import { rpcError } from '../../../src/server/outcomes.js';
import type { CallOutcome } from '../../../src/server/middleware/middleware.js';
import { assertToolError, stageEnv } from '../../support/stage-fixture.js';
import { nextReturning, reportsOf, textResult, toolCall } from '../../support/tool-call.js';

/** The size resultBudget measures: the UTF-8 bytes of `{ content, structuredContent }`. */
const bytesOf = (result: { content?: unknown; structuredContent?: unknown }): number => Buffer.byteLength(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }));

/** The result of an outcome that must be a result. */
function resultOf(outcome: CallOutcome): { content: { type: string; text: string }[]; isError?: boolean } {
  assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  return (outcome as { result: unknown }).result as never;
}

describe('resultBudget handle', () => {
  it('a result within budget, an error, a cancellation and an unfinished result pass as the same object, unnoted', async () => {
    const budget = resultBudget({ maxBytes: 100 });
    const call = toolCall(stageEnv(), { middleware: budget });
    const outcomes: CallOutcome[] = [
      textResult('short'),
      { kind: 'error', error: rpcError('insufficientScope', 'no') },
      { kind: 'cancelled' },
      { kind: 'result', outcome: 'respond', result: { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { message: 'x'.repeat(500) } } } } },
    ];
    for (const outcome of outcomes) assert.equal(await budget.handle(call, nextReturning(call, outcome).next), outcome);
    assert.equal(call.notes, undefined);
    assert.deepEqual(reportsOf(call, budget), []);
  });

  it('truncate: keeps the blocks that fit, cuts the next one, adds the marker, notes and reports the cut', async () => {
    const budget = resultBudget({ maxBytes: 400 });
    const call = toolCall(stageEnv(), { middleware: budget });
    const first = 'a'.repeat(100);
    const second = 'b'.repeat(400);
    const over = { kind: 'result', outcome: 'respond', result: { resultType: 'complete', content: [{ type: 'text', text: first }, { type: 'text', text: second }, { type: 'text', text: 'tail' }] } } as const;
    const original = bytesOf(over.result);
    const stub = nextReturning(call, structuredClone(over) as CallOutcome);
    const outcome = await budget.handle(call, stub.next);
    const result = resultOf(outcome);
    const marker = { type: 'text', text: `[truncated by toolwright: the result was ${original} bytes, over the budget of 400; 2 of 3 text block(s) shown, the last one cut]` };
    assert.equal(result.content.length, 3);
    assert.deepEqual(result.content[0], { type: 'text', text: first });
    assert.match(result.content[1]!.text, /^b+$/);
    assert.deepEqual(result.content[2], marker);
    assert.ok(bytesOf(result) <= 400, `${bytesOf(result)} bytes`);
    const oneMore = [result.content[0], { type: 'text', text: `${result.content[1]!.text}b` }, marker];
    assert.ok(bytesOf({ content: oneMore }) > 400, 'the cut is the longest prefix that fits');
    assert.equal(result.isError, undefined);
    assert.deepEqual(call.notes, { [TRUNCATION_META_KEY]: { unit: 'bytes', limit: 400, original } });
    assert.deepEqual(reportsOf(call, budget), [`truncated from ${original} bytes to the budget of 400`]);
    assert.equal(stub.calls, 1);
  });

  it('refuse: withholds an over-budget result as a resultTooLarge tool error, reported, not noted', async () => {
    const budget = resultBudget({ maxBytes: 100, onExceed: 'refuse' });
    const call = toolCall(stageEnv(), { middleware: budget });
    const big = textResult('x'.repeat(200));
    const original = bytesOf(big.result);
    const outcome = await budget.handle(call, nextReturning(call, big).next);
    assertToolError(outcome, 'resultTooLarge', `The result of echo was ${original} bytes, over its budget of 100; it was withheld. Ask for less (a narrower query or a smaller page).`);
    assert.deepEqual(reportsOf(call, budget), [`result withheld: ${original} bytes over the budget of 100`]);
    assert.equal(call.notes, undefined);
  });

  it('truncate cannot cut structured or non-text content: withheld with the reason', async () => {
    const budget = resultBudget({ maxBytes: 100 });
    const call = toolCall(stageEnv(), { middleware: budget });
    const structured: CallOutcome = { kind: 'result', outcome: 'respond', result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }], structuredContent: { rows: 'r'.repeat(200) } } };
    const original = bytesOf((structured as { result: object }).result);
    assertToolError(await budget.handle(call, nextReturning(call, structured).next), 'resultTooLarge', `The result of echo was ${original} bytes, over its budget of 100; it was withheld (only text can be truncated, and this result carries structured or non-text content). Ask for less (a narrower query or a smaller page).`);
    const image: CallOutcome = { kind: 'result', outcome: 'respond', result: { resultType: 'complete', content: [{ type: 'image', data: 'A'.repeat(200), mimeType: 'image/png' }] } };
    const outcome = await budget.handle(call, nextReturning(call, image).next);
    assert.match(JSON.stringify(outcome), /it was withheld \(only text can be truncated/);
  });

  it('a token budget counts tokens: the marker and note say tokens', async () => {
    const budget = resultBudget({ maxTokens: 64 });
    const call = toolCall(stageEnv(), { middleware: budget });
    const outcome = await budget.handle(call, nextReturning(call, textResult('word '.repeat(500))).next);
    const content = resultOf(outcome).content;
    assert.match(content.at(-1)!.text, /^\[truncated by toolwright: the result was \d+ tokens, over the budget of 64; 1 of 1 text block\(s\) shown, the last one cut\]$/);
    assert.deepEqual(Object.keys(call.notes ?? {}), [TRUNCATION_META_KEY]);
    assert.equal((call.notes![TRUNCATION_META_KEY] as { unit: string }).unit, 'tokens');
  });
});
