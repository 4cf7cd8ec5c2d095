/**
 * Every `toolwright <command>` goes through the one preamble (src/cli/command-args.ts): an unknown
 * flag prints the parser's message, a blank line and the command's usage to stderr, and exits 2
 * with nothing on stdout. Real child processes of the real CLI, one command at a time (concurrent
 * TypeScript cold starts on a loaded 2-core machine only compete with each other).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { it } from 'node:test';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

interface Run { code: number | null; stdout: string; stderr: string }

function cli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, repoPath('src', 'cli', 'main.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const COMMANDS = ['call', 'diff', 'eval', 'gateway', 'lint', 'preview', 'serve'] as const;
const UNKNOWN = `Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--bogus"`;

it('every command refuses an unknown flag with its name, the parser message and its usage, exit 2', { timeout: 300_000 }, async () => {
  for (const command of COMMANDS) {
    const run = await cli([command, '--bogus']);
    assert.equal(run.code, 2, command);
    assert.equal(run.stdout, '', command);
    const [first, blank, usage] = run.stderr.split('\n');
    assert.equal(first, `toolwright ${command}: ${UNKNOWN}`);
    assert.equal(blank, '');
    assert.ok(usage!.startsWith(`Usage: toolwright ${command} `), `${command}: ${usage}`);
    assert.ok(run.stderr.endsWith('\n') && !run.stderr.endsWith('\n\n'), `${command}: the usage ends with exactly one newline`);
  }
});

it('gateway and serve answer --help and -h with their usage on stdout, exit 0; a missing value is a usage error', { timeout: 300_000 }, async () => {
  const help = await cli(['gateway', '-h']);
  assert.equal(help.code, 0);
  assert.equal(help.stderr, '');
  assert.match(help.stdout, /^Usage: toolwright gateway nginx <target> --upstream <host:port>/);
  assert.ok(help.stdout.endsWith('\n') && !help.stdout.endsWith('\n\n'));
  const missing = await cli(['serve', 'x.ts', '--http']);
  assert.equal(missing.code, 2);
  assert.equal(missing.stdout, '');
  assert.equal(missing.stderr.split('\n')[0], `toolwright serve: Option '--http <value>' argument missing`);
});
