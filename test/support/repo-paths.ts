/**
 * Where the repository is, found from this file's own location, so that a test resolves its
 * fixtures, sources and child processes the same whether it is run from the repository root, from
 * test/, or from `/`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (the directory holding package.json). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '');

/** An absolute path inside the repository, from `/`-separated parts relative to its root. */
export function repoPath(...parts: string[]): string {
  return join(REPO_ROOT, ...parts);
}

/**
 * The tsx loader as an absolute file URL. `node --import tsx` resolves `tsx` from the working
 * directory, which fails outside the repository; children started with this URL load TypeScript
 * from anywhere.
 */
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** `node` arguments that run a TypeScript (or JavaScript) file of the repository under tsx. */
export function tsxArgs(script: string, ...args: string[]): string[] {
  return ['--import', TSX_LOADER, repoPath(script), ...args];
}
