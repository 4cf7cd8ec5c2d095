/**
 * The text side of a hash-chain log's hot path: the ISO time of a record, serialising a record
 * that may not serialise, and writing a string to a file whole.
 */
import { writeSync } from 'node:fs';

let isoMs = Number.NaN;
let isoText = '';
let isoSecond = Number.NaN;
let isoSecondPrefix = '';
/**
 * `new Date().toISOString()` without formatting a date per call: the text up to the seconds is
 * made once per second and the milliseconds appended (toISOString always ends `.mmmZ`).
 */
export function isoNow(): string {
  // Whole milliseconds, as toISOString prints them (a mocked clock may return fractions).
  const ms = Math.trunc(Date.now());
  if (ms === isoMs) return isoText;
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoSecondPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  const milli = ms - second * 1000;
  isoMs = ms;
  isoText = `${isoSecondPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  return isoText;
}

export function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

export function writeAll(fd: number, text: string): number {
  // The string is encoded by the write itself (no JS Buffer per batch); a short write, rare for a
  // file, continues from the bytes not yet written.
  const written = writeSync(fd, text);
  const total = Buffer.byteLength(text);
  if (written === total) return total;
  const bytes = Buffer.from(text, 'utf8');
  let offset = written;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  return bytes.length;
}
