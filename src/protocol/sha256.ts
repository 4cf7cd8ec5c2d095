/**
 * SHA-256 of a string, for the hashes on a request's hot path (audit chain lines, argument
 * digests). Node's one-shot `crypto.hash` (20.12+) costs about a third of `createHash()` for short
 * inputs, since it builds no Hash object; older Node 20 releases fall back to `createHash`.
 */
import * as crypto from 'node:crypto';

type OneShot = (algorithm: string, data: string, encoding: 'hex' | 'base64url') => string;
const oneShot = (crypto as { hash?: OneShot }).hash;

/** SHA-256 of `text` (as UTF-8), hex or base64url. */
export function sha256(text: string, encoding: 'hex' | 'base64url'): string {
  return oneShot !== undefined ? oneShot('sha256', text, encoding) : crypto.createHash('sha256').update(text).digest(encoding);
}
