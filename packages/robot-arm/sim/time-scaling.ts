/** Position, rate and acceleration of the path parameter s ∈ [0, 1] at one instant. */
export interface PathTiming {
  readonly s: number;
  /** ds/dt in 1/s. */
  readonly sd: number;
  /** d²s/dt² in 1/s². */
  readonly sdd: number;
}

export type TimeScalingKind = 'trapezoidal' | 'quintic';

/** How the path parameter s goes from 0 to 1 over `durationS`, starting and ending at rest. */
export interface TimeScaling {
  readonly kind: TimeScalingKind;
  readonly durationS: number;
  /** Largest |ds/dt| over the profile, 1/s. */
  readonly peakRate: number;
  /** Largest |d²s/dt²| over the profile, 1/s²; also the deceleration a controlled stop uses. */
  readonly peakAcceleration: number;
  at(tS: number): PathTiming;
  /** The same shape stretched to a longer duration (speeds scale by 1/k, accelerations by 1/k²). */
  stretched(k: number): TimeScaling;
}

const QUINTIC_PEAK_RATE = 1.875;
const QUINTIC_PEAK_ACCEL = 10 / Math.sqrt(3);

/**
 * Trapezoidal velocity profile: accelerate for `accelFraction`·T, cruise, decelerate symmetrically.
 * `accelFraction` is in (0, 0.5]; 0.5 is the triangular profile.
 */
export function trapezoidal(durationS: number, accelFraction: number): TimeScaling {
  if (!(durationS >= 0) || !Number.isFinite(durationS)) throw new RangeError(`duration must be a finite number of seconds >= 0, got ${durationS}`);
  if (!(accelFraction > 0 && accelFraction <= 0.5)) throw new RangeError(`accelFraction must be in (0, 0.5], got ${accelFraction}`);
  const T = durationS;
  if (T === 0) return still('trapezoidal');
  const ta = accelFraction * T;
  const v = 1 / (T - ta);
  const a = v / ta;
  return {
    kind: 'trapezoidal',
    durationS: T,
    peakRate: v,
    peakAcceleration: a,
    at(tS) {
      const t = Math.min(Math.max(tS, 0), T);
      if (t < ta) return { s: 0.5 * a * t * t, sd: a * t, sdd: a };
      if (t <= T - ta) return { s: 0.5 * a * ta * ta + v * (t - ta), sd: v, sdd: 0 };
      const r = T - t;
      return { s: 1 - 0.5 * a * r * r, sd: a * r, sdd: t >= T ? 0 : -a };
    },
    stretched: (k) => trapezoidal(T * k, accelFraction),
  };
}

/** Quintic polynomial s = 10τ³ − 15τ⁴ + 6τ⁵: zero rate and acceleration at both ends (smooth, slower). */
export function quintic(durationS: number): TimeScaling {
  if (!(durationS >= 0) || !Number.isFinite(durationS)) throw new RangeError(`duration must be a finite number of seconds >= 0, got ${durationS}`);
  const T = durationS;
  if (T === 0) return still('quintic');
  return {
    kind: 'quintic',
    durationS: T,
    peakRate: QUINTIC_PEAK_RATE / T,
    peakAcceleration: QUINTIC_PEAK_ACCEL / (T * T),
    at(tS) {
      const tau = Math.min(Math.max(tS / T, 0), 1);
      const t2 = tau * tau, t3 = t2 * tau;
      return {
        s: t3 * (10 - 15 * tau + 6 * t2),
        sd: (30 * t2 - 60 * t3 + 30 * t2 * t2) / T,
        sdd: (60 * tau - 180 * t2 + 120 * t3) / (T * T),
      };
    },
    stretched: (k) => quintic(T * k),
  };
}

/**
 * The shortest profile of the given kind for a path whose demands are summarised as
 * `rateDemandS` = max over axes of (path length in that axis)/(speed cap) and
 * `accelDemandS2` = max over axes of (path length)/(acceleration cap).
 */
export function fitTimeScaling(kind: TimeScalingKind, rateDemandS: number, accelDemandS2: number): TimeScaling {
  const rv = Math.max(rateDemandS, 0), ra = Math.max(accelDemandS2, 0);
  if (rv === 0 && ra === 0) return still(kind);
  if (kind === 'quintic') return quintic(Math.max(QUINTIC_PEAK_RATE * rv, Math.sqrt(QUINTIC_PEAK_ACCEL * ra)));
  // Time-optimal 1-D trapezoid with v = 1/rv, a = 1/ra: it cruises only if the path is long enough to reach v.
  if (rv > 0 && rv * rv >= ra) {
    const T = rv + ra / rv;
    return trapezoidal(T, Math.min(0.5, Math.max(1e-12, ra / rv / T)));
  }
  return trapezoidal(2 * Math.sqrt(ra), 0.5);
}

function still(kind: TimeScalingKind): TimeScaling {
  return {
    kind,
    durationS: 0,
    peakRate: 0,
    peakAcceleration: 0,
    at: () => ({ s: 1, sd: 0, sdd: 0 }),
    stretched: () => still(kind),
  };
}
