import type { JsonRpcId } from '../protocol/json-rpc.js';

/** The named stages of the pipeline, in order. Stages after `route` run for `tools/call` only. */
export const STAGES = [
  'authenticate',
  'decode',
  'envelope',
  'version',
  'headers',
  'route',
  'find-tool',
  'param-headers',
  'client-capabilities',
  'shape',
  'check',
  'authorize',
  'approval',
  'execute',
  'output',
] as const;

export type StageName = (typeof STAGES)[number];

/**
 * How a stage ended: `pass` (next stage runs), `respond` (it produced the final result),
 * `tool-error` (an `isError` result), `error` (a JSON-RPC error), `accepted` (notification, no reply),
 * `cancelled` (the client went away; nothing is sent).
 */
export type StageOutcome = 'pass' | 'respond' | 'tool-error' | 'error' | 'accepted' | 'cancelled';

/** Emitted once per stage run; consumed by audit logs and inspectors via `onStageEvent`. */
export interface StageEvent {
  stage: StageName;
  outcome: StageOutcome;
  durationMs: number;
  /** JSON-RPC id, once decoded. */
  requestId: JsonRpcId | undefined;
  /** JSON-RPC method, once decoded. */
  method: string | undefined;
  /** Tool name for `tools/call`, once known. */
  tool: string | undefined;
  /** JSON-RPC error code when outcome is `error`. */
  code?: number;
  /** Short human-readable reason when the stage stopped the call. */
  detail?: string;
  transport: 'http' | 'stdio';
}
