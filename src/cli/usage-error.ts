import { InputError } from '../errors/toolwright-error.js';

/** A command-line mistake: the command prints the message and its usage, and exits 2. */
export class UsageError extends InputError {
  readonly errorCode = 'usage' as const;
}

/**
 * Parses repeated `--header "Name: value"` options into a header record (names lower-cased, since
 * HTTP header names are case-insensitive; values trimmed).
 *
 * @throws UsageError when an entry has no name before its colon.
 */
export function parseHeaderOptions(list: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const item of list) {
    const colon = item.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header must look like "Name: value" (got ${JSON.stringify(item)})`);
    headers[item.slice(0, colon).trim().toLowerCase()] = item.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * Reads a `--timeout` option: undefined when absent, else a positive whole number of milliseconds.
 *
 * @throws UsageError for anything else ("soon", 0, -5, 1.5).
 */
export function parseTimeoutOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0) throw new UsageError(`--timeout must be a positive integer (milliseconds), got ${JSON.stringify(value)}`);
  return ms;
}
