/**
 * The user's Toolwright state folder, where keys, heads and counters live by default: apart from
 * any folder a server is pointed at. Below everything that keeps files there (audit, store).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The environment variable naming the state folder (default `$XDG_STATE_HOME/toolwright`, else `~/.local/state/toolwright`). */
export const STATE_DIR_ENV = 'TOOLWRIGHT_STATE_DIR';

/** The user's Toolwright state folder: `$TOOLWRIGHT_STATE_DIR`, else `$XDG_STATE_HOME/toolwright`, else `~/.local/state/toolwright`. */
export function toolwrightStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[STATE_DIR_ENV];
  if (given !== undefined && given.trim() !== '') return resolve(given);
  const xdg = env.XDG_STATE_HOME;
  return xdg !== undefined && xdg.trim() !== '' ? join(resolve(xdg), 'toolwright') : join(homedir(), '.local', 'state', 'toolwright');
}
