/**
 * The sealed head of a keyed audit chain: the last record's sequence number and link (the HMAC of
 * its line), MAC'd with the chain's key, kept in a file apart from the log. It is what makes
 * cutting records off the end of a log detectable: a log that ends before its head was truncated,
 * and a last record whose link is not the head's was edited.
 *
 * Written after each record (fsync'd when the log is), so a crash between a record and its head
 * leaves the head one step behind: records past the head still link by MAC, which only the key's
 * holder can make, so that is told apart from truncation and is not a break. The file has two
 * fixed-size slots written in turn (seq even, seq odd), each overwritten in place: a write torn by a
 * crash spoils one slot and the other still holds the head before it.
 */
import { closeSync, fchmodSync, fstatSync, fsyncSync, mkdirSync, openSync, constants as fs, readFileSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AuditKey } from './audit-key.js';

/** Bytes per slot: a head's JSON is about 170 bytes, padded with spaces and ended by a newline. */
const SLOT_BYTES = 256;

/** A head as read back: sealed by the key given, or why not. */
export type HeadReading =
  | { readonly state: 'missing' }
  | { readonly state: 'invalid'; readonly reason: string }
  | { readonly state: 'sealed'; readonly seq: number; readonly link: string };

interface HeadSlot {
  readonly v: number;
  readonly seq: number;
  readonly key_id: string;
  readonly link: string;
  readonly seal: string;
}

function parseSlot(text: string): HeadSlot | undefined {
  try {
    const value = JSON.parse(text.trim()) as Partial<HeadSlot> | null;
    if (value === null || typeof value !== 'object') return undefined;
    const ok = value.v === 1 && Number.isInteger(value.seq) && (value.seq ?? -1) >= 0 && typeof value.key_id === 'string' && typeof value.link === 'string' && typeof value.seal === 'string';
    return ok ? (value as HeadSlot) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the head at `path` and checks its seal with `key`. Of the two slots, the sealed one with
 * the higher sequence number is the head.
 */
export function readChainHead(givenPath: string, key: AuditKey): HeadReading {
  const path = resolve(givenPath);
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    return { state: 'invalid', reason: `the head ${path} cannot be read (${(error as Error).message})` };
  }
  const slots = [text.slice(0, SLOT_BYTES), text.slice(SLOT_BYTES, 2 * SLOT_BYTES)].map(parseSlot).filter((slot) => slot !== undefined);
  const otherKey = slots.find((slot) => slot.key_id !== key.id);
  const sealed = slots.filter((slot) => slot.key_id === key.id && slot.seal === key.seal(slot.seq, slot.link));
  if (sealed.length === 0) {
    if (otherKey !== undefined) return { state: 'invalid', reason: `the head ${path} was sealed with another key (key ${otherKey.key_id}, not ${key.id} from ${key.path})` };
    return { state: 'invalid', reason: `the head ${path} holds no head sealed with the key ${key.path} (forged or damaged)` };
  }
  const best = sealed.reduce((a, b) => (b.seq > a.seq ? b : a));
  return { state: 'sealed', seq: best.seq, link: best.link };
}

/** Writes a log's head after each record. Created 0600 (its folder 0700 when created). */
export class ChainHeadWriter {
  readonly path: string;
  readonly #key: AuditKey;
  readonly #fsync: boolean;
  #fd: number | null;

  constructor(givenPath: string, key: AuditKey, fsync: boolean) {
    this.path = resolve(givenPath);
    this.#key = key;
    this.#fsync = fsync;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    // Not O_APPEND: each slot is overwritten at its own offset.
    this.#fd = openSync(this.path, fs.O_RDWR | fs.O_CREAT, 0o600);
    try {
      if ((fstatSync(this.#fd).mode & 0o077) !== 0) fchmodSync(this.#fd, 0o600);
    } catch {
      // Not ours to change (another owner): the head still works; its folder is what keeps it apart.
    }
  }

  /** Seals `seq` (the last record written) and `link` (its line's link) into the slot of its parity. */
  write(seq: number, link: string): void {
    if (this.#fd === null) throw new Error(`audit head ${this.path} is closed`);
    const json = JSON.stringify({ v: 1, seq, key_id: this.#key.id, link, seal: this.#key.seal(seq, link) });
    writeSync(this.#fd, `${json.padEnd(SLOT_BYTES - 1, ' ')}\n`, (seq % 2) * SLOT_BYTES, 'latin1');
    if (this.#fsync) fsyncSync(this.#fd);
  }

  /**
   * Seals `seq` and blanks the other slot: at open, where the chain may go on from below an old
   * head (a log that was cut or deleted and is continued anyway), which must not outrank it.
   */
  reset(seq: number, link: string): void {
    if (this.#fd === null) throw new Error(`audit head ${this.path} is closed`);
    writeSync(this.#fd, `${''.padEnd(SLOT_BYTES - 1, ' ')}\n`, ((seq + 1) % 2) * SLOT_BYTES, 'latin1');
    this.write(seq, link);
  }

  close(): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
  }
}
