/**
 * Reading and verifying a hash-chain log ({@link HashChainLog}): every line is a JSON record whose
 * `prev` is the link of the line before it, byte for byte as written (its SHA-256, `lineHash`, or once the
 * chain is keyed by a `chain_keyed` record, the HMAC under its key), and whose `seq` is one more
 * than the line before. With a sealed head (chain-head.ts), a cut-off end and an edited last
 * record are found too. The chain runs across rotated files (`<log>.1`, `<log>.2`,
 * ..., then `<log>`), so one call verifies everything a log ever wrote that is still on disk.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { sha256 } from '../../protocol/sha256.js';
import { loadAuditKey } from './audit-key.js';
import type { AuditKey } from './audit-key.js';
import { readChainHead } from './chain-head.js';
import type { HeadReading } from './chain-head.js';
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
  /** The SHA-256 (`lineHash`) of the previous line; "" for the first line of a log. */
  readonly prev: string;
}

/** What {@link verifyHashChainLog} found. */
export interface HashChainVerification {
  /** True when the chain is unbroken: every `prev` and every `seq` follows from the line before, from seq 1 (or from a pruned head, when allowed), and the head (when given) matches. */
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
  /** `seq` of each record whose `prev` is not the link of the complete line before it (an edited, removed or reordered line). */
  readonly chainBreaks: number[];
  /**
   * True when the oldest file verified starts with a rotation marker past seq 1 whose previous file
   * is not on disk: older rotated files were removed (pruned). A break unless
   * {@link VerifyHashChainOptions.allowPrunedHead}; either way the records before are not verified.
   */
  readonly headPruned: boolean;
  /**
   * Where the chain is keyed (links are HMACs under a key): from the `chain_keyed` record (or the
   * first rotation marker naming a key) at `fromSeq`, with the key's id. Undefined for an unkeyed
   * chain, whose links are plain hashes that anyone can recompute.
   */
  readonly keyed: { readonly fromSeq: number; readonly keyId: string } | undefined;
  /**
   * The sealed head, when one was given and read: its `seq`, and how many records the log holds
   * past it (0 normally; more after a crash between a record and its head, which is no break:
   * those records link by MAC, which only the key's holder can make).
   */
  readonly head: { readonly seq: number; readonly pastHead: number } | undefined;
  /** Every break found, as `<file> line <n>: <reason>` or, for the head, `<head file>: <reason>` (empty when `ok`). */
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
  /**
   * The chain's key: a key file's path or a loaded key. Without it, a keyed chain's links cannot
   * be checked (a break: "give its key"). A key file that cannot be loaded throws {@link AuditKeyError}.
   */
  key?: string | AuditKey;
  /**
   * The log's sealed head file (needs `key`). A log that ends before its head was truncated; a
   * last record that is not the sealed one was edited; a keyed log without its head is a break
   * (truncation cannot be ruled out); a missing or empty log with a head was deleted.
   */
  head?: string;
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
/** The record after which a chain's links are HMACs under the key it names (`key_id`). */
export const KEYED_MARKER = 'chain_keyed';

/**
 * Reads a hash-chain log and checks its chain, and its sealed head when given. Never throws for
 * what the files hold; a missing log throws as `readFileSync` does, unless a head says it existed
 * (then it is a break: deleted), and a key that cannot be loaded throws {@link AuditKeyError}.
 *
 * @example
 * ```ts
 * import { verifyHashChainLog } from 'toolwright';
 *
 * const { ok, problems } = verifyHashChainLog('calls.jsonl', { key: 'audit.key', head: 'calls.head' });
 * if (!ok) console.error(problems.join('\n'));
 * ```
 */
export function verifyHashChainLog(givenPath: string, options: VerifyHashChainOptions = {}): HashChainVerification {
  // Resolved as HashChainLog resolves it (lexically), so both read the same files however spelt.
  const path = resolve(givenPath);
  const key = typeof options.key === 'string' ? loadAuditKey(options.key) : options.key;
  if (options.head !== undefined && key === undefined) throw new TypeError('verifyHashChainLog: a head can only be checked with the key it was sealed with (give key too)');
  const head = options.head === undefined || key === undefined ? undefined : readChainHead(options.head, key);
  const withRotated = options.rotated !== false;
  const files = withRotated ? [...rotatedFiles(path), path] : [path];
  const chain = new ChainCheck(key, head?.state === 'sealed' ? head.seq : undefined);
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      // A log its head says existed is a finding, not an exception.
      if (file !== path || head?.state !== 'sealed' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      text = '';
    }
    chain.readFile(file, text, withRotated, options.allowPrunedHead === true);
  }
  const headSummary = options.head === undefined || head === undefined ? undefined : chain.checkHead(resolve(options.head), head);
  const { records, tornLines, chainBreaks, headPruned, keyed, problems } = chain;
  return { ok: problems.length === 0, records, tornLines, chainBreaks, headPruned, keyed, head: headSummary, problems };
}

/** The running check of one chain, file after file. */
class ChainCheck {
  readonly records: StoredHashChainRecord[] = [];
  readonly chainBreaks: number[] = [];
  readonly problems: string[] = [];
  tornLines = 0;
  headPruned = false;
  keyed: { fromSeq: number; keyId: string } | undefined;
  readonly #key: AuditKey | undefined;
  readonly #headSeq: number | undefined;
  /** The link function in force: plain hash until the chain is keyed, then the key's HMAC. */
  #link: (line: string) => string = lineHash;
  /** False once links cannot be checked (keyed, and no key or the wrong one): each would be a false break. */
  #checkable = true;
  #prevLink: string | undefined;
  #prevSeq: number | undefined;
  #prevFile: string | undefined;
  /** The link of the record at the head's seq, as computed from the log. */
  #linkAtHead: string | undefined;

  constructor(key: AuditKey | undefined, headSeq: number | undefined) {
    this.#key = key;
    this.#headSeq = headSeq;
  }

  readFile(file: string, text: string, withRotated: boolean, allowPrunedHead: boolean): void {
    const lines = text.split('\n');
    let firstOfFile = true;
    for (const [index, line] of lines.entries()) {
      if (line === '') continue;
      const where = `${basename(file)} line ${index + 1}`;
      const record = parseLine(line);
      if (record === 'torn') {
        this.tornLines++;
        continue;
      }
      if (record === 'foreign') {
        this.problems.push(`${where}: complete JSON that is not a record (no integer "seq" and string "prev"): an inserted or edited line`);
        continue;
      }
      const marker = record.type === ROTATION_MARKER;
      if (this.#prevLink === undefined) {
        if (record.seq === 1) {
          if (record.prev !== '') this.#break(record.seq, `${where}: prev does not match the hash of the line before`);
        } else if (!marker) {
          this.problems.push(`${where}: the log starts at seq ${record.seq}, not 1, without a rotation marker: its first ${record.seq - 1} record(s) were removed`);
        } else if (withRotated) {
          this.headPruned = true;
          if (!allowPrunedHead) {
            this.problems.push(`${where}: the log starts at seq ${record.seq}: the rotated file before it (${String(record.previous_file)}) is missing (pass allowPrunedHead if older files were pruned on purpose)`);
          }
        }
        // The first line read may be mid-chain (a rotated or pruned file): a marker says whether it is keyed.
        if (marker && typeof record.key_id === 'string') this.#enterKeyed(record.seq, record.key_id, where);
      } else {
        if (this.#checkable && record.prev !== this.#prevLink) {
          this.#break(record.seq, `${where}: prev does not match the ${this.keyed === undefined ? 'hash' : 'MAC'} of the line before`);
        }
        if (record.seq !== this.#prevSeq! + 1) this.problems.push(`${where}: seq is ${record.seq}, expected ${this.#prevSeq! + 1}`);
        if (firstOfFile && marker && this.#prevFile !== undefined && record.previous_file !== basename(this.#prevFile)) {
          this.problems.push(`${where}: rotated from ${String(record.previous_file)}, but the file before it is ${basename(this.#prevFile)}: a rotated file is missing`);
        }
      }
      // A chain_keyed record is linked in the mode before it; the links after it are keyed.
      if (record.type === KEYED_MARKER) {
        if (typeof record.key_id === 'string') this.#enterKeyed(record.seq, record.key_id, where);
        else this.problems.push(`${where}: a ${KEYED_MARKER} record without a key_id`);
      }
      firstOfFile = false;
      this.#prevLink = this.#checkable ? this.#link(line) : '';
      this.#prevSeq = record.seq;
      if (record.seq === this.#headSeq) this.#linkAtHead = this.#prevLink;
      this.records.push(record);
    }
    if (!firstOfFile) this.#prevFile = file;
  }

  /** The head's findings: deleted log, rewritten without the key, truncated, or last record edited. */
  checkHead(headPath: string, head: HeadReading): { seq: number; pastHead: number } | undefined {
    const lastSeq = this.#prevSeq;
    if (head.state === 'missing') {
      if (this.keyed !== undefined) this.problems.push(`${headPath}: no head, but the log is keyed (from seq ${this.keyed.fromSeq}): a deleted head hides a truncated log (if the head was moved, name it)`);
      return undefined;
    }
    if (head.state === 'invalid') {
      this.problems.push(`${headPath}: ${head.reason}`);
      return undefined;
    }
    if (lastSeq === undefined) {
      this.problems.push(`${headPath}: the head says the log reached seq ${head.seq}, but the log is missing or empty: it was deleted or emptied`);
    } else if (this.keyed === undefined) {
      this.problems.push(`${headPath}: the head was sealed for a keyed log, but the log has no keyed chain: it was rewritten without its key`);
    } else if (lastSeq < head.seq) {
      this.problems.push(`${headPath}: the head says the log reached seq ${head.seq}, but it ends at seq ${lastSeq}: ${head.seq - lastSeq} record(s) were cut from its end`);
    } else if (this.#linkAtHead !== undefined && this.#checkable && this.#linkAtHead !== head.link) {
      this.problems.push(`${headPath}: record ${head.seq} is not the record sealed in the head: it was edited or replaced`);
    }
    return { seq: head.seq, pastHead: Math.max(0, (lastSeq ?? 0) - head.seq) };
  }

  #break(seq: number, problem: string): void {
    this.chainBreaks.push(seq);
    this.problems.push(problem);
  }

  #enterKeyed(seq: number, keyId: string, where: string): void {
    if (this.keyed !== undefined) {
      if (this.keyed.keyId !== keyId) this.problems.push(`${where}: the chain's key changes from ${this.keyed.keyId} to ${keyId} (a chain has one key)`);
      return;
    }
    this.keyed = { fromSeq: seq, keyId };
    if (this.#key === undefined) {
      this.problems.push(`${where}: the chain is keyed from seq ${seq} (key ${keyId}): give its key to verify the records from here on`);
      this.#checkable = false;
    } else if (this.#key.id !== keyId) {
      this.problems.push(`${where}: the chain is keyed with key ${keyId}, but the key given (${this.#key.path}) is ${this.#key.id}: wrong key`);
      this.#checkable = false;
    } else {
      this.#link = this.#key.link;
    }
  }
}
