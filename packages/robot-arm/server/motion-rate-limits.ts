import type { Store, TokenBucketRule } from 'toolwright';
import type { Refusal } from './safety-stages.js';
import { storeRefusal } from './store-refusal.js';

/** What a command costs at the state gate: a motion token, a planning token, or none (gripper). */
export type CommandKind = 'motion' | 'plan' | 'gripper';

/** Options of {@link MotionRateLimits}. */
export interface MotionRateLimitOptions {
  /** Motion commands per second (token bucket refill), default 2. */
  readonly motionRatePerSecond?: number;
  /** Motion commands allowed back to back, default 2. */
  readonly motionBurst?: number;
  /**
   * Planning requests (plan_trajectory, dry runs) per second and back to back; default the motion rate
   * and burst. Planning moves nothing but can cost about half a CPU-second, so it has its own bucket.
   */
  readonly planRatePerSecond?: number;
  readonly planBurst?: number;
}

/** Store keys of the two buckets: one arm, so one bucket per kind for every caller and every instance. */
const BUCKET_KEYS = { motion: 'robot-arm:rate:motion', plan: 'robot-arm:rate:plan' } as const;

function bucketRule(perSecond: number, burst: number): TokenBucketRule {
  if (!(Number.isFinite(perSecond) && perSecond > 0)) throw new RangeError(`rate limit must be a positive number of commands per second, got ${perSecond}`);
  if (!(Number.isInteger(burst) && burst >= 1)) throw new RangeError(`rate-limit burst must be a positive integer, got ${burst}`);
  return { capacity: burst, refillPerSecond: perSecond };
}

/**
 * The arm's two rate limits (motion commands, planning requests) as token buckets in the server's
 * store: the store's `takeTokens`, as the toolkit's `rateLimit` middleware uses it, so several
 * instances sharing a store share the limits of the one arm behind them.
 */
export class MotionRateLimits {
  readonly motion: TokenBucketRule;
  readonly plan: TokenBucketRule;

  constructor(options: MotionRateLimitOptions = {}) {
    this.motion = bucketRule(options.motionRatePerSecond ?? 2, options.motionBurst ?? 2);
    this.plan = bucketRule(options.planRatePerSecond ?? this.motion.refillPerSecond, options.planBurst ?? this.motion.capacity);
  }

  /** Takes the token `kind` costs from `store`'s bucket: null when taken (or none is needed), else the `rate_limited` refusal. */
  async take(store: Store, kind: CommandKind): Promise<Refusal | null> {
    if (kind === 'gripper') return null;
    const rule = this[kind];
    let retryAfterMs: number;
    try {
      const verdict = await store.takeTokens(BUCKET_KEYS[kind], rule);
      if (verdict.allowed) return null;
      retryAfterMs = verdict.retryAfterMs;
    } catch (error) {
      return storeRefusal(error, 'state_gate');
    }
    const what = kind === 'motion' ? 'motion commands' : 'planning requests';
    return { stage: 'state_gate', code: 'rate_limited', message: `${what} are limited to ${rule.refillPerSecond} per second (burst ${rule.capacity}); retry in ${retryAfterMs} ms` };
  }
}
