import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseVariant, parseServerArgs } from '../shared/server-args.js';

test('defaults: ephemeral port on loopback, one tool', () => {
  assert.deepEqual(parseServerArgs([]), { port: 0, host: '127.0.0.1', tools: 1, variant: 'default' });
});

test('reads --port, --tools, --host and --variant', () => {
  assert.deepEqual(parseServerArgs(['--port', '8080', '--tools', '50', '--host', '127.0.0.2', '--variant', 'legacy']), { port: 8080, host: '127.0.0.2', tools: 50, variant: 'legacy' });
});

test('an unknown or incomplete flag is refused by name', () => {
  assert.throws(() => parseServerArgs(['--ports', '1']), /unknown or incomplete server argument: --ports/);
  assert.throws(() => parseServerArgs(['--tools']), /unknown or incomplete server argument: --tools/);
});

test('out-of-range values are refused with the value', () => {
  assert.throws(() => parseServerArgs(['--port', '70000']), /--port must be 0\.\.65535, got 70000/);
  assert.throws(() => parseServerArgs(['--tools', '0']), /--tools must be a positive integer, got 0/);
  assert.throws(() => parseServerArgs(['--tools', '1.5']), /--tools must be a positive integer, got 1\.5/);
});

test('a variant is checked against the ones the program has', () => {
  assert.equal(chooseVariant(parseServerArgs(['--variant', 'legacy']), ['default', 'legacy']), 'legacy');
  assert.equal(chooseVariant(parseServerArgs([]), ['default', 'legacy']), 'default');
  assert.throws(() => chooseVariant(parseServerArgs(['--variant', 'legacyy']), ['default', 'legacy']), /^Error: --variant must be one of default, legacy, got legacyy$/);
});
