import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileSchema } from '../../src/schema/index.js';
import { mapTool, repairArguments } from '../../src/host/index.js';
import type { MapOptions, MappedTool } from '../../src/host/index.js';
import { loadCorpus, VARIANTS } from './corpus.js';
import { loweredArbitrary } from './lowered-arbitrary.js';

// Round trip: whatever a model sends that the LOWERED schema accepts, once repaired, is accepted
// by the ORIGINAL schema, except for constraints the loss report says were moved out of the
// schema or dropped (the report must explain every remaining error). For tools whose lowering
// lost no constraint at all, that means: always valid.

const CONSTRAINED = VARIANTS.filter((v) => ['openai-chat-strict', 'openai-responses-strict', 'gemini', 'gemini-legacy', 'anthropic', 'anthropic-strict'].includes(v.id));

type Failure = { keyword: string; schemaPath: string; instancePath: string };

/** Is every error explained by a keyword the loss report moved or dropped? */
function explainedBy(tool: MappedTool): (errors: readonly Failure[]) => boolean {
  const lost = new Set(tool.loss.filter((e) => e.action === 'moved-into-description' || e.action === 'dropped').map((e) => e.keyword));
  const direct = (error: Failure): boolean => lost.has(error.keyword) || error.schemaPath.split('/').some((segment) => lost.has(segment));
  return (errors) => {
    // A lost combinator (e.g. root anyOf merged away) also explains its branches' errors at or below it.
    const combinators = errors.filter((e) => ['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'not'].includes(e.keyword) && direct(e));
    return errors.every((e) => direct(e) || combinators.some((c) => e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`)));
  };
}

for (const variant of CONSTRAINED) {
  test(`round trip through ${variant.id}: lowered-valid arguments, repaired, satisfy the original schema up to the reported losses`, () => {
    for (const tool of loadCorpus()) {
      const mapped = mapTool(tool, variant.options as MapOptions);
      const original = compileSchema(tool.inputSchema);
      const explained = explainedBy(mapped);
      const lossless = !mapped.loss.some((e) => e.action === 'moved-into-description' || e.action === 'dropped');
      // The generator ignores a few keywords (uniqueItems, ...); values the lowered schema refuses
      // are discarded. Legacy Gemini schemas are OpenAPI, not JSON Schema, so they are not compiled.
      const lowered = variant.id === 'gemini-legacy' ? undefined : compileSchema(mapped.parameters);
      fc.assert(fc.property(loweredArbitrary(mapped.parameters), (args) => {
        fc.pre(lowered === undefined || lowered.validate(args).valid);
        const repaired = repairArguments(tool, args, mapped).value;
        const result = original.validate(repaired);
        if (lossless) return result.valid;
        return explained(result.errors);
      }), { numRuns: 40, seed: 20261130 });
    }
  });
}

test('round trip on tools the strict lowering leaves lossless: every lowered-valid argument is valid after repair', () => {
  const lossless = ['set_speed', 'measure', 'save_tree', 'move_to', 'configure_mode', 'merge_settings', 'ping', 'grasp_object_force_control'];
  let checked = 0;
  for (const tool of loadCorpus().filter((t) => lossless.includes(t.name))) {
    const mapped = mapTool(tool, { provider: 'openai-chat', strict: true });
    const original = compileSchema(tool.inputSchema);
    const lowered = compileSchema(mapped.parameters);
    const constraintLoss = mapped.loss.filter((e) => e.action === 'moved-into-description' && !['default', 'minLength', 'maxLength'].includes(e.keyword));
    assert.deepEqual(constraintLoss, [], `${tool.name} loses no validating keyword in strict mode`);
    fc.assert(fc.property(loweredArbitrary(mapped.parameters), (args) => {
      if (!lowered.validate(args).valid) return true; // the generator over-approximates minLength-free strings
      const result = original.validate(repairArguments(tool, args, mapped).value);
      return result.valid || result.errors.every((e) => e.keyword === 'minLength' || e.keyword === 'maxLength');
    }), { numRuns: 60, seed: 7 });
    checked++;
  }
  assert.equal(checked, lossless.length);
});

test('repair undoes what models do to well-formed arguments (numbers and booleans as strings, objects as JSON text)', () => {
  for (const tool of loadCorpus()) {
    const mapped = mapTool(tool, { provider: 'openai-chat' });
    const props = (mapped.parameters.properties ?? {}) as Record<string, { type?: unknown }>;
    const corruptible = Object.entries(props).filter(([, s]) => {
      const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : [];
      return types.length > 0 && !types.includes('string') && types.some((t) => ['number', 'integer', 'boolean', 'object'].includes(String(t)));
    }).map(([name]) => name);
    if (corruptible.length === 0) continue;
    fc.assert(fc.property(loweredArbitrary(mapped.parameters), fc.integer({ min: 0, max: 2 ** 20 }), (args, mask) => {
      const clean = repairArguments(tool, args, mapped).value;
      const corrupted: Record<string, unknown> = { ...(args as Record<string, unknown>) };
      corruptible.forEach((name, i) => {
        const value = corrupted[name];
        if (!((mask >> i) & 1) || value === null || value === undefined) return;
        corrupted[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
      });
      assert.deepEqual(repairArguments(tool, corrupted, mapped).value, clean);
      assert.deepEqual(repairArguments(tool, JSON.stringify(corrupted), mapped).value, clean, 'also from argument text');
    }), { numRuns: 40, seed: 42 });
  }
});
