import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../protocol/canonical-json.js';

/** Claims bound into an approval `requestState` (digest R-61). */
export interface ApprovalClaims {
  /** Tool name. */
  tool: string;
  /** SHA-256 of the canonical JSON of the arguments. */
  args: string;
  /** Authenticated principal, '' when anonymous. */
  sub: string;
  /** Expiry, ms since epoch. */
  exp: number;
}

const PREFIX = 'tw1.';

/** SHA-256 (base64url) of the canonical JSON of `value`. */
export function digestArguments(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

/** HMAC-protected, expiring `requestState` tokens. One instance per server. */
export class RequestStateSigner {
  readonly #key: Buffer;
  constructor(secret?: string | Uint8Array) {
    // A random per-process key is safe by default; several server processes behind one endpoint need a shared secret.
    this.#key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
  }

  sign(claims: ApprovalClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${PREFIX}${payload}.${this.#mac(payload)}`;
  }

  /** The claims if `token` is authentic and unexpired, else a reason. */
  verify(token: string, now = Date.now()): { ok: true; claims: ApprovalClaims } | { ok: false; reason: string } {
    if (!token.startsWith(PREFIX)) return { ok: false, reason: 'requestState was not issued by this server' };
    const rest = token.slice(PREFIX.length);
    const dot = rest.indexOf('.');
    if (dot < 0) return { ok: false, reason: 'requestState is malformed' };
    const payload = rest.slice(0, dot);
    const mac = Buffer.from(rest.slice(dot + 1));
    const expected = Buffer.from(this.#mac(payload));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return { ok: false, reason: 'requestState failed verification' };
    let claims: ApprovalClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ApprovalClaims;
    } catch {
      return { ok: false, reason: 'requestState is malformed' };
    }
    if (typeof claims.exp !== 'number' || claims.exp < now) return { ok: false, reason: 'requestState has expired' };
    return { ok: true, claims };
  }

  #mac(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url');
  }
}
