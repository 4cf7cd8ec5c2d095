#!/usr/bin/env node
/**
 * The `toolwright` command: a tiny dispatcher. `toolwright <command> ...args` loads
 * `./commands/<command>.js`, which exports `run(argv): Promise<number>` (the exit code) and
 * optionally `summary` (one line for the usage text).
 */
import { readdir } from 'node:fs/promises';
import { closestWord } from '../text/similar-names.js';

/** What every module in ./commands exports. */
export interface CliCommand {
  run(argv: string[]): Promise<number>;
  summary?: string;
}

// `../cli/commands/` rather than `./commands/`: this file runs from src/cli/, from tsc's dist/cli/ or
// bundled from dist/bundle/ (scripts/bundle-node.mjs), and the commands are found in the first two.
const COMMANDS_DIR = new URL('../cli/commands/', import.meta.url);
const COMMAND_NAME = /^[a-z][a-z0-9-]*$/;

async function availableCommands(): Promise<string[]> {
  try {
    const files = await readdir(COMMANDS_DIR);
    const names = files
      .filter((f) => /\.(js|ts)$/.test(f) && !/\.d\.ts$/.test(f) && !/\.test\.(js|ts)$/.test(f))
      .map((f) => f.replace(/\.(js|ts)$/, ''));
    return [...new Set(names)].filter((n) => COMMAND_NAME.test(n)).sort();
  } catch {
    return [];
  }
}

async function loadCommand(name: string): Promise<CliCommand | undefined> {
  if (!COMMAND_NAME.test(name)) return undefined;
  if (!(await availableCommands()).includes(name)) return undefined;
  const module = (await import(new URL(`${name}.js`, COMMANDS_DIR).href)) as Partial<CliCommand>;
  return typeof module.run === 'function' ? (module as CliCommand) : undefined;
}

async function usage(): Promise<string> {
  const lines = ['Usage: toolwright <command> [options]', '', 'Commands:'];
  for (const name of await availableCommands()) {
    let summary = '';
    try {
      summary = (await loadCommand(name))?.summary ?? '';
    } catch {
      summary = '(failed to load)';
    }
    lines.push(`  ${name.padEnd(10)} ${summary}`.trimEnd());
  }
  lines.push('', 'Run `toolwright <command> --help` for the options of one command.');
  return `${lines.join('\n')}\n`;
}

/** Runs the CLI with `argv` (without node and script path); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const text = await usage();
    if (command === undefined) {
      process.stderr.write(text);
      return 2;
    }
    process.stdout.write(text);
    return 0;
  }
  const loaded = await loadCommand(command);
  if (loaded === undefined) {
    const guess = closestWord(command, await availableCommands());
    process.stderr.write(`toolwright: unknown command ${JSON.stringify(command)}${guess !== undefined ? `; did you mean ${guess}?` : ''}\n\n${await usage()}`);
    return 2;
  }
  return loaded.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolwright: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
