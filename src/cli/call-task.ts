/**
 * `toolwright call --task`: the call declares the tasks extension; while the task runs, its status
 * and progress go to stderr as lines, and Ctrl-C (SIGINT) cancels the task on the server
 * (`tasks/cancel`) instead of abandoning it. A second Ctrl-C stops waiting for the acknowledgement.
 */
import { McpClientError } from '../client/index.js';
import type { McpClient, ProgressUpdate, ToolTask } from '../client/index.js';
import type { CallToolResult } from '../protocol/index.js';

/** One progress report as the line `toolwright call` prints on stderr. */
export function describeProgress(p: ProgressUpdate): string {
  return `progress ${p.progress}${p.total !== undefined ? `/${p.total}` : ''}${p.message !== undefined ? ` ${p.message}` : ''}`;
}

/** Calls `tool` as a task, reporting on stderr; rejects with McpClientError (kind `task_cancelled` after Ctrl-C). */
export async function callAsTask(client: McpClient, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const say = (line: string): void => {
    process.stderr.write(`toolwright call: ${line}\n`);
  };
  const starting = new AbortController();
  let task: ToolTask | undefined;
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (task === undefined || interrupts > 1) {
      starting.abort();
      if (task === undefined) return;
      say('second interrupt: not waiting for the cancellation any longer');
      waiting.abort();
      return;
    }
    say(`cancelling task ${task.taskId ?? ''} (Ctrl-C again to stop waiting)`);
    task.cancel().catch((error: unknown) => say(`tasks/cancel failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  const waiting = new AbortController();
  process.on('SIGINT', onSigint);
  try {
    task = await client.callTool(tool, args, { task: true, signal: starting.signal });
    if (task.taskId === undefined) {
      say('the server answered at once (no task was created)');
      return await task.result();
    }
    say(`task ${task.taskId} started (${task.status}); Ctrl-C cancels it`);
    task.on('progress', (p) => say(describeProgress(p)));
    task.on('status', (s) => say(`status ${s.status}${s.statusMessage !== undefined ? ` (${s.statusMessage})` : ''}`));
    return await task.result({ signal: waiting.signal });
  } catch (error) {
    if (error instanceof McpClientError && error.kind === 'aborted' && interrupts > 0) throw new McpClientError('task_cancelled', 'interrupted (Ctrl-C) before the task finished', { method: 'tools/call' });
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
