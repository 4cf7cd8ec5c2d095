/**
 * Audit log middleware: one record per call and outcome (refusals of every stage it wraps
 * included), appended to the audit log ({@link HashChainLog}, `src/server/audit/`), keyed by
 * default: lines linked by HMAC under a key file and a sealed head kept apart from the log, so
 * that editing, removing, reordering or cutting off records is detectable ({@link verifyHashChainLog},
 * `toolwright audit verify`) by whoever holds the key. A log that already exists is verified and
 * continued; one whose chain is broken is refused at start-up rather than extended. One writer per file.
 *
 * The file is opened when the server starts serving (the middleware's `open()`), not when
 * `auditLog()` is called: loading a module to read its tool definitions (`toolwright lint`,
 * `preview`, `diff`) must neither create the log nor take its lock from a running server.
 */
import { resolve } from 'node:path';
import { jsonString } from '../../../json/json-text.js';
import { digestArguments } from '../../approvals/request-state-seal.js';
import type { CallOutcome, Middleware } from '../middleware.js';
import { auditChainFiles, checkHashChainLogOptions, HashChainLog } from '../../audit/index.js';
import type { HashChainFsync, HashChainLogOptions, HashChainRecord, StoredHashChainRecord } from '../../audit/index.js';

/** Options of {@link auditLog}. */
export interface AuditLogOptions {
  /** The JSONL file (created if absent, else verified and continued). */
  path: string;
  /**
   * `every-entry` (default): a call's record is written and fsync'd before the call is answered;
   * `never`: records are written in order, batched on the next turn of the event loop (and on
   * `close()`), leaving the disk to the OS.
   */
  fsync?: HashChainFsync;
  /**
   * With `fsync: 'never'`: write the records at most this many ms after the first of them (0 to
   * 1000; default 0, the next turn of the event loop). Under load many calls then share one write
   * and one head seal; a crash can lose the last interval's records (see `HashChainLogOptions`).
   */
  flushWithinMs?: number;
  /** Record the arguments themselves, not only their SHA-256 (default false: arguments may hold secrets). */
  includeArguments?: boolean;
  /** A record over this size has its large fields (e.g. arguments) cut, marked with their size (default 64 KiB). */
  maxRecordBytes?: number;
  /** Rotate the file (`<path>.1`, ...) at this size, the chain carried on (default 64 MiB). */
  maxFileBytes?: number;
  /** For server-wide use: which tools are audited (default all). */
  appliesTo?: (toolName: string) => boolean;
  /**
   * The chain's key file, outside the log's folder (default `<state folder>/audit.key`, see
   * `defaultAuditKeyPath`; created 0600 when absent). `false`: an unkeyed chain (plain hashes,
   * which anyone who can write the file can recompute: detects only naive edits).
   */
  key?: string | false;
  /** The sealed head file, outside the log's folder (default `defaultAuditHeadPath(path)`, under the state folder). */
  head?: string;
}

/** One record of the log, as {@link verifyHashChainLog} returns it. */
export interface AuditEntry extends StoredHashChainRecord {
  readonly type: 'tool_call';
  readonly tool: string;
  /** `auth.subject`, '' when anonymous. */
  readonly subject: string;
  readonly request_id: string | number;
  /** `console`: a call made from the operator console's workbench. */
  readonly transport: 'http' | 'stdio' | 'console';
  /** For a console call: the operator the console was started for. */
  readonly operator?: string;
  /** SHA-256 (base64url) of the canonical JSON of the arguments as sent. */
  readonly args_sha256: string;
  readonly arguments?: unknown;
  /** Values a transform fixed for hidden arguments (`Tool.fixedArguments`), when the tool has any: what the handler received besides `arguments`. */
  readonly fixed_arguments?: unknown;
  readonly outcome: 'respond' | 'tool-error' | 'error' | 'cancelled';
  /** The JSON-RPC error code, for `error`. */
  readonly code?: number;
  /** The error message, or the first text of an `isError` result. */
  readonly detail?: string;
  readonly duration_ms: number;
}

/** The audit middleware, with the log it writes and `close()` to release the file. */
export interface AuditLog extends Middleware {
  /** The log; reading it opens the file if the server has not yet (see `open()`). */
  readonly log: HashChainLog;
  /**
   * Opens the file (creating it, or verifying and continuing it) and takes its lock. The server
   * calls it when it starts serving; idempotent. Throws for a broken chain or a log another live
   * process holds ({@link HashChainLogLockedError}), leaving nothing behind.
   */
  open(): void;
  close(): void;
}

function detailOf(outcome: CallOutcome): string | undefined {
  if (outcome.kind === 'error') return outcome.error.message;
  if (outcome.kind === 'result' && outcome.outcome === 'tool-error') {
    const first = (outcome.result.content as { type?: unknown; text?: unknown }[] | undefined)?.[0];
    // Only a string is a detail: a tool's malformed block (text: null, an array) must not stop the record.
    return first?.type === 'text' && typeof first.text === 'string' ? first.text : undefined;
  }
  return undefined;
}

/**
 * @example
 * ```ts
 * import { auditLog, createServer } from 'toolwright';
 *
 * const server = createServer({ name: 'arm', version: '1.0.0', tools: [], use: [auditLog({ path: 'calls.jsonl' })] });
 * ```
 */
export function auditLog(options: AuditLogOptions): AuditLog {
  const chainFiles = auditChainFiles(options.path, { ...(options.key !== undefined ? { key: options.key } : {}), ...(options.head !== undefined ? { head: options.head } : {}) });
  const logOptions: HashChainLogOptions = {
    ...chainFiles,
    ...(options.fsync !== undefined ? { fsync: options.fsync } : {}),
    ...(options.flushWithinMs !== undefined ? { flushWithinMs: options.flushWithinMs } : {}),
    ...(options.maxRecordBytes !== undefined ? { maxRecordBytes: options.maxRecordBytes } : {}),
    ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
  };
  // Bad options are refused here, at definition; the file waits for open().
  checkHashChainLogOptions(logOptions);
  const includeArguments = options.includeArguments === true;
  let opened: HashChainLog | undefined;
  let closed = false;
  // A failed open (broken chain, lock held) is kept and thrown again: retrying would redo the lock
  // attempt and a synchronous verification of the whole file on every later call.
  let failed: unknown;
  const open = (): HashChainLog => {
    if (opened !== undefined) return opened;
    // Once closed, stays closed: a late call is refused, never reopens the file (as an opened log refuses).
    if (closed) throw new Error(`audit log ${resolve(options.path)} is closed; refusing to run unaudited`);
    if (failed !== undefined) throw failed;
    try {
      return (opened = new HashChainLog(options.path, logOptions));
    } catch (error) {
      failed = error;
      throw error;
    }
  };
  return {
    name: 'audit',
    get log() {
      return open();
    },
    ...(options.appliesTo !== undefined ? { appliesTo: options.appliesTo } : {}),
    open() {
      open();
    },
    async handle(call, next) {
      const log = opened ?? open();
      // A log that cannot record (closed, or a batched write failed) refuses before anything runs.
      log.ensureWritable();
      const started = performance.now();
      // Taken before next(): a later middleware or stage may replace the arguments (coercion).
      const argsDigest = digestArguments(call.arguments);
      const argsJson = includeArguments ? JSON.stringify(call.arguments) : undefined;
      const outcome = await next();
      const kind = outcome.kind === 'result' ? outcome.outcome : outcome.kind;
      const code = outcome.kind === 'error' ? outcome.error.code : undefined;
      const detail = detailOf(outcome);
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      const tool = call.tool.name;
      const subject = call.subject;
      const requestId = call.requestId;
      const transport = call.transport;
      const operator = call.operator;
      // Written field by field in the record's key order: the text JSON.stringify(record()) gives
      // without its opening brace (a property test holds the two equal), at a third of its cost on
      // this once-per-call path.
      let json = `"type":"tool_call","tool":${jsonString(tool)},"subject":${jsonString(subject)},"request_id":${typeof requestId === 'number' ? String(requestId) : jsonString(requestId)},"transport":"${transport}"`;
      if (operator !== undefined) json += `,"operator":${jsonString(operator)}`;
      json += `,"args_sha256":"${argsDigest}"`;
      if (argsJson !== undefined) json += `,"arguments":${argsJson}`;
      const fixed = call.tool.fixedArguments;
      const fixedJson = fixed === undefined ? undefined : JSON.stringify(fixed);
      if (fixedJson !== undefined) json += `,"fixed_arguments":${fixedJson}`;
      json += `,"outcome":"${kind}"`;
      if (code !== undefined) json += `,"code":${String(code)}`;
      if (detail !== undefined) json += `,"detail":${jsonString(detail)}`;
      json += `,"duration_ms":${String(durationMs)}}`;
      // The record as an object only when the log needs one (a listener, or a record to cut).
      const record = (): HashChainRecord => {
        const fields: Record<string, unknown> & { type: 'tool_call' } = { type: 'tool_call', tool, subject, request_id: requestId, transport };
        if (operator !== undefined) fields.operator = operator;
        fields.args_sha256 = argsDigest;
        if (argsJson !== undefined) fields.arguments = JSON.parse(argsJson) as unknown;
        if (fixedJson !== undefined) fields.fixed_arguments = JSON.parse(fixedJson) as unknown;
        fields.outcome = kind;
        if (code !== undefined) fields.code = code;
        if (detail !== undefined) fields.detail = detail;
        fields.duration_ms = durationMs;
        return fields;
      };
      log.appendSerialized(json, record);
      return outcome;
    },
    close() {
      // Never opened (a definition only read, or a server that never served): nothing to release.
      closed = true;
      opened?.close();
    },
  };
}
