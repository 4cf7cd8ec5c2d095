/** A finite double as an exact decimal: value = mantissa × 10^exponent. */
function toDecimal(value: number): [bigint, number] {
  // String(x) is the shortest decimal that round-trips, i.e. the number as written in JSON.
  const text = String(value);
  const e = text.indexOf('e');
  const coefficient = e === -1 ? text : text.slice(0, e);
  let exponent = e === -1 ? 0 : Number(text.slice(e + 1));
  const dot = coefficient.indexOf('.');
  let digits = coefficient;
  if (dot !== -1) {
    exponent -= coefficient.length - dot - 1;
    digits = coefficient.slice(0, dot) + coefficient.slice(dot + 1);
  }
  return [BigInt(digits), exponent];
}

/**
 * `multipleOf` on the numbers as written (decimal), not on their binary approximations:
 * 0.3 is a multiple of 0.1 and 4.35 of 0.01 (plain float division says no to both), and 1e308
 * is a multiple of 0.5. Integer operands take the exact `%` shortcut; the rest use BigInt.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !(divisor > 0) || !Number.isFinite(divisor)) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [mv, ev] = toDecimal(value);
  const [md, ed] = toDecimal(divisor);
  const e = Math.min(ev, ed);
  return (mv * 10n ** BigInt(ev - e)) % (md * 10n ** BigInt(ed - e)) === 0n;
}
