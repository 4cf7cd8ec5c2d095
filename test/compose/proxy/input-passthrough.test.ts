/**
 * Input requests across the proxy and across eras (issue 32 item 2): an upstream that asks for
 * input during a call has its request put to the front's caller, and the answer goes back to the
 * same upstream call. Upstreams: an official SDK v1 server over HTTP (2025: `elicitation/create`
 * during the call) and a Toolwright server (2026-07-28: `input_required`). Callers: toolwright/client
 * (2026-07-28), the SDK v1 client (2025), raw HTTP for the rounds by hand. A retry that reaches an
 * instance not holding the upstream call gets `upstream_input_lost`, and nothing runs twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { toolsFromUpstream } from '../../../src/compose/index.js';
import type { UpstreamTools } from '../../../src/compose/index.js';
import { createServer, defineTool, elicitInput } from '../../../src/index.js';
import type { HttpListener, McpServer } from '../../../src/index.js';
import { startSdkUpstream } from './fixtures/sdk-upstream.js';
import type { SdkUpstream } from './fixtures/sdk-upstream.js';

const SECRET = 'front-request-state-secret-of-32-bytes!';
const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

/** A modern (2026-07-28) Toolwright upstream whose `ask` asks its caller for a name. */
function modernUpstream(runs: string[]): McpServer {
  const ask = defineTool({
    name: 'ask',
    inputSchema: { type: 'object', properties: { greeting: { type: 'string' } }, additionalProperties: false },
    run: (args, ctx) => {
      const got = ctx.inputs.require({ who: elicitInput({ message: 'Your name?', requestedSchema: nameSchema }) });
      if (!got.ready) return got.result;
      const name = String(got.responses.who.content?.['name']);
      runs.push(name);
      return `${String(args['greeting'] ?? 'Hello')}, ${name}!`;
    },
  });
  return createServer({ name: 'modern-upstream', version: '1', tools: [ask] });
}

/** One POST of a 2026-07-28 tools/call to the front, by hand. */
async function postCall(url: string, id: number, name: string, args: object, extra: Record<string, unknown> = {}): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string } } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } } }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.json() as never };
}

describe('proxy: input requests across eras', () => {
  let sdk: SdkUpstream;
  const modernRuns: string[] = [];
  let modern: McpServer;
  let modernListener: HttpListener;
  let files: UpstreamTools;
  let greeter: UpstreamTools;
  let front: McpServer;
  let listener: HttpListener;
  let client: McpClient;

  before(async () => {
    sdk = await startSdkUpstream();
    modern = modernUpstream(modernRuns);
    modernListener = await modern.listen({ port: 0 });
    [files, greeter] = await Promise.all([
      toolsFromUpstream({ url: sdk.url }, { prefix: 'files', timeoutMs: 20_000 }),
      toolsFromUpstream({ url: modernListener.url }, { prefix: 'greet', timeoutMs: 20_000 }),
    ]);
    front = createServer({ name: 'front', version: '1', tools: [...files.tools, ...greeter.tools], requestStateSecret: SECRET });
    listener = await front.listen({ port: 0 });
    client = connect(listener.url, { onWarning: () => {}, capabilities: { elicitation: { form: {} } } });
  });
  after(async () => {
    await client?.close();
    await listener?.close();
    await front?.close();
    await Promise.all([files?.close(), greeter?.close()]);
    await modernListener?.close();
    await modern?.close();
    await sdk?.close();
  });

  it('modern caller, modern upstream: the upstream input_required is asked of the caller and the upstream call completes with the answer', async () => {
    assert.equal(greeter.era, 'modern');
    const asked: string[] = [];
    const result = await client.callTool('greet__ask', { greeting: 'Hi' }, { onInputRequired: (requests) => {
      asked.push(...Object.entries(requests).map(([key, r]) => `${key.replace(/^upstream\.[A-Za-z0-9_-]{22}\./, 'upstream.<id>.')} ${r.method} ${String((r.params as { message?: string }).message)}`));
      return Object.fromEntries(Object.keys(requests).map((key) => [key, { action: 'accept', content: { name: 'Ada' } }]));
    } });
    assert.equal(textOf(result), 'Hi, Ada!', JSON.stringify(result));
    assert.deepEqual(asked, ['upstream.<id>.who elicitation/create Your name?']);
    assert.deepEqual(modernRuns, ['Ada']);
  });

  it('2025 caller (SDK v1 client), both upstream eras: the front asks by elicitation/create during the call', async () => {
    const asked: string[] = [];
    const caller = new Client({ name: 'sdk-v1-caller', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    caller.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      const wantsName = String(request.params.message) === 'Your name?';
      return (wantsName ? { action: 'accept', content: { name: 'Grace' } } : { action: 'accept', content: { yes: true } }) as never;
    });
    await caller.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    try {
      const greeted = (await caller.callTool({ name: 'greet__ask', arguments: {} })) as { isError?: boolean; content: unknown[] };
      assert.equal(textOf(greeted), 'Hello, Grace!', JSON.stringify(greeted));
      const confirmed = (await caller.callTool({ name: 'files__confirm', arguments: {} })) as { isError?: boolean; content: unknown[] };
      assert.equal(textOf(confirmed), 'answered accept', JSON.stringify(confirmed));
      assert.deepEqual(asked, ['Your name?', 'Really?']);
    } finally {
      await caller.close();
    }
  });

  it('a caller that declared no elicitation: the upstream is told the caller cannot answer, and its outcome is returned', async () => {
    const plain = connect(listener.url, { onWarning: () => {} });
    try {
      const sdkCalls = sdk.log.calls.length;
      const legacy = await plain.callTool('files__confirm', {});
      assert.equal(legacy.isError, true);
      // The SDK v1 upstream's elicitInput rejected with the proxy's refusal; its tool failed with that message.
      assert.match(textOf(legacy), /the proxy's caller cannot answer elicitation\/create: Missing required client capability: elicitation/);
      assert.equal(sdk.log.calls.length, sdkCalls + 1);
      const runs = modernRuns.length;
      const fresh = await plain.callTool('greet__ask', {});
      assert.equal(fresh.isError, true);
      assert.match(textOf(fresh), /^Upstream greet asked for input during ask that could not be answered: .*the proxy's caller cannot answer elicitation\/create: Missing required client capability: elicitation/);
      assert.equal(modernRuns.length, runs, 'the upstream tool never completed');
    } finally {
      await plain.close();
    }
  });

  it('a retry that reaches an instance not holding the upstream call gets upstream_input_lost; nothing is sent upstream twice', async () => {
    // A second front with the same requestState secret (as instances behind a balancer share it), its own upstream connection.
    const otherFiles = await toolsFromUpstream({ url: sdk.url }, { prefix: 'files', timeoutMs: 20_000 });
    const other = createServer({ name: 'front', version: '1', tools: otherFiles.tools, requestStateSecret: SECRET });
    const otherListener = await other.listen({ port: 0 });
    try {
      const before = sdk.log.calls.filter((c) => c.tool === 'confirm').length;
      const first = await postCall(listener.url, 1, 'files__confirm', {});
      assert.equal(first.status, 200);
      assert.equal(first.body.result?.['resultType'], 'input_required', JSON.stringify(first.body));
      const [key] = Object.keys(first.body.result?.['inputRequests'] as object);
      assert.match(key!, /^upstream\.[A-Za-z0-9_-]{22}\.server-request-/);
      const answer = { inputResponses: { [key!]: { action: 'accept', content: { yes: true } } }, requestState: first.body.result?.['requestState'] };
      const elsewhere = await postCall(otherListener.url, 2, 'files__confirm', {}, answer);
      assert.equal(elsewhere.status, 200);
      assert.equal(elsewhere.body.result?.['isError'], true);
      assert.match(String((elsewhere.body.result?.['content'] as { text: string }[])[0]!.text), /^upstream_input_lost: the call to upstream files \(confirm\) that asked for this input is no longer held here/);
      // The instance holding the call resumes it with the same answer: one upstream call in all.
      const home = await postCall(listener.url, 3, 'files__confirm', {}, answer);
      assert.equal((home.body.result?.['content'] as { text: string }[])[0]!.text, 'answered accept', JSON.stringify(home.body));
      assert.equal(sdk.log.calls.filter((c) => c.tool === 'confirm').length, before + 1);
      // Answered once: the same answer again finds nothing held.
      const replay = await postCall(listener.url, 4, 'files__confirm', {}, answer);
      assert.match(String((replay.body.result?.['content'] as { text: string }[])[0]!.text), /^upstream_input_lost: /);
      assert.equal(sdk.log.calls.filter((c) => c.tool === 'confirm').length, before + 1);
    } finally {
      await otherListener.close();
      await other.close();
      await otherFiles.close();
    }
  });

  it('answers under a requestState sealed for other arguments are refused (-32602), and the held call is not resumed', async () => {
    const first = await postCall(listener.url, 1, 'greet__ask', { greeting: 'Hey' });
    assert.equal(first.body.result?.['resultType'], 'input_required', JSON.stringify(first.body));
    const [key] = Object.keys(first.body.result?.['inputRequests'] as object);
    const answer = { inputResponses: { [key!]: { action: 'accept', content: { name: 'Mallory' } } }, requestState: first.body.result?.['requestState'] };
    const runs = modernRuns.length;
    const other = await postCall(listener.url, 2, 'greet__ask', { greeting: 'Yo' }, answer);
    assert.equal(other.body.error?.code, -32602, JSON.stringify(other.body));
    assert.equal(modernRuns.length, runs);
    const right = await postCall(listener.url, 3, 'greet__ask', { greeting: 'Hey' }, answer);
    assert.equal((right.body.result?.['content'] as { text: string }[])[0]!.text, 'Hey, Mallory!', JSON.stringify(right.body));
  });
});
