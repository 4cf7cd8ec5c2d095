/** `explainArgsError` (src/cli/args-error.ts): one sentence per parseArgs error, "did you mean" only for a near miss. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { explainArgsError } from '../../src/cli/args-error.js';

const OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  provider: { type: 'string' },
  format: { type: 'string', short: 'f' },
  stdio: { type: 'boolean' },
  'max-tokens': { type: 'string' },
};

function explain(args: string[]): string {
  try {
    parseArgs({ args, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    return explainArgsError(error, OPTIONS);
  }
  throw new Error(`parseArgs accepted ${args.join(' ')}`);
}

const escape = (flag: string) => `(a value starting with "-" goes after "--", e.g. -- ${flag})`;

it('a typo, a case slip, a swap and a missing dash part each name the option meant', () => {
  assert.equal(explain(['--prvider', 'x']), `unknown option --prvider; did you mean --provider? ${escape('--prvider')}`);
  assert.equal(explain(['--FORMAT', 'x']), `unknown option --FORMAT; did you mean --format? ${escape('--FORMAT')}`);
  assert.equal(explain(['--stdoi']), `unknown option --stdoi; did you mean --stdio? ${escape('--stdoi')}`);
  assert.equal(explain(['--max-token', '3']), `unknown option --max-token; did you mean --max-tokens? ${escape('--max-token')}`);
  assert.equal(explain(['--maxtokens=3']), `unknown option --maxtokens; did you mean --max-tokens? ${escape('--maxtokens')}`);
  assert.equal(explain(['-F', 'x']), `unknown option -F; did you mean -f? ${escape('-F')}`);
});

it('a flag far from every option gets no guess (no false "did you mean")', () => {
  assert.equal(explain(['--bogus']), `unknown option --bogus ${escape('--bogus')}`);
  assert.equal(explain(['--json']), `unknown option --json ${escape('--json')}`);
  assert.equal(explain(['-x']), `unknown option -x ${escape('-x')}`);
});

it('a missing value and a value given to a switch say which and how to write it', () => {
  assert.equal(explain(['--provider']), 'option --provider needs a value (--provider <value>)');
  assert.equal(explain(['-f']), 'option --format needs a value (--format <value>)');
  assert.equal(explain(['--stdio=yes']), 'option --stdio is a switch and takes no value (write --stdio alone)');
});

it('an error that is not from parseArgs keeps its message', () => {
  assert.equal(explainArgsError(new Error('something else'), OPTIONS), 'something else');
  assert.equal(explainArgsError('plain', OPTIONS), 'plain');
});
