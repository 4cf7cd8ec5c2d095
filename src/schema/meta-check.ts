import { isJsonObject } from '../json/json-object.js';
import { SchemaCompileError } from './compile-error.js';
import { describeValue } from './describe-value.js';
import { escapePointerToken } from './pointer.js';
import { compilePattern, PatternError } from './safe-regex.js';
import { walkSchema } from './walk.js';
import type { Dialect } from './types.js';

const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

type Check = (value: unknown, at: string, dialect: Dialect) => void;

function fail(at: string, keyword: string, expected: string, value: unknown): never {
  throw new SchemaCompileError(at, `"${keyword}" must be ${expected}, got ${describeValue(value)}`);
}
const isSchema = (v: unknown): boolean => typeof v === 'boolean' || (typeof v === 'object' && v !== null && !Array.isArray(v));

const string = (k: string): Check => (v, at) => { if (typeof v !== 'string') fail(at, k, 'a string', v); };
const boolean = (k: string): Check => (v, at) => { if (typeof v !== 'boolean') fail(at, k, 'a boolean', v); };
const number = (k: string): Check => (v, at) => { if (typeof v !== 'number' || !Number.isFinite(v)) fail(at, k, 'a number', v); };
const count = (k: string): Check => (v, at) => { if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(at, k, 'a non-negative integer', v); };
const schema = (k: string): Check => (v, at) => { if (!isSchema(v)) fail(at, k, 'a schema (object or boolean)', v); };
const schemaMap = (k: string): Check => (v, at) => {
  if (!isJsonObject(v)) fail(at, k, 'an object of schemas', v);
  for (const [name, sub] of Object.entries(v)) if (!isSchema(sub)) fail(`${at}/${escapePointerToken(name)}`, k, 'a schema (object or boolean)', sub);
};
const schemaList = (k: string): Check => (v, at) => {
  if (!Array.isArray(v) || v.length === 0) fail(at, k, 'a non-empty array of schemas', v);
  v.forEach((sub, i) => { if (!isSchema(sub)) fail(`${at}/${i}`, k, 'a schema (object or boolean)', sub); });
};
const uniqueStrings = (k: string): Check => (v, at) => {
  if (!Array.isArray(v)) fail(at, k, 'an array of unique strings', v);
  const seen = new Set<string>();
  v.forEach((item, i) => {
    if (typeof item !== 'string') fail(`${at}/${i}`, k, 'an array of strings', item);
    if (seen.has(item)) fail(`${at}/${i}`, k, 'an array of unique strings', item);
    seen.add(item);
  });
};
const regex = (at: string, keyword: string, source: string): void => {
  try { compilePattern(source); } catch (error) {
    throw new SchemaCompileError(at, `"${keyword}" ${error instanceof PatternError ? error.message : String(error)}`.replace(/^"pattern" /, ''));
  }
};

const COMMON: Record<string, Check> = {
  $schema: string('$schema'), $ref: string('$ref'), $comment: string('$comment'),
  title: string('title'), description: string('description'), format: string('format'),
  contentEncoding: string('contentEncoding'), contentMediaType: string('contentMediaType'),
  readOnly: boolean('readOnly'), writeOnly: boolean('writeOnly'),
  examples: (v, at) => { if (!Array.isArray(v)) fail(at, 'examples', 'an array', v); },
  type: (v, at) => {
    if (typeof v === 'string') { if (!SIMPLE_TYPES.has(v)) fail(at, 'type', `one of ${[...SIMPLE_TYPES].join(', ')}`, v); return; }
    if (!Array.isArray(v) || v.length === 0) fail(at, 'type', 'a type name or a non-empty array of type names', v);
    const seen = new Set<unknown>();
    v.forEach((t, i) => {
      if (typeof t !== 'string' || !SIMPLE_TYPES.has(t)) fail(`${at}/${i}`, 'type', `one of ${[...SIMPLE_TYPES].join(', ')}`, t);
      if (seen.has(t)) fail(`${at}/${i}`, 'type', 'a list without duplicates', t);
      seen.add(t);
    });
  },
  enum: (v, at) => { if (!Array.isArray(v)) fail(at, 'enum', 'an array', v); },
  multipleOf: (v, at) => { if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) fail(at, 'multipleOf', 'a number greater than 0', v); },
  maximum: number('maximum'), minimum: number('minimum'), exclusiveMaximum: number('exclusiveMaximum'), exclusiveMinimum: number('exclusiveMinimum'),
  maxLength: count('maxLength'), minLength: count('minLength'), maxItems: count('maxItems'), minItems: count('minItems'),
  maxProperties: count('maxProperties'), minProperties: count('minProperties'),
  uniqueItems: boolean('uniqueItems'), required: uniqueStrings('required'),
  pattern: (v, at) => { if (typeof v !== 'string') fail(at, 'pattern', 'a string', v); regex(at, 'pattern', v); },
  properties: schemaMap('properties'), definitions: schemaMap('definitions'),
  patternProperties: (v, at, d) => {
    schemaMap('patternProperties')(v, at, d);
    for (const source of Object.keys(v as object)) regex(`${at}/${escapePointerToken(source)}`, 'patternProperties', source);
  },
  additionalProperties: schema('additionalProperties'), propertyNames: schema('propertyNames'), contains: schema('contains'),
  not: schema('not'), if: schema('if'), then: schema('then'), else: schema('else'),
  allOf: schemaList('allOf'), anyOf: schemaList('anyOf'), oneOf: schemaList('oneOf'),
  dependencies: (v, at) => {
    if (!isJsonObject(v)) fail(at, 'dependencies', 'an object', v);
    for (const [name, dep] of Object.entries(v)) {
      const where = `${at}/${escapePointerToken(name)}`;
      if (Array.isArray(dep)) uniqueStrings('dependencies')(dep, where, '2020-12');
      else if (!isSchema(dep)) fail(where, 'dependencies', 'a schema or an array of property names', dep);
    }
  },
};

const MODERN: Record<string, Check> = {
  ...COMMON,
  $id: (v, at) => { if (typeof v !== 'string') fail(at, '$id', 'a string', v); if (/#./.test(v)) fail(at, '$id', 'a URI without a non-empty fragment', v); },
  $anchor: (v, at) => { if (typeof v !== 'string' || !ANCHOR.test(v)) fail(at, '$anchor', 'a plain name (letters, digits, "-", "_", ".")', v); },
  $defs: schemaMap('$defs'), $vocabulary: (v, at) => {
    if (!isJsonObject(v)) fail(at, '$vocabulary', 'an object of booleans', v);
    for (const [uri, on] of Object.entries(v)) if (typeof on !== 'boolean') fail(`${at}/${escapePointerToken(uri)}`, '$vocabulary', 'an object of booleans', on);
  },
  deprecated: boolean('deprecated'), maxContains: count('maxContains'), minContains: count('minContains'),
  dependentRequired: (v, at, d) => {
    if (!isJsonObject(v)) fail(at, 'dependentRequired', 'an object of string arrays', v);
    for (const [name, list] of Object.entries(v)) uniqueStrings('dependentRequired')(list, `${at}/${escapePointerToken(name)}`, d);
  },
  dependentSchemas: schemaMap('dependentSchemas'), unevaluatedItems: schema('unevaluatedItems'),
  unevaluatedProperties: schema('unevaluatedProperties'), contentSchema: schema('contentSchema'),
};

/** Keyword shape rules of each dialect's meta-schema. */
const RULES: Readonly<Record<Dialect, Record<string, Check>>> = {
  '2020-12': {
    ...MODERN, $dynamicRef: string('$dynamicRef'),
    $dynamicAnchor: (v, at) => { if (typeof v !== 'string' || !ANCHOR.test(v)) fail(at, '$dynamicAnchor', 'a plain name', v); },
    prefixItems: schemaList('prefixItems'), items: schema('items'),
  },
  '2019-09': {
    ...MODERN, $recursiveRef: string('$recursiveRef'), $recursiveAnchor: boolean('$recursiveAnchor'),
    items: (v, at, d) => { if (Array.isArray(v)) schemaList('items')(v, at, d); else schema('items')(v, at, d); },
    additionalItems: schema('additionalItems'),
  },
  'draft-07': {
    ...COMMON, $id: string('$id'),
    items: (v, at, d) => { if (Array.isArray(v)) schemaList('items')(v, at, d); else schema('items')(v, at, d); },
    additionalItems: schema('additionalItems'),
  },
};
// draft-07 allows an empty array form of items ("items": []) per its meta-schema; 2019-09 too.
RULES['draft-07'].items = (v, at, d) => { if (Array.isArray(v)) v.forEach((s, i) => { if (!isSchema(s)) fail(`${at}/${i}`, 'items', 'a schema', s); }); else schema('items')(v, at, d); };

/**
 * Check a schema against its dialect's meta-schema rules (rule 2), throwing a SchemaCompileError
 * whose path points at the offending keyword. Hand-written rather than validating against the
 * meta-schema document: the same verdicts (checked against the meta-schemas in tests) at a
 * fraction of the first-compile cost, and messages that name the keyword. Also compiles every
 * `pattern`, so invalid or catastrophic regular expressions are refused here.
 */
export function assertMetaValid(root: object | boolean, dialect: Dialect): void {
  walkSchema(root, (node) => {
    if (typeof node.schema === 'boolean') return;
    const rules = RULES[dialect];
    const s = node.schema as Record<string, unknown>;
    let ruleSet = rules;
    if (node.depth > 0 && typeof s.$schema === 'string') {
      // An embedded resource in another dialect is checked by that dialect's rules.
      ruleSet = RULES[(s.$schema.includes('draft-07') ? 'draft-07' : s.$schema.includes('2019-09') ? '2019-09' : dialect)];
    }
    for (const key of Object.keys(s)) {
      const check = ruleSet[key];
      if (check) check(s[key], `${node.pointer}/${escapePointerToken(key)}`, dialect);
    }
  }, { dialect });
}
