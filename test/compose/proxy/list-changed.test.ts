/**
 * `list_changed` through the proxy: an upstream child process (fixtures/changing-upstream.mjs, 2025
 * era over stdio) changes its tools; the front server (the upstream mounted, served over HTTP)
 * lists them again, its callers hear `notifications/tools/list_changed` and see the new list.
 * Bad input: a storm of notifications (bounded re-lists), a re-list that fails (the old list
 * stays, reported), hostile descriptors (refused with their problems), a name another source has.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { connect, McpClientError } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { createServer, defineTool } from '../../../src/index.js';
import type { McpServer, Tool } from '../../../src/index.js';
import { toolsFromUpstream } from '../../../src/compose/index.js';
import type { UpstreamTools } from '../../../src/compose/index.js';
import { until } from '../../support/until.js';
import { sseMessagesAsTheyArrive } from '../../support/sse-events.js';
import { rpc, standardHeaders } from '../../fixtures/servers/raw-http.js';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { handleSessionRequest, readJsonBody } from '../../support/sdk-http-sessions.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/changing-upstream.mjs', import.meta.url));

interface Rig {
  proxied: UpstreamTools;
  server: McpServer;
  caller: McpClient;
  /** Methods of the notifications the caller heard on its listen stream. */
  heard: string[];
  names(): Promise<string[]>;
  text(tool: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

async function rig(options: { minRelistIntervalMs?: number; own?: Tool[]; maxDescriptorBytes?: number } = {}): Promise<Rig> {
  const proxied = await toolsFromUpstream({ command: process.execPath, args: [FIXTURE] }, { prefix: 'c', minRelistIntervalMs: options.minRelistIntervalMs ?? 0, maxDescriptorBytes: options.maxDescriptorBytes ?? 100_000 });
  const server = createServer({ name: 'front', version: '1.0.0', tools: options.own ?? [], mount: [{ ...proxied.mount, minChangeIntervalMs: 0 }], logger: { error: () => undefined } });
  const listener = await server.listen({ port: 0 });
  const caller = connect(listener.url, { onWarning: () => {} });
  const heard: string[] = [];
  const stopListening = new AbortController();
  // The caller's notification stream (modern era, on its own HTTP request): read until the test ends.
  const message = rpc('subscriptions/listen', { notifications: { toolsListChanged: true } }, 'L');
  const response = await fetch(listener.url, { method: 'POST', headers: standardHeaders(message), body: JSON.stringify(message), signal: stopListening.signal });
  const listening = (async () => {
    for await (const m of sseMessagesAsTheyArrive(response.body!)) heard.push(typeof m.method === 'string' ? m.method : '');
  })().catch(() => undefined);
  await until(() => heard.includes('notifications/subscriptions/acknowledged'), 'the front acknowledging the listen stream');
  const text = async (tool: string, args: Record<string, unknown> = {}): Promise<string> => {
    const result = await caller.callTool(tool, args);
    return (result.content as { text?: string }[]).map((b) => b.text ?? '').join('');
  };
  return {
    proxied, server, caller, heard, text,
    names: async () => ((await caller.request('tools/list')).tools as { name: string }[]).map((t) => t.name),
    close: async () => {
      stopListening.abort();
      await listening;
      await caller.close();
      await listener.close();
      await server.close();
      await proxied.close();
    },
  };
}

const changes = (r: Rig): number => r.heard.filter((m) => m === 'notifications/tools/list_changed').length;

describe('proxy: the upstream tool list changes', () => {
  it('a tool the upstream adds appears on the front, the caller hears list_changed, and a call reaches it', async () => {
    const r = await rig();
    try {
      assert.deepEqual(await r.names(), ['c__ping', 'c__grow', 'c__shrink', 'c__storm', 'c__break_list', 'c__add_hostile', 'c__list_count', 'c__crash']);
      assert.equal(await r.text('c__grow', { name: 'fresh' }), 'grew fresh');
      await until(() => changes(r) === 1, 'the caller hearing tools/list_changed');
      assert.ok((await r.names()).includes('c__fresh'));
      assert.ok(r.server.tools.some((t) => t.name === 'c__fresh'));
      assert.deepEqual(r.proxied.names.find((n) => n.local === 'c__fresh'), { local: 'c__fresh', upstream: 'fresh' });
      assert.equal(await r.text('c__fresh'), 'I am fresh');
      assert.equal(r.proxied.relists, 1);
    } finally {
      await r.close();
    }
  });

  it('a tool the upstream removes leaves the front, and a call to it is refused as unknown; a front that took the tool statically gets a clear error result', async () => {
    const r = await rig();
    // A second front built from the tool objects as they were at start (`tools:`, not `mount`): it never re-lists.
    const stale = createServer({ name: 'static', version: '1.0.0', tools: [...r.proxied.tools], logger: { error: () => undefined } });
    const staleListener = await stale.listen({ port: 0 });
    const staleCaller = connect(staleListener.url, { onWarning: () => {} });
    try {
      assert.equal(await r.text('c__shrink', { name: 'ping' }), 'shrank ping');
      await until(() => changes(r) === 1, 'the caller hearing tools/list_changed');
      assert.equal((await r.names()).includes('c__ping'), false);
      const refused = await r.caller.callTool('c__ping', {}).then(() => undefined, (error: unknown) => error);
      assert.ok(refused instanceof McpClientError, `expected a refusal, got ${String(refused)}`);
      assert.equal(refused.kind, 'rpc');
      assert.equal(refused.code, -32602);
      assert.equal(refused.serverMessage, 'Unknown tool: c__ping');
      const result = await staleCaller.callTool('c__ping', {});
      assert.equal(result.isError, true);
      assert.deepEqual(result.content, [{ type: 'text', text: 'Upstream c no longer lists the tool ping (its tool list changed); list the tools again.' }]);
    } finally {
      await staleCaller.close();
      await staleListener.close();
      await stale.close();
      await r.close();
    }
  });

  it('a storm of 200 list_changed costs two re-lists (one now, one at the end of the interval), and the front stays up', async () => {
    const r = await rig({ minRelistIntervalMs: 300 });
    try {
      const listsBefore = Number(await r.text('c__list_count'));
      assert.equal(await r.text('c__storm', { count: 200 }), 'storming');
      await until(() => r.proxied.relists === 2, 'the second re-list');
      await until(() => changes(r) >= 1, 'the caller hearing tools/list_changed');
      assert.equal(Number(await r.text('c__list_count')), listsBefore + 2, 'the upstream was listed twice, not 200 times');
      assert.equal(r.proxied.relists, 2);
      assert.ok(changes(r) <= 2, `the caller heard ${changes(r)} list_changed, at most one per re-list`);
      assert.equal(await r.text('c__ping'), 'pong');
    } finally {
      await r.close();
    }
  });

  it('a re-list that fails keeps the previous list and reports relist-failed; calls go on; the next good one replaces it', async () => {
    const r = await rig();
    try {
      const before = await r.names();
      assert.equal(await r.text('c__break_list', { times: 1 }), 'broken');
      await until(() => r.proxied.problems.some((p) => p.code === 'relist-failed'), 'the failed re-list reported');
      const failed = r.proxied.problems.find((p) => p.code === 'relist-failed')!;
      assert.equal(failed.tool, undefined);
      assert.match(failed.message, /^upstream c: tools\/list failed: .*catalog unavailable.*; the previous list is still served$/);
      assert.deepEqual(await r.names(), before);
      assert.equal(r.proxied.relists, 1);
      assert.equal(await r.text('c__ping'), 'pong');
      assert.equal(changes(r), 0, 'no list_changed for a list that did not change');
      assert.equal(await r.text('c__grow', { name: 'after' }), 'grew after');
      await until(() => changes(r) === 1, 'the caller hearing tools/list_changed');
      assert.ok((await r.names()).includes('c__after'));
      assert.equal(r.proxied.problems.some((p) => p.code === 'relist-failed'), false, 'a good re-list clears the failure');
    } finally {
      await r.close();
    }
  });

  it('hostile tools added later are refused with their problems; the rest of the new list is served', async () => {
    const r = await rig();
    try {
      assert.equal(await r.text('c__add_hostile'), 'hostile added');
      await until(() => r.proxied.relists === 1 && changes(r) === 1, 'the re-list and the notification');
      const byTool = Object.fromEntries(r.proxied.problems.filter((p) => p.entry === undefined).map((p) => [p.tool, p.code]));
      assert.deepEqual(byTool, { huge: 'too-large', deep: 'invalid-definition' });
      assert.match(r.proxied.problems.find((p) => p.tool === 'deep')!.message, /maxDepth 64/);
      const names = await r.names();
      assert.equal(names.includes('c__huge') || names.includes('c__deep'), false);
      assert.equal(names.length, 8);
    } finally {
      await r.close();
    }
  });

  it('after the upstream died and the next call reconnected, its tools are listed again (they may have changed meanwhile)', async () => {
    const r = await rig();
    try {
      const crashed = await r.caller.callTool('c__crash', {});
      assert.equal(crashed.isError, true);
      assert.match((crashed.content[0] as { text: string }).text, /^Upstream c failed during crash: .*the next call reconnects\.$/s);
      assert.equal(r.proxied.relists, 0);
      assert.equal(await r.text('c__ping'), 'pong');
      await until(() => r.proxied.relists === 1, 'the re-list after the reconnect');
      await until(() => changes(r) === 1, 'the caller hearing tools/list_changed');
      assert.equal(r.proxied.problems.some((p) => p.code === 'relist-failed'), false);
    } finally {
      await r.close();
    }
  });

  it('a new tool whose name another source serves is left out and reported as a collision; the other source keeps it', async () => {
    const own = defineTool({ name: 'c__taken', description: 'The front\'s own tool.', inputSchema: { type: 'object' }, run: () => 'the front\'s own' });
    const r = await rig({ own: [own] });
    try {
      assert.equal(await r.text('c__grow', { name: 'taken' }), 'grew taken');
      await until(() => r.proxied.problems.some((p) => p.code === 'collision'), 'the collision reported');
      assert.deepEqual(r.proxied.problems.filter((p) => p.code === 'collision'), [
        { tool: 'taken', code: 'collision', message: 'left out on the front server: the name is already served by this server' },
      ]);
      assert.equal(await r.text('c__taken'), 'the front\'s own');
      assert.equal((await r.names()).filter((n) => n === 'c__taken').length, 1);
      assert.equal(await r.text('c__ping'), 'pong');
    } finally {
      await r.close();
    }
  });
});

describe('proxy: a modern Toolwright upstream over HTTP changes its tools', () => {
  it('the proxy hears it on a subscriptions/listen stream, and the change reaches the front through two mounts', async () => {
    const echo = (name: string): Tool => defineTool({ name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, run: () => `I am ${name}` });
    // The upstream mounts a catalog whose tools the test changes: an in-process mount that changes after start.
    let current: Tool[] = [echo('alpha')];
    const listeners = new Set<(kind: 'tools' | 'prompts' | 'resources') => void>();
    const dynamic = {
      get tools() { return current; },
      resources: [], prompts: [], listChanged: ['tools' as const],
      onListChanged(listener: (kind: 'tools' | 'prompts' | 'resources') => void) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    };
    const upstream = createServer({ name: 'up', version: '1.0.0', tools: [], mount: [{ prefix: 'dyn', server: { name: 'dyn', mountable: dynamic }, minChangeIntervalMs: 0 }], logger: { error: () => undefined } });
    const upstreamListener = await upstream.listen({ port: 0 });
    const proxied = await toolsFromUpstream({ url: upstreamListener.url }, { prefix: 'm', minRelistIntervalMs: 0 });
    const front = createServer({ name: 'front', version: '1.0.0', tools: [], mount: [proxied.mount], logger: { error: () => undefined } });
    const frontListener = await front.listen({ port: 0 });
    const caller = connect(frontListener.url, { onWarning: () => {} });
    try {
      assert.equal(proxied.era, 'modern');
      assert.deepEqual(front.tools.map((t) => t.name), ['m__dyn__alpha']);
      current = [echo('alpha'), echo('beta')];
      for (const listener of listeners) listener('tools');
      assert.deepEqual(upstream.tools.map((t) => t.name), ['dyn__alpha', 'dyn__beta'], 'the upstream recompiled its mount at once');
      await until(() => front.tools.some((t) => t.name === 'm__dyn__beta'), 'the front serving the new tool');
      assert.equal(proxied.relists, 1);
      const result = await caller.callTool('m__dyn__beta', {});
      assert.deepEqual(result.content, [{ type: 'text', text: 'I am beta' }]);
    } finally {
      await caller.close();
      await frontListener.close();
      await front.close();
      await proxied.close();
      await upstreamListener.close();
      await upstream.close();
    }
  });
});

describe('proxy: an official SDK v1 server over HTTP adds a tool', () => {
  it('the proxy hears its list_changed on the session GET stream; the front serves and calls the new tool', async () => {
    const sdkServers: SdkMcpServer[] = [];
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const http = createHttpServer((req, res) => {
      void (async () => {
        const parsed = req.method === 'POST' ? await readJsonBody(req) : undefined;
        await handleSessionRequest(sessions, req, res, parsed, (transport) => {
          const sdk = new SdkMcpServer({ name: 'sdk-v1-changing', version: '1.0.0' });
          sdk.registerTool('ping', { description: 'Answers pong.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
          sdkServers.push(sdk);
          return sdk.connect(transport);
        });
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const proxied = await toolsFromUpstream({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` }, { prefix: 's', minRelistIntervalMs: 0 });
    const front = createServer({ name: 'front', version: '1.0.0', tools: [], mount: [proxied.mount], logger: { error: () => undefined } });
    const frontListener = await front.listen({ port: 0 });
    const caller = connect(frontListener.url, { onWarning: () => {} });
    try {
      assert.equal(proxied.era, 'legacy');
      assert.deepEqual(front.tools.map((t) => t.name), ['s__ping']);
      // The SDK sends tools/list_changed to its session when a tool is registered after connect, on the
      // session's GET stream; one sent before that stream is open is lost, so it is sent again until heard.
      // (The era probe made an McpServer too: the tool is added to each.)
      for (const sdk of sdkServers) sdk.registerTool('fresh', { description: 'Added later.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'fresh from the SDK' }] }));
      await until(() => {
        if (front.tools.some((t) => t.name === 's__fresh')) return true;
        for (const sdk of sdkServers) if (sdk.isConnected()) sdk.sendToolListChanged();
        return false;
      }, 'the front serving the new tool', { intervalMs: 100 });
      assert.ok(proxied.relists >= 1);
      const result = await caller.callTool('s__fresh', {});
      assert.deepEqual(result.content, [{ type: 'text', text: 'fresh from the SDK' }]);
    } finally {
      await caller.close();
      await frontListener.close();
      await front.close();
      await proxied.close();
      await Promise.all([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
