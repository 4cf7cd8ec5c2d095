/**
 * Solves A·x = b for a small dense square system by Gaussian elimination with partial pivoting.
 * `a` is row-major n×n and is not modified. Returns null when A is numerically singular.
 */
export function solveLinear(a: ArrayLike<number>, b: ArrayLike<number>, n: number): Float64Array | null {
  const m = new Float64Array(n * (n + 1));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) m[i * (n + 1) + j] = a[i * n + j]!;
    m[i * (n + 1) + n] = b[i]!;
  }
  const w = n + 1;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r * w + col]!) > Math.abs(m[pivot * w + col]!)) pivot = r;
    if (Math.abs(m[pivot * w + col]!) < 1e-14) return null;
    if (pivot !== col) {
      for (let j = 0; j < w; j++) {
        const t = m[col * w + j]!;
        m[col * w + j] = m[pivot * w + j]!;
        m[pivot * w + j] = t;
      }
    }
    for (let r = col + 1; r < n; r++) {
      const f = m[r * w + col]! / m[col * w + col]!;
      if (f === 0) continue;
      for (let j = col; j < w; j++) m[r * w + j] = m[r * w + j]! - f * m[col * w + j]!;
    }
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = m[i * w + n]!;
    for (let j = i + 1; j < n; j++) s -= m[i * w + j]! * x[j]!;
    x[i] = s / m[i * w + i]!;
  }
  return x;
}
