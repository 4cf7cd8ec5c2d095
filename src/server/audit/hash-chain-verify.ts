/**
 * Reading and verifying a hash-chain log ({@link HashChainLog}): every line is a JSON record whose
 * `prev` is the hash of the line before it, byte for byte as written ({@link lineHash}), and whose
 * `seq` is one more than the line before. The chain runs across rotated files (`<log>.1`, `<log>.2`,
 * ..., then `<log>`), so one call verifies everything a log ever wrote that is still on disk.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { sha256 } from '../../protocol/sha256.js';
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
  /** True when the chain is unbroken: every `prev` and every `seq` follows from the line before, from seq 1 (or from a pruned head, when allowed). */
  readonly ok: boolean;
  /** The records, oldest first. */
  readonly records: StoredHashChainRecord[];
  /**
   * Lines that are not JSON at all: a write cut short by a crash (reopening leaves such a line in
   * place and goes on after it). They are skipped (the record after one chains to the last
   * complete line), so they are counted here, not as breaks. A line that is complete JSON but not a
   * record (no integer `seq` or string `prev`) cannot come from a torn write: it is a break.
   */
  readonly tornLines: number;
  /** `seq` of each record whose `prev` is not the hash of the complete line before it (an edited, removed or reordered line). */
  readonly chainBreaks: number[];
  /**
   * True when the oldest file verified starts with a rotation marker past seq 1 whose previous file
   * is not on disk: older rotated files were removed (pruned). A break unless
   * {@link VerifyHashChainOptions.allowPrunedHead}; either way the records before are not verified.
   */
  readonly headPruned: boolean;
  /** Every break found, as `<file> line <n>: <reason>` (empty when `ok`). */
  readonly problems: string[];
}

/** Options of {@link verifyHashChainLog}. */
export interface VerifyHashChainOptions {
  /** Verify the rotated files too, oldest first, as one chain with the current file (default true). */
  rotated?: boolean;
  /**
   * Accept a log whose oldest rotated files were deleted on purpose (retention): the oldest file
   * kept may then start with its `log_rotated` marker at seq > 1 (reported in `headPruned`).
   * Default false: a log must go back to seq 1. A first record past seq 1 that is not a rotation
   * marker (a removed head) is a break either way. With `rotated: false` the previous files are
   * deliberately not read, so a current file starting with its rotation marker is accepted.
   */
  allowPrunedHead?: boolean;
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
  const record = parseLine(line);
  return typeof record === 'object' ? record.seq : undefined;
}

/** A record, `'torn'` for a line that is not JSON, `'foreign'` for complete JSON that is not a record. */
function parseLine(line: string): StoredHashChainRecord | 'torn' | 'foreign' {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // Records are written whole, one per line: a cut-short write leaves a prefix of an object, which never parses.
    return 'torn';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'foreign';
  const record = value as Partial<StoredHashChainRecord>;
  return Number.isInteger(record.seq) && typeof record.prev === 'string' ? (record as StoredHashChainRecord) : 'foreign';
}

const ROTATION_MARKER = 'log_rotated';

/**
 * Reads a hash-chain log and checks its chain. Never throws for what the file holds (a missing file
 * throws, as `readFileSync` does).
 *
 * @example
 * const { ok, problems } = verifyHashChainLog('calls.jsonl');
 * if (!ok) console.error(problems.join('\n'));
 */
export function verifyHashChainLog(givenPath: string, options: VerifyHashChainOptions = {}): HashChainVerification {
  // Resolved as HashChainLog resolves it (lexically), so both read the same files however spelt.
  const path = resolve(givenPath);
  const withRotated = options.rotated !== false;
  const files = withRotated ? [...rotatedFiles(path), path] : [path];
  const records: StoredHashChainRecord[] = [];
  const chainBreaks: number[] = [];
  const problems: string[] = [];
  let tornLines = 0;
  let headPruned = false;
  let prevHash: string | undefined;
  let prevSeq: number | undefined;
  let prevFile: string | undefined;
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let firstOfFile = true;
    for (const [index, line] of lines.entries()) {
      if (line === '') continue;
      const where = `${basename(file)} line ${index + 1}`;
      const record = parseLine(line);
      if (record === 'torn') {
        tornLines++;
        continue;
      }
      if (record === 'foreign') {
        problems.push(`${where}: complete JSON that is not a record (no integer "seq" and string "prev"): an inserted or edited line`);
        continue;
      }
      const marker = record.type === ROTATION_MARKER;
      if (prevHash === undefined) {
        if (record.seq === 1) {
          if (record.prev !== '') {
            chainBreaks.push(record.seq);
            problems.push(`${where}: prev does not match the hash of the line before`);
          }
        } else if (!marker) {
          problems.push(`${where}: the log starts at seq ${record.seq}, not 1, without a rotation marker: its first ${record.seq - 1} record(s) were removed`);
        } else if (withRotated) {
          headPruned = true;
          if (options.allowPrunedHead !== true) {
            problems.push(`${where}: the log starts at seq ${record.seq}: the rotated file before it (${String(record.previous_file)}) is missing (pass allowPrunedHead if older files were pruned on purpose)`);
          }
        }
      } else {
        if (record.prev !== prevHash) {
          chainBreaks.push(record.seq);
          problems.push(`${where}: prev does not match the hash of the line before`);
        }
        if (record.seq !== prevSeq! + 1) problems.push(`${where}: seq is ${record.seq}, expected ${prevSeq! + 1}`);
        if (firstOfFile && marker && prevFile !== undefined && record.previous_file !== basename(prevFile)) {
          problems.push(`${where}: rotated from ${String(record.previous_file)}, but the file before it is ${basename(prevFile)}: a rotated file is missing`);
        }
      }
      firstOfFile = false;
      prevHash = lineHash(line);
      prevSeq = record.seq;
      records.push(record);
    }
    if (!firstOfFile) prevFile = file;
  }
  return { ok: problems.length === 0, records, tornLines, chainBreaks, headPruned, problems };
}
