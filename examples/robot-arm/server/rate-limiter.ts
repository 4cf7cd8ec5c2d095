/** Token bucket: `burst` commands at once, refilled at `perSecond`. Time comes from `now` (ms) so tests can drive it. */
export class RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(Number.isFinite(perSecond) && perSecond > 0)) throw new RangeError(`rate limit must be a positive number of commands per second, got ${perSecond}`);
    if (!(Number.isInteger(burst) && burst >= 1)) throw new RangeError(`rate-limit burst must be a positive integer, got ${burst}`);
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token; returns 0 on success, else how many ms until one is available. */
  take(): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }
}
