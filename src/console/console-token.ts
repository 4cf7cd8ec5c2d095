/**
 * The operator console's access token: random per start unless the operator sets one. Every
 * console request carries it (the `x-console-token` header, or `?token=` where a browser cannot set
 * headers: the first page load and EventSource). It is a console credential only; the MCP endpoint
 * never reads it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Header a console page sends its token in. */
export const CONSOLE_TOKEN_HEADER = 'x-console-token';

/** Shortest token accepted from an option: guessing must be impractical. */
export const MIN_CONSOLE_TOKEN_LENGTH = 16;

/** A fresh 256-bit token, base64url. */
export function createConsoleToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Throws a TypeError unless `token` is usable as a console token (set by an option). */
export function assertConsoleToken(token: string): void {
  if (token.length < MIN_CONSOLE_TOKEN_LENGTH || !/^[A-Za-z0-9._~-]+$/.test(token)) {
    throw new TypeError(`console token must be at least ${MIN_CONSOLE_TOKEN_LENGTH} characters of A-Z a-z 0-9 . _ ~ -`);
  }
}

/** `missing` answers 401, `wrong` 403. */
export type TokenCheck = 'ok' | 'missing' | 'wrong';

/** Compares in constant time, so the answer time does not reveal a prefix of the token. */
export function checkConsoleToken(expected: string, presented: string | undefined): TokenCheck {
  if (presented === undefined || presented === '') return 'missing';
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b) ? 'ok' : 'wrong';
}
