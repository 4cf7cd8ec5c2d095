/**
 * The claim counter kept outside Redis (claim-counter-guard.ts): one small file per server instance
 * in the Toolwright state folder, holding how many claims this instance made in the store, the
 * latest expiry of those claims per key family, and the fences set after Redis lost writes.
 *
 * Cheap per claim: the file stays open and each claim rewrites one fixed-size block of 1 KiB at
 * offset 0 (one pwrite, no fsync, no rename), so two writers can never leave a mix of long and
 * short texts behind and a process crash loses nothing the kernel was given. An operating-system
 * crash can lose the last writes to it (as it can Redis's own `appendfsync everysec` tail); the
 * counter then reads lower than it was, which can hide a loss but never invents one.
 *
 * One process per file: each file is locked (the audit log's pid lock, hash-chain-files.ts). By
 * default an instance takes the first free slot `<hash>-<n>.json` for its store, so several
 * instances on one machine each get their own file, and a restarted instance continues a slot.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256 } from '../../protocol/sha256.js';
import { toolwrightStateDir } from '../files/state-dir.js';
import { acquireLock, HashChainLogLockedError, releaseLock } from '../files/file-lock.js';

const BLOCK = 1024;
/** Default slots per store and machine: instances beyond this need --claim-counter-file. */
const MAX_SLOTS = 64;
/** Key families tracked (approval:elicitation, approval:operator, ...); a store with more is refused rather than tracked partly. */
export const MAX_FAMILIES = 16;

/** What the file holds. */
export interface ClaimCounterState {
  /** This slot's id in Redis (`count:<instance>`). */
  readonly instance: string;
  /** Claims this slot made that Redis acknowledged (the highest count it answered). */
  count: number;
  /** Per key family: the latest `expiresAt` of a claim this slot made. */
  readonly horizons: Record<string, number>;
  /** Per key family: claims expiring at or before this are refused (set after Redis lost writes). */
  readonly fences: Record<string, number>;
}

function parse(text: string, path: string): ClaimCounterState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`claim counter ${path} is damaged (not JSON); it is what detects a Redis that lost approvals, so it is not replaced silently: restore it, or if you know Redis kept every write, delete it`);
  }
  const v = value as Partial<ClaimCounterState> & { v?: unknown };
  const numbers = (o: unknown): boolean => typeof o === 'object' && o !== null && Object.values(o).every((n) => typeof n === 'number' && Number.isFinite(n));
  if (v.v !== 1 || typeof v.instance !== 'string' || !/^[0-9a-f]{16,64}$/.test(v.instance) || typeof v.count !== 'number' || !Number.isInteger(v.count) || v.count < 0 || !numbers(v.horizons) || !numbers(v.fences)) {
    throw new Error(`claim counter ${path} is damaged (unexpected content); restore it, or if you know Redis kept every write, delete it`);
  }
  return { instance: v.instance, count: v.count, horizons: { ...v.horizons }, fences: { ...v.fences } };
}

/** The open, locked counter file of one instance. */
export class ClaimCounterFile {
  readonly path: string;
  readonly state: ClaimCounterState;
  readonly #fd: number;
  readonly #lock: string;
  readonly #block = Buffer.alloc(BLOCK);

  private constructor(path: string, lock: string) {
    this.path = path;
    this.#lock = lock;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      let text: string | undefined;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      this.state = text === undefined || text.trim() === '' ? { instance: randomBytes(12).toString('hex'), count: 0, horizons: {}, fences: {} } : parse(text, path);
      this.#fd = openSync(path, text === undefined ? 'w+' : 'r+', 0o600);
      if (text === undefined || text.trim() === '') this.save();
    } catch (error) {
      releaseLock(lock);
      throw error;
    }
  }

  /** Opens `path` (refused when another live process holds it). */
  static open(path: string): ClaimCounterFile {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    let lock: string;
    try {
      lock = acquireLock(path, 'give each server instance its own --claim-counter-file');
    } catch (error) {
      if (error instanceof HashChainLogLockedError) throw new Error(error.message.replace(/^audit log/, 'claim counter'));
      throw error;
    }
    return new ClaimCounterFile(path, lock);
  }

  /** Opens the first free default slot for the store `label` (+ key prefix) in the state folder. */
  static openDefault(storeLabel: string, keyPrefix: string, env: NodeJS.ProcessEnv = process.env): ClaimCounterFile {
    const base = join(toolwrightStateDir(env), 'claim-counters', sha256(`${storeLabel}\n${keyPrefix}`, 'hex').slice(0, 16));
    for (let slot = 0; slot < MAX_SLOTS; slot++) {
      try {
        return ClaimCounterFile.open(`${base}-${slot}.json`);
      } catch (error) {
        if (!(error instanceof Error && /is in use by|being taken over by/.test(error.message))) throw error;
      }
    }
    throw new Error(`claim counter: all ${MAX_SLOTS} default slots ${base}-<n>.json are held by live processes; give this instance its own --claim-counter-file`);
  }

  /** Writes the state (one 1 KiB block at offset 0). */
  save(): void {
    const text = JSON.stringify({ v: 1, ...this.state });
    if (text.length > BLOCK - 1 || Object.keys(this.state.horizons).length > MAX_FAMILIES) {
      throw new Error(`claim counter ${this.path}: more than ${MAX_FAMILIES} key families or 1 KiB of state; claims of a new family are refused`);
    }
    const block = this.#block.fill(0x20);
    block.write(text, 0, 'utf8');
    block[BLOCK - 1] = 0x0a;
    writeSync(this.#fd, block, 0, BLOCK, 0);
  }

  close(): void {
    try {
      closeSync(this.#fd);
    } finally {
      releaseLock(this.#lock);
    }
  }
}
