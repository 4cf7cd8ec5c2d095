/**
 * A tool's task policy: the server-side (never on the wire) answer to "may this tool run as a task,
 * and should this call?". SEP-2663 leaves the choice to the server per request; a tool states it
 * once in `defineTool({ task })` and the `task` stage applies it.
 */
import type { ToolContext } from '../contract/tool-types.js';
import type { ResolvedTaskPolicy } from '../contract/task-option.js';

export type { ResolvedTaskPolicy, ToolTaskOption } from '../contract/task-option.js';

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
