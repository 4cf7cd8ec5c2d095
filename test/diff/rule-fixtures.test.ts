import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { diffCatalogs } from '../../src/diff/compare-catalogs.js';

// One fixture per classification rule of docs/diff.md: the old and new catalogs and exactly the
// changes (tool, pointer, kind, a phrase of the message) the diff must report between them.
interface DiffFixture {
  summary: string;
  before: { tools: unknown[] };
  after: { tools: unknown[] };
  expect: Array<{ tool: string; pointer: string; kind: string; messageIncludes: string }>;
}

const DIR = new URL('../fixtures/diff/', import.meta.url);
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

test('the fixture set covers every rule the issue lists', () => {
  assert.deepEqual(files, [
    'additional-properties-closed.json', 'enum-changed.json', 'model-facing.json', 'newly-required.json', 'optional-added.json',
    'output-reversed.json', 'property-removed.json', 'range-changed.json', 'tool-added.json', 'tool-removed.json', 'type-narrowed.json', 'unknown.json',
  ]);
});

for (const file of files) {
  const fixture = JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as DiffFixture;
  test(`${file}: ${fixture.summary}`, () => {
    const diff = diffCatalogs(fixture.before.tools, fixture.after.tools);
    assert.deepEqual(diff.changes.map((c) => [c.tool, c.pointer, c.kind]), fixture.expect.map((e) => [e.tool, e.pointer, e.kind]));
    diff.changes.forEach((change, i) => {
      assert.ok(change.message.includes(fixture.expect[i]!.messageIncludes), `${change.pointer}: "${change.message}" lacks "${fixture.expect[i]!.messageIncludes}"`);
      assert.equal(change.breaking, change.kind === 'breaking');
    });
  });
  test(`${file}: the reverse diff (new → old) reports a change at every place too`, () => {
    const reverse = diffCatalogs(fixture.after.tools, fixture.before.tools);
    assert.equal(reverse.changes.length > 0, true);
  });
}

test('identical catalogs: no changes, bump none', () => {
  const tools = JSON.parse(readFileSync(new URL('range-changed.json', DIR), 'utf8')).before.tools as unknown[];
  const diff = diffCatalogs(tools, structuredClone(tools));
  assert.deepEqual(diff.changes, []);
  assert.equal(diff.bump, 'none');
});

test('key order does not count as a change', () => {
  const a = [{ name: 't', inputSchema: { type: 'object', properties: { x: { type: 'number', minimum: 0 } } } }];
  const b = [{ inputSchema: { properties: { x: { minimum: 0, type: 'number' } }, type: 'object' }, name: 't' }];
  assert.deepEqual(diffCatalogs(a, b).changes, []);
});

test('bump: breaking → major with a _v2 suggestion per changed tool; compatible → minor; text → patch', () => {
  const load = (f: string) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as DiffFixture;
  const breaking = load('enum-changed.json');
  const diff = diffCatalogs(breaking.before.tools, breaking.after.tools);
  assert.equal(diff.bump, 'major');
  assert.deepEqual(diff.suggestions.map((s) => s.tool), ['a']);
  assert.match(diff.suggestions[0]!.message, /publish the new definition as "a_v2"/);
  const added = load('tool-added.json');
  assert.equal(diffCatalogs(added.before.tools, added.after.tools).bump, 'minor');
  const text = load('model-facing.json');
  assert.equal(diffCatalogs(text.before.tools, text.after.tools).bump, 'patch');
  const unknown = load('unknown.json');
  const undecided = diffCatalogs(unknown.before.tools, unknown.after.tools);
  assert.equal(undecided.bump, 'major');
  assert.match(undecided.bumpReason, /cannot be decided/);
});

test('a tool already at _v2 is advised to move to _v3; a removed tool with a same-schema twin is flagged as a rename', () => {
  const v2 = [{ name: 'grasp_v2', inputSchema: { type: 'object', properties: { f: { type: 'number' } } } }];
  const v2b = [{ name: 'grasp_v2', inputSchema: { type: 'object', properties: { f: { type: 'integer' } } } }];
  assert.match(diffCatalogs(v2, v2b).suggestions[0]!.message, /"grasp_v3"/);
  const renamed = diffCatalogs([{ name: 'grasp_object', inputSchema: { type: 'object' } }], [{ name: 'graspObject', inputSchema: { type: 'object' } }]);
  assert.match(renamed.changes.find((c) => c.tool === 'grasp_object')!.message, /a tool "graspObject" with the same schemas was added: renamed\?/);
});

test('outputSchema removed breaks consumers; added is compatible', () => {
  const withOut = [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }];
  const without = [{ name: 't', inputSchema: { type: 'object' } }];
  assert.deepEqual(diffCatalogs(withOut, without).changes.map((c) => [c.pointer, c.kind]), [['/outputSchema', 'breaking']]);
  assert.deepEqual(diffCatalogs(without, withOut).changes.map((c) => [c.pointer, c.kind]), [['/outputSchema', 'compatible']]);
});

test('annotations changes are unknown with the host behaviour they affect', () => {
  const a = [{ name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];
  const b = [{ name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } }];
  const [change] = diffCatalogs(a, b).changes;
  assert.deepEqual([change!.pointer, change!.kind], ['/annotations/readOnlyHint', 'unknown']);
  assert.match(change!.message, /hosts auto-approve read-only tools/);
});

test('multipleOf: 0.5 → 0.25 widens, 0.25 → 0.5 narrows, 0.3 → 0.5 is both (breaking on either side)', () => {
  const t = (m: number) => [{ name: 't', inputSchema: { type: 'object', properties: { x: { type: 'number', multipleOf: m } } } }];
  assert.equal(diffCatalogs(t(0.5), t(0.25)).changes[0]!.kind, 'compatible');
  assert.equal(diffCatalogs(t(0.25), t(0.5)).changes[0]!.kind, 'breaking');
  assert.equal(diffCatalogs(t(0.3), t(0.5)).changes[0]!.kind, 'breaking');
});

test('anyOf: narrowing a branch is unknown (another branch may still accept), widening one is compatible', () => {
  const t = (max: number) => [{ name: 't', inputSchema: { type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'number', maximum: max }] } } } }];
  assert.equal(diffCatalogs(t(10), t(5)).changes[0]!.kind, 'unknown');
  assert.equal(diffCatalogs(t(5), t(10)).changes[0]!.kind, 'compatible');
});

test('a change inside $defs is judged where it is written; an inputSchema that is not a schema is unknown', () => {
  const t = (max: number) => [{ name: 't', inputSchema: { type: 'object', $defs: { f: { type: 'number', maximum: max } }, properties: { x: { $ref: '#/$defs/f' } } } }];
  assert.deepEqual(diffCatalogs(t(10), t(5)).changes.map((c) => [c.pointer, c.kind]), [['/inputSchema/$defs/f/maximum', 'breaking']]);
  const broken = diffCatalogs([{ name: 't', inputSchema: { type: 'object' } }], [{ name: 't', inputSchema: 'nope' }]);
  assert.deepEqual(broken.changes.map((c) => [c.pointer, c.kind]), [['/inputSchema', 'unknown']]);
});
