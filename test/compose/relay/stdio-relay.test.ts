/**
 * The proxy's relay mode (`toolwright bridge`) as a real child process between a desktop host on
 * stdio and a Toolwright server over Streamable HTTP on loopback: the official SDK v1 client
 * (2025, initialize) and Toolwright's client (2026-07-28) as hosts. The server runs in this process
 * behind a recording fetch handler, so the tests see exactly what reached it (the host's
 * initialize, the bridge's token and nothing else of the host's) and what its handlers saw
 * (cancellation). A server "restart" is a new server behind the same listener: it knows no session.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect } from '../../../src/client/index.js';
import { createServer } from '../../../src/index.js';
import type { Authorizer, McpServer } from '../../../src/index.js';
import { asksForName, calculateSum, cancellableWait, cancellationLog, moveArm, regionEcho, slowProgress } from '../../fixtures/servers/everything.js';
import { StdioChild } from '../../fixtures/servers/stdio-child.js';
import { repoPath, TSX_LOADER } from '../../support/repo-paths.js';
import { serveFetchHandler } from '../../support/serve-fetch-handler.js';
import type { ServedFetchHandler } from '../../support/serve-fetch-handler.js';
import { until } from '../../support/until.js';

const TOKEN = 'bridge-relay-test-token-0123456789abcdef';
const ROTATED = 'bridge-relay-rotated-token-fedcba9876543210';

interface Recorded { method: string; headers: Headers; body: string }

/** The bridge command, as a host's configuration would start it (TypeScript source under tsx here). */
function bridgeArgs(url: string, tokenFile: string): string[] {
  return ['--import', TSX_LOADER, repoPath('src/cli/main.ts'), 'bridge', url, '--token-file', tokenFile];
}

describe('toolwright bridge: a stdio host relayed to a running server', () => {
  let dir: string;
  let tokenFile: string;
  let accepted = TOKEN;
  const recorded: Recorded[] = [];
  const authorize: Authorizer = ({ bearerToken }) => (bearerToken === accepted ? { subject: 'desktop-bridge', clientId: 'bridge-token', scopes: ['arm:move', 'toolwright:approve'] } : null);
  const makeServer = (): McpServer => createServer({ name: 'relayed', version: '1.0.0', tools: [calculateSum, regionEcho, slowProgress, cancellableWait, moveArm, asksForName], authorize, listChanged: ['tools'] });
  let server: McpServer;
  let served: ServedFetchHandler;

  const sdkHost = async (name: string, capabilities: Record<string, unknown> = {}): Promise<{ client: Client; stderr: () => string }> => {
    const transport = new StdioClientTransport({ command: process.execPath, args: bridgeArgs(served.url, tokenFile), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name, version: '9.9.9' }, { capabilities });
    await client.connect(transport);
    return { client, stderr: () => stderr };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-relay-'));
    tokenFile = join(dir, 'bridge.token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    server = makeServer();
    served = await serveFetchHandler(async (request) => {
      recorded.push({ method: request.method, headers: request.headers, body: request.method === 'POST' ? await request.clone().text() : '' });
      return server.fetch(request);
    });
  });
  after(async () => {
    await served.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a 2025 host: its own initialize reaches the server (clientInfo, capabilities) with the bridge\'s token and no other credential; tools list and run', async () => {
    const from = recorded.length;
    const { client } = await sdkHost('desktop-host-under-test', { elicitation: {} });
    try {
      assert.equal(client.getServerVersion()?.name, 'relayed');
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['calculate_sum', 'region_echo', 'slow_progress', 'cancellable_wait', 'move_arm', 'asks_for_name']);
      const sum = (await client.callTool({ name: 'calculate_sum', arguments: { a: 2, b: 3 } })) as { content: { text: string }[] };
      assert.equal(sum.content[0]?.text, '5');
    } finally {
      await client.close();
    }
    const mine = recorded.slice(from);
    const initialize = mine.find((r) => r.body.includes('"initialize"'));
    assert.ok(initialize);
    const params = (JSON.parse(initialize.body) as { params: { clientInfo: unknown; capabilities: { elicitation?: unknown } } }).params;
    assert.deepEqual(params.clientInfo, { name: 'desktop-host-under-test', version: '9.9.9' });
    assert.ok(params.capabilities.elicitation !== undefined, 'the host\'s capabilities go through as declared');
    for (const request of mine) {
      assert.equal(request.headers.get('authorization'), `Bearer ${TOKEN}`, `${request.method} ${request.body}`);
      assert.equal(request.headers.get('cookie'), null);
    }
    assert.ok(mine.some((r) => r.method === 'DELETE'), 'closing stdio ends the session on the server');
  });

  it('progress, and a mid-call elicitation of the server answered by the host, come back through the bridge', async () => {
    const { client } = await sdkHost('eliciting-host', { elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { approve: true } } as never;
    });
    try {
      const progress: number[] = [];
      const done = (await client.callTool({ name: 'slow_progress', arguments: { delayMs: 5 } }, undefined, { onprogress: (p) => progress.push(p.progress) })) as { content: { text: string }[] };
      assert.equal(done.content[0]?.text, 'done');
      assert.deepEqual(progress, [0, 50, 100]);
      const moved = (await client.callTool({ name: 'move_arm', arguments: { z: 0.1 } })) as { content: { text: string }[]; isError?: boolean };
      assert.deepEqual(asked, ['Move the arm down to z=0.1 m?']);
      assert.equal(moved.content[0]?.text, 'moved to z=0.1');
    } finally {
      await client.close();
    }
  });

  it('the host\'s cancellation reaches the tool\'s handler', async () => {
    const { client } = await sdkHost('cancelling-host');
    try {
      const aborted = cancellationLog.aborted;
      const controller = new AbortController();
      let started!: () => void;
      const waiting = new Promise<void>((resolve) => (started = resolve));
      const call = client.callTool({ name: 'cancellable_wait', arguments: {} }, undefined, { signal: controller.signal, onprogress: () => started() });
      await waiting;
      controller.abort(new Error('the user stopped it'));
      await assert.rejects(call, /the user stopped it/);
      await until(() => cancellationLog.aborted > aborted, 'the handler seeing the abort');
    } finally {
      await client.close();
    }
  });

  it('the server\'s GET stream reaches the host (tools/list_changed)', async () => {
    const { client } = await sdkHost('listening-host');
    let changed!: () => void;
    const notified = new Promise<void>((resolve) => (changed = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    try {
      await client.listTools();
      // The bridge opens the GET stream after the host's initialized; the server counts the streams it notified.
      await until(() => server.notifyListChanged('tools') > 0, 'a GET stream to notify', { intervalMs: 50 });
      await notified;
    } finally {
      await client.close();
    }
  });

  it('a restarted server (sessions forgotten): the next message opens a new session with the host\'s initialize, and the host never notices', async () => {
    const { client, stderr } = await sdkHost('surviving-host');
    try {
      await client.listTools();
      const old = server;
      server = makeServer();
      await old.close();
      const sum = (await client.callTool({ name: 'calculate_sum', arguments: { a: 20, b: 22 } })) as { content: { text: string }[] };
      assert.equal(sum.content[0]?.text, '42');
      assert.match(stderr(), /no longer knew the session; opened a new one with the host's initialize/);
      const reinitialize = recorded.filter((r) => r.body.includes('toolwright-bridge-reinitialize-')).at(-1);
      assert.deepEqual((JSON.parse(reinitialize?.body ?? '{}') as { params?: { clientInfo?: unknown } }).params?.clientInfo, { name: 'surviving-host', version: '9.9.9' });
    } finally {
      await client.close();
    }
  });

  it('a server that now wants another token: the bridge reads its token file again; a token it cannot fix is the server\'s 401 error, relayed', async () => {
    const { client, stderr } = await sdkHost('rotating-host');
    try {
      accepted = ROTATED;
      writeFileSync(tokenFile, `${ROTATED}\n`, { mode: 0o600 });
      const sum = (await client.callTool({ name: 'calculate_sum', arguments: { a: 1, b: 1 } })) as { content: { text: string }[] };
      assert.equal(sum.content[0]?.text, '2');
      assert.match(stderr(), /using the new token found in /);
      accepted = 'a-token-the-bridge-does-not-have-0123456789';
      await assert.rejects(client.listTools(), (error: Error & { code?: number }) => error.code === -31401);
      assert.match(stderr(), /refused the bridge's token \(HTTP 401\); check the token file /);
    } finally {
      accepted = ROTATED;
      await client.close();
    }
  });

  it('a 2026-07-28 host (Toolwright\'s client): routing headers added from _meta, x-mcp-header mirrors from the relayed tools/list, input rounds', async () => {
    const from = recorded.length;
    const client = connect({ command: process.execPath, args: bridgeArgs(served.url, tokenFile) }, { capabilities: { elicitation: {} } });
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 6);
      const echoed = await client.callTool('region_echo', { region: 'eu-west', priority: 3 });
      assert.deepEqual(echoed.structuredContent, { region: 'eu-west', priority: 3 });
      const hello = await client.callTool('asks_for_name', {}, { onInputRequired: () => ({ user_name: { action: 'accept', content: { name: 'Ada' } } }) });
      assert.equal((hello.content[0] as { text?: string } | undefined)?.text, 'Hello, Ada!');
    } finally {
      await client.close();
    }
    const call = recorded.slice(from).find((r) => r.body.includes('"region_echo"') && r.body.includes('tools/call'));
    assert.ok(call);
    assert.equal(call.headers.get('mcp-method'), 'tools/call');
    assert.equal(call.headers.get('mcp-name'), 'region_echo');
    assert.equal(call.headers.get('mcp-param-region'), 'eu-west');
    assert.equal(call.headers.get('mcp-protocol-version'), '2026-07-28');
    assert.equal(call.headers.get('mcp-session-id'), null);
  });
});

describe('toolwright bridge: the server cannot be reached', () => {
  it('each request gets a JSON-RPC error naming the URL, the bridge keeps running, and the next message reaches the server once it is up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-relay-down-'));
    const tokenFile = join(dir, 'bridge.token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    // A port nobody listens on (taken, then freed).
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/mcp`;
    const child = new StdioChild(bridgeArgs(url, tokenFile).slice(3));
    child.revision = '2025-11-25';
    let served: ServedFetchHandler | undefined;
    const server = createServer({ name: 'late', version: '1.0.0', tools: [calculateSum], authorize: ({ bearerToken }) => (bearerToken === TOKEN ? { scopes: [] } : null) });
    try {
      const initialize = { jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-host', version: '1' } } };
      child.send({ ...initialize, id: 1 });
      const refused = await child.response(1);
      const error = refused.error as { code: number; message: string; data: { upstream: string } };
      assert.equal(error.code, -32603);
      assert.match(error.message, new RegExp(`^toolwright bridge: cannot reach ${url.replace(/[./]/g, '\\$&')}: ECONNREFUSED \\(is the server running\\? the next message tries again\\)$`));
      assert.deepEqual(error.data, { upstream: url });
      child.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      assert.match(((await child.response(2)).error as { message: string }).message, /cannot reach .*ECONNREFUSED/);
      assert.equal(child.process.exitCode, null, 'the bridge is still running');

      served = await serveFetchHandler((request) => server.fetch(request), port);
      child.send({ ...initialize, id: 3 });
      assert.equal(((await child.response(3)).result as { serverInfo: { name: string } }).serverInfo.name, 'late');
      child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      child.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'calculate_sum', arguments: { a: 3, b: 4 } } });
      assert.deepEqual((await child.response(4)).result, { content: [{ type: 'text', text: '7' }] });
      // A line that is not JSON goes to the server too, which answers with its own parse error.
      child.writeLine('{"jsonrpc": "2.0", "id": 5, "method": ');
      await child.until(() => child.lines.some((m) => (m.error as { code?: number } | undefined)?.code === -32700), 'the server\'s parse error');
      assert.equal(await child.end(), 0);
    } finally {
      child.kill();
      await served?.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
