/**
 * A tool's task policy: the server-side (never on the wire) answer to "may this tool run as a task,
 * and should this call?". SEP-2663 leaves the choice to the server per request; a tool states it
 * once in `defineTool({ task })` and the `task` stage applies it.
 */
import type { ToolContext } from '../contract/tool-types.js';

/** `defineTool({ task })`: how a tool runs as a task (`io.modelcontextprotocol/tasks`). */
export interface ToolTaskOption<Args = Record<string, unknown>> {
  /**
   * `optional` (default): a call becomes a task when the client declared the extension and the
   * policy below says so; other clients get today's synchronous call. `required`: the tool cannot
   * answer synchronously, so a client without the extension gets -32021 before anything runs.
   */
  support?: 'optional' | 'required';
  /**
   * How long this call is expected to take (ms). The call becomes a task when the estimate is at
   * least `thresholdMs`; below it the server answers at once (the immediate-result shortcut).
   */
  expectedDurationMs?: (args: Args) => number;
  /** Threshold for `expectedDurationMs` (default 1000 ms). */
  thresholdMs?: number;
  /** Decides per call, after the estimate (if any) said yes; return false to answer synchronously. */
  when?: (args: Args, ctx: ToolContext) => boolean;
  /** How long a task of this tool stays readable after its last change (default: the server's `tasks.ttlMs`). */
  ttlMs?: number;
  /** Poll interval suggested to clients (default: the server's `tasks.pollIntervalMs`). */
  pollIntervalMs?: number;
}

/** The policy with its defaults applied and its shape checked (done once, when the tool is defined). */
export interface ResolvedTaskPolicy {
  readonly support: 'optional' | 'required';
  /** The tool's `expectedDurationMs` estimate, as given (undefined: none). */
  readonly expectedDurationMs: ((args: Record<string, unknown>) => number) | undefined;
  readonly thresholdMs: number;
  /** The tool's `when` predicate, as given (undefined: none). */
  readonly when: ((args: Record<string, unknown>, ctx: ToolContext) => boolean) | undefined;
  readonly ttlMs: number | undefined;
  readonly pollIntervalMs: number | undefined;
}

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/**
 * Checks a `task` option. Returns the problem in words, or the resolved policy.
 * `true` is shorthand for `{}` (optional, every call of a declaring client becomes a task).
 */
export function resolveTaskPolicy(option: unknown): ResolvedTaskPolicy | string {
  if (option === true) option = {};
  if (typeof option !== 'object' || option === null || Array.isArray(option)) return 'task must be true or an object { support, expectedDurationMs, thresholdMs, when, ttlMs, pollIntervalMs }';
  const o = option as Record<string, unknown>;
  const known = new Set(['support', 'expectedDurationMs', 'thresholdMs', 'when', 'ttlMs', 'pollIntervalMs']);
  const unknown = Object.keys(o).filter((k) => !known.has(k));
  if (unknown.length > 0) return `task has unknown option${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`;
  if (o.support !== undefined && o.support !== 'optional' && o.support !== 'required') return `task.support must be "optional" or "required", got ${JSON.stringify(o.support)}`;
  if (o.expectedDurationMs !== undefined && typeof o.expectedDurationMs !== 'function') return 'task.expectedDurationMs must be a function (args) => milliseconds';
  if (o.when !== undefined && typeof o.when !== 'function') return 'task.when must be a function (args, ctx) => boolean';
  if (o.thresholdMs !== undefined && !(typeof o.thresholdMs === 'number' && Number.isFinite(o.thresholdMs) && o.thresholdMs >= 0)) return 'task.thresholdMs must be a non-negative number';
  if (o.ttlMs !== undefined && !positiveInteger(o.ttlMs)) return 'task.ttlMs must be a positive integer (ms)';
  if (o.pollIntervalMs !== undefined && !positiveInteger(o.pollIntervalMs)) return 'task.pollIntervalMs must be a positive integer (ms)';
  return Object.freeze({
    support: (o.support as 'optional' | 'required' | undefined) ?? 'optional',
    expectedDurationMs: o.expectedDurationMs as ResolvedTaskPolicy['expectedDurationMs'],
    thresholdMs: (o.thresholdMs as number | undefined) ?? 1000,
    when: o.when as ResolvedTaskPolicy['when'],
    ttlMs: o.ttlMs as number | undefined,
    pollIntervalMs: o.pollIntervalMs as number | undefined,
  });
}

/** Whether this call becomes a task (the client has declared the extension). A throw is the stage's crash (-32603, logged). */
export function shouldRunAsTask(policy: ResolvedTaskPolicy, args: Record<string, unknown>, ctx: ToolContext): boolean {
  if (policy.expectedDurationMs !== undefined) {
    const expected = policy.expectedDurationMs(args);
    if (!(typeof expected === 'number' && expected >= policy.thresholdMs)) return false;
  }
  return policy.when === undefined || policy.when(args, ctx) === true;
}
