/**
 * Where an audit log's key and sealed head live when the caller names neither: in the user's
 * Toolwright state folder, never beside the log. The threat the keyed chain answers is someone who
 * can write the log's folder but cannot read the key; a key or head inside that folder would be
 * theirs to replace, so a key or head there is refused.
 */
import { realpathSync } from 'node:fs';
import { toolwrightStateDir } from '../files/state-dir.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { sha256 } from '../../protocol/sha256.js';

/** The default audit key: `<state folder>/audit.key`, one per user, shared by that user's logs. */
export function defaultAuditKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(toolwrightStateDir(env), 'audit.key');
}

/**
 * The default sealed head of the log at `logPath`: `<state folder>/audit-heads/<log name>-<16 hex
 * digits of SHA-256 of its absolute path>.head`, so two logs of the same name in different
 * folders have different heads. A log moved elsewhere has another default head: name the old one.
 */
export function defaultAuditHeadPath(logPath: string, env: NodeJS.ProcessEnv = process.env): string {
  const path = resolve(logPath);
  return join(toolwrightStateDir(env), 'audit-heads', `${basename(path)}-${sha256(path, 'hex').slice(0, 16)}.head`);
}

/** `path` with its deepest existing folder resolved through symbolic links (the rest kept as written). */
function real(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Throws a RangeError when the key or the head is inside the log's folder (or one under it):
 * whoever can write that folder could replace them, and the chain would prove nothing.
 */
export function checkKeptApart(logPath: string, files: { key: string; head: string }): void {
  const folder = real(dirname(resolve(logPath)));
  for (const [what, given] of [['key', files.key], ['head', files.head]] as const) {
    if (inside(folder, real(resolve(given)))) {
      throw new RangeError(`audit log ${resolve(logPath)}: its ${what} ${resolve(given)} must not be inside the log's folder ${folder} (whoever can write that folder could replace it); keep it in a folder only the server's user can write, e.g. the default under ${toolwrightStateDir()}`);
    }
  }
}

/** How a caller chooses an audit log's key and head: paths, the defaults, or `key: false` for an unkeyed chain. */
export interface AuditChainChoice {
  /** The key file (default {@link defaultAuditKeyPath}); `false` for an unkeyed chain (plain hashes: detects only naive edits). */
  readonly key?: string | false;
  /** The sealed head file (default {@link defaultAuditHeadPath} of the log). */
  readonly head?: string;
}

/** The key and head of the log at `logPath` as chosen (defaults filled in), or undefined for an unkeyed chain. */
export function auditChainFiles(logPath: string, choice: AuditChainChoice = {}): { key: string; head: string } | undefined {
  if (choice.key === false) {
    if (choice.head !== undefined) throw new RangeError('audit log: a head needs a key (key: false makes an unkeyed chain, which has no head)');
    return undefined;
  }
  if (choice.key !== undefined && (typeof choice.key !== 'string' || choice.key.trim() === '')) throw new RangeError(`audit log: key must be a file path or false, got ${JSON.stringify(choice.key)}`);
  if (choice.head !== undefined && (typeof choice.head !== 'string' || choice.head.trim() === '')) throw new RangeError(`audit log: head must be a file path, got ${JSON.stringify(choice.head)}`);
  return { key: choice.key ?? defaultAuditKeyPath(), head: choice.head ?? defaultAuditHeadPath(logPath) };
}
