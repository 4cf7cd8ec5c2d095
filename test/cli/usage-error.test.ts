import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHeaderOptions, parseTimeoutOption, UsageError } from '../../src/cli/usage-error.js';
import { run as lint } from '../../src/cli/commands/lint.js';

function sink(): { stream: { write(text: string): boolean }; text: () => string } {
  let text = '';
  return { stream: { write(chunk: string) { text += chunk; return true; } }, text: () => text };
}

test('--header values: names lower-cased, values trimmed, repeated options merged', () => {
  assert.deepEqual(parseHeaderOptions(['Authorization:  Bearer abc ', 'X-Trace: 1:2']), { authorization: 'Bearer abc', 'x-trace': '1:2' });
  assert.deepEqual(parseHeaderOptions([]), {});
});

test('--header without a name is a usage error naming the bad entry', () => {
  for (const bad of ['no colon', ': value']) {
    assert.throws(() => parseHeaderOptions([bad]), (error: unknown) =>
      error instanceof UsageError && error.message === `--header must look like "Name: value" (got ${JSON.stringify(bad)})`);
  }
});

test('toolwright lint with a bad --header exits 2 and says why, before touching the target', async () => {
  const out = sink();
  const err = sink();
  const code = await lint(['http://127.0.0.1:9/mcp', '--header', 'oops'], { stdout: out.stream, stderr: err.stream });
  assert.equal(code, 2);
  assert.match(err.text(), /--header must look like "Name: value" \(got "oops"\)/);
  assert.equal(out.text(), '');
});

test('parseTimeoutOption: absent is undefined; a positive whole number of milliseconds is that number', () => {
  assert.equal(parseTimeoutOption(undefined), undefined);
  assert.equal(parseTimeoutOption('1500'), 1500);
});

test('parseTimeoutOption refuses anything else with one message naming the value', () => {
  for (const bad of ['soon', '0', '-5', '1.5', '']) {
    assert.throws(() => parseTimeoutOption(bad), (error: unknown) => error instanceof UsageError && error.message === `--timeout must be a positive integer (milliseconds), got ${JSON.stringify(bad)}`);
  }
});
