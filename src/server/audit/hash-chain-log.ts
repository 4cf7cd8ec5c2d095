/**
 * HashChainLog: the toolkit's one append-only, hash-chained JSON-lines log. The `auditLog`
 * middleware writes through it, and so does the robot arm's audit log.
 *
 * Format (one record per line): `{"seq":N,"time":"<ISO>","prev":"<hash>","type":"...",...fields}`,
 * where `prev` is the SHA-256 (`lineHash`) of the previous line as written ("" for the first line of a log).
 * Verify with {@link verifyHashChainLog}.
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, renameSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { checkKeptApart } from './audit-paths.js';
import { ChainHeadWriter } from './chain-head.js';
import { acquireLock, DEFAULT_LOCKED_HINT, releaseLock } from '../files/file-lock.js';
import { cutRecord, nextRotatedName, readTail, rotatedFiles } from './hash-chain-files.js';
import { openKey, tighten } from './hash-chain-open.js';
import { checkHashChainLogOptions } from './hash-chain-options.js';
import type { HashChainFsync, HashChainLogOptions } from './hash-chain-options.js';
import { isoNow, safeStringify, writeAll } from './hash-chain-text.js';
import { KEYED_MARKER, lineHash, recordSeq, verifyHashChainLog } from './hash-chain-verify.js';
import type { HashChainRecord, HashChainVerification, StoredHashChainRecord } from './hash-chain-verify.js';

export { checkHashChainLogOptions } from './hash-chain-options.js';
export type { HashChainFsync, HashChainLogOptions } from './hash-chain-options.js';

/** How opening a broken chain ends its error message: what was refused, and what to do. */
export const BROKEN_CHAIN_REFUSAL = 'refusing to extend a broken chain (`toolwright audit verify <log>` lists every problem; to start a new chain, move the log, its rotated files and its head aside and keep them as evidence)';

/** Told of each record once it is written: the record and the hash the next record links to. */
export type AppendListener = (record: StoredHashChainRecord, lineHash: string) => void;

const RESERVED = ['seq', 'time', 'prev'] as const;
/** In `never` mode, a batch this large is written at once rather than on the next turn. */
const BATCH_BYTES = 1 << 20;
/** Logs in `never` mode with lines not yet written, flushed if the process exits first. */
const unflushed = new Set<HashChainLog>();
let exitHookInstalled = false;

/**
 * An open hash-chain log: one writer (the lock file `<path>.lock` holds its pid), records appended
 * in order, each chained to the line before. Bounded: an oversized record is cut before it is
 * written, and the file is rotated by size with the chain (and `seq`) carried into the next file,
 * whose first record is `{"type":"log_rotated","previous_file":"<name>.N"}`. Opening repairs a torn
 * last line (a crash mid-write): it is left in place, skipped, and the next record starts on a new
 * line chained to the last complete one. Open with {@link openHashChainLog}.
 */
export class HashChainLog {
  /** The current file, as an absolute path (resolved once when opened). */
  readonly path: string;
  readonly fsync: HashChainFsync;
  #fd: number | null;
  #seq: number;
  #prev: string;
  #size: number;
  readonly #lock: string;
  readonly #maxRecordBytes: number;
  readonly #maxFileBytes: number;
  readonly #listeners = new Set<AppendListener>();
  #pending: string[] = [];
  #pendingBytes = 0;
  #flushTimer: NodeJS.Immediate | NodeJS.Timeout | undefined;
  readonly #flushWithinMs: number;
  #failure: Error | undefined;
  /** How a line is linked: a plain hash, or once keyed the key's HMAC. */
  #link: (line: string) => string = lineHash;
  #keyId: string | undefined;
  #head: ChainHeadWriter | undefined;
  /** The next seal blanks the other slot too (see the constructor). */
  #resetHead = false;
  /** The last record queued in `never` mode: the head is sealed with it once it is written. */
  #pendingHead: { seq: number; link: string } | undefined;
  /** What verifying the chain at open found (undefined when nothing was verified). */
  readonly openVerdict: HashChainVerification | undefined;

  /** Prefer {@link openHashChainLog}; this is the same. */
  constructor(givenPath: string, options: HashChainLogOptions = {}) {
    // Resolved once: the lock, the rotated names and every later rename use one absolute spelling,
    // whatever the cwd does later and however the caller wrote it ('./x', 'a//b', 'x/../y').
    const path = resolve(givenPath);
    const checked = checkHashChainLogOptions(options);
    this.path = path;
    this.fsync = checked.fsync;
    this.#flushWithinMs = checked.flushWithinMs;
    this.#maxRecordBytes = checked.maxRecordBytes;
    this.#maxFileBytes = checked.maxFileBytes;
    if ((options.key === undefined) !== (options.head === undefined)) throw new RangeError('hash-chain log: key and head go together (a keyed chain without its head cannot tell a cut-off end)');
    if (options.key !== undefined && options.head !== undefined) checkKeptApart(path, { key: options.key, head: options.head });
    // A folder made here is the user's only: the records name what every caller did.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#lock = acquireLock(path, options.lockedHint ?? DEFAULT_LOCKED_HINT);
    let fd: number | undefined;
    try {
      fd = openSync(path, 'a+', 0o600);
      this.#fd = fd;
      const stat = fstatSync(fd);
      // An audit log holds every call's arguments: never readable by others, however it was made.
      if (stat.isFile() && (stat.mode & 0o077) !== 0) tighten(fd);
      let tail = readTail(fd, recordSeq);
      this.#size = tail.size;
      if (tail.line === undefined) {
        // An empty (or all-torn) current file after a rotation: the chain goes on from the rotated one.
        const rotated = rotatedFiles(path);
        if (rotated.length > 0) {
          const rotatedFd = openSync(rotated[rotated.length - 1]!, 'r');
          try {
            tail = { ...readTail(rotatedFd, recordSeq), endsWithNewline: tail.endsWithNewline, size: tail.size };
          } finally {
            closeSync(rotatedFd);
          }
        }
      }
      this.#seq = tail.seq;
      const key = options.key === undefined ? undefined : openKey(path, options.key, options.head!);
      const verify = options.verifyOnOpen ?? true;
      // Only a regular file can be read back (a device or FIFO never ends or cannot be re-read).
      // A keyed log is always read: whether its tail is keyed decides how the next line links.
      if ((verify !== false || key !== undefined) && stat.isFile()) {
        const rotated = verify === 'report' || (tail.line === undefined && rotatedFiles(path).length > 0);
        this.openVerdict = verifyHashChainLog(path, { rotated, ...(key !== undefined ? { key, head: options.head! } : {}) });
        if (verify === true && !this.openVerdict.ok) {
          const more = this.openVerdict.problems.length - 1;
          throw new Error(`audit log ${path}: ${this.openVerdict.problems[0]!}${more > 0 ? ` (and ${more} more problem(s))` : ''}; ${BROKEN_CHAIN_REFUSAL}`);
        }
      }
      const keyedTail = key !== undefined && this.openVerdict?.keyed !== undefined;
      this.#prev = tail.line === undefined ? '' : keyedTail ? key.link(tail.line) : lineHash(tail.line);
      if (!tail.endsWithNewline) this.#writeNow('\n');
      if (key !== undefined) {
        this.#head = new ChainHeadWriter(options.head!, key, this.fsync === 'every-entry');
        // The chain_keyed record links to the line before it plainly; every line from it on, by MAC.
        this.#link = key.link;
        this.#keyId = key.id;
        if (!keyedTail) this.#write(() => ({ type: KEYED_MARKER, key_id: key.id }), undefined, false);
        // Sealed at open too: heals a head one record behind (a crash between record and head). A
        // broken chain continued ('report') keeps its old head until the next record (the caller's
        // account of the break) is on disk, so a crash before that loses no evidence; that first
        // seal also blanks a head above a cut log, which must no longer outrank the new end.
        this.flush();
        if (this.openVerdict?.ok === false) this.#resetHead = true;
        else this.#head.reset(this.#seq, this.#prev);
      }
    } catch (error) {
      this.#head?.close();
      if (fd !== undefined) closeSync(fd);
      releaseLock(this.#lock);
      throw error;
    }
  }

  /** The link of the last line (what the next record's `prev` will be: its SHA-256 (`lineHash`), or its MAC once keyed); "" for an empty log. */
  get lastHash(): string {
    return this.#prev;
  }

  /** `seq` of the last record; 0 for an empty log. */
  get lastSeq(): number {
    return this.#seq;
  }

  /**
   * Appends one record and returns it as stored (possibly cut). With `fsync: 'every-entry'` it is
   * on disk when this returns. Throws when the log is closed or an earlier batched write failed,
   * so that nothing goes on unrecorded.
   */
  append(record: HashChainRecord): StoredHashChainRecord {
    this.#checkRecord(record);
    return this.#write(() => record, undefined, true)!;
  }

  /**
   * `append` for a caller that serialises its record itself, on a hot path (the audit middleware,
   * once per call): `members` must be exactly `JSON.stringify(record())` without its opening brace,
   * i.e. starting `"type":`. Given without the brace so that the line is the head and these members
   * joined once, with no copy of the record text cut out of a larger one. `record` is called only
   * when the object is needed (a listener, or a record too large that must be cut), and nothing is
   * returned, so in the usual case no record object is built at all.
   * @internal
   */
  appendSerialized(members: string, record: () => HashChainRecord): void {
    this.ensureWritable();
    if (!members.startsWith('"type":')) throw new TypeError('hash-chain log: serialised members start with "type" (the record\'s JSON without its opening brace)');
    this.#rotateIfFull();
    this.#write(record, members, false);
  }

  #checkRecord(record: HashChainRecord): void {
    this.ensureWritable();
    if (typeof record !== 'object' || record === null || typeof record.type !== 'string') throw new TypeError('hash-chain log: a record is an object with a string "type"');
    for (const key of RESERVED) if (Object.hasOwn(record, key)) throw new TypeError(`hash-chain log: "${key}" is set by the log, not by the record`);
    this.#rotateIfFull();
  }

  #rotateIfFull(): void {
    if (this.#size >= this.#maxFileBytes) this.#rotate();
  }

  /**
   * Throws what `append` would throw before writing anything: the log is closed, or an earlier
   * batched write failed. Lets a caller refuse work it could not record before doing it.
   */
  ensureWritable(): void {
    if (this.#fd === null) throw new Error(`audit log ${this.path} is closed; refusing to run unaudited`);
    if (this.#failure !== undefined) throw new Error(`audit log ${this.path}: an earlier write failed (${this.#failure.message}); refusing to run unaudited`);
  }

  /**
   * Listens to every record once appended (with its line's hash, the next record's `prev`), e.g.
   * for a live tail. A listener that throws is dropped; it can never make an append fail.
   */
  onAppend(listener: AppendListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Writes the lines batched by `fsync: 'never'` now (a no-op in `every-entry` mode). Throws if the write fails. */
  flush(): void {
    if (this.#flushTimer !== undefined) this.#clearFlushTimer();
    this.#flushTimer = undefined;
    unflushed.delete(this);
    if (this.#pending.length === 0 || this.#fd === null) return;
    // One join makes the batch's text, every line followed by its newline (the '' ends the last).
    this.#pending.push('');
    const text = this.#pending.join('\n');
    this.#pending = [];
    this.#pendingBytes = 0;
    try {
      writeAll(this.#fd, text);
      if (this.#pendingHead !== undefined) this.#seal(this.#pendingHead.seq, this.#pendingHead.link);
      this.#pendingHead = undefined;
    } catch (error) {
      this.#failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  /** Writes what is batched, closes the file and releases the lock. Idempotent. */
  close(): void {
    if (this.#fd === null) return;
    try {
      this.flush();
    } finally {
      closeSync(this.#fd);
      this.#fd = null;
      this.#head?.close();
      releaseLock(this.#lock);
    }
  }

  #write(getRecord: () => HashChainRecord, members: string | undefined, returnStored: boolean): StoredHashChainRecord | undefined {
    const seq = this.#seq + 1;
    const time = isoNow();
    const prev = this.#prev;
    let stored: StoredHashChainRecord | undefined;
    // The head needs no escaping (an integer, an ISO date, a hex hash or ""), so only the record is
    // serialised: the same text as stringifying the stored record, for a third less work per call.
    const body = members ?? safeStringify(getRecord())?.slice(1);
    let line = body === undefined ? undefined : `{"seq":${seq},"time":"${time}","prev":"${prev}",${body}`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: short lines need no exact count.
    if (line === undefined || (line.length * 3 > this.#maxRecordBytes && Buffer.byteLength(line) > this.#maxRecordBytes)) {
      const { type, ...fields } = getRecord();
      const originalBytes = line === undefined ? null : Buffer.byteLength(line);
      const cut = cutRecord(fields, this.#maxRecordBytes - 512) ?? fields;
      const marker = { original_bytes: originalBytes, limit_bytes: this.#maxRecordBytes };
      stored = { seq, time, prev, type: String(type).slice(0, 200), ...cut, record_truncated: marker };
      line = safeStringify(stored) ?? JSON.stringify({ seq, time, prev, type: String(type).slice(0, 200), record_truncated: marker });
    }
    // Hashing first makes the line one flat string, which the byte count and the batch's join then
    // read without copying it again.
    const hash = this.#link(line);
    if (this.fsync === 'every-entry') {
      this.#writeNow(`${line}\n`);
      this.#sealHead(seq, hash);
    } else {
      this.#queue(line);
      if (this.#head !== undefined) this.#pendingHead = { seq, link: hash };
    }
    this.#seq++;
    this.#prev = hash;
    if (stored === undefined && (returnStored || this.#listeners.size > 0)) stored = { seq, time, prev, ...getRecord() };
    if (this.#listeners.size > 0) this.#tell(stored!);
    return stored;
  }

  #tell(stored: StoredHashChainRecord): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(stored, this.#prev);
      } catch {
        this.#listeners.delete(listener);
      }
    }
  }

  /** Renames the full file `<path>.N` and starts a new one whose first record chains to its last line. */
  #rotate(): void {
    this.flush();
    const rotatedTo = nextRotatedName(this.path);
    closeSync(this.#fd!);
    this.#fd = null;
    renameSync(this.path, rotatedTo);
    this.#fd = openSync(this.path, 'a+');
    this.#size = 0;
    // A keyed chain's marker names its key, so a file read on its own (older ones pruned) is known to be keyed.
    this.#write(() => ({ type: 'log_rotated', previous_file: basename(rotatedTo), ...(this.#keyId !== undefined ? { key_id: this.#keyId } : {}) }), undefined, false);
  }

  #seal(seq: number, link: string): void {
    if (this.#resetHead) this.#head!.reset(seq, link);
    else this.#head!.write(seq, link);
    this.#resetHead = false;
  }

  /** Seals the head after a record is on disk; a failure stops the log as a failed write does. */
  #sealHead(seq: number, link: string): void {
    if (this.#head === undefined) return;
    try {
      this.#seal(seq, link);
    } catch (error) {
      this.#failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  #writeNow(text: string): void {
    try {
      this.#size += writeAll(this.#fd!, text);
      if (this.fsync === 'every-entry') fsyncSync(this.#fd!);
    } catch (error) {
      // A line may be half written: nothing more goes after it, so the chain is never glued to a torn line.
      this.#failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  /** Keeps one line (without its newline) for the next batched write. */
  #queue(line: string): void {
    const bytes = Buffer.byteLength(line) + 1;
    this.#pending.push(line);
    this.#pendingBytes += bytes;
    this.#size += bytes;
    if (this.#pendingBytes >= BATCH_BYTES) {
      this.flush();
      return;
    }
    if (this.#flushTimer !== undefined) return;
    unflushed.add(this);
    installExitHook();
    const write = (): void => {
      this.#flushTimer = undefined;
      try {
        this.flush();
      } catch {
        // Kept in #failure: the next append throws, so the caller learns of it.
      }
    };
    this.#flushTimer = this.#flushWithinMs === 0 ? setImmediate(write) : setTimeout(write, this.#flushWithinMs);
  }

  #clearFlushTimer(): void {
    if (this.#flushWithinMs === 0) clearImmediate(this.#flushTimer as NodeJS.Immediate);
    else clearTimeout(this.#flushTimer as NodeJS.Timeout);
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const log of [...unflushed]) {
      try {
        log.flush();
      } catch {
        // The process is going away; nothing left to tell.
      }
    }
  });
}

/**
 * Opens (creating it and its directory if needed) or continues the hash-chain log at `path`.
 * Throws {@link HashChainLogLockedError} when another live process holds it, and (unless
 * `verifyOnOpen: false`) an error naming the line when the current file's chain is broken.
 *
 * @example
 * ```ts
 * import { openHashChainLog } from 'toolwright';
 *
 * const log = openHashChainLog('audit.jsonl', { fsync: 'never' });
 * log.append({ type: 'deploy', version: '1.4.2' });
 * log.close();
 * ```
 */
export function openHashChainLog(path: string, options: HashChainLogOptions = {}): HashChainLog {
  return new HashChainLog(path, options);
}
