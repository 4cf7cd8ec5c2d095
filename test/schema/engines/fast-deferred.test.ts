/** compileFast defers Ajv's code generation to the first call and builds at most once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileFast } from '../../../src/schema/engines/fast.js';
import { SchemaCompileError } from '../../../src/schema/index.js';

const plan = { blocker: undefined, ownProperties: false, refsRoot: false };

describe('compileFast (deferred)', () => {
  it('validates on first call', () => {
    const validate = compileFast({ type: 'integer' }, '2020-12', false, plan);
    assert.equal(validate(1), undefined);
    assert.equal(validate('x')?.[0]?.keyword, 'type');
  });

  it('a schema Ajv refuses throws the same SchemaCompileError on every call, built once', () => {
    // planFastPath would never pass an unresolvable $ref; the plan is forced here to reach Ajv's refusal.
    const validate = compileFast({ $ref: '#/$defs/missing' }, '2020-12', false, plan);
    let first: unknown;
    assert.throws(() => validate(1), (error) => {
      first = error;
      return error instanceof SchemaCompileError && /fast engine refused the schema: can't resolve reference #\/\$defs\/missing/.test(error.message);
    });
    assert.throws(() => validate(1), (error) => error === first);
  });
});
