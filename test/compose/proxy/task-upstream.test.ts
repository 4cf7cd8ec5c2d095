/**
 * Tasks through the proxy (issue 32 item 2): an upstream tool that runs only as a task
 * (`task: { support: 'required' }`, -32021 to a call without the tasks extension) is called again
 * as an upstream task by the proxy; the front's caller gets its result, its progress, and its
 * cancellation reaches the upstream task; a task past the upstream's `timeoutMs` is cancelled.
 * A Toolwright server on loopback HTTP is the upstream (2026-07-28, the era with tasks).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect, McpClientError } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { toolsFromUpstream } from '../../../src/compose/index.js';
import type { UpstreamTools } from '../../../src/compose/index.js';
import { createServer, defineTool } from '../../../src/index.js';
import type { HttpListener, McpServer } from '../../../src/index.js';
import { until } from '../../support/until.js';

function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { opened, open };
}

describe('proxy: an upstream tool that runs only as a task', () => {
  let release = gate();
  const started: string[] = [];
  const cancelled: string[] = [];
  const runs: string[] = [];
  let upstream: McpServer;
  let upstreamListener: HttpListener;
  let proxied: UpstreamTools;
  let short: UpstreamTools;
  let front: McpServer;
  let listener: HttpListener;
  let client: McpClient;

  before(async () => {
    const render = defineTool({
      name: 'render', inputSchema: { type: 'object', properties: { scene: { type: 'string' } }, required: ['scene'] },
      task: { support: 'required', pollIntervalMs: 20 },
      run: async (args, ctx) => {
        runs.push(String(args['scene']));
        ctx.progress(1, 2, 'half');
        await release.opened;
        return `rendered ${String(args['scene'])}`;
      },
    });
    const forever = defineTool({
      name: 'forever', inputSchema: { type: 'object' }, task: { support: 'required', pollIntervalMs: 20 },
      run: (_args, ctx) => {
        started.push('forever');
        return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => { cancelled.push('forever'); resolve('stopped'); }, { once: true }));
      },
    });
    upstream = createServer({ name: 'tasks-upstream', version: '1', tools: [render, forever] });
    upstreamListener = await upstream.listen({ port: 0 });
    [proxied, short] = await Promise.all([
      toolsFromUpstream({ url: upstreamListener.url }, { prefix: 'up', timeoutMs: 20_000 }),
      toolsFromUpstream({ url: upstreamListener.url }, { prefix: 'short', timeoutMs: 2000 }),
    ]);
    front = createServer({ name: 'front', version: '1', tools: [...proxied.tools, ...short.tools] });
    listener = await front.listen({ port: 0 });
    client = connect(listener.url, { onWarning: () => {} });
  });
  after(async () => {
    release.open();
    await client?.close();
    await listener?.close();
    await front?.close();
    await Promise.all([proxied?.close(), short?.close()]);
    await upstreamListener?.close();
    await upstream?.close();
  });

  it("the front's caller gets the task's result and its progress; the upstream ran the tool once", async () => {
    release = gate();
    const updates: string[] = [];
    const result = await client.callTool('up__render', { scene: 'kitchen' }, { onProgress: (u) => {
      updates.push(`${u.progress}/${u.total} ${u.message}`);
      release.open();
    } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(result.content, [{ type: 'text', text: 'rendered kitchen' }]);
    assert.deepEqual(updates, ['1/2 half']);
    assert.deepEqual(runs, ['kitchen']);
  });

  it('cancelling the front call cancels the upstream task', async () => {
    const controller = new AbortController();
    const before = { started: started.length, cancelled: cancelled.length };
    const pending = client.callTool('up__forever', {}, { signal: controller.signal }).catch((error: unknown) => error);
    await until(() => started.length === before.started + 1, 'the upstream task running');
    controller.abort();
    assert.ok((await pending) instanceof McpClientError);
    await until(() => cancelled.length === before.cancelled + 1, 'the upstream task cancelled');
  });

  it("a task past the upstream's timeoutMs is cancelled upstream and the caller is told", async () => {
    const before = cancelled.length;
    const result = await client.callTool('short__forever', {});
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'Upstream short did not finish the task of forever within 2000 ms; the task was cancelled upstream.' }]);
    await until(() => cancelled.length === before + 1, 'the upstream task cancelled');
  });
});
