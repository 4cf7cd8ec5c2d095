/**
 * Every `toolwright <command>` goes through the one preamble (src/cli/command-args.ts): an unknown
 * flag prints one sentence (with "did you mean" when a known flag is near), a blank line and the
 * command's usage to stderr, and exits 2 with nothing on stdout. Real child processes of the real CLI, one command at a time (concurrent
 * TypeScript cold starts on a loaded 2-core machine only compete with each other).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runCli as cli } from '../support/run-cli.js';

const COMMANDS = ['audit', 'auth', 'bridge', 'call', 'diff', 'eval', 'gateway', 'install', 'lint', 'openapi', 'preview', 'serve'] as const;
const UNKNOWN = 'unknown option --hepl; did you mean --help? (a value starting with "-" goes after "--", e.g. -- --hepl)';

it('every command refuses a mistyped flag with its name, the flag it meant and its usage, exit 2', { timeout: 300_000 }, async () => {
  for (const command of COMMANDS) {
    const run = await cli([command, '--hepl']);
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
  assert.equal(missing.stderr.split('\n')[0], 'toolwright serve: option --http needs a value (--http <value>)');
  const unknownCommand = await cli(['lnit']);
  assert.equal(unknownCommand.code, 2);
  assert.equal(unknownCommand.stderr.split('\n')[0], 'toolwright: unknown command "lnit"; did you mean lint?');
});
