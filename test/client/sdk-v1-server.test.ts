/**
 * The dual-era client against the official SDK v1 server (`@modelcontextprotocol/sdk` 1.32.2),
 * which speaks only the initialize-based revisions: over stdio (a real child), Streamable HTTP
 * with sessions and without (stateless, which answers a 2026-07-28 request with
 * "Unsupported protocol version"). Elicitation and roots arrive as server-to-client requests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../src/client/index.js';
import type { ClientOptions, ConnectTarget, InputRequest, McpClient, ProgressUpdate } from '../../src/client/index.js';
import { SERVERS, startSdkV1Http } from './fixtures/spawn-server.js';
import type { RunningServer } from './fixtures/spawn-server.js';
import { TSX_LOADER } from '../support/repo-paths.js';

const clients: McpClient[] = [];
function open(target: ConnectTarget, options: ClientOptions = {}): McpClient {
  const c = connect(target, { onWarning: () => {}, ...options });
  clients.push(c);
  return c;
}
const stdio = { command: process.execPath, args: ['--import', TSX_LOADER, SERVERS.sdkV1, 'stdio'], stderr: 'capture' as const };

async function stats(server: RunningServer): Promise<{ sessions: number; methods: Record<string, number> }> {
  return (await (await fetch(server.url.replace(/\/mcp$/, '/stats'))).json()) as { sessions: number; methods: Record<string, number> };
}

/** An onInputRequired that answers every elicitation with `answer` and records what it was asked. */
function elicitWith(answer: Record<string, unknown>, asked: InputRequest[]) {
  return (requests: Record<string, InputRequest>) => {
    asked.push(...Object.values(requests));
    return Object.fromEntries(Object.keys(requests).map((key) => [key, answer]));
  };
}

let stateful: RunningServer;
let stateless: RunningServer;
before(async () => {
  [stateful, stateless] = await Promise.all([startSdkV1Http('http-stateful'), startSdkV1Http('http-stateless')]);
});
after(async () => {
  for (const c of clients) await c.close();
  await Promise.all([stateful?.stop(), stateless?.stop()]);
});

for (const transport of ['stdio', 'http-stateful'] as const) {
  describe(`SDK v1 server over ${transport}`, () => {
    const target = (): ConnectTarget => (transport === 'stdio' ? stdio : stateful.url);

    it('falls back to initialize (2025-11-25), lists, calls with typed structuredContent, progress and isError', async () => {
      const c = open(target());
      assert.equal(c.era, undefined);
      const listing = await c.listTools();
      assert.equal(c.era, 'legacy');
      assert.equal(c.protocolVersion, '2025-11-25');
      assert.deepEqual(listing.tools.map((t) => t.name), ['add', 'confirm', 'roots', 'count', 'fails']);
      const sum = await c.callTool<{ sum: number }>('add', { a: 2, b: 3 });
      assert.equal(sum.structuredContent?.sum, 5);
      assert.deepEqual(sum.content, [{ type: 'text', text: '5' }]);
      const updates: ProgressUpdate[] = [];
      await c.callTool('count', {}, { onProgress: (u) => updates.push(u) });
      assert.deepEqual(updates.map((u) => u.progress), [1, 2, 3]);
      const failed = await c.callTool('fails');
      assert.equal(failed.isError, true);
      assert.deepEqual(failed.content, [{ type: 'text', text: 'upstream down' }]);
      const info = await c.discover();
      assert.deepEqual(info.serverInfo, { name: 'sdk-v1-fixture', version: '1.32.2' });
      assert.deepEqual(info.supportedVersions, ['2025-11-25']);
    });

    it('answers elicitation/create during a call through onInputRequired: accept runs, decline does not', async () => {
      const c = open(target(), { capabilities: { elicitation: {} } });
      const asked: InputRequest[] = [];
      const yes = await c.callTool('confirm', { action: 'move' }, { onInputRequired: elicitWith({ action: 'accept', content: { yes: true } }, asked) });
      assert.deepEqual(yes.content, [{ type: 'text', text: 'move: confirmed' }]);
      const no = await c.callTool('confirm', { action: 'drop' }, { onInputRequired: elicitWith({ action: 'decline' }, asked) });
      assert.deepEqual(no.content, [{ type: 'text', text: 'drop: not confirmed (decline)' }]);
      assert.deepEqual(asked.map((r) => [r.method, r.params?.message]), [['elicitation/create', 'Really move?'], ['elicitation/create', 'Really drop?']]);
    });

    it('without a handler the elicitation is refused with -32601 and the tool reports it', async () => {
      const c = open(target(), { capabilities: { elicitation: {} } });
      const result = await c.callTool('confirm', { action: 'move' });
      assert.equal(result.isError, true);
      assert.match(JSON.stringify(result.content), /-32601: the client has no handler for elicitation\/create/);
    });

    it('answers roots/list from the roots given to connect()', async () => {
      const c = open(target(), { roots: [{ uri: 'file:///srv/a', name: 'a' }, { uri: 'file:///srv/b' }] });
      const result = await c.callTool('roots');
      assert.deepEqual(result.content, [{ type: 'text', text: 'file:///srv/a,file:///srv/b' }]);
    });
  });
}

describe('SDK v1 server over Streamable HTTP with sessions', () => {
  it('keeps Mcp-Session-Id, lists tools once per session, and DELETE on close() ends the session', async () => {
    const before = await stats(stateful);
    const c = open(stateful.url);
    await c.listTools();
    const during = await stats(stateful);
    assert.equal(during.sessions, before.sessions + 1);
    for (let i = 0; i < 3; i++) await c.callTool('add', { a: i, b: 1 });
    const after = await stats(stateful);
    // One tools/list for the session: the modern probe was refused before it was served (Server not initialized), and calls reuse the list.
    assert.equal((after.methods['tools/list'] ?? 0) - (before.methods['tools/list'] ?? 0), 2, 'the refused modern tools/list and one legacy tools/list');
    assert.equal((after.methods['tools/call'] ?? 0) - (before.methods['tools/call'] ?? 0), 3);
    assert.equal((after.methods.initialize ?? 0) - (before.methods.initialize ?? 0), 1);
    await c.close();
    assert.equal((await stats(stateful)).sessions, before.sessions);
    assert.equal(((await stats(stateful)).methods.DELETE ?? 0) - (before.methods.DELETE ?? 0), 1);
  });
});

describe('SDK v1 stateless Streamable HTTP ("Unsupported protocol version: 2026-07-28")', () => {
  it('falls back to initialize and works without a session', async () => {
    const c = open(stateless.url);
    const listing = await c.listTools();
    assert.equal(c.era, 'legacy');
    assert.equal(listing.tools.length, 5);
    // structuredContent is typed from the outputSchema given as const: `sum` is a number at compile time.
    const add = { name: 'add', outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } } as const;
    const sum = await c.callTool(add, { a: 40, b: 2 });
    const total: number | undefined = sum.structuredContent?.sum;
    assert.equal(total, 42);
    const updates: ProgressUpdate[] = [];
    await c.callTool('count', {}, { onProgress: (u) => updates.push(u) });
    assert.equal(updates.length, 3);
  });
});
