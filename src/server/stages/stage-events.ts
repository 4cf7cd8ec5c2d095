import type { JsonRpcId } from '../../protocol/json-rpc.js';

/** The named stages of the pipeline, in order (derived from the one stage list). */
export { STAGES } from './stage-list.js';
import type { STAGES } from './stage-list.js';

/** One pipeline stage name from {@link STAGES}, as reported in {@link StageEvent.stage}. */
export type StageName = (typeof STAGES)[number];

/**
 * How a stage ended: `pass` (next stage runs), `respond` (it produced the final result),
 * `tool-error` (an `isError` result), `error` (a JSON-RPC error), `accepted` (notification, no reply),
 * `cancelled` (the client went away; nothing is sent).
 */
export type StageOutcome = 'pass' | 'respond' | 'tool-error' | 'error' | 'accepted' | 'cancelled';

/** Emitted once per stage run; consumed by audit logs and inspectors via `onStageEvent`. */
export interface StageEvent {
  /** The stage that ran, or `middleware:<name>` for a middleware (its outcome is `pass` when it returned what `next()` gave it). */
  stage: StageName | `middleware:${string}`;
  /** How it ended. */
  outcome: StageOutcome;
  /** Wall time the stage took, in milliseconds (fractional). */
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
  /** The transport the message arrived on (`console`: the operator console's workbench). */
  transport: 'http' | 'stdio' | 'console';
}
