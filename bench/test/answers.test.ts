import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDiscoverAnswer, checkListPage, checkSumAnswer, checkWholeList, parseRpcBody, rejectionOf, WrongAnswerError } from '../lib/answers.js';

const good = () => ({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } } });

test('a correct calculate_sum answer passes', () => {
  checkSumAnswer(good(), 1);
});

test('a wrong sum is refused with the structured content in the message', () => {
  const answer = good();
  answer.result.structuredContent.sum = 41;
  assert.throws(() => checkSumAnswer(answer, 1), (error: unknown) => error instanceof WrongAnswerError && /structuredContent is \{"sum":41\}, expected \{"sum":42\}/.test(error.message));
});

test('an answer to another request id is refused', () => {
  assert.throws(() => checkSumAnswer(good(), 2), /id 1 does not echo 2/);
});

test('an isError result is refused even when it carries the sum', () => {
  const answer = { ...good(), result: { ...good().result, isError: true } };
  assert.throws(() => checkSumAnswer(answer, 1), /returned isError/);
});

test('a result without resultType "complete" is refused', () => {
  const answer = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } } };
  assert.throws(() => checkSumAnswer(answer, 1), /resultType is undefined/);
});

test('a JSON-RPC error is refused with its code', () => {
  assert.throws(() => checkSumAnswer({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }, 1), /error \{"code":-32602/);
});

test('a result without the text mirror is refused', () => {
  const answer = good();
  answer.result.content = [];
  assert.throws(() => checkSumAnswer(answer, 1), /no text block carrying the sum/);
});

test('parseRpcBody takes the last data frame of an SSE body', () => {
  const body = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}\n\n';
  assert.deepEqual(parseRpcBody('text/event-stream', body), { jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
  assert.throws(() => parseRpcBody('text/event-stream', ': keep-alive\n\n'), /no data frame/);
});

test('tools/list pages: ttlMs and cacheScope are required, nextCursor must be a string', () => {
  const page = { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', tools: [{ name: 'calculate_sum' }], ttlMs: 0, cacheScope: 'public', nextCursor: 'p2' } };
  assert.deepEqual(checkListPage(page, 3), { names: ['calculate_sum'], nextCursor: 'p2' });
  assert.throws(() => checkListPage({ ...page, result: { ...page.result, ttlMs: undefined } }, 3), /lacks ttlMs\/cacheScope/);
  assert.throws(() => checkListPage({ ...page, result: { ...page.result, nextCursor: 5 } }, 3), /nextCursor is 5/);
});

test('the whole list must be exactly the catalog: count, no duplicates, calculate_sum present', () => {
  checkWholeList(['calculate_sum', 'b'], 2);
  assert.throws(() => checkWholeList(['calculate_sum'], 2), /returned 1 tools over all pages, expected 2/);
  assert.throws(() => checkWholeList(['calculate_sum', 'calculate_sum'], 2), /a tool twice/);
  assert.throws(() => checkWholeList(['a', 'b'], 2), /lacks calculate_sum/);
});

test('server/discover must list 2026-07-28', () => {
  checkDiscoverAnswer({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', supportedVersions: ['2026-07-28'] } }, 1);
  assert.throws(() => checkDiscoverAnswer({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', supportedVersions: ['2025-11-25'] } }, 1), /supportedVersions is \["2025-11-25"\]/);
});

test('rejectionOf names the way a call was refused, and null when it ran', () => {
  assert.equal(rejectionOf({ error: { code: -32602, message: 'x' } }), 'JSON-RPC error -32602');
  assert.equal(rejectionOf({ result: { isError: true } }), 'isError result');
  assert.equal(rejectionOf(good()), null);
});
