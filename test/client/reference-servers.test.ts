/**
 * The client against the pinned reference servers as real child processes: server-everything
 * (stdio and Streamable HTTP with sessions), server-filesystem (with a directory argument, and
 * without one so that the client's roots decide), server-memory. All of them speak 2025-11-25.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../src/client/index.js';
import type { ClientOptions, ConnectTarget, InputRequest, McpClient, ProgressUpdate } from '../../src/client/index.js';
import { SERVERS, startEverythingHttp } from './fixtures/spawn-server.js';
import type { RunningServer } from './fixtures/spawn-server.js';
import { until } from '../support/until.js';

const clients: McpClient[] = [];
function open(target: ConnectTarget, options: ClientOptions = {}): McpClient {
  const c = connect(target, { onWarning: () => {}, ...options });
  clients.push(c);
  return c;
}
const child = (entry: string, ...args: string[]) => ({ command: process.execPath, args: [entry, ...args], stderr: 'capture' as const });

let dir: string;
let everythingHttp: RunningServer;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-client-ref-'));
  await writeFile(join(dir, 'note.txt'), 'arm calibrated\n');
  everythingHttp = await startEverythingHttp();
});
after(async () => {
  for (const c of clients) await c.close();
  await everythingHttp?.stop();
  await rm(dir, { recursive: true, force: true });
});

const CONDITIONAL_TOOLS = ['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request'];

for (const transport of ['stdio', 'http'] as const) {
  describe(`server-everything over ${transport}`, () => {
    const target = (): ConnectTarget => (transport === 'stdio' ? child(SERVERS.everything, 'stdio') : everythingHttp.url);

    it('declares the capabilities it was given, so the conditional tools are listed; calls a tool with structured content', async () => {
      const bare = open(target());
      const bareNames = (await bare.listTools()).tools.map((t) => t.name);
      assert.equal(bare.era, 'legacy');
      for (const name of CONDITIONAL_TOOLS) assert.ok(!bareNames.includes(name), `${name} is hidden without the capability`);
      const c = open(target(), { capabilities: { elicitation: {}, sampling: {} }, roots: [{ uri: pathToFileURL(dir).href, name: 'work' }] });
      const names = (await c.listTools()).tools.map((t) => t.name);
      for (const name of CONDITIONAL_TOOLS) assert.ok(names.includes(name), `${name} is listed`);
      const sum = await c.callTool('get-sum', { a: 40, b: 2 });
      assert.deepEqual(sum.content, [{ type: 'text', text: 'The sum of 40 and 2 is 42.' }]);
      const weather = await c.callTool<{ temperature: number }>('get-structured-content', { location: 'New York' });
      assert.equal(typeof weather.structuredContent?.temperature, 'number');
    });

    it('answers roots/list, elicitation and sampling requests the server sends during a call', async () => {
      const c = open(target(), { capabilities: { elicitation: {}, sampling: {} }, roots: [{ uri: pathToFileURL(dir).href, name: 'work' }] });
      const roots = await c.callTool('get-roots-list');
      assert.match(JSON.stringify(roots.content), new RegExp(`URI: ${pathToFileURL(dir).href}`));
      const asked: string[] = [];
      const declined = await c.callTool('trigger-elicitation-request', {}, {
        onInputRequired: (requests: Record<string, InputRequest>) => {
          asked.push(...Object.values(requests).map((r) => r.method));
          return Object.fromEntries(Object.keys(requests).map((key) => [key, { action: 'decline' }]));
        },
      });
      assert.match(JSON.stringify(declined.content), /User declined/);
      const sampled = await c.callTool('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 }, {
        onInputRequired: (requests: Record<string, InputRequest>) => {
          asked.push(...Object.values(requests).map((r) => r.method));
          return Object.fromEntries(Object.keys(requests).map((key) => [key, { role: 'assistant', content: { type: 'text', text: 'hi from the test' }, model: 'test-model', stopReason: 'endTurn' }]));
        },
      });
      assert.match(JSON.stringify(sampled.content), /hi from the test/);
      assert.deepEqual(asked, ['elicitation/create', 'sampling/createMessage']);
    });

    it('reports progress of a long-running operation', async () => {
      const c = open(target());
      const updates: ProgressUpdate[] = [];
      const result = await c.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (u) => updates.push(u) });
      assert.deepEqual(updates.map((u) => u.progress), [1, 2, 3]);
      assert.match(JSON.stringify(result.content), /Long running operation completed/);
    });
  });
}

describe('server-filesystem', () => {
  it('with a directory argument: reads a file inside it and is refused outside it', async () => {
    const c = open(child(SERVERS.filesystem, dir));
    const read = await c.callTool('read_text_file', { path: join(dir, 'note.txt') });
    assert.deepEqual(read.content, [{ type: 'text', text: 'arm calibrated\n' }]);
    const outside = await c.callTool('read_text_file', { path: '/etc/hostname' });
    assert.equal(outside.isError, true);
    assert.match(JSON.stringify(outside.content), /Access denied - path outside allowed directories/);
  });

  it('without one: the client-level roots/list answer (sent after initialized, outside any call) grants the directory', async () => {
    const c = open(child(SERVERS.filesystem), { roots: [{ uri: pathToFileURL(dir).href }] });
    await c.listTools();
    // The server asks for roots by itself after the handshake and applies them asynchronously; its log says when.
    await until(() => (c.stdio?.stderr ?? '').includes('Updated allowed directories from MCP roots: 1 valid directories'), 'the server to apply the roots');
    const allowed = await c.callTool('list_allowed_directories');
    assert.match(JSON.stringify(allowed.content), new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const read = await c.callTool('read_text_file', { path: join(dir, 'note.txt') });
    assert.deepEqual(read.content, [{ type: 'text', text: 'arm calibrated\n' }]);
  });

  it('without one and without roots: the server has no directory and says so', async () => {
    const c = open(child(SERVERS.filesystem));
    await c.listTools();
    const read = await c.callTool('read_text_file', { path: join(dir, 'note.txt') });
    assert.equal(read.isError, true);
    assert.match(JSON.stringify(read.content), /Access denied - path outside allowed directories/);
  });
});

describe('server-memory', () => {
  it('creates entities and reads the graph back as structured content', async () => {
    const c = open({ ...child(SERVERS.memory), env: { ...process.env, MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } });
    await c.callTool('create_entities', { entities: [{ name: 'arm', entityType: 'robot', observations: ['has 6 joints'] }] });
    const graph = await c.callTool<{ entities: Array<{ name: string; observations: string[] }> }>('read_graph');
    assert.deepEqual(graph.structuredContent?.entities, [{ name: 'arm', entityType: 'robot', observations: ['has 6 joints'] }]);
  });
});
