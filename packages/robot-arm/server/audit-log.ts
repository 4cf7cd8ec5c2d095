/**
 * The robot's audit log: Toolwright's hash-chain log (`HashChainLog`) with the robot's posture.
 * Every record is written and fsync'd before `append` returns, so a record is on disk before the
 * call it describes is answered: a `kill -9` afterwards cannot lose it. The chain is keyed (HMAC
 * under a key file, a sealed head kept apart from the log; both default to the user's Toolwright
 * state folder). The file format, keyed chain, head, rotation, the lock (one process per log),
 * record cutting and torn-tail repair are the toolkit's.
 */
import { auditChainFiles, HashChainLog, verifyHashChainLog } from 'toolwright';
import type { AuditChainChoice, HashChainRecord, HashChainVerification, StoredHashChainRecord } from 'toolwright';

export { HashChainLogLockedError as AuditLogLockedError } from 'toolwright';

/** Size limits and chain files of an {@link AuditLog}. */
export interface AuditLogOptions extends AuditChainChoice {
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
 * refused: the robot keeps logging (the verdict is `openVerdict`; motion is refused until an
 * operator acknowledges the break, see audit-chain-gate.ts), since refusing to start would also
 * refuse the e-stop and status tools an operator needs.
 */
export class AuditLog extends HashChainLog {
  /** The key and head files of the chain (undefined for an unkeyed log, `key: false`). */
  readonly chainFiles: { readonly key: string; readonly head: string } | undefined;

  constructor(path: string, options: AuditLogOptions = {}) {
    const { key, head, ...sizes } = options;
    const chainFiles = auditChainFiles(path, { ...(key !== undefined ? { key } : {}), ...(head !== undefined ? { head } : {}) });
    super(path, {
      ...sizes,
      ...chainFiles,
      fsync: 'every-entry',
      verifyOnOpen: 'report',
      lockedHint: 'one server per audit log: stop that process or pass another --audit-log',
    });
    this.chainFiles = chainFiles;
  }
}

/** The chain files to verify `path` with: the log's own, or the defaults for that path. */
function filesOf(path: string, options: AuditChainChoice): { key?: string; head?: string } {
  return auditChainFiles(path, options) ?? {};
}

/** Reads and verifies the current file and every rotated one, oldest first, as one chain (key and head as for {@link AuditLog}). */
export function readAuditLogChain(path: string, options: AuditChainChoice = {}): AuditLogContents {
  return verifyHashChainLog(path, filesOf(path, options));
}

/** Reads and verifies the current file of an audit log (not its rotated predecessors). */
export function readAuditLog(path: string, options: AuditChainChoice = {}): AuditLogContents {
  return verifyHashChainLog(path, { rotated: false, ...filesOf(path, options) });
}
