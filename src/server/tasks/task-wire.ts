/**
 * The tasks extension on the wire (`io.modelcontextprotocol/tasks`, SEP-2663, 2026 revision) and the
 * record a task is kept as in THE store. One record per task, JSON only, so any store backend can
 * hold it; the wire shapes (CreateTaskResult, DetailedTask, `notifications/tasks` params) are all
 * projections of it, built here and nowhere else.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ClientCapabilities, InputRequest } from '../../protocol/wire-types.js';

/** The extension id, as capabilities and `_meta` name it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** `_meta` key of a task's latest progress report on `tasks/get` and `notifications/tasks` (Toolwright's own). */
export const TASK_PROGRESS_META = 'io.toolwright/progress';

/** The five statuses of SEP-2663. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** The latest progress a task's handler reported through `ctx.progress`. */
export type TaskProgress = {
  progress: number;
  total?: number;
  message?: string;
};

/** A task as stored (key `task:<taskId>`). `owner` is the creator's subject ('' when anonymous). */
export interface TaskRecord {
  taskId: string;
  owner: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ms since epoch. */
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  progress?: TaskProgress;
  /** completed: the tool result (isError results included). */
  result?: JsonObject;
  /** failed: the JSON-RPC error that ended it. */
  error?: { code: number; message: string; data?: unknown };
  /** input_required: the requests still unanswered, by server-minted key. */
  inputRequests?: Record<string, InputRequest>;
  /** Answers delivered by tasks/update since the handler last ran (kept server-side, never on the wire). */
  answers?: Record<string, unknown>;
}

/** Whether the request declared the tasks extension (session-level or per-request: both arrive as this request's capabilities). */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = capabilities.extensions;
  return isJsonObject(extensions) && isJsonObject(extensions[TASKS_EXTENSION]);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The Task base fields every projection shares. */
function taskBase(record: TaskRecord): JsonObject {
  const base: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) base.statusMessage = record.statusMessage;
  return base;
}

/** The `tools/call` answer that created the task: flat `Result & Task`, nothing of the outcome. */
export function createTaskResult(record: TaskRecord): JsonObject {
  return { resultType: 'task', ...taskBase(record) };
}

/** The DetailedTask: the base plus what the status carries (result, error or the pending input requests). */
export function detailedTask(record: TaskRecord): JsonObject {
  const detail = taskBase(record);
  if (record.status === 'completed' && record.result !== undefined) detail.result = record.result;
  if (record.status === 'failed' && record.error !== undefined) detail.error = record.error;
  if (record.status === 'input_required') detail.inputRequests = record.inputRequests ?? {};
  if (record.progress !== undefined && !TERMINAL_STATUSES.has(record.status)) detail._meta = { [TASK_PROGRESS_META]: record.progress };
  return detail;
}

/** The answer of `tasks/get`. */
export function getTaskResult(record: TaskRecord): JsonObject {
  return { resultType: 'complete', ...detailedTask(record) };
}
