/**
 * The audit log: the toolkit's one append-only, hash-chained JSONL log ({@link HashChainLog}),
 * its verification, and the files around it (lock, rotation). The `auditLog` middleware
 * (`../middleware/audit/`) and the robot arm's audit log both write through it.
 */
export { HashChainLog, openHashChainLog, checkHashChainLogOptions } from './hash-chain-log.js';
export type { HashChainFsync, HashChainLogOptions } from './hash-chain-log.js';
export { verifyHashChainLog } from './hash-chain-verify.js';
export type { HashChainRecord, StoredHashChainRecord, HashChainVerification, VerifyHashChainOptions } from './hash-chain-verify.js';
export { HashChainLogLockedError } from '../files/file-lock.js';
export { AuditKeyError, createAuditKey, loadAuditKey } from './audit-key.js';
export type { AuditKey } from './audit-key.js';
export type { AppendListener } from './hash-chain-log.js';
export { auditChainFiles, checkKeptApart, defaultAuditHeadPath, defaultAuditKeyPath } from './audit-paths.js';
export { STATE_DIR_ENV, toolwrightStateDir } from '../files/state-dir.js';
export type { AuditChainChoice } from './audit-paths.js';
