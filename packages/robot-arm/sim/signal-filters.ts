/**
 * Scalar Kalman filter for a slowly varying value (random-walk model): measurement noise variance `r`
 * (the sensor's σ²) and process noise variance `q` per sample (how fast the true value may move).
 */
export class ScalarKalmanFilter {
  private estimate = 0;
  private variance: number;
  private started = false;

  constructor(private readonly r: number, private readonly q: number) {
    if (!(r > 0 && Number.isFinite(r))) throw new RangeError(`Kalman measurement variance must be > 0, got ${r}`);
    if (!(q > 0 && Number.isFinite(q))) throw new RangeError(`Kalman process variance must be > 0, got ${q}`);
    this.variance = r;
  }

  update(measurement: number): number {
    if (!this.started) {
      this.started = true;
      this.estimate = measurement;
      this.variance = this.r;
      return this.estimate;
    }
    const predicted = this.variance + this.q;
    const gain = predicted / (predicted + this.r);
    this.estimate += gain * (measurement - this.estimate);
    this.variance = (1 - gain) * predicted;
    return this.estimate;
  }
}

/** Mean of the last `window` samples (fewer while it fills up). */
export class MovingAverage {
  private readonly buffer: Float64Array;
  private count = 0;
  private next = 0;
  private sum = 0;

  constructor(readonly window: number) {
    if (!(Number.isInteger(window) && window >= 1)) throw new RangeError(`moving-average window must be a positive integer, got ${window}`);
    this.buffer = new Float64Array(window);
  }

  update(sample: number): number {
    if (this.count === this.window) this.sum -= this.buffer[this.next]!;
    else this.count++;
    this.buffer[this.next] = sample;
    this.sum += sample;
    this.next = (this.next + 1) % this.window;
    return this.sum / this.count;
  }
}
