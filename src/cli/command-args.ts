/**
 * The preamble every `toolwright <command>` shares: parse the arguments, print the usage on a
 * parse error (exit 2) or on `--help` (exit 0), and where the output goes. Each command keeps only
 * its own options and checks.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { explainArgsError } from './args-error.js';

/** Where a command writes; the process streams unless a caller (a test, an embedding tool) passes others. */
export interface CommandIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** Environment the command reads (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/** The process's own streams. */
export const PROCESS_IO: CommandIo = { stdout: process.stdout, stderr: process.stderr };

/** Parsed options, loosely typed: each command narrows the values it reads. */
export interface CommandArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/**
 * Parses `argv` against `options` (positionals allowed; `-h`/`--help` added). Returns the parsed
 * arguments, or the exit code when the command is already done: 0 after printing `usage` for
 * `--help`, 2 after printing the parse error and `usage` to stderr.
 */
export function parseCommandArgs(command: string, usage: string, argv: string[], options: NonNullable<ParseArgsConfig['options']>, io: CommandIo): CommandArgs | number {
  let parsed: CommandArgs;
  const all = { ...options, help: { type: 'boolean', short: 'h', default: false } } as const;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: all }) as CommandArgs;
  } catch (error) {
    io.stderr.write(`toolwright ${command}: ${explainArgsError(error, all)}\n\n${usage}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  return parsed;
}

/** This package's version (for SARIF tool metadata); '0.0.0' when package.json cannot be read. */
export async function packageVersion(): Promise<string> {
  try {
    const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
    return (JSON.parse(text) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
