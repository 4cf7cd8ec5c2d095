/**
 * Reading and verifying a hash-chain log ({@link HashChainLog}): every line is a JSON record whose
 * `prev` is the hash of the line before it, byte for byte as written ({@link lineHash}), and whose
 * `seq` is one more than the line before. The chain runs across rotated files (`<log>.1`, `<log>.2`,
 * ..., then `<log>`), so one call verifies everything a log ever wrote that is still on disk.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { sha256 } from '../../../protocol/sha256.js';
import { rotatedFiles } from './hash-chain-files.js';

/** A record as a caller appends it: a `type` and any JSON fields (not `seq`, `time` or `prev`). */
export interface HashChainRecord {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A record as stored: numbered, timestamped and chained to the previous line by hash. */
export interface StoredHashChainRecord extends HashChainRecord {
  /** 1 for the first record of a log, then one more per line, across rotations. */
  readonly seq: number;
  /** ISO 8601 time of the append. */
  readonly time: string;
  /** {@link lineHash} of the previous line; "" for the first line of a log. */
  readonly prev: string;
}

/** What {@link verifyHashChainLog} found. */
export interface HashChainVerification {
  /** True when the chain is unbroken: every `prev` and every `seq` follows from the line before. */
  readonly ok: boolean;
  /** The records, oldest first. */
  readonly records: StoredHashChainRecord[];
  /**
   * Lines that are not complete records: a write cut short by a crash. They are skipped (the
   * record after one chains to the last complete line), so they are counted here, not as breaks.
   */
  readonly tornLines: number;
  /** `seq` of each record whose `prev` is not the hash of the complete line before it (an edited, removed or reordered line). */
  readonly chainBreaks: number[];
  /** Every break found, as `<file> line <n>: <reason>` (empty when `ok`). */
  readonly problems: string[];
}

/** Options of {@link verifyHashChainLog}. */
export interface VerifyHashChainOptions {
  /** Verify the rotated files too, oldest first, as one chain with the current file (default true). */
  rotated?: boolean;
}

/**
 * The hash one line is chained by: SHA-256 of the line's UTF-8 text (without its newline), the
 * first 16 hex digits. Hashing the bytes as written, not a re-serialisation, lets any JSON tool
 * verify a log and costs one hash per line.
 */
export function lineHash(line: string): string {
  return sha256(line, 'hex').slice(0, 16);
}

/** The `seq` of a line that is a complete record, undefined for a torn or foreign line. */
export function recordSeq(line: string): number | undefined {
  const record = parseRecord(line);
  return record === undefined ? undefined : record.seq;
}

function parseRecord(line: string): StoredHashChainRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Partial<StoredHashChainRecord>;
  return Number.isInteger(record.seq) && typeof record.prev === 'string' ? (record as StoredHashChainRecord) : undefined;
}

/**
 * Reads a hash-chain log and checks its chain. Never throws for what the file holds (a missing file
 * throws, as `readFileSync` does).
 *
 * @example
 * const { ok, problems } = verifyHashChainLog('calls.jsonl');
 * if (!ok) console.error(problems.join('\n'));
 */
export function verifyHashChainLog(path: string, options: VerifyHashChainOptions = {}): HashChainVerification {
  const files = options.rotated === false ? [path] : [...rotatedFiles(path), path];
  const records: StoredHashChainRecord[] = [];
  const chainBreaks: number[] = [];
  const problems: string[] = [];
  let tornLines = 0;
  let prevHash: string | undefined;
  let prevSeq: number | undefined;
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const [index, line] of lines.entries()) {
      if (line === '') continue;
      const where = `${basename(file)} line ${index + 1}`;
      const record = parseRecord(line);
      if (record === undefined) {
        tornLines++;
        continue;
      }
      if (prevHash === undefined ? record.prev !== '' && record.seq === 1 : record.prev !== prevHash) {
        chainBreaks.push(record.seq);
        problems.push(`${where}: prev does not match the hash of the line before`);
      }
      if (prevSeq !== undefined && record.seq !== prevSeq + 1) problems.push(`${where}: seq is ${record.seq}, expected ${prevSeq + 1}`);
      prevHash = lineHash(line);
      prevSeq = record.seq;
      records.push(record);
    }
  }
  return { ok: problems.length === 0, records, tornLines, chainBreaks, problems };
}
