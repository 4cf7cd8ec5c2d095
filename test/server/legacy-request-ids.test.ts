/**
 * A legacy 2025 session finds its requests in flight by the exact id the client sent: two ids
 * beyond 2^53 that JSON.parse reads as one number (9007199254740993 and 9007199254740992) stay two
 * requests, `notifications/cancelled` cancels the one it names, each answer carries its own id
 * digit for digit, and an id reused while its request is still running is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpListener, McpServer } from '../../src/index.js';
import { scaleoutServer } from '../fixtures/servers/scaleout-server.js';
import { exchange, openSession, openStream } from '../support/legacy-session-client.js';

// Written as text: as JS numbers both literals are the same value.
const HIGH = '9007199254740993';
const LOW = '9007199254740992';
const confirmCall = (idText: string): string => `{"jsonrpc":"2.0","id":${idText},"method":"tools/call","params":{"name":"confirm","arguments":{}}}`;

describe('legacy request ids beyond 2^53', () => {
  let server: McpServer;
  let listener: HttpListener;
  before(async () => {
    server = scaleoutServer({ instance: 'i1' });
    listener = await server.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => server.close());

  it('two in-flight calls whose ids round to one number stay apart: cancelling one leaves the other, which answers with its own id', async () => {
    const session = await openSession(listener.url);
    const events = await openStream(listener.url, session);
    // Both calls wait for the client's answer to an elicitation sent on the GET stream (their POSTs accept no stream).
    // HIGH first: with ids keyed by the rounded number, LOW's entry would replace HIGH's and the cancel below would hit LOW.
    const high = exchange(listener.url, confirmCall(HIGH), session.headers, { accept: 'application/json' });
    const firstAsk = await events.next('the elicitation of the first call');
    const low = exchange(listener.url, confirmCall(LOW), session.headers, { accept: 'application/json' });
    const secondAsk = await events.next('the elicitation of the second call');
    assert.deepEqual([firstAsk.method, secondAsk.method], ['elicitation/create', 'elicitation/create']);

    const cancel = await exchange(listener.url, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${HIGH},"reason":"changed my mind"}}`, session.headers);
    assert.equal(cancel.status, 202);
    const cancelled = await high;
    assert.deepEqual([cancelled.status, cancelled.text], [499, ''], 'the cancelled call answers nothing');

    // The other call is still waiting for its answer, and completes with it.
    const answered = await exchange(listener.url, { jsonrpc: '2.0', id: secondAsk.id, result: { action: 'accept', content: { word: 'low' } } }, session.headers);
    assert.equal(answered.status, 202);
    const completed = await low;
    assert.equal(completed.status, 200, completed.text);
    assert.ok(completed.text.startsWith(`{"jsonrpc":"2.0","id":${LOW},"result":`), `answered with its own id: ${completed.text}`);
    assert.deepEqual((completed.messages[0]?.result as { content: unknown }).content, [{ type: 'text', text: 'low (asked by i1)' }]);

    // The cancelled call's question is void: answering it runs nothing and is not an error.
    const late = await exchange(listener.url, { jsonrpc: '2.0', id: firstAsk.id, result: { action: 'accept', content: { word: 'high' } } }, session.headers);
    assert.equal(late.status, 202);
    assert.equal((await exchange(listener.url, undefined, session.headers, { method: 'DELETE' })).status, 200);
    await events.closed;
  });

  it('an id reused while its request is in flight is refused (400, -32600) and the first request carries on', async () => {
    const session = await openSession(listener.url);
    const events = await openStream(listener.url, session);
    const first = exchange(listener.url, confirmCall(HIGH), session.headers, { accept: 'application/json' });
    const asked = await events.next('the elicitation of the first call');
    const reused = await exchange(listener.url, confirmCall(HIGH), session.headers, { accept: 'application/json' });
    assert.equal(reused.status, 400);
    assert.equal(reused.text, `{"jsonrpc":"2.0","id":${HIGH},"error":{"code":-32600,"message":"Invalid request: request id ${HIGH} is already in use by a request in flight in this session"}}`);
    // The nearby id is another request: it is not refused (it waits for its own answer).
    const neighbour = exchange(listener.url, confirmCall(LOW), session.headers, { accept: 'application/json' });
    const neighbourAsk = await events.next('the elicitation of the neighbouring id');
    assert.equal(neighbourAsk.method, 'elicitation/create');

    await exchange(listener.url, { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { word: 'first' } } }, session.headers);
    await exchange(listener.url, { jsonrpc: '2.0', id: neighbourAsk.id, result: { action: 'accept', content: { word: 'neighbour' } } }, session.headers);
    const [done, near] = await Promise.all([first, neighbour]);
    assert.ok(done.text.startsWith(`{"jsonrpc":"2.0","id":${HIGH},"result":`), done.text);
    assert.deepEqual((done.messages[0]?.result as { content: unknown }).content, [{ type: 'text', text: 'first (asked by i1)' }]);
    assert.ok(near.text.startsWith(`{"jsonrpc":"2.0","id":${LOW},"result":`), near.text);
    assert.deepEqual((near.messages[0]?.result as { content: unknown }).content, [{ type: 'text', text: 'neighbour (asked by i1)' }]);
    assert.equal((await exchange(listener.url, undefined, session.headers, { method: 'DELETE' })).status, 200);
    await events.closed;
  });
});
