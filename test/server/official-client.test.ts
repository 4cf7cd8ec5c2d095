/**
 * Integration with the OFFICIAL client (@modelcontextprotocol/client 2.4.0): discover, list and call
 * over Streamable HTTP and over stdio (a real child process). Every message the client receives
 * from our server is checked against the official 2026-07-28 schema on the way in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { HttpListener } from '../../src/index.js';
import { createEverythingServer, TOKENS } from '../fixtures/servers/everything.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { REPO_ROOT } from '../support/repo-paths.js';

/** Validates every incoming message of `transport` (whatever handler the client installs). */
function validateIncoming<T extends Transport>(transport: T, seen: { count: number; failures: string[] }): T {
  const methods = new Map<unknown, string>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { id?: unknown; method?: string };
    if (m.id !== undefined && typeof m.method === 'string') methods.set(m.id, m.method);
    return send(message, options);
  };
  let inner: Transport['onmessage'];
  const wrapper = (message: unknown, extra?: unknown): void => {
      seen.count++;
      try {
        const id = (message as { id?: unknown }).id;
        assertServerMessage(message, id === undefined ? undefined : methods.get(id));
      } catch (error) {
        seen.failures.push(error instanceof Error ? error.message : String(error));
      }
      (inner as ((m: unknown, e?: unknown) => void) | undefined)?.(message, extra);
  };
  // The client chains onto whatever handler it finds, so expose none until it installs its own.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (inner === undefined ? undefined : wrapper),
    set: (fn: Transport['onmessage']) => {
      inner = fn;
    },
  });
  return transport;
}

function newClient(): Client {
  const client = new Client({ name: 'toolwright-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { approve: true } }));
  return client;
}

/**
 * `exact`: every progress notification must reach the callback. Over stdio the official client
 * 2.4.0 dispatches notifications on a later microtask but responses at once, so a progress line
 * that arrives in the same chunk as the response is dropped by the client (its handler is gone).
 * There only a non-empty prefix is required; test/transport/stdio.test.ts checks all three on the wire.
 */
async function exercise(client: Client, exactProgress: boolean): Promise<void> {
  assert.equal(client.getInstructions(), 'Fixture server for Toolwright tests.');
  assert.deepEqual(client.getServerVersion(), { name: 'everything', version: '1.2.3' });
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), [
    'calculate_sum', 'no_arguments', 'region_echo', 'slow_progress', 'cancellable_wait', 'failing', 'broken_output', 'structured_only', 'move_arm',
    'needs_sampling', 'asks_for_name', 'bad_result', 'flaky_check',
  ]);
  const sum = await client.callTool({ name: 'calculate_sum', arguments: { a: 2, b: 3 } });
  assert.deepEqual(sum.content, [{ type: 'text', text: '5' }]);
  const bad = await client.callTool({ name: 'calculate_sum', arguments: { a: 2, c: 3 } });
  assert.equal(bad.isError, true);
  const noArgs = await client.callTool({ name: 'no_arguments' });
  assert.deepEqual(noArgs.content, [{ type: 'text', text: 'ok' }]);
  const structured = await client.callTool({ name: 'structured_only', arguments: {} });
  assert.deepEqual(structured.structuredContent, { count: 3 });
  const failing = await client.callTool({ name: 'failing', arguments: {} });
  assert.deepEqual({ isError: failing.isError, content: failing.content }, { isError: true, content: [{ type: 'text', text: 'upstream API unavailable' }] });
  const progress: number[] = [];
  const slow = await client.callTool({ name: 'slow_progress', arguments: { delayMs: 20 } }, { onprogress: (p) => progress.push(p.progress) });
  assert.deepEqual(slow.content, [{ type: 'text', text: 'done' }]);
  if (exactProgress) assert.deepEqual(progress, [0, 50, 100]);
  else {
    assert.ok(progress.length >= 1, 'at least the first progress notification arrives');
    assert.deepEqual(progress, [0, 50, 100].slice(0, progress.length));
  }
  await assert.rejects(client.callTool({ name: 'invalid_tool_name', arguments: {} }), { code: -32602, message: /Unknown tool: invalid_tool_name/ });
}

describe('official client over Streamable HTTP', () => {
  const server = createEverythingServer({ logger: { error: () => {} } });
  let listener: HttpListener;
  before(async () => {
    listener = await server.listen({ port: 0 });
  });
  after(() => server.close());

  it('discovers, lists and calls, with x-mcp-header mirroring and approval through elicitation', async () => {
    const seen = { count: 0, failures: [] as string[] };
    const client = newClient();
    const transport = validateIncoming(new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { authorization: `Bearer ${TOKENS.mover}` } } }), seen);
    await client.connect(transport);
    try {
      await exercise(client, true);
      // The official client mirrors x-mcp-header arguments into Mcp-Param-* (base64 for non-ASCII); our server checks them.
      const echoed = await client.callTool({ name: 'region_echo', arguments: { region: 'Zürich', priority: 7, urgent: true } });
      assert.deepEqual(echoed.structuredContent, { region: 'Zürich', priority: 7, urgent: true });
      // Approval: the server answers input_required with an elicitation; the client asks (our handler approves) and retries.
      const moved = await client.callTool({ name: 'move_arm', arguments: { z: 0.1 } });
      assert.deepEqual(moved.content, [{ type: 'text', text: 'moved to z=0.1' }]);
    } finally {
      await client.close();
    }
    assert.deepEqual(seen.failures, []);
    assert.ok(seen.count >= 10, `validated ${seen.count} messages`);
  });
});

describe('official client over stdio (child process)', () => {
  it('discovers, lists and calls a server started by `toolwright serve --stdio`', async () => {
    const seen = { count: 0, failures: [] as string[] };
    const client = newClient();
    const transport = validateIncoming(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'src/cli/main.ts', 'serve', 'test/fixtures/servers/everything.ts', '--stdio'],
        cwd: REPO_ROOT,
        env: { ...(process.env as Record<string, string>), TW_FIXTURE_SCOPES: 'arm:move' },
        stderr: 'pipe',
      }),
      seen,
    );
    await client.connect(transport);
    try {
      await exercise(client, false);
      const moved = await client.callTool({ name: 'move_arm', arguments: { z: 0.1 } });
      assert.deepEqual(moved.content, [{ type: 'text', text: 'moved to z=0.1' }]);
    } finally {
      await client.close();
    }
    assert.deepEqual(seen.failures, []);
    assert.ok(seen.count >= 10, `validated ${seen.count} messages`);
  });
});
