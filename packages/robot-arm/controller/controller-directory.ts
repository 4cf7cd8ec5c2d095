/**
 * The private directory (0700) that holds a controller's socket: `<tmp>/toolwright-robot-sim/ctl-<pid>-XXXXXX`,
 * named after the server process that owns it. It is removed when that process exits, however it
 * exits (a forced exit on a second signal included: `npm start` passes a signal sent to its process
 * group on to the server, so a group's SIGTERM reaches the server twice), and one left by a process
 * that is gone (SIGKILL, a crash) is removed by the next server that starts.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OWNED = /^ctl-(\d+)-[A-Za-z0-9]{6}$/;

/** Where the controllers' directories are made. */
export function controllerDirectoryBase(): string {
  return join(tmpdir(), 'toolwright-robot-sim');
}

/** Whether a process with this pid exists (one of another user counts: it cannot be signalled, yet it lives). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes this user's controller directories in `base` whose owner process is gone; returns their
 * names. A directory of the old unnamed form (`ctl-XXXXXX`) names no owner and is left alone.
 */
export function removeStaleControllerDirectories(base: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return removed;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const owner = OWNED.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid || alive(Number(owner))) continue;
    const path = join(base, name);
    try {
      if (uid !== undefined && statSync(path).uid !== uid) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Removed meanwhile by another starting server, or not ours to remove: either way nothing to do.
    }
  }
  return removed;
}

/**
 * Makes this process's controller directory (0700) in `base`, after removing stale ones, and removes
 * it when the process exits. Returns the directory and the function that removes it now.
 */
export function makeControllerDirectory(base: string = controllerDirectoryBase()): { directory: string; remove(): void } {
  mkdirSync(base, { recursive: true, mode: 0o700 });
  removeStaleControllerDirectories(base);
  const directory = mkdtempSync(join(base, `ctl-${process.pid}-`));
  chmodSync(directory, 0o700);
  if (LIVE.size === 0) process.on('exit', removeAllAtExit);
  LIVE.add(directory);
  const remove = (): void => {
    LIVE.delete(directory);
    if (LIVE.size === 0) process.off('exit', removeAllAtExit);
    rmSync(directory, { recursive: true, force: true });
  };
  return { directory, remove };
}

/** This process's controller directories not removed yet; one exit listener for all of them. */
const LIVE = new Set<string>();

function removeAllAtExit(): void {
  for (const directory of LIVE) rmSync(directory, { recursive: true, force: true });
}
