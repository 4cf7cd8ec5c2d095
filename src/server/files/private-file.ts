/**
 * Secrets kept in files of their own (the audit key, a server's bearer token): created 0600 in a
 * folder created 0700, and refused or replaced when group or others can read them, like ssh does.
 */
import { chmodSync, linkSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes `text` to a 0600 file beside `path` (its folder created 0700) and returns that file's path. */
function writeAside(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  try {
    // The umask may have taken bits away, never added any; chmod makes it exactly 0600 regardless.
    chmodSync(temp, 0o600);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  return temp;
}

/**
 * Writes `text` to `path` unless a file is already there; true when this call created it. The file
 * appears whole or not at all (written aside, then linked into place), so of several processes
 * creating it at once, exactly one wins and all then read the same contents.
 */
export function createPrivateFileOnce(path: string, text: string): boolean {
  const temp = writeAside(path, text);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    unlinkSync(temp);
  }
}

/** Replaces the file at `path` with `text` in one step (written aside 0600, then renamed over it). */
export function replacePrivateFile(path: string, text: string): void {
  const temp = writeAside(path, text);
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/** The file's permission bits when group or others can read or write it, else undefined (always undefined on Windows). */
export function openToOthers(path: string): number | undefined {
  if (process.platform === 'win32') return undefined;
  const mode = statSync(path).mode & 0o777;
  return (mode & 0o077) !== 0 ? mode : undefined;
}
