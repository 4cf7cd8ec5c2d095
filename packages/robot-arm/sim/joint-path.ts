/**
 * A geometric path in joint space, q(s) for s ∈ [0, 1], radians. Two knots give a straight joint-space
 * line; more knots (evenly spaced in s) are joined by a C¹ cubic Hermite spline (Catmull–Rom tangents)
 * so that joint velocity stays continuous along a straight-line Cartesian move.
 */
export class JointPath {
  readonly knots: readonly Float64Array[];
  readonly dof: number;
  private readonly tangents: readonly Float64Array[];

  constructor(knots: readonly Float64Array[]) {
    if (knots.length < 2) throw new RangeError('a joint path needs at least two knots');
    this.knots = knots;
    this.dof = knots[0]!.length;
    const segments = knots.length - 1;
    this.tangents = knots.map((_, i) => {
      const prev = knots[Math.max(0, i - 1)]!, next = knots[Math.min(segments, i + 1)]!;
      const span = Math.min(segments, i + 1) - Math.max(0, i - 1);
      // Tangent per unit of s: the knot spacing in s is 1/segments.
      return Float64Array.from(next, (v, j) => ((v - prev[j]!) / span) * segments);
    });
  }

  /** Joint angles (rad), first and second derivatives with respect to s. */
  evaluate(sIn: number): { q: Float64Array; dq: Float64Array; ddq: Float64Array } {
    const s = Math.min(1, Math.max(0, sIn));
    const segments = this.knots.length - 1;
    const q = new Float64Array(this.dof), dq = new Float64Array(this.dof), ddq = new Float64Array(this.dof);
    if (segments === 1) {
      const a = this.knots[0]!, b = this.knots[1]!;
      for (let j = 0; j < this.dof; j++) {
        q[j] = a[j]! + (b[j]! - a[j]!) * s;
        dq[j] = b[j]! - a[j]!;
      }
      return { q, dq, ddq };
    }
    const i = Math.min(segments - 1, Math.floor(s * segments));
    const u = s * segments - i;
    const h = 1 / segments;
    const p0 = this.knots[i]!, p1 = this.knots[i + 1]!, m0 = this.tangents[i]!, m1 = this.tangents[i + 1]!;
    const u2 = u * u, u3 = u2 * u;
    const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    const d00 = 6 * u2 - 6 * u, d10 = 3 * u2 - 4 * u + 1, d01 = -6 * u2 + 6 * u, d11 = 3 * u2 - 2 * u;
    const e00 = 12 * u - 6, e10 = 6 * u - 4, e01 = -12 * u + 6, e11 = 6 * u - 2;
    for (let j = 0; j < this.dof; j++) {
      const a = p0[j]!, b = p1[j]!, ta = m0[j]! * h, tb = m1[j]! * h;
      q[j] = h00 * a + h10 * ta + h01 * b + h11 * tb;
      dq[j] = (d00 * a + d10 * ta + d01 * b + d11 * tb) / h;
      ddq[j] = (e00 * a + e10 * ta + e01 * b + e11 * tb) / (h * h);
    }
    return { q, dq, ddq };
  }
}
