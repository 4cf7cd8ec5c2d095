/**
 * Numbers in limit refusals: a value that breaks a limit is printed with enough digits to show that it
 * does. "TCP z would be 20.000 mm; it must stay at least 20 mm" (for 20 - 1e-9) reads as no violation.
 */

/** Most decimals a value is printed with; past this the shortest exact form is used. */
const MAX_DECIMALS = 12;

/**
 * `value` with `minDecimals` decimals, or as many more as it takes to print it on the same side of
 * `limit` (the value it breaks) as it is.
 */
export function beside(value: number, limit: number, minDecimals = 1): string {
  const side = Math.sign(value - limit);
  for (let d = minDecimals; d <= MAX_DECIMALS; d++) {
    const text = value.toFixed(d);
    if (Math.sign(Number(text) - limit) === side) return text;
  }
  return String(value);
}

/** A limit as it is configured: its shortest exact form, without float noise past 9 decimals. */
export function limitText(limit: number): string {
  return String(Number(limit.toFixed(9)));
}
