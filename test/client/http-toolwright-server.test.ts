/** The client against our own server over real HTTP on 127.0.0.1. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../src/client/index.js';
import type { ClientWarning, McpClient, ProgressUpdate } from '../../src/client/index.js';
import type { HttpListener } from '../../src/index.js';
import { cancellationLog, createEverythingServer, TOKENS } from '../fixtures/servers/everything.js';
import { rejectsWith } from './rejects-with.js';

const server = createEverythingServer({ logger: { error: () => {} }, pageSize: 5, listTtlMs: 30_000 });
let listener: HttpListener;
const clients: McpClient[] = [];
function client(options: Parameters<typeof connect>[1] = {}, headers: Record<string, string> = {}): McpClient {
  const c = connect({ url: listener.url, headers }, { onWarning: () => {}, ...options });
  clients.push(c);
  return c;
}

before(async () => {
  listener = await server.listen({ port: 0 });
});
after(async () => {
  for (const c of clients) await c.close();
  await server.close();
});


describe('client over HTTP against the Toolwright server', () => {
  it('discovers the server', async () => {
    const info = await client().discover();
    assert.deepEqual(info.supportedVersions, ['2026-07-28']);
    assert.equal(info.instructions, 'Fixture server for Toolwright tests.');
    assert.deepEqual(info.serverInfo, { name: 'everything', version: '1.2.3' });
    assert.equal(info.ttlMs, 30_000);
    assert.equal(info.cacheScope, 'public');
    assert.equal(info.fromCache, false);
    assert.equal((await clients.at(-1)!.discover()).fromCache, true);
  });

  it('lists every page (13 tools, page size 5) and serves the list from the cache within ttlMs', async () => {
    let clock = 1_000_000;
    const c = client({ now: () => clock });
    const first = await c.listTools();
    assert.equal(first.pages, 3);
    assert.equal(first.tools.length, 13);
    assert.equal(first.tools[0]?.name, 'calculate_sum');
    assert.deepEqual(first.excluded, []);
    assert.equal(first.fromCache, false);
    clock += 29_999;
    assert.equal((await c.listTools()).fromCache, true);
    clock += 1;
    assert.equal((await c.listTools()).fromCache, false, 'expired at ttlMs');
    assert.equal((await c.listTools({ refresh: true })).fromCache, false);
  });

  it('calls a tool and returns the complete result', async () => {
    const result = await client().callTool('calculate_sum', { a: 2, b: 3 });
    assert.deepEqual(result.content, [{ type: 'text', text: '5' }]);
    assert.equal(result.resultType, 'complete');
  });

  it('mirrors x-mcp-header arguments into Mcp-Param-* (the server checks them), sentinel for non-ASCII', async () => {
    const c = client();
    const plain = await c.callTool('region_echo', { region: 'eu-west', priority: 7, urgent: true });
    assert.deepEqual(plain.structuredContent, { region: 'eu-west', priority: 7, urgent: true });
    const unicode = await c.callTool('region_echo', { region: ' Zürich 東京 ', urgent: false });
    assert.deepEqual(unicode.structuredContent, { region: ' Zürich 東京 ', urgent: false });
    const lookalike = await c.callTool('region_echo', { region: '=?base64?abc?=' });
    assert.deepEqual(lookalike.structuredContent, { region: '=?base64?abc?=' });
  });

  it('reports progress from the SSE stream', async () => {
    const updates: ProgressUpdate[] = [];
    const result = await client().callTool('slow_progress', { delayMs: 1 }, { onProgress: (u) => updates.push(u) });
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
    assert.deepEqual(updates, [
      { progress: 0, total: 100, message: 'step 0' },
      { progress: 50, total: 100, message: 'step 50' },
      { progress: 100, total: 100, message: 'step 100' },
    ]);
  });

  it('cancels by closing the stream when the signal aborts; the handler sees the abort', async () => {
    const before = cancellationLog.aborted;
    const controller = new AbortController();
    const call = client().callTool('cancellable_wait', {}, { signal: controller.signal, onProgress: () => controller.abort(new Error('user pressed stop')) });
    await rejectsWith(call, { kind: 'aborted', method: 'tools/call', message: 'tools/call: cancelled by the caller (user pressed stop)' });
    for (let i = 0; i < 1000 && cancellationLog.aborted === before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(cancellationLog.aborted, before + 1);
  });

  it('closing the client under a running call rejects the call as closed and cancels it on the server', async () => {
    const before = cancellationLog.aborted;
    const c = client();
    let closing: Promise<void> | undefined;
    // The first progress says the handler runs: the client is closed then, with the call in flight.
    const call = c.callTool('cancellable_wait', {}, { onProgress: () => void (closing ??= c.close()) });
    await rejectsWith(call, { kind: 'closed', method: 'tools/call', message: 'the client was closed while the request ran' });
    await closing;
    // No event tells the test that the abort reached the handler; the bound only ends a broken run.
    for (let i = 0; i < 1000 && cancellationLog.aborted === before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(cancellationLog.aborted, before + 1);
  });

  it('times out a call and cancels it', async () => {
    const before = cancellationLog.aborted;
    // Discovery and the listing first, without a tight bound: only the call itself is timed out.
    const c = client();
    await c.listTools();
    // A second, not less: the handler must have started before the timeout for it to see the abort (it waits 10 s).
    await rejectsWith(c.callTool('cancellable_wait', {}, { timeoutMs: 1000 }), { kind: 'timeout', message: 'tools/call: no response within 1000 ms; the request was cancelled' });
    // No event tells the test that the abort reached the handler; the bound only ends a broken run.
    for (let i = 0; i < 1000 && cancellationLog.aborted === before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(cancellationLog.aborted, before + 1);
  });

  it('answers input-required through onInputRequired and retries with a new id', async () => {
    const seen: unknown[] = [];
    const result = await client({ capabilities: { elicitation: { form: {} } } }).callTool('asks_for_name', {}, {
      onInputRequired: (requests, context) => {
        seen.push({ keys: Object.keys(requests), method: requests.user_name?.method, round: context.round, tool: context.tool });
        return { user_name: { action: 'accept', content: { name: 'Ada' } } };
      },
    });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
    assert.deepEqual(seen, [{ keys: ['user_name'], method: 'elicitation/create', round: 1, tool: 'asks_for_name' }]);
  });

  it('fails input-required without a handler, and surfaces -32021 when the capability is missing', async () => {
    await rejectsWith(client({ capabilities: { elicitation: {} } }).callTool('asks_for_name', {}), {
      kind: 'input_required',
      message: 'tool "asks_for_name" needs input (elicitation/create) and no onInputRequired handler was given',
    });
    const error = await rejectsWith(client().callTool('needs_sampling', {}), { kind: 'rpc', code: -32021, httpStatus: 400 });
    assert.deepEqual(error.data, { requiredCapabilities: { sampling: {} } });
  });

  it('passes isError results through and reports JSON-RPC errors with code, status and message', async () => {
    const c = client();
    const failed = await c.callTool('failing', {});
    assert.equal(failed.isError, true);
    await rejectsWith(c.callTool('no_such_tool', {}), { kind: 'rpc', code: -32602, httpStatus: 200, method: 'tools/call' });
    await rejectsWith(c.callTool('broken_output', {}), {
      kind: 'rpc',
      code: -32603,
      message: 'tools/call failed: Internal error: tool broken_output produced output that breaks its outputSchema (JSON-RPC -32603, HTTP 500)',
    });
  });

  it('validates structuredContent that matches its outputSchema', async () => {
    const result = await client().callTool('structured_only', {});
    assert.deepEqual(result.structuredContent, { count: 3 });
  });

  it('sends headers given with the target (bearer token) on every request', async () => {
    const mover = client({}, { authorization: `Bearer ${TOKENS.mover}` });
    assert.deepEqual((await mover.callTool('move_arm', { z: 0.5 })).content, [{ type: 'text', text: 'moved to z=0.5' }]);
    const error = await rejectsWith(client({}, { authorization: 'Bearer wrong' }).listTools(), { kind: 'rpc', code: -31401, httpStatus: 401 });
    assert.match(error.message, /^tools\/list failed: /);
  });

  it('refuses bad arguments, bad names and use after close without sending', async () => {
    const c = client();
    await rejectsWith(c.callTool('calculate_sum', [] as unknown as Record<string, unknown>), { kind: 'usage', message: 'callTool: arguments must be an object, got an array' });
    await rejectsWith(c.callTool(''), { kind: 'usage', message: 'callTool: the tool name must be a non-empty string' });
    await c.close();
    await rejectsWith(c.discover(), { kind: 'closed', message: 'the client is closed' });
  });

  it('reports an unreachable server as a transport error', async () => {
    const probe = await createEverythingServer({ logger: { error: () => {} } }).listen({ port: 0 });
    const url = probe.url;
    await probe.close();
    const warnings: ClientWarning[] = [];
    const error = await rejectsWith(connect(url, { onWarning: (w) => warnings.push(w) }).listTools(), { kind: 'transport', method: 'tools/list' });
    assert.equal(error.message, `cannot reach ${url}: ECONNREFUSED`);
  });

  it('refuses a target that is neither a URL nor a command', () => {
    assert.throws(() => connect('server.js'), { name: 'McpClientError', message: 'connect: "server.js" is not an http(s) URL; for a stdio server pass { command, args }' });
    assert.throws(() => connect('ftp://x/'), /is not an http\(s\) URL/);
  });
});
