import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { acquireLock, cutRecord, nextRotatedName, readTail, releaseLock, rotatedFiles } from './audit-log-files.js';

export { AuditLogLockedError } from './audit-log-files.js';

/** Size limits of an {@link AuditLog}. */
export interface AuditLogOptions {
  /** A record whose line would be longer is written with its large fields cut (default 64 KiB). */
  maxRecordBytes?: number;
  /** The file is rotated (renamed `<path>.N`) once it reaches this size (default 64 MiB). */
  maxFileBytes?: number;
}

/** One line of the audit log. `seq` and `prev` are added by the log; everything else comes from the caller. */
export interface AuditRecord {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** A record as stored: numbered, timestamped and chained to the previous line by hash. */
export interface StoredAuditRecord extends AuditRecord {
  readonly seq: number;
  readonly time: string;
  /** SHA-256 (hex, first 16 chars) of the previous line; "" for the first line of a file. */
  readonly prev: string;
}

/**
 * An append-only JSON-lines audit log on disk. Every `append` is written with O_APPEND and fsync'd
 * before it returns, so a record is on disk before the call it describes is answered: a `kill -9`
 * afterwards cannot lose it. Each line carries the hash of the line before, so a deleted or edited
 * line shows up when the file is verified with {@link readAuditLog}.
 *
 * Bounded: a record over `maxRecordBytes` has its large fields cut (each marked with its size)
 * before it is written, and the file is rotated by size, the chain carried on into the next file
 * (its first record is `log_rotated`, chained to the last line of the rotated one). One process per
 * log: opening takes `<path>.lock`, and a second live process is refused with the holder's pid.
 */
export class AuditLog {
  readonly path: string;
  private fd: number | null;
  private seq: number;
  private prev: string;
  private size: number;
  private readonly lock: string;
  private readonly maxRecordBytes: number;
  private readonly maxFileBytes: number;
  private readonly listeners = new Set<(record: StoredAuditRecord, lineHash: string) => void>();

  constructor(path: string, options: AuditLogOptions = {}) {
    this.path = path;
    this.maxRecordBytes = options.maxRecordBytes ?? 64 * 1024;
    this.maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
    mkdirSync(dirname(path), { recursive: true });
    this.lock = acquireLock(path);
    try {
      this.fd = openSync(path, 'a+');
      let tail = readTail(this.fd, seqOf);
      this.size = tail.size;
      if (tail.line === undefined) {
        // An empty (or all-torn) current file after a rotation: the chain goes on from the rotated one.
        const rotated = rotatedFiles(path);
        if (rotated.length > 0) {
          const fd = openSync(rotated[rotated.length - 1]!, 'r');
          try { tail = { ...readTail(fd, seqOf), endsWithNewline: tail.endsWithNewline, size: tail.size }; } finally { closeSync(fd); }
        }
      }
      this.seq = tail.seq;
      this.prev = tail.line === undefined ? '' : lineHash(tail.line);
      if (!tail.endsWithNewline) this.writeDurably('\n');
    } catch (error) {
      releaseLock(this.lock);
      throw error;
    }
  }

  /** Appends one record durably (write + fsync) and returns it as stored (as written, so possibly cut). */
  append(record: AuditRecord): StoredAuditRecord {
    if (this.fd === null) throw new Error(`audit log ${this.path} is closed; refusing to run unaudited`);
    if (this.size >= this.maxFileBytes) this.rotate();
    return this.write(record);
  }

  /** Hash of the last line written (what the next record's `prev` will be); "" for an empty log. */
  get lastHash(): string {
    return this.prev;
  }

  /**
   * Listens to every record once it is on disk (with its line's hash, the next record's `prev`), e.g.
   * for a live tail. A listener that throws is dropped; it can never make an append fail.
   */
  onAppend(listener: (record: StoredAuditRecord, lineHash: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    releaseLock(this.lock);
  }

  private write(record: AuditRecord): StoredAuditRecord {
    let stored: StoredAuditRecord = { seq: this.seq + 1, time: new Date().toISOString(), prev: this.prev, ...record };
    let line = safeStringify(stored);
    if (line === undefined || Buffer.byteLength(line) > this.maxRecordBytes) {
      const { seq, time, prev, type, ...fields } = stored;
      const cut = cutRecord(fields, this.maxRecordBytes - 512) ?? fields;
      const originalBytes = line === undefined ? null : Buffer.byteLength(line);
      stored = { seq, time, prev, type: String(type).slice(0, 200), ...cut, record_truncated: { original_bytes: originalBytes, limit_bytes: this.maxRecordBytes } };
      line = safeStringify(stored) ?? JSON.stringify({ seq, time, prev, type: String(type).slice(0, 200), record_truncated: { original_bytes: originalBytes, limit_bytes: this.maxRecordBytes } });
    }
    this.writeDurably(`${line}\n`);
    this.seq++;
    this.prev = lineHash(line);
    for (const listener of [...this.listeners]) {
      try {
        listener(stored, this.prev);
      } catch {
        this.listeners.delete(listener);
      }
    }
    return stored;
  }

  /** Renames the full file `<path>.N` and starts a new one whose first record chains to its last line. */
  private rotate(): void {
    const rotatedTo = nextRotatedName(this.path);
    closeSync(this.fd!);
    renameSync(this.path, rotatedTo);
    this.fd = openSync(this.path, 'a+');
    this.size = 0;
    this.write({ type: 'log_rotated', previous_file: basename(rotatedTo) });
  }

  private writeDurably(text: string): void {
    const fd = this.fd as number;
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
    this.size += bytes.length;
  }
}

function safeStringify(value: unknown): string | undefined {
  try { return JSON.stringify(value); } catch { return undefined; }
}

function seqOf(line: string): number | undefined {
  try {
    const parsed = JSON.parse(line) as { seq?: unknown };
    return typeof parsed.seq === 'number' ? parsed.seq : undefined;
  } catch {
    return undefined; // a torn line from an interrupted write
  }
}

function lineHash(line: string): string {
  return createHash('sha256').update(line).digest('hex').slice(0, 16);
}

/** What {@link readAuditLog} found. */
export interface AuditLogContents {
  readonly records: StoredAuditRecord[];
  /** Lines that are not complete JSON records (at most a torn last line after a crash). */
  readonly tornLines: number;
  /** Sequence numbers where the hash chain does not match the line before (edited or removed lines). */
  readonly chainBreaks: number[];
}

/** Reads and verifies the current file and every rotated one, oldest first, as one chain. */
export function readAuditLogChain(path: string): AuditLogContents {
  return readAuditLog(path, rotatedFiles(path));
}

/** Reads and verifies an audit log file (after `before`, files whose chain it continues). */
export function readAuditLog(path: string, before: readonly string[] = []): AuditLogContents {
  const text = [...before, path].map((file) => readFileSync(file, 'utf8')).map((t) => (t === '' || t.endsWith('\n') ? t : `${t}\n`)).join('');
  const records: StoredAuditRecord[] = [];
  const chainBreaks: number[] = [];
  let tornLines = 0;
  let prev: string | null = null;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let record: StoredAuditRecord;
    try {
      record = JSON.parse(line) as StoredAuditRecord;
    } catch {
      tornLines++;
      continue;
    }
    if (prev !== null && record.prev !== prev) chainBreaks.push(record.seq);
    prev = lineHash(line);
    records.push(record);
  }
  return { records, tornLines, chainBreaks };
}
