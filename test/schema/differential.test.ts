// The fast engine (Ajv) runs only the schemas planFastPath accepts; this checks, on the whole
// official suite, that for every such schema both engines give the same validity on every
// instance, and that our hand-written meta-schema checks agree with the real meta-schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileBothEngines } from '../../src/schema/differential.js';
import { compileSchema, SchemaCompileError } from '../../src/schema/index.js';
import { repoPath } from '../support/repo-paths.js';
import { JSON_SCHEMA_TEST_SUITE, locateJsonSchemaTestSuite, reportMissing } from '../support/test-data.js';
import { loadSuiteRemotes, readSuiteGroups, suiteFileNames } from '../support/json-schema-test-suite.js';
import type { SuiteGroup } from '../support/json-schema-test-suite.js';

const suiteRoot = locateJsonSchemaTestSuite();
if (suiteRoot === undefined) reportMissing(JSON_SCHEMA_TEST_SUITE);
/** `test` for the tests that read the suite; registers nothing when it is absent (the skip line says why). */
const suiteTest: (name: string, fn: () => void) => void = suiteRoot === undefined ? () => {} : (name, fn) => { test(name, fn); };

function* groups(dir: string, dialectUri: string | undefined): Generator<[string, object | boolean, SuiteGroup]> {
  for (const name of suiteFileNames(suiteRoot!, dir)) {
    for (const group of readSuiteGroups(join(suiteRoot!, 'tests', dir, name), dialectUri)) yield [`${dir}/${name}: ${group.description}`, group.schema, group];
  }
}

suiteTest('fast and compliant engines agree on every suite instance of every fast-path schema', () => {
  assert.ok(suiteRoot);
  const registry = loadSuiteRemotes(suiteRoot);
  let compared = 0;
  let fastGroups = 0;
  const disagreements: string[] = [];
  for (const [dir, uri, formatAssertion] of [['draft2020-12', undefined, false], ['draft2020-12/optional', undefined, false], ['draft2020-12/optional/format', undefined, true], ['draft7', 'http://json-schema.org/draft-07/schema#', false]] as const) {
    for (const [where, schema, group] of groups(dir, uri)) {
      const both = compileBothEngines(schema, { remotes: registry, formatAssertion });
      if (!both.fast) continue;
      fastGroups++;
      for (const t of group.tests) {
        compared++;
        const fast = both.fast(t.data).length === 0;
        const compliant = both.compliant(t.data).length === 0;
        if (fast !== compliant) disagreements.push(`${where} / ${t.description}: fast=${fast} compliant=${compliant} expected=${t.valid}`);
      }
    }
  }
  assert.deepEqual(disagreements, []);
  // Most of the suite must actually exercise the fast path, or this test proves little.
  assert.ok(fastGroups > 450, `only ${fastGroups} groups on the fast path`);
  assert.ok(compared > 1800, `only ${compared} instances compared`);
});

suiteTest('meta-schema checks: every suite schema compiles, and the real meta-schema agrees with each refusal', () => {
  assert.ok(suiteRoot);
  const registry = loadSuiteRemotes(suiteRoot);
  for (const [where, schema] of groups('draft2020-12', undefined)) {
    assert.doesNotThrow(() => compileSchema(schema, { remotes: registry }), where);
  }
  const metaSchema = compileSchema({ $ref: 'https://json-schema.org/draft/2020-12/schema' });
  const metaSchema07 = compileSchema({ $ref: 'http://json-schema.org/draft-07/schema#' });
  const invalid: object[] = [
    { type: 'strin' }, { type: [] }, { type: ['string', 'string'] }, { properties: { force: { minimum: '5' } } }, { required: ['a', 'a'] },
    { required: 'a' }, { anyOf: [] }, { allOf: {} }, { oneOf: [3] }, { properties: { a: 3 } }, { maxLength: -1 }, { minItems: 1.5 },
    { multipleOf: 0 }, { multipleOf: -2 }, { enum: 'a' }, { items: [{}] }, { prefixItems: [] }, { $anchor: '1bad' }, { $id: 'http://x.test/a#frag' },
    { dependentRequired: { a: [1] } }, { dependentSchemas: { a: 1 } }, { uniqueItems: 'yes' }, { not: [] }, { if: 1 }, { contains: null },
    { $defs: { a: { exclusiveMinimum: true } } }, { patternProperties: { a: 1 } }, { additionalProperties: 'no' }, { title: 3 }, { deprecated: 1 },
    { minContains: -1 }, { $ref: 3 }, { $comment: {} }, { examples: {} }, { $vocabulary: { x: 1 } },
  ];
  for (const schema of invalid) {
    assert.equal(metaSchema.validate(schema).valid, false, `the 2020-12 meta-schema accepts ${JSON.stringify(schema)}`);
    assert.throws(() => compileSchema(schema), SchemaCompileError, JSON.stringify(schema));
  }
  const invalid07: object[] = [{ items: [3] }, { additionalItems: 'x' }, { dependencies: { a: 5 } }, { dependencies: { a: [1] } }, { definitions: { a: 1 } }, { $id: 3 }];
  for (const schema of invalid07) {
    assert.equal(metaSchema07.validate(schema).valid, false, `the draft-07 meta-schema accepts ${JSON.stringify(schema)}`);
    assert.throws(() => compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', ...schema }), SchemaCompileError, JSON.stringify(schema));
  }
});

test('both engines word the same problems the same way (grasp and trajectory tools)', () => {
  const load = (name: string): object => JSON.parse(readFileSync(repoPath('bench/fixtures/schemas', name), 'utf8')) as object;
  const cases: Array<[object, unknown]> = [
    [load('grasp.json'), { target_position: { x: '0.42', y: -0.1 }, force: 45, grasp_strategy: 'claw', speed: 3, timeout: 0 }],
    [load('grasp.json'), { target_position: [], grasp_strategy: null }],
    [load('trajectory.json'), { trajectory_id: '', waypoints: [{ position: { x: '0.1', y: 0, z: 0 }, time_from_start: -1 }], tags: ['a', 'a'], request_id: 'bad id!', tool: {}, priority: 1.5, frame: 'moon', max_velocity: 3 }],
    [load('trajectory.json'), { waypoints: [], obstacles: [{ id: 1, kind: 'cone', size: [] }], safety_zone: { min: [0, 0] } }],
  ];
  for (const [schema, instance] of cases) {
    const fast = compileSchema(schema);
    const compliant = compileSchema(schema, { engine: 'compliant' });
    assert.equal(fast.engine, 'fast');
    const messages = (errors: ReadonlyArray<{ message: string; keyword: string; instancePath: string }>) => errors.map((e) => `${e.instancePath} ${e.keyword} ${e.message}`).sort();
    assert.deepEqual(messages(compliant.validate(instance).errors), messages(fast.validate(instance).errors));
  }
});

test("Ajv-only keywords keep their JSON Schema meaning (ignored): nullable, $async, formatMinimum, discriminator", () => {
  const cases: Array<[object, unknown, boolean]> = [
    [{ type: 'string', nullable: true }, null, false],
    [{ type: 'object', properties: { a: { type: 'string' } }, $async: true }, { a: 1 }, false],
    [{ type: 'string', format: 'date', formatMinimum: '2020-01-01' }, '2019-01-01', true],
    [{ type: 'object', discriminator: { propertyName: 'k' }, oneOf: [{ properties: { k: { const: 'a' } } }, { properties: { k: { const: 'b' } } }] }, { k: 'b' }, true],
  ];
  for (const [schema, instance, valid] of cases) {
    for (const formatAssertion of [false, true]) {
      const fast = compileSchema(schema, { formatAssertion });
      const compliant = compileSchema(schema, { formatAssertion, engine: 'compliant' });
      assert.equal(fast.validate(instance).valid, valid, `${JSON.stringify(schema)} (${fast.engine})`);
      assert.equal(compliant.validate(instance).valid, valid, JSON.stringify(schema));
    }
  }
});
