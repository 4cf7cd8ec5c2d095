/**
 * A small deterministic random source (sfc32) so that every noisy part of the simulator replays
 * exactly from a seed. Not for anything security related.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareGaussian: number | null = null;

  constructor(seed: number) {
    if (!Number.isFinite(seed)) throw new RangeError(`random seed must be a finite number, got ${seed}`);
    const s = Math.trunc(seed) >>> 0;
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = s ^ 0xdeadbeef;
    for (let i = 0; i < 16; i++) this.nextUint32();
  }

  /** Uniform integer in [0, 2^32). */
  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Standard normal sample (Box–Muller, the second value of each pair is kept for the next call). */
  gaussian(): number {
    if (this.spareGaussian !== null) {
      const v = this.spareGaussian;
      this.spareGaussian = null;
      return v;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareGaussian = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** An independent stream for one part of the simulator, so adding draws to one part never shifts another. */
  static derive(seed: number, streamLabel: number): SeededRandom {
    return new SeededRandom((Math.trunc(seed) ^ Math.imul(streamLabel + 1, 0x85ebca6b)) >>> 0);
  }
}
