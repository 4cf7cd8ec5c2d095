/**
 * `callTool(name, args, { task: true })`: the call declares the tasks extension
 * (`io.modelcontextprotocol/tasks`) on its own request and resolves to a {@link ToolTask} handle.
 * The server decides whether the call becomes a task; when it answers at once the handle is
 * already completed. The handle polls `tasks/get` at the server's `pollIntervalMs`, turns progress
 * and status changes into events, answers `input_required` through the call's `onInputRequired`
 * (delivered with `tasks/update`), and `cancel()` sends `tasks/cancel`.
 */
import { isJsonObject } from '../protocol/index.js';
import type { CallToolResult, InputRequest, JsonObject } from '../protocol/index.js';
import { McpClientError } from './client-error.js';
import type { Exchange } from './exchange.js';
import { answerInputRound } from './input-rounds.js';
import type { CallInputState } from './input-rounds.js';
import type { ProgressUpdate } from './types.js';

/** The extension id. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const PROGRESS_META = 'io.toolwright/progress';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** A task's status (SEP-2663). */
export type ToolTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** What the client last saw of a task. */
export interface ToolTaskSnapshot {
  status: ToolTaskStatus;
  statusMessage?: string;
  /** The latest progress the server reported for it (Toolwright servers put it in `_meta`). */
  progress?: ProgressUpdate;
  /** input_required: what the server asks, by key. */
  inputRequests?: Record<string, InputRequest>;
  /** The raw `tasks/get` result (or CreateTaskResult). */
  raw: JsonObject;
}

/** A tool call that may run as a task. */
export interface ToolTask {
  /** The server's task id; undefined when the server answered the call at once (no task). */
  readonly taskId: string | undefined;
  /** The latest status seen. */
  readonly status: ToolTaskStatus;
  /** The latest snapshot seen. */
  readonly latest: ToolTaskSnapshot;
  /** Listens for progress reports (each new one); returns the function that stops listening. */
  on(event: 'progress', listener: (update: ProgressUpdate) => void): () => void;
  /** Listens for status changes (each new snapshot); returns the function that stops listening. */
  on(event: 'status', listener: (snapshot: ToolTaskSnapshot) => void): () => void;
  /** Reads the task once (`tasks/get`). */
  refresh(options?: { signal?: AbortSignal }): Promise<ToolTaskSnapshot>;
  /**
   * Polls until the task ends. Resolves to the (output-checked) tool result, `isError` results
   * included; rejects with McpClientError kind `rpc` (the task's error) for a failed task, kind
   * `task_cancelled` for a cancelled one, `input_required` when input is needed and nobody answers.
   */
  result(options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  /** Cancels the task (`tasks/cancel`); resolves once the server acknowledged. A finished task is left as it is. */
  cancel(options?: { signal?: AbortSignal }): Promise<void>;
}

/** What a task handle needs from its call. */
export interface ToolTaskContext {
  exchange: Exchange;
  input: CallInputState;
  /** Checks the final result against the tool's output schema (call-tool.ts). */
  check(result: JsonObject): CallToolResult;
}

function snapshotOf(raw: JsonObject): ToolTaskSnapshot {
  const status = raw.status;
  if (typeof status !== 'string' || !['working', 'input_required', 'completed', 'failed', 'cancelled'].includes(status)) {
    throw new McpClientError('protocol', `tasks: unknown task status ${JSON.stringify(status)}`, { method: 'tasks/get', data: raw });
  }
  const snapshot: ToolTaskSnapshot = { status: status as ToolTaskStatus, raw };
  if (typeof raw.statusMessage === 'string') snapshot.statusMessage = raw.statusMessage;
  const progress = isJsonObject(raw._meta) ? raw._meta[PROGRESS_META] : undefined;
  if (isJsonObject(progress) && typeof progress.progress === 'number') {
    snapshot.progress = { progress: progress.progress, ...(typeof progress.total === 'number' ? { total: progress.total } : {}), ...(typeof progress.message === 'string' ? { message: progress.message } : {}) };
  }
  if (isJsonObject(raw.inputRequests)) snapshot.inputRequests = raw.inputRequests as unknown as Record<string, InputRequest>;
  return snapshot;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new McpClientError('aborted', 'tasks: waiting for the task was aborted', { method: 'tasks/get' }));
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', abort, { once: true });
    function done(): void {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort(): void {
      clearTimeout(timer);
      reject(new McpClientError('aborted', 'tasks: waiting for the task was aborted', { method: 'tasks/get' }));
    }
  });
}

class TaskHandle implements ToolTask {
  readonly taskId: string | undefined;
  #latest: ToolTaskSnapshot;
  #final: CallToolResult | undefined;
  readonly #ctx: ToolTaskContext;
  readonly #progress = new Set<(update: ProgressUpdate) => void>();
  readonly #status = new Set<(snapshot: ToolTaskSnapshot) => void>();
  #answeredFor: string | undefined;

  constructor(ctx: ToolTaskContext, created: JsonObject | undefined, immediate: CallToolResult | undefined) {
    this.#ctx = ctx;
    if (immediate !== undefined) {
      this.taskId = undefined;
      this.#final = immediate;
      this.#latest = { status: 'completed', raw: { status: 'completed', result: immediate as unknown as JsonObject } };
      return;
    }
    const raw = created as JsonObject;
    if (typeof raw.taskId !== 'string' || raw.taskId === '') throw new McpClientError('protocol', 'tools/call: CreateTaskResult has no taskId', { method: 'tools/call', data: raw });
    this.taskId = raw.taskId;
    this.#latest = snapshotOf(raw);
  }

  get status(): ToolTaskStatus {
    return this.#latest.status;
  }

  get latest(): ToolTaskSnapshot {
    return this.#latest;
  }

  on(event: 'progress' | 'status', listener: ((update: ProgressUpdate) => void) | ((snapshot: ToolTaskSnapshot) => void)): () => void {
    if (event !== 'progress' && event !== 'status') throw new McpClientError('usage', `ToolTask.on: unknown event ${JSON.stringify(event)} (use "progress" or "status")`);
    const set = (event === 'progress' ? this.#progress : this.#status) as Set<typeof listener>;
    set.add(listener);
    return () => set.delete(listener);
  }

  #see(next: ToolTaskSnapshot): void {
    const before = this.#latest;
    this.#latest = next;
    if (next.progress !== undefined && (before.progress === undefined || before.progress.progress !== next.progress.progress || before.progress.message !== next.progress.message)) {
      for (const listener of this.#progress) listener(next.progress);
    }
    if (before.status !== next.status || before.statusMessage !== next.statusMessage) for (const listener of this.#status) listener(next);
  }

  async refresh(options: { signal?: AbortSignal } = {}): Promise<ToolTaskSnapshot> {
    if (this.taskId === undefined) return this.#latest;
    const raw = await this.#ctx.exchange.send('tasks/get', { taskId: this.taskId }, { extensions: { [TASKS_EXTENSION]: {} }, ...(options.signal !== undefined ? { signal: options.signal } : {}) });
    const snapshot = snapshotOf(raw);
    this.#see(snapshot);
    return snapshot;
  }

  async result(options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
    if (this.#final !== undefined) return this.#final;
    let snapshot = this.#latest;
    for (;;) {
      if (snapshot.status === 'completed') {
        const result = snapshot.raw.result;
        if (!isJsonObject(result)) throw new McpClientError('protocol', `tasks/get: completed task ${this.taskId} carries no result`, { method: 'tasks/get', data: snapshot.raw });
        return (this.#final = this.#ctx.check(result));
      }
      if (snapshot.status === 'failed') {
        const error = isJsonObject(snapshot.raw.error) ? snapshot.raw.error : {};
        const code = typeof error.code === 'number' ? error.code : undefined;
        const message = typeof error.message === 'string' ? error.message : 'the task failed';
        throw new McpClientError('rpc', `task ${this.taskId} failed: ${message}`, { method: 'tools/call', data: error.data, serverMessage: message, ...(code !== undefined ? { code } : {}) });
      }
      if (snapshot.status === 'cancelled') throw new McpClientError('task_cancelled', `task ${this.taskId} was cancelled${snapshot.statusMessage !== undefined ? ` (${snapshot.statusMessage})` : ''}`, { method: 'tools/call' });
      if (snapshot.status === 'input_required' && snapshot.inputRequests !== undefined) await this.#answer(snapshot);
      else {
        const interval = typeof snapshot.raw.pollIntervalMs === 'number' ? snapshot.raw.pollIntervalMs : 500;
        await wait(Math.min(Math.max(interval, 20), 10_000), options.signal);
      }
      snapshot = await this.refresh(options);
    }
  }

  async #answer(snapshot: ToolTaskSnapshot): Promise<void> {
    const requests = snapshot.inputRequests as Record<string, InputRequest>;
    // The same pending set is answered once; the next tasks/get shows what is still open.
    const key = `${JSON.stringify(Object.keys(requests).sort())} ${String(snapshot.raw.lastUpdatedAt)}`;
    if (this.#answeredFor === key) return wait(50, undefined);
    const input = this.#ctx.input;
    input.round++;
    if (input.round > input.maxRounds) throw new McpClientError('input_required', `task ${this.taskId} still asks for input after ${input.maxRounds} rounds; giving up`, { method: 'tasks/update', data: snapshot.raw });
    const responses = await answerInputRound(input, requests, snapshot.raw);
    await this.#ctx.exchange.send('tasks/update', { taskId: this.taskId as string, inputResponses: responses as JsonObject }, { extensions: { [TASKS_EXTENSION]: {} } });
    this.#answeredFor = key;
  }

  async cancel(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.taskId === undefined || TERMINAL.has(this.#latest.status)) return;
    await this.#ctx.exchange.send('tasks/cancel', { taskId: this.taskId }, { extensions: { [TASKS_EXTENSION]: {} }, ...(options.signal !== undefined ? { signal: options.signal } : {}) });
  }
}

/** The handle of a call the server turned into a task (`created` is its CreateTaskResult). */
export function taskFromCreated(ctx: ToolTaskContext, created: JsonObject): ToolTask {
  return new TaskHandle(ctx, created, undefined);
}

/** The handle of a call the server answered at once: already completed. */
export function taskFromResult(ctx: ToolTaskContext, result: CallToolResult): ToolTask {
  return new TaskHandle(ctx, undefined, result);
}
