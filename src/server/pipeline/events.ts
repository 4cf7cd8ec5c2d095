/**
 * Stage events: one per stage and per middleware that ran for a request (`onStageEvent`). Built
 * only when a listener is set; a listener that throws is logged and never changes the answer.
 */
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { StageEvent, StageOutcome } from '../stages/stage-events.js';
import type { PipelineEnv } from '../stages/pipeline-env.js';
import { errorMessage } from '../stages/stage.js';
import type { AnyState, Stop } from '../stages/stage.js';

/** The first text block of a result (the detail of a `tool-error` event), if any. */
export function firstText(result: JsonObject): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown } | undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
}

/** Reports one stage (or middleware, `middleware:<name>`) that ran: `stop` undefined means it passed. */
export function emitStageEvent(env: PipelineEnv, s: AnyState, stage: StageEvent['stage'], stop: Stop | undefined, durationMs: number, report?: string): void {
  let outcome: StageOutcome = 'pass';
  let code: number | undefined;
  let detail: string | undefined;
  if (stop !== undefined) {
    if (stop.kind === 'result') {
      outcome = stop.outcome;
      if (stop.outcome === 'tool-error') detail = firstText(stop.result);
    } else if (stop.kind === 'error') {
      outcome = 'error';
      code = stop.error.code;
      detail = stop.error.message;
    } else outcome = stop.kind;
  }
  const event: StageEvent = { stage, outcome, durationMs, requestId: s.id, method: s.method, tool: s.tool?.name, transport: s.message.transport };
  if (code !== undefined) event.code = code;
  if (report !== undefined) detail = detail === undefined ? report : `${report}; ${detail}`;
  if (detail !== undefined) event.detail = detail;
  try {
    env.onStageEvent!(event);
  } catch (error) {
    env.logger.error('onStageEvent threw', { error: errorMessage(error) });
  }
}
