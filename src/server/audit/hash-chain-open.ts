/**
 * What opening a hash-chain log does to the files around it: the log made private, and the key
 * loaded, or created when nothing was sealed with one yet.
 */
import { existsSync, fchmodSync } from 'node:fs';
import { resolve } from 'node:path';
import { AuditKeyError, createAuditKey, loadAuditKey } from './audit-key.js';
import type { AuditKey } from './audit-key.js';
import { verifyHashChainLog } from './hash-chain-verify.js';

/** Makes an existing log 0600 (it may hold every call's arguments); a file we do not own is left as it is. */
export function tighten(fd: number): void {
  try {
    fchmodSync(fd, 0o600);
  } catch {
    // Not the owner: nothing this process may change.
  }
}

/**
 * Loads the chain's key, or creates it when it does not exist and nothing was sealed with it yet:
 * a keyed log or a head whose key is gone is refused, since a new key would make every record
 * unverifiable (restore the key instead).
 */
export function openKey(logPath: string, keyPath: string, headPath: string): AuditKey {
  if (existsSync(keyPath)) return loadAuditKey(keyPath);
  const keyed = existsSync(logPath) ? verifyHashChainLog(logPath, { rotated: false }).keyed : undefined;
  if (keyed !== undefined) throw new AuditKeyError(`audit key ${resolve(keyPath)} does not exist, but the log ${logPath} is keyed (key ${keyed.keyId}): restore that key file`);
  if (existsSync(headPath)) throw new AuditKeyError(`audit key ${resolve(keyPath)} does not exist, but the head ${resolve(headPath)} was sealed with a key: restore that key file`);
  return createAuditKey(keyPath);
}
