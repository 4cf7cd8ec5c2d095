/**
 * The task option of a tool (`defineTool({ task })`) and its resolved form. Declared here because
 * a tool definition names it (contract/tool-types.ts); tasks/task-policy.ts checks and applies it.
 */
import type { ToolContext } from './tool-types.js';

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
