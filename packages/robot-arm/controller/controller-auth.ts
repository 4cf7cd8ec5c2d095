/**
 * Mutual challenge-response of the controller socket. Both ends hold a per-start random secret (the
 * server creates it and hands it to the controller through an inherited pipe, never argv or the
 * environment). The controller's hello carries a nonce; the server answers with its own nonce and an
 * HMAC over both, which proves it knows the secret; the controller's welcome carries an HMAC over the
 * two nonces in the other order, which proves the socket is the real controller and not a process
 * that bound the path first. The secret itself never crosses the socket.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of a secret (256 bits) and of a nonce. */
export const SECRET_BYTES = 32;
export const NONCE_BYTES = 32;

/** A fresh secret, hex. */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('hex');
}

/** A fresh nonce, hex. */
export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('hex');
}

/** Checks that text is a secret or nonce as this module makes them (64 lowercase hex digits). */
export function isHex256(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

function mac(secret: string, label: string, first: string, second: string): string {
  return createHmac('sha256', Buffer.from(secret, 'hex')).update(`${label}\n${first}\n${second}`).digest('hex');
}

/** What the server sends to prove it knows the secret. */
export function clientProof(secret: string, controllerNonce: string, clientNonce: string): string {
  return mac(secret, 'robot-sim client v1', controllerNonce, clientNonce);
}

/** What the controller sends back to prove it knows the secret too. */
export function controllerProof(secret: string, controllerNonce: string, clientNonce: string): string {
  return mac(secret, 'robot-sim controller v1', clientNonce, controllerNonce);
}

/** Constant-time comparison of two hex MACs; false for anything malformed. */
export function proofMatches(expected: string, received: unknown): boolean {
  if (!isHex256(received)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(received, 'hex'));
}
