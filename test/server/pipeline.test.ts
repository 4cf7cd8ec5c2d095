/** The pipeline itself: stage order and events, discovery, pagination, handler context. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer, defineTool, STAGES } from '../../src/index.js';
import type { McpServer, StageEvent, ToolContext } from '../../src/index.js';
import type { JsonRpcNotification } from '../../src/protocol/json-rpc.js';
import { createEverythingServer, TOKENS } from '../fixtures/servers/everything.js';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';

interface Sent { reply: { status: number; body: Record<string, unknown> | undefined }; notifications: JsonRpcNotification[] }

async function send(server: McpServer, message: Record<string, unknown> | string, signal = new AbortController().signal): Promise<Sent> {
  const notifications: JsonRpcNotification[] = [];
  const reply = await server.handleMessage({
    body: typeof message === 'string' ? message : JSON.stringify(message),
    transport: 'stdio',
    header: undefined,
    signal,
    isAborted: () => signal.aborted,
    notify: (n) => {
      assertServerMessage(n);
      notifications.push(n);
    },
  });
  const body = reply.body === undefined ? undefined : (JSON.parse(reply.body) as Record<string, unknown>);
  if (body !== undefined) assertServerMessage(body, typeof message === 'string' ? undefined : (message.method as string));
  return { reply: { status: reply.status, body }, notifications };
}

const stages = (events: StageEvent[]) => events.map((e) => `${e.stage}:${e.outcome}`);

describe('stage events', () => {
  it('names every stage of a successful call in order, with durations, id, method and tool', async () => {
    const events: StageEvent[] = [];
    const server = createEverythingServer({ onStageEvent: (e) => events.push(e) });
    const listener = await server.listen({ port: 0 });
    try {
      await post(listener.url, rpc('tools/call', { name: 'move_arm', arguments: { z: 0.5 } }, 'req-1'), { authorization: `Bearer ${TOKENS.mover}` });
    } finally {
      await server.close();
    }
    assert.deepEqual(stages(events), STAGES.map((s) => `${s}:${s === 'output' ? 'respond' : 'pass'}`));
    for (const event of events) {
      assert.equal(typeof event.durationMs, 'number');
      assert.ok(event.durationMs >= 0);
      assert.equal(event.transport, 'http');
    }
    assert.deepEqual(events.at(-1), { ...events.at(-1), requestId: 'req-1', method: 'tools/call', tool: 'move_arm' });
  });

  it('stops at the stage that decides, with code and detail', async () => {
    const events: StageEvent[] = [];
    const server = createEverythingServer({ onStageEvent: (e) => events.push(e) });
    await send(server, rpc('tools/call', { name: 'nope' }));
    assert.deepEqual(stages(events), ['authenticate:pass', 'decode:pass', 'envelope:pass', 'version:pass', 'headers:pass', 'route:pass', 'find-tool:error']);
    assert.equal(events.at(-1)?.code, -32602);
    assert.equal(events.at(-1)?.detail, 'Unknown tool: nope');
    events.length = 0;
    await send(server, rpc('tools/call', { name: 'calculate_sum', arguments: { a: 1 } }));
    assert.equal(stages(events).at(-1), 'shape:tool-error');
    assert.match(events.at(-1)?.detail ?? '', /^Invalid arguments for tool calculate_sum:/);
    events.length = 0;
    await send(server, rpc('tools/list'));
    assert.deepEqual(stages(events).slice(-1), ['route:respond']);
    events.length = 0;
    await send(server, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.deepEqual(stages(events), ['authenticate:pass', 'decode:pass', 'envelope:accepted']);
    events.length = 0;
    await send(server, rpc('tools/call', { name: 'failing', arguments: {} }));
    assert.equal(stages(events).at(-1), 'execute:tool-error');
  });

  it('keeps serving when an observer throws', async () => {
    const errors: string[] = [];
    const server = createEverythingServer({ onStageEvent: () => { throw new Error('observer bug'); }, logger: { error: (m) => errors.push(m) } });
    const { reply } = await send(server, rpc('tools/call', { name: 'no_arguments' }));
    assert.equal(reply.status, 200);
    assert.ok(errors.includes('onStageEvent threw'));
  });
});

describe('server/discover and tools/list', () => {
  it('discover returns versions, capabilities, instructions, caching hints and serverInfo', async () => {
    const { reply } = await send(createEverythingServer(), rpc('server/discover'));
    assert.deepEqual(reply.body?.result, {
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {}, logging: {} },
      ttlMs: 60000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'everything', version: '1.2.3' } },
      instructions: 'Fixture server for Toolwright tests.',
    });
  });

  it('paginates deterministically with opaque cursors; every page has ttlMs and cacheScope', async () => {
    const tools = Array.from({ length: 5 }, (_, i) => defineTool({ name: `t${i}`, inputSchema: { type: 'object' }, run: () => 'x' }));
    const server = createServer({ name: 'paged', version: '1', tools, pageSize: 2, listTtlMs: 0, cacheScope: 'private' });
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { reply } = await send(server, rpc('tools/list', cursor === undefined ? {} : { cursor }));
      const result = reply.body?.result as { tools: { name: string }[]; nextCursor?: string; ttlMs: number; cacheScope: string };
      assert.equal(result.ttlMs, 0);
      assert.equal(result.cacheScope, 'private');
      names.push(...result.tools.map((t) => t.name));
      cursor = result.nextCursor;
      pages++;
    } while (cursor !== undefined);
    assert.deepEqual(names, ['t0', 't1', 't2', 't3', 't4']);
    assert.equal(pages, 3);
    const again = await send(server, rpc('tools/list'));
    const third = await send(server, rpc('tools/list'));
    assert.deepEqual(again.reply.body, third.reply.body, 'same order every time');
    const other = createServer({ name: 'other', version: '1', tools: tools.slice(1), pageSize: 2 });
    const firstCursor = ((again.reply.body?.result as { nextCursor: string }).nextCursor);
    const foreign = await send(other, rpc('tools/list', { cursor: firstCursor }));
    assert.deepEqual(foreign.reply.body?.error, { code: -32602, message: 'Invalid cursor' }, 'a cursor from a different tool set is refused');
  });

  it('is stateless: version and capabilities come from each request alone', async () => {
    const server = createEverythingServer();
    const withSampling = { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
    assert.equal((await send(server, rpc('tools/call', { name: 'needs_sampling' }, 1, withSampling))).reply.status, 200);
    const next = await send(server, rpc('tools/call', { name: 'needs_sampling' }, 2));
    assert.equal((next.reply.body?.error as { code: number }).code, -32021);
  });

  it('reports the nested capability that is missing', async () => {
    const tool = defineTool({ name: 'url_elicit', inputSchema: { type: 'object' }, requiredClientCapabilities: { elicitation: { url: {} } }, run: () => 'x' });
    const server = createServer({ name: 's', version: '1', tools: [tool] });
    const formOnly = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
    const { reply } = await send(server, rpc('tools/call', { name: 'url_elicit' }, 1, formOnly));
    assert.deepEqual(reply.body?.error, {
      code: -32021,
      message: 'Missing required client capability: elicitation (tool url_elicit cannot run without it)',
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    const both = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } } };
    assert.equal((await send(server, rpc('tools/call', { name: 'url_elicit' }, 1, both))).reply.status, 200);
  });
});

describe('handler context', () => {
  it('passes capabilities, auth, request meta, id and tool name', async () => {
    let seen: ToolContext | undefined;
    const tool = defineTool({ name: 'ctx', inputSchema: { type: 'object' }, run: (_a, ctx) => { seen = ctx; return 'ok'; } });
    const server = createServer({ name: 's', version: '1', tools: [tool], authorize: () => ({ scopes: ['a'], subject: 'alice' }) });
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { roots: {} }, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    await send(server, rpc('tools/call', { name: 'ctx' }, 'id-9', meta));
    assert.ok(seen);
    assert.deepEqual(seen.clientCapabilities, { roots: {} });
    assert.deepEqual(seen.auth, { scopes: ['a'], subject: 'alice' });
    assert.deepEqual(seen.scopes, ['a']);
    assert.equal(seen.requestMeta.traceparent, meta.traceparent);
    assert.equal(seen.requestId, 'id-9');
    assert.equal(seen.toolName, 'ctx');
    assert.equal(seen.transport, 'stdio');
    assert.equal(seen.inputResponses, undefined);
  });

  it('sends progress only with a progressToken, only increasing, and never after the response', async () => {
    let late: ToolContext | undefined;
    const tool = defineTool({
      name: 'p',
      inputSchema: { type: 'object' },
      run: (_a, ctx) => {
        ctx.progress(1);
        ctx.progress(1);
        ctx.progress(0.5);
        ctx.progress(2, 4, 'half');
        late = ctx;
        return 'ok';
      },
    });
    const server = createServer({ name: 's', version: '1', tools: [tool] });
    const without = await send(server, rpc('tools/call', { name: 'p' }));
    assert.deepEqual(without.notifications, []);
    const withToken = await send(server, rpc('tools/call', { name: 'p' }, 1, { ...META, progressToken: 77 }));
    assert.deepEqual(withToken.notifications.map((n) => n.params), [{ progressToken: 77, progress: 1 }, { progressToken: 77, progress: 2, total: 4, message: 'half' }]);
    late?.progress(10);
    late?.log('emergency', 'too late');
    assert.equal(withToken.notifications.length, 2);
  });

  it('drops the response of a request aborted while running', async () => {
    const controller = new AbortController();
    const tool = defineTool({ name: 'slow', inputSchema: { type: 'object' }, run: async (_a, ctx) => { controller.abort(); return ctx.signal.aborted ? 'aborted' : 'ran'; } });
    const server = createServer({ name: 's', version: '1', tools: [tool] });
    const { reply } = await send(server, rpc('tools/call', { name: 'slow' }), controller.signal);
    assert.deepEqual(reply, { status: 499, body: undefined });
  });

  it('turns a stage crash into -32603 without leaking details', async () => {
    const errors: unknown[] = [];
    const tool = defineTool({ name: 'boom', inputSchema: { type: 'object' }, approval: () => { throw new Error('secret internals'); }, run: () => 'x' });
    const server = createServer({ name: 's', version: '1', tools: [tool], logger: { error: (m, d) => errors.push([m, d?.error]) } });
    const { reply } = await send(server, rpc('tools/call', { name: 'boom' }));
    assert.equal(reply.status, 500);
    assert.deepEqual(reply.body?.error, { code: -32603, message: 'Internal error' });
    assert.deepEqual(errors, [['stage approval failed', 'secret internals']]);
  });

  it('refuses MRTR input requests the client did not declare (R-60)', async () => {
    const server = createEverythingServer();
    const { reply } = await send(server, rpc('tools/call', { name: 'asks_for_name' }));
    assert.deepEqual(reply.body?.error, {
      code: -32021,
      message: 'Missing required client capability: elicitation (tool asks_for_name needs it to continue)',
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const canElicit = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const asked = await send(server, rpc('tools/call', { name: 'asks_for_name' }, 1, canElicit));
    assert.equal((asked.reply.body?.result as Record<string, unknown>).resultType, 'input_required');
    const answered = await send(server, rpc('tools/call', { name: 'asks_for_name', inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } }, 2, canElicit));
    assert.deepEqual((answered.reply.body?.result as Record<string, unknown>).content, [{ type: 'text', text: 'Hello, Ada!' }]);
  });
});
