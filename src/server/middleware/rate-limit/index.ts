/**
 * Rate limit: a token bucket per tool and per subject, kept in the server's store (so several
 * instances sharing a store share the limit). An empty bucket refuses the call with -31429 (HTTP 429,
 * `Retry-After`, `data.retryAfterMs`) before the arguments are even checked; nothing runs.
 */
import type { Middleware } from '../middleware.js';
import { refuse } from '../middleware.js';

/** Bucket keys kept for reuse, at most (a key is cheap to rebuild; the bound only caps memory). */
const MAX_CACHED_KEYS = 10_000;

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Calls allowed in a burst (the bucket size). */
  capacity: number;
  /** Calls added back per second, continuously. */
  refillPerSecond: number;
  /** What one bucket counts: each tool for each subject (default), each tool, or each subject across tools. */
  per?: 'tool-and-subject' | 'tool' | 'subject';
  /** For server-wide use: which tools are limited (default all). */
  appliesTo?: (toolName: string) => boolean;
}

/** The rate-limit middleware, with its rule readable (e.g. by `toolwright gateway nginx` for `limit_req`). */
export interface RateLimitMiddleware extends Middleware {
  readonly name: 'rate-limit';
  readonly rule: Readonly<{ capacity: number; refillPerSecond: number; per: 'tool-and-subject' | 'tool' | 'subject' }>;
}

/**
 * @example
 * ```ts
 * import { defineTool, rateLimit } from 'toolwright';
 *
 * const search = defineTool({
 *   name: 'search',
 *   inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } as const,
 *   use: [rateLimit({ capacity: 10, refillPerSecond: 1 })],
 *   run: ({ query }) => `results for ${query}`,
 * });
 * ```
 */
export function rateLimit(options: RateLimitOptions): RateLimitMiddleware {
  const { capacity, refillPerSecond } = options;
  if (!(Number.isFinite(capacity) && capacity >= 1)) throw new RangeError(`rateLimit: capacity must be a number >= 1, got ${String(capacity)}`);
  if (!(Number.isFinite(refillPerSecond) && refillPerSecond > 0)) throw new RangeError(`rateLimit: refillPerSecond must be a positive number, got ${String(refillPerSecond)}`);
  const per = options.per ?? 'tool-and-subject';
  if (per !== 'tool-and-subject' && per !== 'tool' && per !== 'subject') throw new RangeError(`rateLimit: per must be "tool-and-subject", "tool" or "subject", got ${JSON.stringify(per)}`);
  const rule = { capacity, refillPerSecond };
  // Keys are made once per tool and subject and then reused: the same string each call also
  // keeps its hash, so the store's map lookup does not rehash a fresh key. Bounded: cleared when full.
  const keys = new Map<string, Map<string, string>>();
  let cachedKeys = 0;
  const bucketKey = (tool: string, subject: string): string => {
    let bySubject = keys.get(tool);
    const known = bySubject?.get(subject);
    if (known !== undefined) return known;
    if (cachedKeys >= MAX_CACHED_KEYS) {
      keys.clear();
      cachedKeys = 0;
      bySubject = undefined;
    }
    if (bySubject === undefined) keys.set(tool, (bySubject = new Map()));
    // JSON-encoded parts: a tool name can never collide with a subject that contains the separator.
    const key = `rate:${per}:${JSON.stringify([tool, subject])}`;
    bySubject.set(subject, key);
    cachedKeys++;
    return key;
  };
  return {
    name: 'rate-limit',
    rule: Object.freeze({ capacity, refillPerSecond, per }),
    ...(options.appliesTo !== undefined ? { appliesTo: options.appliesTo } : {}),
    async handle(call, next) {
      const key = bucketKey(per === 'subject' ? '' : call.tool.name, per === 'tool' ? '' : call.subject);
      const verdict = await call.store.takeTokens(key, rule);
      // Awaited rather than returned: resolving with a promise would cost two more turns.
      if (verdict.allowed) return await next();
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      // Anonymous callers (subject '') all share one bucket: the message must not suggest it is theirs alone.
      const caller = call.subject === '' ? 'anonymous callers' : 'this caller';
      const whose = per === 'tool' ? `tool ${call.tool.name}` : per === 'subject' ? `the limit for ${caller}` : `tool ${call.tool.name} for ${caller}`;
      call.report(`bucket empty; retry after ${verdict.retryAfterMs} ms`);
      // capacity is a burst size (the bucket's depth), not a number of calls in flight.
      const burst = `a burst of ${capacity} call${capacity === 1 ? '' : 's'}, then ${refillPerSecond} per second`;
      return refuse.error('rateLimited', `Rate limited: ${whose} allows ${burst}; retry in ${verdict.retryAfterMs} ms`, {
        data: { retryAfterMs: verdict.retryAfterMs },
        headers: { 'Retry-After': String(seconds) },
      });
    },
  };
}
