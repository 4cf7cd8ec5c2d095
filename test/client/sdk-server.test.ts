/**
 * The client against the official SDK v2 server (`@modelcontextprotocol/server` 2.4.0) in its
 * stateless 2026-07-28 mode (`createMcpHandler`), mounted on node:http on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMcpHandler, fromJsonSchema, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { connect, McpClientError } from '../../src/client/index.js';
import type { McpClient, ProgressUpdate } from '../../src/client/index.js';
import { serveFetchHandler } from '../support/serve-fetch-handler.js';
import type { ServedFetchHandler } from '../support/serve-fetch-handler.js';

// Asserted: the SDK's JSON Schema type has no x-mcp-header member, so a plain literal would fail the excess-property check.
const ROUTE_SCHEMA = ({
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, priority: { type: 'integer', 'x-mcp-header': 'Priority' } },
  required: ['region'],
}) as Parameters<typeof fromJsonSchema>[0];

function sdkServer(): McpServer {
  const server = new McpServer({ name: 'sdk-fixture', version: '2.4.0' }, { capabilities: { tools: {} } });
  server.registerTool('add', {
    description: 'Add two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
  }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }));
  server.registerTool('count', { description: 'Reports progress 1..3.', inputSchema: z.object({}) }, async (_args, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined) {
      for (const progress of [1, 2, 3]) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total: 3 } });
    }
    return { content: [{ type: 'text', text: 'counted' }] };
  });
  server.registerTool('confirm', { description: 'Asks for confirmation (MRTR).', inputSchema: z.object({ action: z.string() }) }, async ({ action }, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.ok as { action?: string; content?: { yes?: boolean } } | undefined;
    if (answer?.action === 'accept' && answer.content?.yes === true) return { content: [{ type: 'text', text: `${action}: confirmed (state ${String(ctx.mcpReq.requestState())})` }] };
    return inputRequired({
      inputRequests: { ok: inputRequired.elicit({ message: `Really ${action}?`, requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] } }) },
      requestState: 'round-1',
    });
  });
  server.registerTool('route', {
    description: 'Echoes a region mirrored into Mcp-Param-Region.',
    inputSchema: fromJsonSchema<{ region: string; priority?: number }>(ROUTE_SCHEMA),
  }, async ({ region, priority }) => ({ content: [{ type: 'text', text: `${region}/${String(priority)}` }] }));
  server.registerTool('fails', { description: 'Always fails.', inputSchema: z.object({}) }, async () => {
    throw new Error('upstream down');
  });
  return server;
}

let served: ServedFetchHandler;
let url: string;
const clients: McpClient[] = [];
function client(): McpClient {
  const c = connect(url, { onWarning: () => {}, capabilities: { elicitation: { form: {} } } });
  clients.push(c);
  return c;
}

before(async () => {
  const handler = createMcpHandler(sdkServer, { legacy: 'reject' });
  served = await serveFetchHandler((request) => handler.fetch(request));
  url = served.url;
});
after(async () => {
  for (const c of clients) await c.close();
  await served?.close();
});

describe('client over HTTP against the official SDK v2 server', () => {
  it('discovers and lists', async () => {
    const c = client();
    const info = await c.discover();
    assert.ok(info.supportedVersions.includes('2026-07-28'));
    assert.equal(info.serverInfo?.name, 'sdk-fixture');
    const listing = await c.listTools();
    assert.deepEqual(listing.tools.map((t) => t.name), ['add', 'count', 'confirm', 'route', 'fails']);
    assert.deepEqual(listing.excluded, []);
  });

  it('calls a tool and validates its structuredContent against the SDK-generated outputSchema', async () => {
    const result = await client().callTool('add', { a: 2, b: 40 });
    assert.deepEqual(result.structuredContent, { sum: 42 });
    assert.deepEqual(result.content, [{ type: 'text', text: '42' }]);
  });

  it('mirrors x-mcp-header arguments so the SDK\'s Mcp-Param-* validation accepts them (sentinel included)', async () => {
    const c = client();
    assert.deepEqual((await c.callTool('route', { region: 'Zürich', priority: 3 })).content, [{ type: 'text', text: 'Zürich/3' }]);
    assert.deepEqual((await c.callTool('route', { region: 'eu-west' })).content, [{ type: 'text', text: 'eu-west/undefined' }]);
    // The same call without the header is refused by the SDK, so the check above is real.
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const bare = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'route' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'route', arguments: { region: 'eu' }, _meta: meta } }),
    });
    assert.equal(bare.status, 400);
    assert.equal(((await bare.json()) as { error: { code: number } }).error.code, -32020);
  });

  it('receives progress notifications', async () => {
    const updates: ProgressUpdate[] = [];
    const result = await client().callTool('count', {}, { onProgress: (u) => updates.push(u) });
    assert.deepEqual(result.content, [{ type: 'text', text: 'counted' }]);
    assert.deepEqual(updates, [{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { progress: 3, total: 3 }]);
  });

  it('completes an input-required round trip with the echoed requestState', async () => {
    const asked: string[] = [];
    const result = await client().callTool('confirm', { action: 'deploy' }, {
      onInputRequired: (requests) => {
        asked.push(String((requests.ok?.params as { message?: string } | undefined)?.message));
        return { ok: { action: 'accept', content: { yes: true } } };
      },
    });
    assert.deepEqual(asked, ['Really deploy?']);
    assert.deepEqual(result.content, [{ type: 'text', text: 'deploy: confirmed (state round-1)' }]);
  });

  it('passes a failing tool through as isError, and reports bad arguments and unknown tools with the SDK\'s outcome', async () => {
    const c = client();
    const failed = await c.callTool('fails', {});
    assert.equal(failed.isError, true);
    const bad = await c.callTool('add', { a: 'two', b: 1 }).then((r) => r, (e: unknown) => e);
    // The SDK reports schema-invalid arguments as an isError result (A-03 allows either).
    assert.ok(!(bad instanceof McpClientError), String(bad));
    assert.equal((bad as { isError?: boolean }).isError, true);
    const unknown = await c.callTool('nope', {}).then(() => undefined, (e: unknown) => e);
    assert.ok(unknown instanceof McpClientError);
    assert.equal(unknown.kind, 'rpc');
    assert.equal(unknown.code, -32602);
  });
});
