/**
 * The file-level parts of a hash-chain log ({@link HashChainLog}) besides its lock
 * (files/file-lock.ts): recovery of the last complete record whatever its size, the names of rotated files,
 * and the cutting of an oversized record before it is written.
 */
import { existsSync, fstatSync, readdirSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Numbers of the rotated files of `path`, ascending: N of each `<log>.N` beside it. Taken from the
 * file names, never from `path` as spelt: `./calls.jsonl` or `a//b.jsonl` name the same files as
 * their normalised form, and cutting a joined name at the length of the spelling read the wrong N.
 */
function rotatedNumbers(path: string): number[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/** Rotated files of `path`, oldest first: `<log>.1`, `<log>.2`, ... */
export function rotatedFiles(path: string): string[] {
  const dir = dirname(path);
  const name = basename(path);
  return rotatedNumbers(path).map((n) => join(dir, `${name}.${n}`));
}

/** The name the current file takes when it is rotated: one past the highest N on disk. */
export function nextRotatedName(path: string): string {
  const numbers = rotatedNumbers(path);
  const last = numbers.length === 0 ? 0 : numbers[numbers.length - 1]!;
  return join(dirname(path), `${basename(path)}.${last + 1}`);
}

/** The last complete record line of a file, found by reading backwards in chunks (no size limit). */
export interface Tail { line: string | undefined; seq: number; endsWithNewline: boolean; size: number }

const CHUNK = 1 << 16;

/** Finds the last line of the open file `fd` that `parseSeq` accepts (torn lines are skipped). */
export function readTail(fd: number, parseSeq: (line: string) => number | undefined): Tail {
  const size = fstatSync(fd).size;
  if (size === 0) return { line: undefined, seq: 0, endsWithNewline: true, size };
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  const endsWithNewline = last[0] === 0x0a;
  // Walk line ends from the back: each candidate line is [start, end); torn lines are skipped.
  let end = endsWithNewline ? size - 1 : size;
  while (end > 0) {
    const start = lineStart(fd, end);
    const buffer = Buffer.alloc(end - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const line = buffer.toString('utf8');
    const seq = parseSeq(line);
    if (seq !== undefined) return { line, seq, endsWithNewline, size };
    end = start === 0 ? 0 : start - 1;
  }
  return { line: undefined, seq: 0, endsWithNewline, size };
}

/** Offset just after the last "\n" before `end` (0 when none). */
function lineStart(fd: number, end: number): number {
  const buffer = Buffer.alloc(CHUNK);
  let position = end;
  while (position > 0) {
    const from = Math.max(0, position - CHUNK);
    const length = position - from;
    readSync(fd, buffer, 0, length, from);
    const at = buffer.subarray(0, length).lastIndexOf(0x0a);
    if (at !== -1) return from + at + 1;
    position = from;
  }
  return 0;
}

/** How a field of an oversized record is kept: its JSON cut to a prefix, with the full size. */
export interface CutField { truncated: true; bytes: number | null; prefix: string }

/**
 * The record's fields, each small field kept and each large one (or one that cannot be serialised,
 * e.g. nested 174,000 levels deep) replaced by a {@link CutField}, so the line fits `maxBytes`.
 * Returns undefined when the record fits as it is.
 */
export function cutRecord(fields: Record<string, unknown>, maxBytes: number): Record<string, unknown> | undefined {
  const sizes = new Map<string, number | null>();
  let total = 0;
  for (const [key, value] of Object.entries(fields)) {
    let bytes: number | null;
    try { bytes = Buffer.byteLength(JSON.stringify(value) ?? ''); } catch { bytes = null; }
    sizes.set(key, bytes);
    total += bytes ?? maxBytes;
  }
  if (total <= maxBytes - 256) return undefined;
  const share = Math.max(64, Math.floor(maxBytes / (2 * Math.max(1, sizes.size))));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const bytes = sizes.get(key)!;
    if (bytes !== null && bytes <= share) { out[key] = value; continue; }
    let prefix = '';
    try { prefix = (JSON.stringify(value) ?? '').slice(0, share); } catch (error) { prefix = `(not serialisable: ${(error as Error).message})`; }
    const cut: CutField = { truncated: true, bytes, prefix };
    out[key] = cut;
  }
  return out;
}
