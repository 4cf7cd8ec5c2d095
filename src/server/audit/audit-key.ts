/**
 * The key of a keyed audit chain: 32 random bytes in a file of its own (one line, 64 hex digits),
 * created 0600 in a 0700 folder and refused when others can read it. Each line of a keyed log is
 * linked to the one before by HMAC-SHA-256 under this key, and the log's sealed head is MAC'd with
 * it too, so a writer who cannot read the key cannot rewrite, reorder, cut or extend the chain
 * without the next verification saying so. See docs/audit.md for what that does and does not prove.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { hmacSha256Hex, sha256 } from '../../protocol/sha256.js';
import { createPrivateFileOnce, openToOthers } from '../files/private-file.js';
import { DefinitionError } from '../../errors/toolwright-error.js';

/** A key file that is missing, unreadable, malformed or readable by others. */
export class AuditKeyError extends DefinitionError {
  readonly errorCode = 'audit-key' as const;
  override readonly name = 'AuditKeyError';
}

/** A loaded audit key. The key bytes never leave this object. */
export interface AuditKey {
  /** The key file, absolute. */
  readonly path: string;
  /** A public fingerprint of the key (16 hex digits), written into the log so a wrong key is named as such. */
  readonly id: string;
  /** The link of a keyed chain: HMAC-SHA-256 of the line's UTF-8 text, the first 32 hex digits (128 bits). */
  link(line: string): string;
  /** The seal of a head: HMAC-SHA-256 over the head's sequence number and link, in a domain of its own. */
  seal(seq: number, link: string): string;
}

const KEY_TEXT = /^[0-9a-f]{64}$/;

function keyOf(path: string, hex: string): AuditKey {
  // The padded key is prepared once; each line then costs two one-shot hashes and no Hmac object
  // (protocol/sha256.ts), twice per audited call: its link and, per batch, the head's seal.
  const hmac = hmacSha256Hex(Buffer.from(hex, 'hex'));
  return {
    path,
    id: sha256(`toolwright audit key id\n${hex}`, 'hex').slice(0, 16),
    link: (line) => hmac(line).slice(0, 32),
    // Domain-separated from link(): a line's link, readable in the next line's "prev", is never a valid seal.
    seal: (seq, link) => hmac(`toolwright audit head v1\n${seq}\n${link}`),
  };
}

/**
 * Reads the key file at `path`. Throws {@link AuditKeyError} when it is missing, unreadable, not a
 * key, or readable by group or others (like ssh: a key others can read protects nothing).
 */
export function loadAuditKey(givenPath: string): AuditKey {
  const path = resolve(givenPath);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AuditKeyError(code === 'ENOENT' ? `audit key ${path} does not exist` : `audit key ${path} cannot be read (${(error as Error).message})`);
  }
  const mode = openToOthers(path);
  if (mode !== undefined) throw new AuditKeyError(`audit key ${path} can be read by others (mode ${mode.toString(8).padStart(4, '0')}): run chmod 600 ${path}`);
  const hex = text.trim();
  if (!KEY_TEXT.test(hex)) throw new AuditKeyError(`audit key ${path} is not an audit key (one line of 64 hex digits expected)`);
  return keyOf(path, hex);
}

/**
 * Creates a new random key at `path` (its folder 0700 if created, the file 0600) and returns it.
 * The file appears whole or not at all (written aside, then linked into place), so of several
 * processes creating it at once, all end up with the one key that won.
 */
export function createAuditKey(givenPath: string): AuditKey {
  const path = resolve(givenPath);
  createPrivateFileOnce(path, `${randomBytes(32).toString('hex')}\n`);
  return loadAuditKey(path);
}
