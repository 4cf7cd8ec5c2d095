/**
 * `toolwright proxy` (a real child process) in front of third-party servers, called by third-party
 * clients (issue 32 "Real parts", "Done when"): a punkpeye `fastmcp` server over stdio (installed on
 * demand in test-deps/fastmcp), server-everything over stdio and an official SDK v1 server over
 * Streamable HTTP, destructive tools behind approval, every call audited, called by MCP Inspector's
 * CLI and the official SDK v1 client.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SERVERS } from '../client/fixtures/spawn-server.js';
import { StdioChild } from '../fixtures/servers/stdio-child.js';
import { runToEnd } from '../interop/child-process.js';
import { REPO_ROOT, repoPath } from '../support/repo-paths.js';
import { testDeps, thirdPartyFile } from '../support/test-deps.js';
import { until } from '../support/until.js';
import { startSdkUpstream } from '../compose/proxy/fixtures/sdk-upstream.js';
import type { SdkUpstream } from '../compose/proxy/fixtures/sdk-upstream.js';

const FIXTURE = repoPath('test/compose/proxy/fixtures/fastmcp-upstream.mjs');

interface InspectorAnswer { result?: Record<string, unknown>; error?: unknown }

describe('toolwright proxy in front of fastmcp, server-everything and an SDK v1 server, called by MCP Inspector and the SDK v1 client', () => {
  let dir: string;
  let child: StdioChild;
  let url: string;
  let auditPath: string;
  let sdk: SdkUpstream;

  before(async () => {
    sdk = await startSdkUpstream();
    dir = mkdtempSync(join(tmpdir(), 'tw-proxy-3p-'));
    const fastmcp = testDeps('fastmcp').dir;
    auditPath = join(dir, 'log', 'calls.jsonl');
    const config = join(dir, 'proxy.json');
    writeFileSync(config, JSON.stringify({
      name: 'front',
      upstreams: [
        { prefix: 'fast', stdio: { command: process.execPath, args: [FIXTURE, fastmcp] }, transforms: [{ kind: 'require-approval', tool: 'purge', message: 'Purge the cache upstream?', approver: 'operator', timeoutMs: 300 }] },
        { prefix: 'every', stdio: { command: process.execPath, args: [SERVERS.everything, 'stdio'] } },
        { prefix: 'files', http: { url: sdk.url }, transforms: [{ kind: 'require-approval', tool: 'delete_file', message: 'Delete this file upstream?', approver: 'operator', timeoutMs: 300 }] },
      ],
      audit: { path: auditPath, key: join(dir, 'k', 'audit.key'), head: join(dir, 'k', 'calls.head'), includeArguments: true },
    }));
    child = new StdioChild(['proxy', '--config', config, '--http', '0']);
    await child.until(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp\n/.test(child.stderr), 'the listening line', 90_000);
    url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(child.stderr)![1]!;
  });
  after(async () => {
    if (child !== undefined) {
      child.process.kill('SIGTERM');
      await child.exited;
    }
    await sdk?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One Inspector CLI run against the front; its JSON answer line. */
  async function inspector(args: string[]): Promise<InspectorAnswer> {
    const launcher = thirdPartyFile('@modelcontextprotocol/inspector', 'clients/launcher/build/index.js');
    const out = await runToEnd({ command: process.execPath, args: [launcher, '--cli', '--format', 'json', ...args, url], env: { MCP_CATALOG_PATH: join(dir, 'inspector-catalog.json'), MCP_INSPECTOR_SECRET_STORE: 'memory' }, cwd: REPO_ROOT }, 60_000);
    const line = [out.stdout, out.stderr].flatMap((text) => text.split('\n')).find((l) => l.startsWith('{"result"') || l.startsWith('{"error"'));
    assert.ok(line !== undefined, `no JSON answer from the Inspector CLI: ${out.stdout} ${out.stderr}`);
    return JSON.parse(line) as InspectorAnswer;
  }
  /** The tool_call records of `tool` (arguments, outcome) once `count` are written (the log is batched: polled, bounded). */
  async function audited(tool: string, count: number): Promise<unknown[][]> {
    const records = () => readFileSync(auditPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'tool_call' && r.tool === tool);
    await until(() => records().length >= count, `${count} audit record(s) of ${tool}`);
    return records().map((r) => [r.arguments, r.outcome]);
  }
  const textOf = (result: Record<string, unknown> | undefined): string => ((result?.['content'] ?? []) as { text?: string }[]).map((b) => b.text ?? '').join('');

  it("MCP Inspector lists the front's tools from both upstreams and calls a fastmcp tool; the front's validator refuses bad arguments before fastmcp sees them", async () => {
    const listed = await inspector(['--method', 'tools/list']);
    const tools = (listed.result?.['tools'] as { name: string; annotations?: { destructiveHint?: boolean } }[]).map((t) => t.name);
    for (const name of ['fast__add', 'fast__shout', 'fast__purge', 'every__echo', 'files__add', 'files__delete_file']) assert.ok(tools.includes(name), `${name} in ${tools.join(', ')}`);
    const sum = await inspector(['--method', 'tools/call', '--tool-name', 'fast__add', '--tool-args-json', JSON.stringify({ a: 2, b: 40 })]);
    assert.equal(textOf(sum.result), '42', JSON.stringify(sum));
    // fastmcp's zod schema, advertised as draft-07 JSON Schema, enforced by the front's engine.
    const refused = await inspector(['--method', 'tools/call', '--tool-name', 'fast__add', '--tool-args-json', JSON.stringify({ a: 2.5, b: 1 })]);
    assert.equal(refused.result?.['isError'], true, JSON.stringify(refused));
    assert.equal(textOf(refused.result), 'Invalid arguments for tool fast__add:\n/a: expected integer, got number 2.5');
    assert.deepEqual(await audited('fast__add', 2), [[{ a: 2, b: 40 }, 'respond'], [{ a: 2.5, b: 1 }, 'tool-error']]);
  });

  it('a destructive fastmcp tool behind approval: with no operator deciding, MCP Inspector gets the refusal and fastmcp never runs it', async () => {
    const held = await inspector(['--method', 'tools/call', '--tool-name', 'fast__purge', '--tool-args-json', '{}']);
    assert.equal(held.result?.['isError'], true, JSON.stringify(held));
    assert.equal(textOf(held.result), 'No operator decided on the call of fast__purge within 300 ms; it was not executed.');
    assert.deepEqual(await audited('fast__purge', 1), [[{}, 'tool-error']]);
  });

  it('MCP Inspector through the front to the SDK v1 server: a call runs there; its destructive tool, with no operator deciding, does not', async () => {
    const sum = await inspector(['--method', 'tools/call', '--tool-name', 'files__add', '--tool-args-json', JSON.stringify({ a: 1, b: 2 })]);
    assert.deepEqual(sum.result?.['structuredContent'], { sum: 3 }, JSON.stringify(sum));
    const deletes = sdk.log.calls.filter((c) => c.tool === 'delete_file').length;
    const held = await inspector(['--method', 'tools/call', '--tool-name', 'files__delete_file', '--tool-args-json', JSON.stringify({ path: '/etc/hosts' })]);
    assert.equal(textOf(held.result), 'No operator decided on the call of files__delete_file within 300 ms; it was not executed.', JSON.stringify(held));
    assert.equal(sdk.log.calls.filter((c) => c.tool === 'delete_file').length, deletes, 'nothing ran upstream');
    assert.deepEqual(await audited('files__delete_file', 1), [[{ path: '/etc/hosts' }, 'tool-error']]);
  });

  it('the SDK v1 client calls fastmcp and server-everything through the same front', async () => {
    const caller = new Client({ name: 'sdk-v1-caller', version: '1.0.0' });
    await caller.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const shouted = (await caller.callTool({ name: 'fast__shout', arguments: { text: 'quiet' } })) as { content: { text: string }[] };
      assert.equal(shouted.content[0]!.text, 'QUIET');
      const echoed = (await caller.callTool({ name: 'every__echo', arguments: { message: 'hi' } })) as { content: { text: string }[] };
      assert.equal(echoed.content[0]!.text, 'Echo: hi');
      assert.deepEqual(await audited('fast__shout', 1), [[{ text: 'quiet' }, 'respond']]);
    } finally {
      await caller.close();
    }
  });
});
