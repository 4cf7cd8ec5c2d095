/**
 * One legacy 2025 session spread over three instances of one deployment (scaleout-server.ts on a
 * shared store): opened on the first, its calls and its GET stream on the others; change
 * notifications, progress, logs and server-to-client requests raised where a call runs reach the
 * stream held elsewhere; DELETE on one ends it everywhere. Run in-process (one memory store) and
 * with real processes (Redis), so both prove the same thing.
 */
import assert from 'node:assert/strict';
import { STATUS_URI } from '../fixtures/servers/scaleout-server.js';
import { exchange, openSession, openStream } from './legacy-session-client.js';
import type { Json } from './legacy-session-client.js';

/** An instance's own endpoint and the name it answers `read_state` with. */
export interface Endpoint {
  readonly url: string;
  readonly name: string;
}

const call = (id: number, name: string, args: Json = {}, meta?: Json): Json => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta !== undefined ? { _meta: meta } : {}) } });
const textOf = (m: Json | undefined): string => (((m?.result as Json).content as { text: string }[])[0] as { text: string }).text;

/** Runs the scenario on endpoints a, b, c (three different instances). */
export async function legacySessionAcrossInstances([a, b, c]: readonly [Endpoint, Endpoint, Endpoint]): Promise<void> {
  const session = await openSession(a.url);
  const { headers } = session;

  // Any instance serves the session: b answers a call of a session a opened.
  const state = await exchange(b.url, call(1, 'read_state'), headers);
  assert.equal(state.status, 200, JSON.stringify(state.messages));
  assert.deepEqual((state.messages.at(-1)?.result as Json).structuredContent, { instance: b.name });

  // The GET stream on c; it is the session's one stream across all instances.
  const events = await openStream(c.url, session);
  const second = await exchange(b.url, undefined, headers, { method: 'GET', accept: 'text/event-stream' });
  assert.deepEqual([second.status, second.messages[0]?.error], [409, { code: -32600, message: 'Conflict: this session already has an open GET stream' }]);

  // A list change raised on a reaches the stream on c.
  const announced = await exchange(a.url, call(2, 'announce'), headers);
  assert.match(textOf(announced.messages.at(-1)), new RegExp(`^announced on ${a.name} `));
  assert.deepEqual(await events.next('the list change raised on a'), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });

  // Subscribed through b, updated on a, delivered on c.
  const subscribed = await exchange(b.url, { jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: STATUS_URI } }, headers);
  assert.deepEqual(subscribed.messages[0], { jsonrpc: '2.0', id: 3, result: {} });
  await exchange(a.url, call(4, 'announce', { uri: STATUS_URI }), headers);
  assert.deepEqual(await events.next('the resource update raised on a'), { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: STATUS_URI } });

  // A call on b whose POST accepts no stream: its progress and log go to the stream on c, in order.
  const reported = await exchange(b.url, call(5, 'report', {}, { progressToken: 'p5' }), headers, { accept: 'application/json' });
  assert.equal(reported.headers.get('content-type'), 'application/json');
  assert.equal(textOf(reported.messages[0]), `reported by ${b.name}`);
  assert.deepEqual(await events.next('the progress of the call on b'), { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p5', progress: 1, total: 2, message: `half on ${b.name}` } });
  assert.deepEqual(await events.next('the log of the call on b'), { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'report', data: `report ran on ${b.name}` } });

  // A call on a that needs input: the request reaches the client on c's stream, the answer is posted to b, a completes.
  const confirming = exchange(a.url, call(6, 'confirm'), headers, { accept: 'application/json' });
  const asked = await events.next('the elicitation of the call on a');
  assert.equal(asked.method, 'elicitation/create');
  assert.equal((asked.params as Json).message, 'Confirm?');
  const answered = await exchange(b.url, { jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { word: 'yes' } } }, headers);
  assert.equal(answered.status, 202);
  const confirmed = await confirming;
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.messages));
  assert.equal(textOf(confirmed.messages[0]), `yes (asked by ${a.name})`);

  // DELETE on b ends the session everywhere: c's stream closes, a and c no longer know it.
  assert.equal((await exchange(b.url, undefined, headers, { method: 'DELETE' })).status, 200);
  await events.closed;
  const gone = await exchange(a.url, { jsonrpc: '2.0', id: 7, method: 'ping' }, headers);
  assert.deepEqual([gone.status, gone.messages[0]], [404, { jsonrpc: '2.0', id: 7, error: { code: -31404, message: 'Session not found: it expired or was deleted; send initialize again' } }]);
  const again = await exchange(c.url, undefined, headers, { method: 'DELETE' });
  assert.deepEqual([again.status, (again.messages[0]?.error as Json).code], [404, -31404]);
}
