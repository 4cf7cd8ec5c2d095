import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';

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
 */
export class AuditLog {
  readonly path: string;
  private fd: number | null;
  private seq: number;
  private prev: string;

  constructor(path: string) {
    this.path = path;
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a+');
    const existing = this.readTail();
    this.seq = existing.seq;
    this.prev = existing.prev;
    if (existing.needsNewline) this.writeDurably('\n');
  }

  /** Appends one record durably (write + fsync) and returns it as stored. */
  append(record: AuditRecord): StoredAuditRecord {
    if (this.fd === null) throw new Error(`audit log ${this.path} is closed; refusing to run unaudited`);
    const stored: StoredAuditRecord = { seq: ++this.seq, time: new Date().toISOString(), prev: this.prev, ...record };
    const line = JSON.stringify(stored);
    this.writeDurably(`${line}\n`);
    this.prev = lineHash(line);
    return stored;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  private writeDurably(text: string): void {
    const fd = this.fd as number;
    const bytes = Buffer.from(text, 'utf8');
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  }

  /** Continues numbering and the hash chain of an existing file; a torn last line (crash mid-write) is left as is and skipped. */
  private readTail(): { seq: number; prev: string; needsNewline: boolean } {
    const fd = this.fd as number;
    const size = fstatSync(fd).size;
    if (size === 0) return { seq: 0, prev: '', needsNewline: false };
    const length = Math.min(size, 1 << 20);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    const needsNewline = !text.endsWith('\n');
    const lines = text.split('\n').filter((l) => l !== '');
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!;
      try {
        const parsed = JSON.parse(line) as { seq?: unknown };
        if (typeof parsed.seq === 'number') return { seq: parsed.seq, prev: lineHash(line), needsNewline };
      } catch {
        // A torn line from an interrupted write: keep looking further back.
      }
    }
    return { seq: 0, prev: '', needsNewline };
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

/** Reads and verifies an audit log file. */
export function readAuditLog(path: string): AuditLogContents {
  const text = readFileSync(path, 'utf8');
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
