/**
 * The tasks of one server: creating them (the `task` stage calls `start`), the waits between a
 * task's rounds (the runner resumes each round from `execute`, pipeline/compose.ts), recording how
 * each ended (`settle`), and the changes tasks/update and tasks/cancel make.
 * Records live in THE store (task-store.ts); what only this process can hold (the running handler,
 * its abort controller, the sealed requestState between input rounds) lives here. With a store that
 * has publish/subscribe, a cancel or answer arriving at another instance reaches the one running it.
 * (Just over 400 lines: start, the rounds, settle, update and cancel all read and change one task's
 * in-process entry; the records, wire shapes and policy are already tasks/'s files.)
 */
import { randomBytes } from 'node:crypto';
import { META } from '../../protocol/constants.js';
import { isInputRequest } from '../../protocol/input-requests.js';
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import type { InputRequest } from '../../protocol/wire-types.js';
import { redeemRequestState } from '../approvals/approvals.js';
import { CallContext } from '../stages/call-context.js';
import { OUTCOMES, rpcError } from '../outcomes.js';
import type { PipelineEnv, TaskRounds } from '../stages/pipeline-env.js';
import type { ServerLogger } from '../server-logger.js';
import { CANCELLED, errorMessage, fail, respond } from '../stages/stage.js';
import type { AnyState, Shaped, Stop } from '../stages/stage.js';
import { StoreFullError, StoreUnavailableError } from '../store/store.js';
import { DeferredCancels } from '../tasks/deferred-cancels.js';
import type { Clock, Store } from '../store/store.js';
import type { ResolvedTaskPolicy } from '../tasks/task-policy.js';
import { taskMessage } from '../tasks/task-message.js';
import { TaskStore } from '../tasks/task-store.js';
import { createTaskResult, TERMINAL_STATUSES } from '../tasks/task-wire.js';
import type { TaskProgress, TaskRecord } from '../tasks/task-wire.js';

/** `createServer({ tasks })`: limits and defaults of the tasks extension. */
export interface TaskOptions {
  /** How long a task stays readable after its last change (default 1 hour). */
  ttlMs?: number;
  /** Poll interval suggested to clients (default 500 ms). */
  pollIntervalMs?: number;
  /** Most tasks this process runs or holds waiting for input at once (default 1000); a call beyond it gets -31503 and nothing runs. */
  maxActiveTasks?: number;
  /** Most handler rounds per task (each input_required answer is one more; default 32). */
  maxRounds?: number;
}

interface Running {
  readonly controller: AbortController;
  /** The task's subject and lifetime (answers are read as the owner; a wait for input lasts at most the TTL). */
  readonly owner: string;
  readonly ttlMs: number;
  /** Wakes the runner waiting for answers (set while it waits). */
  wake: (() => void) | undefined;
  latestProgress: TaskProgress | undefined;
  writingProgress: boolean;
}

const CHANNEL = 'toolwright:tasks';

function firstText(result: JsonObject): string | undefined {
  const block = Array.isArray(result.content) ? (result.content[0] as { type?: unknown; text?: unknown } | undefined) : undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text.slice(0, 1000) : undefined;
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new TypeError(`createServer: tasks.${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Creates and runs tasks; see the module comment. */
export class TaskEngine implements TaskRounds {
  readonly records: TaskStore;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #logger: ServerLogger;
  readonly #onChange: (record: TaskRecord) => void;
  readonly #running = new Map<string, Running>();
  readonly #ttlMs: number;
  readonly #pollIntervalMs: number;
  readonly #maxActive: number;
  readonly #maxRounds: number;
  #unsubscribe: Promise<(() => void) | undefined> | undefined;
  readonly #deferredCancels: DeferredCancels;

  constructor(options: TaskOptions, deps: { store: Store; clock: Clock; logger: ServerLogger; onChange: (record: TaskRecord) => void }) {
    this.#ttlMs = positiveInteger(options.ttlMs, 'ttlMs', 60 * 60_000);
    this.#pollIntervalMs = positiveInteger(options.pollIntervalMs, 'pollIntervalMs', 500);
    this.#maxActive = positiveInteger(options.maxActiveTasks, 'maxActiveTasks', 1000);
    this.#maxRounds = positiveInteger(options.maxRounds, 'maxRounds', 32);
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
    this.#onChange = deps.onChange;
    this.records = new TaskStore(deps.store);
    this.#deferredCancels = new DeferredCancels((taskId) => this.#finish(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client (while the store was unreachable)' }), deps.logger);
  }

  /** Number of tasks this process is running or holding for input. */
  get active(): number {
    return this.#running.size;
  }

  /**
   * Makes this call a task: writes its record (durable before the answer, so a tasks/get right after
   * CreateTaskResult finds it), answers the request with CreateTaskResult through `s.replyEarly`, and
   * turns the state into the task's first round (the task's signal and progress, a fresh `ctx`). The
   * runner then goes on to `execute` inside the same middleware; {@link settle} records the outcome.
   */
  async start(s: Shaped, env: PipelineEnv, policy: ResolvedTaskPolicy): Promise<Shaped | Stop> {
    if (this.#running.size >= this.#maxActive) return fail(rpcError('taskCapacity', `Server busy: ${this.#maxActive} tasks are active; try again later`));
    this.#listen();
    const now = this.#clock.now();
    const record: TaskRecord = {
      taskId: randomBytes(16).toString('base64url'),
      owner: s.auth?.subject ?? '',
      tool: s.tool.name,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: policy.ttlMs ?? this.#ttlMs,
      pollIntervalMs: policy.pollIntervalMs ?? this.#pollIntervalMs,
    };
    // The slot is taken before the first await, so concurrent calls cannot overshoot maxActiveTasks.
    const running: Running = { controller: new AbortController(), owner: record.owner, ttlMs: record.ttlMs, wake: undefined, latestProgress: undefined, writingProgress: false };
    const { taskId } = record;
    this.#running.set(taskId, running);
    try {
      if (!(await this.records.create(record))) {
        this.#running.delete(taskId);
        return fail(rpcError('internalFault', 'Internal error'));
      }
    } catch (error) {
      this.#running.delete(taskId);
      if (error instanceof StoreFullError) return fail(rpcError('taskCapacity', 'Server busy: the task store is full; try again later'));
      throw error;
    }
    const replyEarly = s.replyEarly;
    if (replyEarly === undefined) {
      // The pipeline sets it before any stage settles; without it nobody would learn of the task.
      this.#running.delete(taskId);
      throw new Error('tasks: the request cannot be answered before its run ends (no replyEarly)');
    }
    s.task = { taskId, rounds: 1 };
    replyEarly(respond(createTaskResult(record)));
    s.message = taskMessage(s.message, running.controller.signal, (progress) => this.#progress(taskId, running, progress));
    s.finished = false;
    // The task id is the progress token: ctx.progress always reports, whatever the request carried.
    s.meta = { ...s.meta, [META.progressToken]: taskId };
    s.ctx = new CallContext(s, env);
    return s;
  }

  /**
   * The round that just ended asked for input: the task waits in `input_required` until it is
   * answered (tasks/update), then the state is set up for the next round (answers, the redeemed
   * requestState, a fresh `ctx`) and returned for the runner to resume from `execute`; or the
   * stop that ends the task (cancelled, expired, too many rounds, a refused requestState).
   */
  async nextRound(s: Shaped, stop: Stop & { kind: 'result' }, env: PipelineEnv): Promise<Shaped | Stop> {
    const binding = s.task!;
    const running = this.#running.get(binding.taskId);
    if (running === undefined || running.controller.signal.aborted) return CANCELLED;
    if (binding.rounds >= this.#maxRounds) return fail(rpcError('internalFault', `Internal error: the task still needed input after ${this.#maxRounds} rounds`));
    const { taskId } = binding;
    // The sealed requestState stays here, in the process running the handler.
    const requestState = typeof stop.result.requestState === 'string' ? stop.result.requestState : undefined;
    // The execute stage checked these when the handler returned them.
    const requests: Record<string, InputRequest> = {};
    if (isJsonObject(stop.result.inputRequests)) for (const [key, request] of Object.entries(stop.result.inputRequests)) if (isInputRequest(request)) requests[key] = request;
    let inputResponses: Record<string, unknown> | undefined;
    if (Object.keys(requests).length > 0) {
      await this.#write(taskId, (current) => ({ ...current, status: 'input_required', inputRequests: requests, answers: {}, lastUpdatedAt: this.#clock.now() }));
      inputResponses = await this.#answers(taskId, running.owner, running, running.ttlMs);
      if (inputResponses === undefined) {
        running.controller.abort();
        return CANCELLED;
      }
    }
    const redemption = await redeemRequestState(env.signer, env.store, { call: `tools/call ${s.tool.name}`, args: s.args, sub: running.owner, client: s.auth?.clientId ?? '' }, requestState);
    if (!redemption.ok) return fail(redemption.error);
    binding.rounds++;
    s.inputResponses = inputResponses;
    s.requestState = requestState;
    s.redeemed = redemption.record;
    s.ctx = new CallContext(s, env);
    return s;
  }

  /** Records how the task ended: its final stop as the middleware left it (never rejects). */
  settle(s: AnyState, stop: Stop): void {
    const taskId = s.task!.taskId;
    const running = this.#running.get(taskId);
    this.#settle(taskId, running, stop)
      .catch((error: unknown) => {
        this.#logger.error('task failed', { task: taskId, tool: s.tool?.name, error: errorMessage(error) });
        const code = error instanceof ProtocolError ? error.code : OUTCOMES.internalFault.code;
        return this.#finish(taskId, { status: 'failed', error: { code, message: 'Internal error' } }).catch(() => undefined);
      })
      .finally(() => this.#running.delete(taskId));
  }

  async #settle(taskId: string, running: Running | undefined, stop: Stop): Promise<void> {
    if (running === undefined || running.controller.signal.aborted || stop.kind === 'cancelled' || stop.kind === 'accepted') {
      await this.#finish(taskId, { status: 'cancelled', statusMessage: 'Cancelled' });
      const report = stop.kind === 'result' ? firstText(stop.result) : undefined;
      if (report !== undefined) await this.#closingWords(taskId, report);
      return;
    }
    if (stop.kind === 'error') {
      const error: TaskRecord['error'] = { code: stop.error.code, message: stop.error.message };
      if (stop.error.data !== undefined) error.data = stop.error.data;
      await this.#finish(taskId, { status: 'failed', error });
      return;
    }
    if (stop.result.resultType === 'input_required') {
      // Only a middleware can turn a round's end into this; the runner hands rounds to nextRound.
      await this.#finish(taskId, { status: 'failed', error: rpcError('internalFault', 'Internal error: the task ended asking for input outside a round').toErrorObject() });
      return;
    }
    await this.#finish(taskId, { status: 'completed', result: stop.result });
  }

  /** Records answers to pending input requests (tasks/update). Unknown keys are ignored; a malformed answer is refused and nothing changes. */
  async answer(taskId: string, owner: string, responses: JsonObject, isValid: (request: InputRequest, answer: unknown) => boolean): Promise<Stop | undefined> {
    const found = await this.records.read(taskId, owner);
    if (found === undefined) return fail(rpcError('taskUnknown', `Unknown task: ${taskId}`));
    if (found.status !== 'input_required') return undefined;
    for (const [key, answer] of Object.entries(responses)) {
      const request = found.inputRequests?.[key];
      if (request !== undefined && !isValid(request, answer)) {
        return fail(rpcError('taskInvalidParams', `Invalid params: inputResponses.${key} is not a valid answer to its ${request.method} request`));
      }
    }
    const { changed } = await this.records.update(taskId, (current) => {
      if (current.status !== 'input_required' || current.inputRequests === undefined) return undefined;
      const pending = { ...current.inputRequests };
      const answers = { ...(current.answers ?? {}) };
      let taken = 0;
      for (const [key, answer] of Object.entries(responses)) {
        if (pending[key] === undefined) continue;
        answers[key] = answer;
        delete pending[key];
        taken++;
      }
      if (taken === 0) return undefined;
      current.answers = answers;
      current.lastUpdatedAt = this.#clock.now();
      if (Object.keys(pending).length > 0) current.inputRequests = pending;
      else {
        delete current.inputRequests;
        current.status = 'working';
      }
      return current;
    });
    if (changed) this.#signal(taskId, 'update');
    return undefined;
  }

  /** Cancels the task (tasks/cancel): terminal at once in the store, then the handler's signal aborts. Terminal tasks stay as they are. */
  async cancel(taskId: string, owner: string): Promise<Stop | undefined> {
    let found: TaskRecord | undefined;
    try { found = await this.records.read(taskId, owner); } catch (error) {
      if (error instanceof StoreUnavailableError) return this.#cancelWithoutStore(taskId, owner, error);
      throw error;
    }
    if (found === undefined) return fail(rpcError('taskUnknown', `Unknown task: ${taskId}`));
    await this.#finish(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
    this.#signal(taskId, 'cancel');
    return undefined;
  }

  /** tasks/cancel with the store down: a task running here stops at once (recorded when the store is back); any other is refused, saying why. */
  #cancelWithoutStore(taskId: string, owner: string, error: StoreUnavailableError): Stop | undefined {
    const running = this.#running.get(taskId);
    if (running === undefined || running.owner !== owner) {
      this.#logger.error('tasks: cancel refused: the store is unreachable and the task does not run on this instance', { task: taskId, error: error.message });
      return fail(rpcError('storeUnavailable', `Service unavailable: the shared store cannot be reached and task ${taskId} does not run on this instance, so it was not cancelled; retry shortly`));
    }
    this.#local(taskId, 'cancel');
    this.#deferredCancels.add(taskId, running.ttlMs);
    this.#logger.error('tasks: cancelled while the store is unreachable: stopped here at once; the record is written when the store is back', { task: taskId, error: error.message });
    return undefined;
  }

  /** Fails every task this process runs (server shutdown) and stops listening. */
  async close(): Promise<void> {
    this.#deferredCancels.close();
    const ids = [...this.#running.keys()];
    await Promise.all(ids.map((id) => this.#finish(id, { status: 'failed', error: rpcError('internalFault', 'The server shut down while the task ran').toErrorObject() }).catch(() => undefined)));
    for (const id of ids) this.#running.get(id)?.controller.abort();
    const unsubscribe = await this.#unsubscribe;
    unsubscribe?.();
  }

  #listen(): void {
    if (this.#unsubscribe !== undefined || this.#store.subscribe === undefined) return;
    this.#unsubscribe = this.#store.subscribe(CHANNEL, (message) => {
      if (isJsonObject(message) && typeof message.taskId === 'string') this.#local(message.taskId, message.kind === 'cancel' ? 'cancel' : 'update');
    }).catch((error: unknown) => {
      this.#logger.error('tasks: cannot subscribe to the store channel; cancels and answers reach only this instance', { error: errorMessage(error) });
      return undefined;
    });
  }

  #local(taskId: string, kind: 'cancel' | 'update'): void {
    const running = this.#running.get(taskId);
    if (running === undefined) return;
    if (kind === 'cancel') running.controller.abort();
    running.wake?.();
  }

  #signal(taskId: string, kind: 'cancel' | 'update'): void {
    this.#local(taskId, kind);
    if (this.#store.publish !== undefined) {
      this.#store.publish(CHANNEL, { taskId, kind } as JsonValue).catch((error: unknown) => this.#logger.error('tasks: publish failed', { error: errorMessage(error) }));
    }
  }

  async #write(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    const { record, changed } = await this.records.update(taskId, change);
    if (changed && record !== undefined) {
      try {
        this.#onChange(record);
      } catch (error) {
        this.#logger.error('tasks: status notification failed', { error: errorMessage(error) });
      }
    }
    return changed ? record : undefined;
  }

  #finish(taskId: string, outcome: Pick<TaskRecord, 'status'> & Partial<Pick<TaskRecord, 'result' | 'error' | 'statusMessage'>>): Promise<TaskRecord | undefined> {
    return this.#write(taskId, (current) => {
      const next: TaskRecord = { ...current, ...outcome, lastUpdatedAt: this.#clock.now() };
      delete next.inputRequests;
      delete next.answers;
      delete next.progress;
      return next;
    });
  }

  /** What a cancelled handler said when it stopped (e.g. where the arm came to rest), kept as the statusMessage. */
  async #closingWords(taskId: string, report: string): Promise<void> {
    const { record, changed } = await this.records.update(taskId, (current) => {
      if (current.status !== 'cancelled') return undefined;
      return { ...current, statusMessage: `${current.statusMessage ?? 'Cancelled'}; the tool reported: ${report}`, lastUpdatedAt: this.#clock.now() };
    }, true);
    if (changed && record !== undefined) this.#onChange(record);
  }

  #progress(taskId: string, running: Running, progress: TaskProgress): void {
    running.latestProgress = progress;
    if (running.writingProgress) return;
    running.writingProgress = true;
    // Coalesced: one write at a time, always of the latest report.
    const flush = async (): Promise<void> => {
      while (running.latestProgress !== undefined) {
        const latest = running.latestProgress;
        running.latestProgress = undefined;
        await this.#write(taskId, (current) => {
          if (current.status !== 'working') return undefined;
          const next: TaskRecord = { ...current, progress: latest, lastUpdatedAt: this.#clock.now() };
          if (latest.message !== undefined) next.statusMessage = latest.message;
          return next;
        });
      }
    };
    flush().catch((error: unknown) => this.#logger.error('tasks: progress write failed', { task: taskId, error: errorMessage(error) })).finally(() => {
      running.writingProgress = false;
    });
  }

  /** Waits until every pending input request of the task is answered; undefined when cancelled, expired or gone. */
  async #answers(taskId: string, owner: string, running: Running, ttlMs: number): Promise<Record<string, unknown> | undefined> {
    const deadline = this.#clock.now() + ttlMs;
    for (;;) {
      if (running.controller.signal.aborted) return undefined;
      const record = await this.records.read(taskId, owner);
      if (record === undefined || TERMINAL_STATUSES.has(record.status)) return undefined;
      if (record.status === 'working') {
        const answers = record.answers ?? {};
        await this.#write(taskId, (current) => {
          const next = { ...current };
          delete next.answers;
          return next;
        });
        return answers;
      }
      const remaining = deadline - this.#clock.now();
      if (remaining <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const signal = running.controller.signal;
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          running.wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, remaining);
        // An abort (tasks/cancel, shutdown) ends the wait at once, not when the TTL runs out.
        signal.addEventListener('abort', done, { once: true });
        running.wake = done;
      });
    }
  }
}
