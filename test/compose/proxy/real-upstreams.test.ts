/**
 * The proxy in front of real third-party servers: server-everything over stdio (2025 era), an
 * official SDK v1 McpServer over Streamable HTTP (2025 era, in this process on loopback), and a
 * Toolwright server as a stdio child (2026-07-28). Called through the front with toolwright/client
 * and with the SDK v1 client. The proxied tools are ordinary local tools, so approval (the
 * `requireApproval` transform), audit, authorization and output checks all run before upstream.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, McpClientError } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { auditLog, createServer, DEFAULT_APPROVER_SCOPE, staticTokenAuthorizer } from '../../../src/index.js';
import type { HttpListener, McpServer } from '../../../src/index.js';
import { requireApproval, toolsFromUpstream } from '../../../src/compose/index.js';
import type { UpstreamTools } from '../../../src/compose/index.js';
import { SERVERS, startServer } from '../../client/fixtures/spawn-server.js';
import { repoPath, TSX_LOADER } from '../../support/repo-paths.js';
import { until } from '../../support/until.js';
import { startSdkUpstream } from './fixtures/sdk-upstream.js';
import type { SdkUpstream } from './fixtures/sdk-upstream.js';

const CALLER_TOKEN = 'caller-token-'.padEnd(40, 'c');
const UPSTREAM_TOKEN = 'upstream-token-'.padEnd(40, 'u');

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

describe('proxy in front of server-everything (stdio) and a Toolwright stdio child', () => {
  let everything: UpstreamTools;
  let toolwright: UpstreamTools;
  let server: McpServer;
  let listener: HttpListener;
  let client: McpClient;

  before(async () => {
    [everything, toolwright] = await Promise.all([
      toolsFromUpstream({ command: process.execPath, args: [SERVERS.everything, 'stdio'] }, { prefix: 'every', timeoutMs: 20_000 }),
      toolsFromUpstream({ command: process.execPath, args: ['--import', TSX_LOADER, repoPath('src/cli/main.ts'), 'serve', repoPath('examples/demo/server.ts'), '--stdio'] }, {
        prefix: 'demo', timeoutMs: 20_000,
        // A cold tsx start can outlast the client's 5 s discover probe, which would then take the child for a 2025 server.
        era: 'modern',
      }),
    ]);
    server = createServer({ name: 'front', version: '1.0.0', tools: [...everything.tools, ...toolwright.tools] });
    listener = await server.listen({ port: 0 });
    client = connect(listener.url, { onWarning: () => {} });
  });
  after(async () => {
    await client?.close();
    await listener?.close();
    await server?.close();
    await Promise.all([everything?.close(), toolwright?.close()]);
  });

  it('lists every upstream tool under its prefix, with the advertised schema and annotations', async () => {
    assert.equal(everything.era, 'legacy');
    assert.equal(toolwright.era, 'modern');
    const tools = (await client.listTools()).tools;
    const sum = tools.find((t) => t.name === 'every__get-sum');
    assert.ok(sum, `every__get-sum in ${tools.map((t) => t.name).join(', ')}`);
    assert.deepEqual(everything.names.find((n) => n.local === 'every__get-sum'), { local: 'every__get-sum', upstream: 'get-sum' });
    assert.deepEqual(sum.inputSchema, everything.tools.find((t) => t.name === 'every__get-sum')!.descriptor.inputSchema);
    const demo = tools.find((t) => t.name === 'demo__calculate_sum')!;
    assert.deepEqual(demo.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    assert.equal((demo.outputSchema as { required: string[] }).required[0], 'sum');
  });

  it('calls through to server-everything and to the Toolwright child', async () => {
    assert.match(textOf(await client.callTool('every__get-sum', { a: 40, b: 2 })), /The sum of 40 and 2 is 42\./);
    const demo = await client.callTool('demo__calculate_sum', { a: 2, b: 3 });
    assert.deepEqual(demo.structuredContent, { sum: 5 });
  });

  it('a call the advertised schema refuses is answered by the front (nothing upstream)', async () => {
    const refused = await client.callTool('demo__calculate_sum', { a: 'two', b: 3 });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /\/a: expected integer, got string/);
  });

  it("passes server-everything's progress to a caller that asked for it", async () => {
    const updates: { progress: number; total?: number }[] = [];
    const result = await client.callTool('every__trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (u) => void updates.push(u) });
    assert.notEqual(result.isError, true);
    assert.deepEqual(updates.map((u) => [u.progress, u.total]), [[1, 3], [2, 3], [3, 3]]);
  });
});

describe('proxy in front of an SDK v1 server over HTTP', () => {
  let upstream: SdkUpstream;
  let proxied: UpstreamTools;
  let server: McpServer;
  let listener: HttpListener;
  let client: McpClient;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-proxy-'));
    upstream = await startSdkUpstream();
    proxied = await toolsFromUpstream({ url: upstream.url, headers: { authorization: `Bearer ${UPSTREAM_TOKEN}` } }, {
      prefix: 'files', maxConcurrent: 1, maxQueued: 0, timeoutMs: 10_000,
      transforms: [requireApproval('delete_file', { message: 'Delete this file upstream?' })],
    });
    server = createServer({
      name: 'front', version: '1.0.0', tools: proxied.tools,
      authorize: staticTokenAuthorizer({ token: CALLER_TOKEN, auth: { subject: 'alice', scopes: [DEFAULT_APPROVER_SCOPE] } }),
      use: [auditLog({ path: join(dir, 'log', 'calls.jsonl'), key: join(dir, 'k', 'audit.key'), head: join(dir, 'k', 'calls.head'), includeArguments: true, fsync: 'never' })],
    });
    listener = await server.listen({ port: 0 });
    client = connect({ url: listener.url, headers: { authorization: `Bearer ${CALLER_TOKEN}` } }, { onWarning: () => {}, capabilities: { elicitation: { form: {} } } });
  });
  after(async () => {
    await client?.close();
    await listener?.close();
    await server?.close();
    await proxied?.close();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries the outputSchema and structuredContent', async () => {
    assert.equal(proxied.era, 'legacy');
    const add = (await client.listTools()).tools.find((t) => t.name === 'files__add')!;
    assert.deepEqual((add.outputSchema as { required: string[] }).required, ['sum']);
    const result = await client.callTool('files__add', { a: 1, b: 2 });
    assert.deepEqual(result.structuredContent, { sum: 3 });
  });

  it("sends the upstream's own credentials and never the caller's token", async () => {
    const seen = textOf(await client.callTool('files__whoami', {}));
    assert.equal(seen, `Bearer ${UPSTREAM_TOKEN}`);
    assert.ok(upstream.log.authorization.length > 0);
    assert.ok(upstream.log.authorization.every((header) => header === `Bearer ${UPSTREAM_TOKEN}`), 'every upstream request carried the upstream token only');
  });

  it('an upstream that throws is an isError result passed on', async () => {
    const result = await client.callTool('files__fails', {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /upstream disk on fire/);
  });

  it("an upstream that wants input mid-call (2025 elicitation/create): the front's caller is asked and its answer goes back upstream", async () => {
    const asked: unknown[] = [];
    const result = await client.callTool('files__confirm', {}, { onInputRequired: (requests) => {
      asked.push(...Object.values(requests).map((r) => [r.method, (r.params as { message?: string }).message]));
      return Object.fromEntries(Object.keys(requests).map((key) => [key, { action: 'accept', content: { yes: true } }]));
    } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.equal(textOf(result), 'answered accept');
    assert.deepEqual(asked, [['elicitation/create', 'Really?']]);
    assert.equal(upstream.log.calls.filter((c) => c.tool === 'confirm').length, 1, 'one upstream call, resumed with the answer');
  });

  it('passes progress through', async () => {
    const updates: string[] = [];
    await client.callTool('files__count', {}, { onProgress: (u) => void updates.push(`${u.progress}/${u.total} ${u.message}`) });
    assert.deepEqual(updates, ['1/3 step 1', '2/3 step 2', '3/3 step 3']);
  });

  it('forwards cancellation upstream, and the concurrency limit refuses a call while one is in flight (nothing sent)', async () => {
    const controller = new AbortController();
    const started = upstream.waitStarted();
    const pending = client.callTool('files__wait', {}, { signal: controller.signal }).catch((error: unknown) => error);
    await started;
    const callsBefore = upstream.log.calls.length;
    const busy = await client.callTool('files__add', { a: 1, b: 1 });
    assert.equal(busy.isError, true);
    assert.equal(textOf(busy), 'Upstream files is busy: 1 call(s) in flight and 0 waiting (the limits); try again shortly.');
    assert.equal(upstream.log.calls.length, callsBefore, 'the refused call was not sent upstream');
    controller.abort();
    assert.ok((await pending) instanceof McpClientError);
    await until(() => upstream.log.cancelled.includes('wait'), 'the upstream call was cancelled');
  });

  it('approval + audit in front of a destructive proxied tool: declined runs nothing upstream, approved runs it once, both audited (SDK v1 client)', async () => {
    let answer: { action: string; content?: Record<string, unknown> } = { action: 'decline' };
    const asked: string[] = [];
    const sdk = new Client({ name: 'sdk-v1-caller', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    sdk.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return answer as never;
    });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { authorization: `Bearer ${CALLER_TOKEN}` } } }));
    try {
      const tool = (await sdk.listTools()).tools.find((t) => t.name === 'files__delete_file')!;
      assert.equal(tool.annotations?.destructiveHint, true);
      const before = upstream.log.calls.filter((c) => c.tool === 'delete_file').length;
      const declined = (await sdk.callTool({ name: 'files__delete_file', arguments: { path: '/etc/passwd' } })) as { isError?: boolean; content: unknown[] };
      assert.equal(declined.isError, true);
      assert.equal(upstream.log.calls.filter((c) => c.tool === 'delete_file').length, before, 'nothing ran upstream');
      answer = { action: 'accept', content: { approve: true } };
      const approved = (await sdk.callTool({ name: 'files__delete_file', arguments: { path: '/tmp/x' } })) as { isError?: boolean; content: unknown[] };
      assert.equal(approved.isError, undefined);
      assert.equal(textOf(approved), 'deleted /tmp/x');
      assert.deepEqual(upstream.log.calls.filter((c) => c.tool === 'delete_file').map((c) => c.args), [{ path: '/tmp/x' }]);
      assert.equal(asked.length, 2);
      assert.match(asked[0]!, /Delete this file upstream\?/);
    } finally {
      await sdk.close();
    }
    await server.close();
    const records = readFileSync(join(dir, 'log', 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'tool_call' && r.tool === 'files__delete_file');
    // Each call is audited twice: the round that asked for approval (answered input_required), then the decided one.
    assert.deepEqual(records.map((r) => [r.subject, r.arguments, r.outcome, r.detail]), [
      ['alice', { path: '/etc/passwd' }, 'respond', undefined],
      ['alice', { path: '/etc/passwd' }, 'tool-error', 'The user declined the call of files__delete_file; it was not executed.'],
      ['alice', { path: '/tmp/x' }, 'respond', undefined],
      ['alice', { path: '/tmp/x' }, 'respond', undefined],
    ]);
  });
});

describe('proxy in front of an SDK v2 server over HTTP (a child process)', () => {
  it('lists and calls its tool through the front, in the era the SDK v2 server speaks', async () => {
    const v2 = await startServer(['--import', TSX_LOADER, repoPath('test/fixtures/interop/sdk-v2-server.ts'), 'http'], /sdk-v2 listening (http:\/\/\S+)/);
    let proxied: UpstreamTools | undefined;
    try {
      proxied = await toolsFromUpstream({ url: v2.url }, { prefix: 'v2' });
      assert.equal(proxied.era, 'modern');
      const server = createServer({ name: 'front', version: '1.0.0', tools: proxied.tools });
      const listener = await server.listen({ port: 0 });
      const client = connect(listener.url, { onWarning: () => {} });
      try {
        const add = (await client.listTools()).tools.find((t) => t.name === 'v2__add')!;
        assert.equal(add.annotations?.readOnlyHint, true);
        assert.deepEqual((await client.callTool('v2__add', { a: 2, b: 40 })).structuredContent, { sum: 42 });
        const refused = await client.callTool('v2__add', { a: 2.5, b: 1 });
        assert.equal(refused.isError, true, 'the advertised integer schema is enforced by the front');
      } finally {
        await client.close();
        await listener.close();
        await server.close();
      }
    } finally {
      await proxied?.close();
      await v2.stop();
    }
  });
});
