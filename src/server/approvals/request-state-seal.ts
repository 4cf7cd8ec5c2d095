import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../../json/canonical-json.js';
import { sha256 } from '../../protocol/sha256.js';
import type { JsonValue } from '../../protocol/json-rpc.js';
import type { Clock } from '../store/store.js';
import { isJsonObject } from '../../json/json-object.js';

/**
 * THE claims sealed into a `requestState` (digest R-61), for approvals and every other
 * multi-round input alike: one type, one signer, one redemption path (approvals.ts).
 */
export interface SealedClaims {
  /** The call the state belongs to, e.g. `tools/call move_arm`, `prompts/get greet`. */
  call: string;
  /** SHA-256 (base64url) of the canonical JSON of that call's arguments. */
  args: string;
  /** Authenticated principal, '' when anonymous. */
  sub: string;
  /** The OAuth client the caller used (`AuthInfo.clientId`), '' when none. */
  cid: string;
  /** Expiry, ms since epoch. */
  exp: number;
  /** Random per issued state: the key under which a single-use state is claimed in the store. */
  nonce: string;
  /** Single use: the state may complete one execution only (claimed in the store immediately before `execute`). */
  once: boolean;
  /** For single-use states: the digest of what is approved (supplied by the tool; default: tool name + canonical arguments). */
  approves?: string;
  /** For single-use states: the store's epoch when the question was asked; claimed only in that epoch (store.ts). */
  epoch?: string;
  /** Answers gathered in earlier rounds, by input key. */
  answers: Record<string, unknown>;
  /** Application data sealed by an earlier round. */
  data?: JsonValue;
}

const PREFIX = 'tw1.';

/** SHA-256 (base64url) of the canonical JSON of `value`. */
export function digestArguments(value: unknown): string {
  return sha256(canonicalJson(value), 'base64url');
}

function isSealedClaims(value: unknown): value is SealedClaims {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const c = value as Record<string, unknown>;
  return typeof c.call === 'string' && typeof c.args === 'string' && typeof c.sub === 'string' && typeof c.cid === 'string' && typeof c.nonce === 'string' &&
    typeof c.once === 'boolean' && (c.approves === undefined || typeof c.approves === 'string') && (c.epoch === undefined || typeof c.epoch === 'string') &&
    isJsonObject(c.answers);
}

/** Where the `requestState` HMAC key comes from when the option is not given. */
export const STATE_SECRET_ENV = 'TOOLWRIGHT_STATE_SECRET';

/** HMAC-protected, expiring `requestState` tokens. One instance per server. */
export class RequestStateSigner {
  readonly #key: Buffer;
  readonly #clock: Clock;
  /**
   * @param secret the HMAC key; default: env `TOOLWRIGHT_STATE_SECRET`, else random per process (safe
   *   for one instance; several instances behind one endpoint must share a secret, and a store).
   */
  constructor(secret: string | Uint8Array | undefined = process.env[STATE_SECRET_ENV], clock: Clock = { now: () => Date.now() }) {
    if (secret !== undefined && secret.length < 16) throw new RangeError('requestState secret must be at least 16 bytes long');
    this.#key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
    this.#clock = clock;
  }

  /** The signer's time (ms since epoch): expiries are set and checked on it. */
  now(): number {
    return this.#clock.now();
  }

  sign(claims: SealedClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${PREFIX}${payload}.${this.#mac(payload)}`;
  }

  /** The claims if `token` is authentic and unexpired, else a reason. */
  verify(token: string, now = this.#clock.now()): { ok: true; claims: SealedClaims } | { ok: false; reason: string } {
    if (!token.startsWith(PREFIX)) return { ok: false, reason: 'requestState was not issued by this server' };
    const rest = token.slice(PREFIX.length);
    const dot = rest.indexOf('.');
    if (dot < 0) return { ok: false, reason: 'requestState is malformed' };
    const payload = rest.slice(0, dot);
    const mac = Buffer.from(rest.slice(dot + 1));
    const expected = Buffer.from(this.#mac(payload));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return { ok: false, reason: 'requestState failed verification' };
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, reason: 'requestState is malformed' };
    }
    if (!isSealedClaims(claims)) return { ok: false, reason: 'requestState is malformed' };
    if (typeof claims.exp !== 'number' || claims.exp < now) return { ok: false, reason: 'requestState has expired' };
    return { ok: true, claims };
  }

  #mac(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url');
  }
}
