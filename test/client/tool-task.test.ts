/**
 * `callTool(..., { task: true })` against our server, over real HTTP and over stdio (a real child
 * process): the handle's status, progress events, input requests answered through tasks/update,
 * cancel() aborting the server's handler, the immediate shortcut, and the errors of failed and
 * cancelled tasks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect, McpClientError } from '../../src/client/index.js';
import type { McpClient, ToolTask } from '../../src/client/index.js';
import { createServer, defineTool, ProtocolError } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import taskTools, { observed } from '../fixtures/servers/task-tools.js';
import { repoPath, tsxArgs } from '../support/repo-paths.js';

const failing = defineTool({ name: 'fails', inputSchema: { type: 'object' }, task: true, run: () => { throw new ProtocolError(-32603, 'boom inside the task'); } });

function firstProgress(task: ToolTask): Promise<number> {
  return new Promise((resolve) => { const stop = task.on('progress', (p) => { stop(); resolve(p.progress); }); });
}

for (const transport of ['http', 'stdio'] as const) {
  describe(`ToolTask over ${transport}`, () => {
    let server: McpServer | undefined;
    let client: McpClient;
    before(async () => {
      if (transport === 'http') {
        server = createServer({ name: 'tasks', version: '1', tools: [...taskTools, failing], logger: { error: () => {} } });
        client = connect((await server.listen({ port: 0 })).url, { onWarning: () => {}, capabilities: { elicitation: {} } });
      } else {
        // era 'modern': a slow child start must not be mistaken for a legacy server by the probe's timeout.
        client = connect({ command: process.execPath, args: tsxArgs('src/cli/main.ts', 'serve', repoPath('test/fixtures/servers/task-tools.ts'), '--stdio') }, { onWarning: () => {}, capabilities: { elicitation: {} }, era: 'modern' });
      }
    });
    after(async () => {
      await client.close();
      await server?.close();
    });

    it('a long call becomes a task: progress events in order, then the output-checked result', async () => {
      const task = await client.callTool('count_to', { n: 5 }, { task: true });
      assert.equal(typeof task.taskId, 'string');
      const seen: number[] = [];
      task.on('progress', (p) => seen.push(p.progress));
      const result = await task.result();
      assert.deepEqual(result.structuredContent, { counted: 5 });
      assert.equal(task.status, 'completed');
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'progress never goes back');
    });

    it('a short call is answered at once: the handle is already completed and has no task id', async () => {
      const task = await client.callTool('count_to', { n: 1 }, { task: true });
      assert.equal(task.taskId, undefined);
      assert.equal(task.status, 'completed');
      assert.deepEqual((await task.result()).structuredContent, { counted: 1 });
    });

    it('input requests inside the task go to onInputRequired and back with tasks/update', async () => {
      const asked: string[] = [];
      const task = await client.callTool('ask_name', {}, {
        task: true,
        onInputRequired: (requests) => { asked.push(...Object.keys(requests)); return { who: { action: 'accept', content: { name: 'Ada' } } }; },
      });
      const result = await task.result();
      assert.deepEqual(asked, ['who']);
      assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada' }]);
    });

    it('without onInputRequired, result() rejects with kind input_required and the task can still be cancelled', async () => {
      const task = await client.callTool('ask_name', {}, { task: true });
      await assert.rejects(task.result(), (e: unknown) => e instanceof McpClientError && e.kind === 'input_required' && /no onInputRequired handler/.test(e.message));
      await task.cancel();
      assert.equal((await task.refresh()).status, 'cancelled');
    });

    it('cancel() aborts the handler on the server; result() then rejects with kind task_cancelled', async () => {
      const before = observed.abortedRuns;
      const task = await client.callTool('until_cancelled', {}, { task: true });
      const pending = task.result();
      assert.equal(await firstProgress(task), 1);
      await task.cancel();
      await assert.rejects(pending, (e: unknown) => e instanceof McpClientError && e.kind === 'task_cancelled' && /^task \S+ was cancelled \(Cancelled by the client(; the tool reported: stopped)?\)$/.test(e.message));
      if (transport === 'http') {
        // The handler saw its signal (in this process only; over stdio it runs in the child).
        for (let i = 0; i < 200 && observed.abortedRuns === before; i++) await new Promise((resolve) => setImmediate(resolve));
        assert.equal(observed.abortedRuns, before + 1);
      }
    });

    it('a task-only tool called without task: true is refused with -32021 naming the extension', async () => {
      await assert.rejects(client.callTool('until_cancelled', {}), (e: unknown) => e instanceof McpClientError && e.kind === 'rpc' && e.code === -32021 && /io\.modelcontextprotocol\/tasks/.test(e.message));
    });

    if (transport === 'http') {
      it('a failed task rejects with kind rpc carrying the task error', async () => {
        const task = await client.callTool('fails', {}, { task: true });
        await assert.rejects(task.result(), (e: unknown) => e instanceof McpClientError && e.kind === 'rpc' && e.code === -32603 && e.serverMessage === 'boom inside the task');
      });
    }
  });
}
