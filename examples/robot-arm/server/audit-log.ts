/**
 * The robot's audit log: Toolwright's hash-chain log (`HashChainLog`) with the robot's posture.
 * Every record is written and fsync'd before `append` returns, so a record is on disk before the
 * call it describes is answered: a `kill -9` afterwards cannot lose it. The file format, rotation,
 * the lock (one process per log), record cutting and torn-tail repair are the toolkit's.
 */
import { HashChainLog, verifyHashChainLog } from 'toolwright';
import type { HashChainRecord, HashChainVerification, StoredHashChainRecord } from 'toolwright';

export { HashChainLogLockedError as AuditLogLockedError } from 'toolwright';

/** Size limits of an {@link AuditLog}. */
export interface AuditLogOptions {
  /** A record whose line would be longer is written with its large fields cut (default 64 KiB). */
  maxRecordBytes?: number;
  /** The file is rotated (renamed `<path>.N`) once it reaches this size (default 64 MiB). */
  maxFileBytes?: number;
}

/** One line of the audit log. `seq`, `time` and `prev` are added by the log. */
export type AuditRecord = HashChainRecord;

/** A record as stored: numbered, timestamped and chained to the previous line by hash. */
export type StoredAuditRecord = StoredHashChainRecord;

/** What {@link readAuditLog} found. */
export type AuditLogContents = HashChainVerification;

/**
 * The robot's append-only audit log, durable per record. A broken chain found at start-up is not
 * refused: the robot keeps logging (its console shows the break), since refusing to start would
 * also refuse the e-stop and status tools an operator needs.
 */
export class AuditLog extends HashChainLog {
  constructor(path: string, options: AuditLogOptions = {}) {
    super(path, {
      ...options,
      fsync: 'every-entry',
      verifyOnOpen: false,
      lockedHint: 'one server per audit log: stop that process or pass another --audit-log',
    });
  }
}

/** Reads and verifies the current file and every rotated one, oldest first, as one chain. */
export function readAuditLogChain(path: string): AuditLogContents {
  return verifyHashChainLog(path);
}

/** Reads and verifies the current file of an audit log (not its rotated predecessors). */
export function readAuditLog(path: string): AuditLogContents {
  return verifyHashChainLog(path, { rotated: false });
}
