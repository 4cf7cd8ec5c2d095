/**
 * The command a host starts for `toolwright bridge`: absolute paths throughout, since a desktop host
 * starts it from a folder of its own with an environment of its own (no project folder, no npx).
 * This very CLI is named, by the file it runs from: dist/cli/main.js when built (a clone, or a
 * project's node_modules/toolwright), or src/cli/main.ts under tsx when run from source.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliEntry } from '../cli-entry.js';
import type { StdioEntry } from './hosts.js';

/** `node <this CLI> bridge <url> [--token-file <file>]`. */
export function bridgeEntry(url: string, tokenFile: string | undefined): StdioEntry {
  const { main, fromSource } = cliEntry();
  const loader = fromSource ? ['--import', fileURLToPath(import.meta.resolve('tsx'))] : [];
  return { command: process.execPath, args: [...loader, main, 'bridge', url, ...(tokenFile !== undefined ? ['--token-file', resolve(tokenFile)] : [])] };
}
