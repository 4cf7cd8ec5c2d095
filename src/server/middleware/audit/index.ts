/**
 * Audit log: one append-only JSONL line per call and outcome (refusals of every stage it wraps
 * included), hash-chained so that removing, reordering or editing a line is detectable
 * ({@link verifyAuditLog}). Each line's `hash` is SHA-256 over the previous line's hash and the
 * canonical JSON of the line without `hash`. A log that already exists is continued; one whose last
 * line is broken is refused at start-up rather than extended. One writer per file.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { canonicalJson } from '../../../protocol/canonical-json.js';
import type { JsonObject } from '../../../protocol/json-rpc.js';
import { digestArguments } from '../../request-state.js';
import type { CallOutcome, Middleware } from '../middleware.js';

/** Options of {@link auditLog}. */
export interface AuditLogOptions {
  /** The JSONL file (created if absent, else continued). */
  path: string;
  /** `every-entry` (default): fsync after each line, so an acknowledged call is on disk; `never`: leave it to the OS. */
  fsync?: 'every-entry' | 'never';
  /** Record the arguments themselves, not only their SHA-256 (default false: arguments may hold secrets). */
  includeArguments?: boolean;
  /** For server-wide use: which tools are audited (default all). */
  appliesTo?: (toolName: string) => boolean;
}

/** One line of the log. */
export interface AuditEntry {
  seq: number;
  time: string;
  tool: string;
  subject: string;
  request_id: string | number;
  transport: 'http' | 'stdio';
  args_sha256: string;
  arguments?: unknown;
  outcome: 'respond' | 'tool-error' | 'error' | 'cancelled';
  code?: number;
  detail?: string;
  duration_ms: number;
  prev: string;
  hash: string;
}

/** The audit middleware, with `close()` to release the file. */
export interface AuditLog extends Middleware {
  close(): void;
}

const GENESIS = '';

function chainHash(prev: string, entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(prev).update('\n').update(canonicalJson(entry)).digest('hex');
}

function detailOf(outcome: CallOutcome): string | undefined {
  if (outcome.kind === 'error') return outcome.error.message;
  if (outcome.kind === 'result' && outcome.outcome === 'tool-error') {
    const first = (outcome.result.content as { type?: string; text?: string }[] | undefined)?.[0];
    return first?.type === 'text' ? first.text : undefined;
  }
  return undefined;
}

/** Checks a whole log: every line parses, `seq` counts up from 1, and each hash chains to the previous line. */
export function verifyAuditLog(path: string): { ok: true; entries: AuditEntry[] } | { ok: false; line: number; reason: string } {
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
  const entries: AuditEntry[] = [];
  let prev = GENESIS;
  for (const [index, line] of lines.entries()) {
    let entry: AuditEntry;
    try {
      entry = JSON.parse(line) as AuditEntry;
    } catch {
      return { ok: false, line: index + 1, reason: 'not JSON' };
    }
    if (entry.seq !== index + 1) return { ok: false, line: index + 1, reason: `seq is ${String(entry.seq)}, expected ${index + 1}` };
    if (entry.prev !== prev) return { ok: false, line: index + 1, reason: 'prev does not match the hash of the line before' };
    const { hash, ...rest } = entry;
    if (chainHash(prev, rest) !== hash) return { ok: false, line: index + 1, reason: 'hash does not match the line' };
    prev = hash;
    entries.push(entry);
  }
  return { ok: true, entries };
}

/**
 * @example
 * createServer({ ..., use: [auditLog({ path: 'calls.jsonl' })] })
 */
export function auditLog(options: AuditLogOptions): AuditLog {
  const fsync = options.fsync ?? 'every-entry';
  if (fsync !== 'every-entry' && fsync !== 'never') throw new RangeError(`auditLog: fsync must be "every-entry" or "never", got ${JSON.stringify(fsync)}`);
  let seq = 0;
  let prev = GENESIS;
  if (existsSync(options.path)) {
    const verdict = verifyAuditLog(options.path);
    if (!verdict.ok) throw new Error(`auditLog: ${options.path} line ${verdict.line}: ${verdict.reason}; refusing to extend a broken chain`);
    const last = verdict.entries.at(-1);
    if (last !== undefined) {
      seq = last.seq;
      prev = last.hash;
    }
  }
  let fd: number | undefined = openSync(options.path, 'a');

  function append(entry: Omit<AuditEntry, 'seq' | 'prev' | 'hash'>): void {
    if (fd === undefined) throw new Error(`auditLog: ${options.path} is closed`);
    const unsealed = { ...entry, seq: seq + 1, prev };
    const hash = chainHash(prev, unsealed);
    // Written synchronously, so lines (and the chain) are in call-completion order.
    writeSync(fd, `${JSON.stringify({ ...unsealed, hash })}\n`);
    if (fsync === 'every-entry') fsyncSync(fd);
    seq += 1;
    prev = hash;
  }

  return {
    name: 'audit',
    ...(options.appliesTo !== undefined ? { appliesTo: options.appliesTo } : {}),
    async handle(call, next) {
      const started = performance.now();
      const argsDigest = digestArguments(call.arguments);
      const args = options.includeArguments === true ? (JSON.parse(JSON.stringify(call.arguments)) as JsonObject) : undefined;
      const outcome = await next();
      const entry: Omit<AuditEntry, 'seq' | 'prev' | 'hash'> = {
        time: new Date().toISOString(),
        tool: call.tool.name,
        subject: call.subject,
        request_id: call.requestId,
        transport: call.transport,
        args_sha256: argsDigest,
        outcome: outcome.kind === 'result' ? outcome.outcome : outcome.kind,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
      };
      if (args !== undefined) entry.arguments = args;
      if (outcome.kind === 'error') entry.code = outcome.error.code;
      const detail = detailOf(outcome);
      if (detail !== undefined) entry.detail = detail;
      append(entry);
      return outcome;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
