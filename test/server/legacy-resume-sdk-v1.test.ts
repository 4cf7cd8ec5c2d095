/**
 * The official SDK v1 client (@modelcontextprotocol/sdk 1.32.2) resumes through Toolwright's
 * legacy wire: its StreamableHTTPClientTransport reconnects a dropped stream with GET +
 * Last-Event-ID. The network is cut by a TCP relay between client and server (every open
 * connection destroyed at once, as a failing link would), so the drop is real, not simulated.
 */
import assert from 'node:assert/strict';
import { connect, createServer as createTcpServer } from 'node:net';
import type { Server as TcpServer, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { gate } from '../support/gate.js';
import { until } from '../support/until.js';

const held = gate();
const reached = gate();
let runs = 0;
const gated = defineTool({
  name: 'gated',
  description: 'Waits on the test\'s gate between two progress reports.',
  inputSchema: { type: 'object' },
  run: async (_args, ctx) => {
    ctx.progress(1, 2, 'before the gate');
    reached.open();
    await held.opened;
    ctx.progress(2, 2, 'after the gate');
    runs++;
    return 'through the gate';
  },
});

/** A TCP relay to `port` whose open connections the test can cut. */
async function relay(port: number): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const tcp: TcpServer = createTcpServer((inbound) => {
    const outbound = connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const address = tcp.address();
  assert.ok(address !== null && typeof address === 'object');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      tcp.close(() => resolve());
    }),
  };
}

describe('SDK v1 client resumes over the legacy wire', () => {
  let server: McpServer;
  let listener: HttpListener;
  let link: Awaited<ReturnType<typeof relay>>;

  before(async () => {
    server = createServer({ name: 'resume-sdk', version: '1.0.0', tools: [gated], listChanged: ['tools'] });
    listener = await server.listen({ port: 0 });
    link = await relay(Number(new URL(listener.url).port));
  });
  after(async () => {
    await link.close();
    await server.close();
  });

  it('a call whose stream is cut mid-call is answered on the stream it resumes; GET stream notifications raised while cut are replayed', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(link.url), {
      reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 20 },
    });
    const errors: string[] = [];
    transport.onerror = (error) => errors.push(error.message);
    const client = new Client({ name: 'sdk-v1', version: '1.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    await client.connect(transport);
    // The GET stream is up once the server has a listener for changes; raises before that reach
    // nobody (notifyListChanged counts whom it reached), so exactly one change is delivered.
    let listening = 0;
    await until(() => {
      if (listening === 0) listening = server.notifyListChanged('tools');
      return listening > 0;
    }, 'the GET stream listening for changes');
    assert.equal(listening, 1);
    await until(() => changes === 1, 'the first list change on the GET stream');

    const progress: string[] = [];
    const answer = client.callTool({ name: 'gated', arguments: {} }, undefined, { onprogress: (p) => progress.push(String(p.message)), timeout: 20_000 });
    await reached.opened;
    await until(() => progress.length === 1, 'the progress before the gate');
    link.cut(); // the POST's stream and the GET stream drop together
    server.notifyListChanged('tools'); // raised while the GET stream is down: kept for its resumption
    held.open();
    const result = await answer;
    assert.deepEqual(result.content, [{ type: 'text', text: 'through the gate' }]);
    assert.deepEqual(progress, ['before the gate', 'after the gate'], 'the progress after the cut came on the resumed stream');
    assert.equal(runs, 1, 'the call ran once, to its end');
    await until(() => changes === 2, 'the list change raised while cut');
    assert.ok(errors.some((m) => m.startsWith('SSE stream disconnected')), 'the client saw the drop');
    await client.close();
  });
});
