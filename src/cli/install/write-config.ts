/**
 * Reading and replacing a host's configuration file safely: a file that is read-only (by its mode,
 * which is honoured even for root, who could write it anyway) or not writable is refused before
 * anything is touched; an existing file is first copied to a timestamped backup beside it; then the
 * file is rewritten in place (keeping its inode, owner, mode and any symbolic link to it). If that
 * write fails, the original text is put back.
 */
import { accessSync, constants, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The file's text, '' when it does not exist yet, or why it cannot be read. */
export function readConfigFile(path: string): { ok: true; text: string; exists: boolean } | { ok: false; problem: string } {
  try {
    return { ok: true, text: readFileSync(path, 'utf8'), exists: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: true, text: '', exists: false };
    return { ok: false, problem: code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read: ${(error as Error).message}` };
  }
}

/** Why `path` cannot be written (undefined when it can be). */
export function unwritable(path: string, exists: boolean): string | undefined {
  if (!exists) return undefined;
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o222) === 0) return `is read-only (mode ${mode.toString(8).padStart(4, '0')})`;
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    return `cannot be written: ${(error as Error).message}`;
  }
  return undefined;
}

/** `<path>.<UTC timestamp>.bak`, e.g. `mcp.json.2026-01-02T03-04-05-678Z.bak`. */
export function backupPath(path: string, now: Date = new Date()): string {
  return `${path}.${now.toISOString().replace(/[:.]/g, '-')}.bak`;
}

/** Writes `text` to `path` (a backup of the old file first); resolves to the backup's path, or throws with the file untouched or restored. */
export function replaceConfigFile(path: string, exists: boolean, before: string, text: string): string | undefined {
  let backup: string | undefined;
  if (exists) {
    backup = backupPath(path);
    copyFileSync(path, backup, constants.COPYFILE_EXCL);
  } else {
    mkdirSync(dirname(path), { recursive: true });
  }
  try {
    // A new file may sit beside others that hold secrets (other servers' env): the user's alone.
    writeFileSync(path, text, exists ? {} : { mode: 0o600 });
  } catch (error) {
    if (exists) {
      try {
        writeFileSync(path, before);
      } catch {
        throw new Error(`${(error as Error).message}; the file may be damaged: its backup is ${backup ?? ''}`, { cause: error });
      }
    }
    throw error;
  }
  return backup;
}
