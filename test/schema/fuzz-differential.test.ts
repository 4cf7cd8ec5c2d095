// Random schemas built from the fast path's keywords, random instances: both engines must agree.
// The official suite tests each keyword mostly alone; this tests them in combination.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileSchema } from '../../src/schema/index.js';
import { document, json, schema } from './fuzz-arbitraries.js';

test('fast and compliant engines agree on random schemas and instances', () => {
  let fastRuns = 0;
  fc.assert(fc.property(schema, fc.array(json, { minLength: 1, maxLength: 6 }), (s, instances) => {
    const fast = compileSchema(s);
    const compliant = compileSchema(s, { engine: 'compliant' });
    if (fast.engine === 'fast') fastRuns++;
    for (const instance of instances) {
      const a = fast.validate(instance);
      const b = compliant.validate(instance);
      if (a.valid !== b.valid) return false;
      if (!a.valid && (a.errors.length === 0 || b.errors.length === 0)) return false;
    }
    return true;
  }), { numRuns: 400, seed: 20261130 });
  assert.ok(fastRuns > 300, `only ${fastRuns} schemas took the fast path`);
});

test('fast and compliant engines agree on random documents with $ref, recursion and all three dialects', () => {
  let fastRuns = 0;
  fc.assert(fc.property(document, fc.array(json, { minLength: 1, maxLength: 6 }), (s, instances) => {
    const fast = compileSchema(s);
    const compliant = compileSchema(s, { engine: 'compliant' });
    if (fast.engine === 'fast') fastRuns++;
    return instances.every((instance) => fast.validate(instance).valid === compliant.validate(instance).valid);
  }), { numRuns: 300, seed: 7 });
  assert.ok(fastRuns > 200, `only ${fastRuns} documents took the fast path`);
});
