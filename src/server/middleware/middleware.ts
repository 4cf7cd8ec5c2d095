/**
 * Middleware around `tools/call`: an onion in the manner of Hono's compose. Each middleware gets the
 * call and `next()`, which runs the rest of the pipeline (inner middleware, then the stages) and
 * resolves to the outcome, whatever stage produced it. A middleware can change the raw arguments
 * before `next()` (coercion), read the validated arguments and context after `shape` passed, change
 * the outcome on the way out (result budget), or refuse without calling `next()`.
 *
 * Where a middleware wraps (`at`):
 * - `arguments` (default): from `request-state` on, so it sees the raw arguments before the shape
 *   check and every later refusal (a refusal here uses no approval up);
 * - `validated`: from `approval` on, after shape, check and authorize passed (safety stages of a tool).
 *
 * Server-wide middleware (`createServer({ use })`) wraps every tool (`appliesTo` narrows it) and
 * outside the tool's own (`defineTool({ use })`). Unknown tools and malformed params are answered
 * before any middleware; observe those with `onStageEvent`.
 */
import { rpcError, toolError } from '../outcomes.js';
import type { CallOutcome, Middleware } from '../contract/middleware.js';

export type { CallOutcome, Middleware, ToolCall } from '../contract/middleware.js';

/** Opens each distinct middleware once, in order; the first failure is thrown (nothing is served). */
export function openMiddleware(middleware: Iterable<Middleware>): void {
  for (const m of new Set(middleware)) m.open?.();
}

/**
 * Closes each distinct middleware once, in order, awaiting each. A failure is passed to `onError`
 * and the rest still close: one stuck resource must not keep another (an audit lock) held.
 */
export async function closeMiddleware(middleware: Iterable<Middleware>, onError: (name: string, error: unknown) => void): Promise<void> {
  for (const m of new Set(middleware)) {
    if (m.close === undefined) continue;
    try {
      await m.close();
    } catch (error) {
      onError(m.name, error);
    }
  }
}

/** Ways for a middleware to refuse a call, all through the OUTCOMES table. */
export const refuse = {
  /** An `isError` result the model reads (OUTCOMES.middlewareRefused). */
  result(text: string): CallOutcome {
    return { kind: 'result', outcome: 'tool-error', result: toolError('middlewareRefused', text) };
  },
  /** A JSON-RPC error of one OUTCOMES row, e.g. `refuse.error('rateLimited', ...)`. */
  error(row: Parameters<typeof rpcError>[0], message: string, options: { data?: unknown; headers?: Record<string, string> } = {}): CallOutcome {
    return { kind: 'error', error: rpcError(row, message, options) };
  },
};
