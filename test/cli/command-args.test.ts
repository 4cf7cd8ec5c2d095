/** The one CLI preamble (src/cli/command-args.ts): help, parse errors and the package version. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import type { ParseArgsConfig } from 'node:util';
import { packageVersion, parseCommandArgs } from '../../src/cli/command-args.js';
import { repoPath } from '../support/repo-paths.js';

function capture() {
  const out = { stdout: '', stderr: '' };
  const io = { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } };
  return { out, io };
}

const USAGE = 'Usage: toolwright demo <target> [--format f]';
const OPTIONS: NonNullable<ParseArgsConfig['options']> = { format: { type: 'string', default: 'pretty' }, header: { type: 'string', multiple: true, default: [] } };

it('returns the values and positionals, defaults applied, and prints nothing', () => {
  const { out, io } = capture();
  const parsed = parseCommandArgs('demo', USAGE, ['a.json', '--header', 'X: 1'], OPTIONS, io);
  assert.ok(typeof parsed === 'object');
  assert.deepEqual({ ...parsed.values }, { format: 'pretty', header: ['X: 1'], help: false });
  assert.deepEqual(parsed.positionals, ['a.json']);
  assert.deepEqual(out, { stdout: '', stderr: '' });
});

it('--help and -h print the usage to stdout and exit 0', () => {
  for (const flag of ['--help', '-h']) {
    const { out, io } = capture();
    assert.equal(parseCommandArgs('demo', USAGE, ['x', flag], OPTIONS, io), 0);
    assert.deepEqual(out, { stdout: `${USAGE}\n`, stderr: '' });
  }
});

it('an unknown option prints one sentence and the usage to stderr and exits 2', () => {
  const { out, io } = capture();
  assert.equal(parseCommandArgs('demo', USAGE, ['--colour'], OPTIONS, io), 2);
  assert.equal(out.stdout, '');
  assert.equal(out.stderr, `toolwright demo: unknown option --colour (a value starting with "-" goes after "--", e.g. -- --colour)\n\n${USAGE}\n`);
  assert.ok(out.stderr.endsWith(`\n\n${USAGE}\n`), out.stderr);
});

it('a string option without its value exits 2', () => {
  const { out, io } = capture();
  assert.equal(parseCommandArgs('demo', USAGE, ['--format'], OPTIONS, io), 2);
  assert.equal(out.stderr, `toolwright demo: option --format needs a value (--format <value>)\n\n${USAGE}\n`);
});

it('packageVersion reads the repository package.json', async () => {
  assert.equal(await packageVersion(), (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { version: string }).version);
});
