import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerArgs } from '../shared/server-args.js';

test('defaults: ephemeral port on loopback, one tool', () => {
  assert.deepEqual(parseServerArgs([]), { port: 0, host: '127.0.0.1', tools: 1 });
});

test('reads --port, --tools and --host', () => {
  assert.deepEqual(parseServerArgs(['--port', '8080', '--tools', '50', '--host', '127.0.0.2']), { port: 8080, host: '127.0.0.2', tools: 50 });
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
