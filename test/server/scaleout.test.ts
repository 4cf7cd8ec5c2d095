/**
 * Scale-out with real processes on loopback: redis-server, three `toolwright serve --store` instances
 * and nginx from `toolwright gateway nginx`. Any instance answers read-only calls, the device tool
 * goes to its owner, an approval used on one instance is refused on the others, rate limits are
 * shared, legacy 2025 sessions are served by any instance (records and notifications in Redis), and under autocannon load a `kill -9` of one instance loses at most its in-flight
 * requests, runs no approved action twice, and the instance rejoins after a restart.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { META, rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { legacySessionAcrossInstances } from '../support/legacy-across-instances.js';
import { exchange, openSession, openStream } from '../support/legacy-session-client.js';
import { missing } from '../support/local-services.js';
import { startCluster } from '../support/scaleout-cluster.js';
import type { Cluster } from '../support/scaleout-cluster.js';

const skip = missing('redis-server', 'nginx');
if (skip !== undefined) process.stdout.write(`# skipping the scale-out test: ${skip}\n`);

const CAN_ELICIT = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
const ALREADY_USED = { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: { field: 'requestState' } };

type Json = Record<string, unknown>;
interface Answer { status: number; body: Json }

function callMessage(name: string, args: Json, extra: Json = {}, id: number | string = 1): Json {
  return rpc('tools/call', { name, arguments: args, ...extra }, id, CAN_ELICIT);
}

/** POSTs one call (the standard headers unless overridden) and reads the JSON answer. */
async function send(url: string, message: Json, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { ...standardHeaders(message), ...headers }, body: JSON.stringify(message) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Json };
}
const result = (a: Answer): Json => {
  assert.ok('result' in a.body, `expected a result, got ${a.status} ${JSON.stringify(a.body)}`);
  return a.body.result as Json;
};
const instanceOf = (a: Answer): string => (result(a).structuredContent as { instance: string }).instance;
const textOf = (a: Answer): string => ((result(a).content as { text: string }[])[0]!).text;

async function ask(url: string, to: string): Promise<string> {
  const asked = result(await send(url, callMessage('move_arm', { to })));
  assert.equal(asked.resultType, 'input_required');
  return asked.requestState as string;
}

interface AutocannonResult { '2xx': number; non2xx: number; errors: number; timeouts: number; requests: { total: number } }
interface AutocannonInstance {
  on(event: 'response', listener: () => void): void;
  on(event: 'done', listener: (r: AutocannonResult) => void): void;
  on(event: 'error', listener: (e: Error) => void): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: Json) => AutocannonInstance;

describe('three instances behind nginx, sharing Redis', { skip, timeout: 120_000 }, () => {
  let cluster: Cluster;
  before(async () => {
    cluster = await startCluster(3);
  });
  after(() => cluster?.stop());

  it('nginx spreads read-only calls over all three instances', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) seen.add(instanceOf(await send(cluster.url, callMessage('read_state', {}, {}, i))));
    assert.deepEqual([...seen].sort(), ['i1', 'i2', 'i3']);
  });

  it('the device tool always reaches its owner; an approval used there is refused on every other instance as already used', async () => {
    const state = await ask(cluster.url, 'shelf');
    assert.equal(textOf(await send(cluster.url, callMessage('move_arm', { to: 'shelf' }, { requestState: state, inputResponses: ACCEPT }))), 'moved to shelf by i1');
    for (const other of cluster.instances.slice(1)) {
      const replay = await send(other.url, callMessage('move_arm', { to: 'shelf' }, { requestState: state, inputResponses: ACCEPT }));
      assert.deepEqual(replay.body.error, ALREADY_USED, `replay on ${other.id}`);
    }
    assert.deepEqual(cluster.runs(), ['i1 shelf']);
  });

  it('a client lying in Mcp-Name reaches the pool but is refused there (header = body is checked), and nothing runs', async () => {
    const before = cluster.runs().length;
    const state = await ask(cluster.url, 'bin');
    const lying = await send(cluster.url, callMessage('move_arm', { to: 'bin' }, { requestState: state, inputResponses: ACCEPT }), { 'mcp-name': 'read_state' });
    assert.equal(lying.status, 400);
    assert.equal((lying.body.error as { code: number }).code, -32020);
    assert.equal(cluster.runs().length, before);
  });

  it('legacy 2025 sessions live in Redis: opened on one instance, calls and the GET stream on others, notifications cross instances, DELETE ends it everywhere', async () => {
    const [a, b, c] = cluster.instances.map((i) => ({ url: i.url, name: i.id }));
    await legacySessionAcrossInstances([a!, b!, c!]);
  });

  it('through nginx, one legacy session is served by the whole pool and its GET stream hears a change raised on any instance', async () => {
    const session = await openSession(cluster.url);
    const events = await openStream(cluster.url, session);
    const answered = new Set<string>();
    for (let i = 1; i <= 6; i++) {
      const called = await exchange(cluster.url, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'read_state', arguments: {} } }, session.headers);
      assert.equal(called.status, 200, JSON.stringify(called.messages));
      answered.add(((called.messages.at(-1)?.result as Json).structuredContent as { instance: string }).instance);
    }
    assert.deepEqual([...answered].sort(), ['i1', 'i2', 'i3']);
    for (const [i, instance] of cluster.instances.entries()) {
      await exchange(instance.url, { jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: 'announce', arguments: {} } }, session.headers);
      assert.deepEqual(await events.next(), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, `raised on ${instance.id}`);
    }
    assert.equal((await exchange(cluster.url, undefined, session.headers, { method: 'DELETE' })).status, 200);
    await events.closed;
  });

  it('a rate limit is one bucket across instances (5 calls in all, the 6th refused wherever it lands)', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await send(cluster.instances[i % 3]!.url, callMessage('search', { q: `q${i}` })));
    assert.deepEqual(answers.slice(0, 5).map((a) => textOf(a).replace(/ on i\d$/, '')), ['found q0', 'found q1', 'found q2', 'found q3', 'found q4']);
    assert.equal(answers[5]!.status, 429);
    assert.equal((answers[5]!.body.error as { code: number }).code, -31429);
  });

  it('under load, kill -9 of one instance loses only its in-flight requests, no approved action runs twice, the others keep answering, and a restart rejoins', async () => {
    // A legacy session opened on i3, its GET stream held there: it must outlive i3.
    const legacySession = await openSession(cluster.instances[2]!.url);
    const legacyStream = await openStream(cluster.instances[2]!.url, legacySession);
    const connections = 8;
    const message = callMessage('read_state', {});
    let responses = 0;
    let killed: Promise<void> | undefined;
    const load = autocannon({ url: cluster.url, method: 'POST', headers: standardHeaders(message), body: JSON.stringify(message), connections, amount: 3000, timeout: 10 });
    load.on('response', () => {
      // Kill mid-run, once a third of the requests have been answered (an event, not a timer).
      if (++responses === 1000) killed = cluster.kill(2);
    });
    // Meanwhile: approvals, each sent twice at once (through nginx to the owner, and straight to i2).
    const approvals = (async () => {
      const outcomes: Answer[][] = [];
      for (let i = 0; i < 5; i++) {
        const state = await ask(cluster.url, `slot${i}`);
        const redeem = callMessage('move_arm', { to: `slot${i}` }, { requestState: state, inputResponses: ACCEPT });
        outcomes.push(await Promise.all([send(cluster.url, redeem), send(cluster.instances[1]!.url, redeem)]));
      }
      return outcomes;
    })();
    const [done, outcomes] = await Promise.all([new Promise<AutocannonResult>((resolve) => load.on('done', resolve)), approvals]);
    await killed;
    assert.ok(killed !== undefined, 'the instance was killed during the load');
    const lost = done.non2xx + done.errors;
    process.stdout.write(`# load through nginx: ${done.requests.total} requests, ${done['2xx']} ok, ${done.non2xx} non-2xx, ${done.errors} errors; at most ${connections} were in flight\n`);
    process.stdout.write(`# status codes under load: ${JSON.stringify((done as unknown as { statusCodeStats: unknown }).statusCodeStats)}\n`);
    assert.ok(lost <= connections, `lost ${lost} requests; at most the ${connections} in flight may be lost`);
    assert.ok(done['2xx'] >= 3000 - connections);
    for (const [i, pair] of outcomes.entries()) {
      const ran = pair.filter((a) => 'result' in a.body);
      const refused = pair.filter((a) => 'error' in a.body).map((a) => a.body.error);
      assert.equal(ran.length, 1, `approval ${i} ran exactly once: ${JSON.stringify(pair.map((a) => a.body))}`);
      assert.deepEqual(refused, [ALREADY_USED]);
    }
    const slotRuns = cluster.runs().filter((l) => / slot\d$/.test(l)).map((l) => l.split(' ')[1]);
    assert.deepEqual(slotRuns.sort(), ['slot0', 'slot1', 'slot2', 'slot3', 'slot4'], 'every approved action ran once, none twice');

    // The survivors answer everything.
    for (let i = 0; i < 10; i++) assert.notEqual(instanceOf(await send(cluster.url, callMessage('read_state', {}, {}, i))), 'i3');
    // The legacy session outlived the instance that opened it and held its stream: i2 serves it.
    await legacyStream.closed;
    const survived = await exchange(cluster.instances[1]!.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_state', arguments: {} } }, legacySession.headers);
    assert.equal(survived.status, 200, JSON.stringify(survived.messages));
    assert.deepEqual((survived.messages.at(-1)?.result as Json).structuredContent, { instance: 'i2' });
    // Its client gets its GET stream back at once on a survivor (the dead holder's claim is not waited out), and hears a change raised on i1.
    const reopened = await openStream(cluster.instances[1]!.url, legacySession);
    await exchange(cluster.instances[0]!.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'announce', arguments: {} } }, legacySession.headers);
    assert.deepEqual(await reopened.next('the list change raised on i1'), { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    // The survivor holds it now: a second GET elsewhere is refused as before.
    const second = await exchange(cluster.instances[0]!.url, undefined, legacySession.headers, { method: 'GET', accept: 'text/event-stream' });
    assert.equal(second.status, 409);
    assert.equal((await exchange(cluster.instances[0]!.url, undefined, legacySession.headers, { method: 'DELETE' })).status, 200);
    await reopened.closed;

    await cluster.restart(2);
    // nginx retries a failed server after fail_timeout (2 s): keep calling (bounded) until i3 answers again.
    let rejoined = false;
    for (let i = 0; i < 400 && !rejoined; i++) {
      rejoined = instanceOf(await send(cluster.url, callMessage('read_state', {}, {}, i))) === 'i3';
      if (!rejoined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(rejoined, 'the restarted instance answers through nginx again');
    // And it shares the store: an approval used before its restart is refused there too.
    const state = await ask(cluster.url, 'home');
    assert.equal(textOf(await send(cluster.url, callMessage('move_arm', { to: 'home' }, { requestState: state, inputResponses: ACCEPT }))), 'moved to home by i1');
    assert.deepEqual((await send(cluster.instances[2]!.url, callMessage('move_arm', { to: 'home' }, { requestState: state, inputResponses: ACCEPT }))).body.error, ALREADY_USED);
  });
});
