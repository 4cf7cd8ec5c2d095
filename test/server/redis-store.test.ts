/**
 * The Redis store beyond the shared contract: URLs and AUTH, two server instances sharing one
 * Redis and one requestState secret (a replay on the other instance is refused as already used),
 * and Redis going down (calls that need it are refused with 503, nothing runs, others keep
 * working) and coming back (the store reconnects by itself). Real redis-server, real HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool, rateLimit } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { createRedisStore, StoreUnavailableError } from '../../src/server/store/index.js';
import type { RedisStore } from '../../src/server/store/index.js';
import { approvalTools } from '../fixtures/servers/approval-tools.js';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import { exchange, openSession } from '../support/legacy-session-client.js';
import { freePort, missing, startRedis } from '../support/local-services.js';
import type { RedisProcess } from '../support/local-services.js';
import { errorOf, resultOf, textOf } from '../fixtures/servers/rpc-body.js';

const skip = missing('redis-server');
if (skip !== undefined) process.stdout.write(`# skipping the Redis store tests: ${skip}\n`);

const CAN_ELICIT = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
const FIELD = { field: 'requestState' };
const ALREADY_USED = { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: FIELD };
const OTHER_EPOCH = { code: -32602, message: 'Invalid params: requestState was issued before the approval store lost its memory (its epoch changed, e.g. a Redis restarted empty); start the call again without it', data: FIELD };
const STORE_DOWN = { code: -31503, message: 'Service unavailable: the shared store cannot be reached; nothing was done; retry shortly' };
const SECRET = 'shared-secret-of-all-instances-0123456789';
/** Every caller holds the approver scope here, so its own elicitation answer approves (approver-trust.ts). */
const EVERYONE_APPROVES = () => ({ scopes: ['toolwright:approve'] });

const call = (url: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => post(url, rpc('tools/call', { name, arguments: args, ...extra }, 1, CAN_ELICIT));

async function ask(url: string, name: string, args: Record<string, unknown>): Promise<string> {
  const asked = resultOf((await call(url, name, args)).body);
  assert.equal(asked.resultType, 'input_required');
  return asked.requestState as string;
}

describe('createRedisStore: URLs and AUTH', { skip }, () => {
  let redis: RedisProcess;
  before(async () => {
    redis = await startRedis({ password: 'correct horse' });
  });
  after(() => redis?.stop());

  it('refuses anything but a redis:// or rediss:// URL with a specific message', () => {
    assert.throws(() => createRedisStore({ url: 'http://127.0.0.1:6379' }), { name: 'RangeError', message: 'createRedisStore: url scheme must be redis: or rediss:, got "http:"' });
    assert.throws(() => createRedisStore({ url: 'not a url' }), { name: 'RangeError', message: 'createRedisStore: url must look like redis://host:port or rediss://host:port, got "not a url"' });
    assert.throws(() => createRedisStore({ url: 'redis://h:1', commandTimeoutMs: 0 }), { name: 'RangeError', message: 'createRedisStore: commandTimeoutMs must be a positive number, got 0' });
  });

  it('with the password from the URL it works, and its label masks the password', async () => {
    const store = createRedisStore({ url: redis.url });
    try {
      await store.ready();
      assert.equal(store.label, `redis://:***@127.0.0.1:${redis.port}`);
      assert.equal((await store.claimOnce('auth-ok', { expiresAt: Date.now() + 10_000 })).claimed, true);
    } finally {
      await store.close();
    }
  });

  it('with a wrong password it never becomes ready and every call is refused as unavailable, naming the reason', async () => {
    const errors: Error[] = [];
    const store = createRedisStore({ url: `redis://:wrong@127.0.0.1:${redis.port}`, onError: (e) => errors.push(e) });
    try {
      await assert.rejects(store.ready(1500), (error: unknown) => error instanceof StoreUnavailableError && /not reachable within 1500 ms .*(WRONGPASS|invalid username-password)/i.test(error.message));
      await assert.rejects(store.claimOnce('auth-bad', { expiresAt: Date.now() + 10_000 }), (error: unknown) => error instanceof StoreUnavailableError && /^store unavailable: redis redis:\/\/:\*\*\*@127\.0\.0\.1:\d+: not connected/.test(error.message));
      assert.ok(errors.length >= 1 && errors[0] instanceof StoreUnavailableError, 'the outage was reported once through onError');
    } finally {
      await store.close();
    }
  });
});

describe('createRedisStore: pub/sub with Redis unreachable', { skip }, () => {
  it('subscribe and publish are refused as unavailable within the deadline instead of hanging', async () => {
    const port = await freePort();
    const store = createRedisStore({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 300 });
    try {
      await assert.rejects(store.subscribe('news', () => undefined), { name: 'StoreUnavailableError', message: `store unavailable: redis redis://127.0.0.1:${port}: subscriber connection: no answer within 300 ms` });
      await assert.rejects(store.publish('news', 'x'), (error: unknown) => error instanceof StoreUnavailableError && /: not connected/.test(error.message));
    } finally {
      await store.close();
    }
  });
});

describe('createRedisStore: rediss:// (TLS)', { skip }, () => {
  let redis: RedisProcess & { certPem?: string };
  before(async () => {
    redis = await startRedis({ tls: true, password: 'tls-pass' });
  });
  after(() => redis?.stop());

  it('connects over TLS with AUTH when given the CA, and works', async () => {
    assert.match(redis.url, /^rediss:\/\//);
    const store = createRedisStore({ url: redis.url, tls: { ca: redis.certPem! } });
    try {
      await store.ready();
      assert.equal((await store.claimOnce('tls', { expiresAt: Date.now() + 10_000, value: 'over tls' })).claimed, true);
      assert.deepEqual((await store.getClaim('tls'))?.value, 'over tls');
    } finally {
      await store.close();
    }
  });

  it('refuses a server certificate it cannot verify (no CA given): never ready, calls refused', async () => {
    const store = createRedisStore({ url: redis.url });
    try {
      await assert.rejects(store.ready(1500), (error: unknown) => error instanceof StoreUnavailableError && /self[- ]signed certificate/i.test(error.message));
      await assert.rejects(store.claimOnce('tls-unverified', { expiresAt: Date.now() + 10_000 }), StoreUnavailableError);
    } finally {
      await store.close();
    }
  });
});

describe('two instances on one Redis and one secret', { skip }, () => {
  let redis: RedisProcess;
  const stores: RedisStore[] = [];
  const servers: McpServer[] = [];
  const urls: string[] = [];
  const { tools, runs } = approvalTools();

  async function instance(secret: string): Promise<string> {
    const store = createRedisStore({ url: redis.url });
    await store.ready();
    stores.push(store);
    const server = createServer({ name: 'approvals', version: '1', tools, store, requestStateSecret: secret, authorize: EVERYONE_APPROVES, logger: { error: () => undefined } });
    servers.push(server);
    const listener: HttpListener = await server.listen({ port: 0 });
    return listener.url;
  }

  before(async () => {
    redis = await startRedis();
    urls.push(await instance(SECRET), await instance(SECRET), await instance('some-other-secret-0123456789'));
  });
  after(async () => {
    for (const server of servers) await server.close();
    for (const store of stores) await store.close();
    await redis?.stop();
  });

  it('an approval redeemed on instance A is refused on instance B because it was already used (not as foreign)', async () => {
    runs.length = 0;
    const state = await ask(urls[0]!, 'launch_rocket', { target: 'moon' });
    assert.equal(textOf((await call(urls[0]!, 'launch_rocket', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT })).body), 'launched at moon');
    assert.deepEqual(errorOf((await call(urls[1]!, 'launch_rocket', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT })).body), ALREADY_USED);
    assert.deepEqual(runs, ['rocket:moon']);
  });

  it('the same approval sent to A and B at once runs exactly once', async () => {
    runs.length = 0;
    const state = await ask(urls[1]!, 'launch_rocket', { target: 'mars' });
    const both = await Promise.all(urls.slice(0, 2).map((url) => call(url, 'launch_rocket', { target: 'mars' }, { requestState: state, inputResponses: ACCEPT })));
    const errors = both.map((r) => r.body).filter((b) => b !== undefined && 'error' in b).map((b) => b!.error);
    assert.deepEqual(errors, [ALREADY_USED]);
    assert.deepEqual(runs, ['mars'].map((t) => `rocket:${t}`));
  });

  it('an instance with another secret refuses the state as failing verification: that is what the shared secret avoids', async () => {
    runs.length = 0;
    const state = await ask(urls[0]!, 'launch_rocket', { target: 'io' });
    assert.deepEqual(errorOf((await call(urls[2]!, 'launch_rocket', { target: 'io' }, { requestState: state, inputResponses: ACCEPT })).body), { code: -32602, message: 'Invalid params: requestState failed verification', data: FIELD });
    assert.deepEqual(runs, []);
  });
});

describe('Redis down and back', { skip }, () => {
  let redis: RedisProcess;
  let store: RedisStore;
  let server: McpServer;
  let url: string;
  const { tools, runs } = approvalTools();
  const limited = defineTool({ name: 'limited', inputSchema: { type: 'object' }, use: [rateLimit({ capacity: 100, refillPerSecond: 1 })], run: () => { runs.push('limited'); return 'ok'; } });
  const logged: string[] = [];

  before(async () => {
    redis = await startRedis();
    store = createRedisStore({ url: redis.url, commandTimeoutMs: 1000 });
    await store.ready();
    server = createServer({ name: 'down', version: '1', tools: [...tools, limited], store, requestStateSecret: SECRET, authorize: EVERYONE_APPROVES, logger: { error: (message) => logged.push(message) } });
    url = (await server.listen({ port: 0 })).url;
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await redis?.stop();
  });

  it('while Redis is down, approvals, rate-limited calls and legacy sessions are refused with 503 and nothing runs; other calls keep working; then it reconnects by itself', async () => {
    runs.length = 0;
    const state = await ask(url, 'launch_rocket', { target: 'titan' });
    const legacy = await openSession(url);
    await redis.kill();
    // A legacy session's record is in the store: its requests (even of a tool that needs no store) and new sessions are refused, nothing runs.
    const legacyCall = await exchange(url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'move_pad', arguments: {} } }, legacy.headers);
    assert.deepEqual([legacyCall.status, legacyCall.messages[0]], [503, { jsonrpc: '2.0', id: 5, error: STORE_DOWN }]);
    const legacyOpen = await exchange(url, { jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } }, {});
    assert.deepEqual([legacyOpen.status, legacyOpen.messages[0]], [503, { jsonrpc: '2.0', id: 6, error: STORE_DOWN }]);
    const refused = await call(url, 'launch_rocket', { target: 'titan' }, { requestState: state, inputResponses: ACCEPT });
    assert.equal(refused.status, 503);
    assert.deepEqual(errorOf(refused.body), STORE_DOWN);
    const limitedRefused = await call(url, 'limited', {});
    assert.equal(limitedRefused.status, 503);
    assert.deepEqual(errorOf(limitedRefused.body), STORE_DOWN);
    assert.deepEqual(runs, [], 'nothing ran while the store was down');
    assert.ok(logged.some((m) => /^stage .* refused: store unavailable: redis /.test(m)), `the server log says why: ${JSON.stringify(logged)}`);
    // A tool that needs no store is unaffected.
    assert.equal(textOf((await call(url, 'move_pad', {})).body), 'pad now at 1');

    await redis.restart();
    await store.ready(10_000);
    assert.equal(store.connected, true);
    // This Redis keeps nothing on disk: it came back empty, in a new epoch. Whether the state was used
    // before cannot be known any more, so it is refused (fails closed); a fresh approval works once.
    assert.deepEqual(errorOf((await call(url, 'launch_rocket', { target: 'titan' }, { requestState: state, inputResponses: ACCEPT })).body), OTHER_EPOCH);
    assert.deepEqual(runs, []);
    const fresh = await ask(url, 'launch_rocket', { target: 'titan' });
    assert.equal(textOf((await call(url, 'launch_rocket', { target: 'titan' }, { requestState: fresh, inputResponses: ACCEPT })).body), 'launched at titan');
    assert.deepEqual(errorOf((await call(url, 'launch_rocket', { target: 'titan' }, { requestState: fresh, inputResponses: ACCEPT })).body), ALREADY_USED);
    assert.equal(textOf((await call(url, 'limited', {})).body), 'ok');
    assert.deepEqual(runs, ['rocket:titan', 'limited']);
    await openSession(url);
  });

  it('an approval redeemed before Redis restarted empty is not honoured a second time (the store epoch changed)', async () => {
    runs.length = 0;
    const epochBefore = store.epoch();
    const state = await ask(url, 'launch_rocket', { target: 'rhea' });
    assert.equal(textOf((await call(url, 'launch_rocket', { target: 'rhea' }, { requestState: state, inputResponses: ACCEPT })).body), 'launched at rhea');
    await redis.kill();
    await redis.restart();
    await store.ready(10_000);
    assert.notEqual(store.epoch(), epochBefore, 'a Redis that came back empty is in a new epoch');
    const replay = await call(url, 'launch_rocket', { target: 'rhea' }, { requestState: state, inputResponses: ACCEPT });
    assert.deepEqual(errorOf(replay.body), OTHER_EPOCH);
    assert.deepEqual(runs, ['rocket:rhea'], 'the approved action ran once, not again after the restart');
  });
});
