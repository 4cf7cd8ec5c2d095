/**
 * `toolwright call --task` as a real child process against a real HTTP server: live progress on
 * stderr, and Ctrl-C (SIGINT to the child) cancelling the task on the server: the handler's abort
 * signal fires, the task ends `cancelled`, the command exits 130.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, it } from 'node:test';
import { connect, TASKS_EXTENSION } from '../../src/client/index.js';
import { createServer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import taskTools, { observed } from '../fixtures/servers/task-tools.js';
import { tsxArgs } from '../support/repo-paths.js';

let server: McpServer;
let url: string;
before(async () => {
  server = createServer({ name: 'tasks', version: '1', tools: taskTools, logger: { error: () => {} } });
  url = (await server.listen({ port: 0 })).url;
});
after(() => server.close());

function runCli(args: string[], onStderr: (text: string, pid: number) => void = () => {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, tsxArgs('src/cli/main.ts', 'call', ...args), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    onStderr(stderr, child.pid as number);
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) => child.once('exit', (code) => {
    clearTimeout(killer);
    resolve({ code, stdout, stderr });
  }));
}

it('shows live progress and the result of a task (exit 0)', async () => {
  const { code, stdout, stderr } = await runCli([url, 'count_to', '{"n":4}', '--task']);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /toolwright call: task \S+ started \(working\); Ctrl-C cancels it/);
  assert.match(stdout, /"counted": 4/);
});

it('Ctrl-C cancels the task on the server and exits 130', async () => {
  const before = observed.abortedRuns;
  let sent = false;
  const { code, stdout, stderr } = await runCli([url, 'until_cancelled', '{}', '--task'], (text, pid) => {
    // Interrupt once the task runs (its first progress line is on stderr).
    if (!sent && /progress 1\/100 started/.test(text)) {
      sent = true;
      process.kill(pid, 'SIGINT');
    }
  });
  assert.ok(sent, `the command never showed progress: ${stderr}`);
  assert.equal(code, 130, stderr);
  assert.match(stderr, /cancelling task (\S+)/);
  // The handler's closing words join the message once it has stopped; the command may see the status before or after.
  assert.match(stdout, /Error \(task_cancelled\): task \S+ was cancelled \(Cancelled by the client(; the tool reported: stopped)?\)/);
  const taskId = /task (\S+) started/.exec(stderr)![1]!;
  const checker = connect(url, { capabilities: { extensions: { [TASKS_EXTENSION]: {} } }, onWarning: () => {} });
  try {
    const task = await checker.request('tasks/get', { taskId });
    assert.equal(task.status, 'cancelled');
  } finally {
    await checker.close();
  }
  for (let i = 0; i < 200 && observed.abortedRuns === before; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(observed.abortedRuns, before + 1, 'the handler saw its abort signal');
});
