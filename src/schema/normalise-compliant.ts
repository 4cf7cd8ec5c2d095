import type { JsonError } from 'json-schema-library';
import { createDescriber, displayPath, plural, renderJson } from './describe-value.js';
import type { NormalisedErrors } from './normalise-fast.js';
import { walkSchema } from './walk.js';
import type { SchemaError } from './types.js';

const KEYWORD_OF_CODE: Record<string, string> = {
  'additional-items-error': 'additionalItems', 'additional-properties-error': 'additionalProperties',
  'no-additional-properties-error': 'additionalProperties', 'all-of-error': 'allOf', 'any-of-error': 'anyOf',
  'const-error': 'const', 'contains-any-error': 'contains', 'contains-array-error': 'contains', 'contains-error': 'contains',
  'contains-min-error': 'contains', 'contains-max-error': 'contains', 'enum-error': 'enum',
  'exclusive-maximum-error': 'exclusiveMaximum', 'exclusive-minimum-error': 'exclusiveMinimum',
  'forbidden-property-error': 'properties', 'invalid-property-name-error': 'propertyNames', 'maximum-error': 'maximum',
  'max-items-error': 'maxItems', 'max-length-error': 'maxLength', 'max-properties-error': 'maxProperties',
  'minimum-error': 'minimum', 'min-items-error': 'minItems', 'min-items-one-error': 'minItems', 'min-length-error': 'minLength',
  'min-length-one-error': 'minLength', 'min-properties-error': 'minProperties', 'missing-dependency-error': 'dependentRequired',
  'multiple-of-error': 'multipleOf', 'multiple-one-of-error': 'oneOf', 'not-error': 'not', 'one-of-error': 'oneOf',
  'pattern-error': 'pattern', 'pattern-properties-error': 'patternProperties', 'ref-error': '$ref',
  'required-property-error': 'required', 'type-error': 'type', 'unevaluated-property-error': 'unevaluatedProperties',
  'unevaluated-items-error': 'unevaluatedItems', 'unique-items-error': 'uniqueItems', 'invalid-data-error': 'false',
};

function instancePathOf(pointer: unknown): string {
  const text = typeof pointer === 'string' ? pointer : '#';
  return text.startsWith('#') ? text.slice(1) : text;
}

/** Which present property made `missing` required, from dependentRequired or array-form dependencies. */
function triggerOf(schema: unknown, value: unknown, missing: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || typeof value !== 'object' || value === null) return undefined;
  for (const keyword of ['dependentRequired', 'dependencies']) {
    const map = (schema as Record<string, unknown>)[keyword];
    if (typeof map !== 'object' || map === null) continue;
    for (const [property, names] of Object.entries(map)) {
      if (Array.isArray(names) && names.includes(missing) && Object.prototype.hasOwnProperty.call(value, property)) return property;
    }
  }
  return undefined;
}

function problemOf(code: string, data: Record<string, unknown>, describeValue: (value: unknown) => string): string {
  const value = data.value;
  switch (code) {
    case 'type-error': return `expected ${Array.isArray(data.expected) ? data.expected.join(' or ') : String(data.expected)}, got ${describeValue(value)}`;
    case 'required-property-error': return `missing required property ${JSON.stringify(data.key)}`;
    case 'no-additional-properties-error': case 'additional-properties-error': case 'forbidden-property-error':
      return `unexpected property ${JSON.stringify(data.property ?? data.key)}`;
    case 'enum-error': return `expected one of ${renderJson(data.values)}, got ${describeValue(value)}`;
    case 'const-error': return `expected ${renderJson(data.expected)}, got ${describeValue(value)}`;
    case 'minimum-error': return `expected number >= ${String(data.minimum)}, got ${describeValue(value ?? data.length)}`;
    case 'maximum-error': return `expected number <= ${String(data.maximum)}, got ${describeValue(value ?? data.length)}`;
    case 'exclusive-minimum-error': return `expected number > ${String(data.minimum)}, got ${describeValue(value ?? data.length)}`;
    case 'exclusive-maximum-error': return `expected number < ${String(data.maximum)}, got ${describeValue(value ?? data.length)}`;
    case 'multiple-of-error': return `expected a multiple of ${String(data.multipleOf)}, got ${describeValue(value)}`;
    case 'min-length-error': case 'min-length-one-error': return `expected string of at least ${plural(data.minLength ?? 1, 'character')}, got ${describeValue(value)}`;
    case 'max-length-error': return `expected string of at most ${plural(data.maxLength, 'character')}, got ${describeValue(value)}`;
    case 'min-items-error': case 'min-items-one-error': return `expected at least ${plural(data.minItems ?? 1, 'item')}, got ${describeValue(value)}`;
    case 'max-items-error': return `expected at most ${plural(data.maximum, 'item')}, got ${describeValue(value)}`;
    case 'min-properties-error': return `expected at least ${plural(data.minProperties, 'property').replace('propertys', 'properties')}, got ${String(data.length)}`;
    case 'max-properties-error': return `expected at most ${plural(data.maxProperties, 'property').replace('propertys', 'properties')}, got ${String(data.length)}`;
    case 'pattern-error': return `expected string matching ${JSON.stringify(data.pattern)}, got ${describeValue(value ?? data.received)}`;
    case 'unique-items-error': {
      const index = (pointer: unknown): string => String(pointer ?? '').split('/').pop() ?? '?';
      return `expected unique items, items ${index(data.duplicatePointer)} and ${index(data.pointer)} are equal`;
    }
    case 'any-of-error': return `expected a value matching at least one of the anyOf alternatives, got ${describeValue(value)}`;
    case 'one-of-error': return `expected a value matching exactly one of the oneOf alternatives, got ${describeValue(value)} matching none`;
    case 'multiple-one-of-error': return `expected a value matching exactly one of the oneOf alternatives, got ${describeValue(value)} matching several`;
    case 'not-error': return `value must not match the "not" schema, got ${describeValue(value)}`;
    case 'invalid-data-error': return `no value is allowed here, got ${describeValue(value)}`;
    case 'unevaluated-property-error': return `unexpected property (not covered by any subschema)`;
    case 'unevaluated-items-error': return `unexpected array item (not covered by any subschema)`;
    case 'missing-dependency-error': {
      const trigger = typeof data.property === 'string' ? data.property : triggerOf(data.schema, value, data.missingProperty);
      return `missing property ${JSON.stringify(data.missingProperty)} (required when ${trigger === undefined ? 'a dependent property' : JSON.stringify(trigger)} is present)`;
    }
    case 'contains-error': case 'contains-any-error': case 'contains-min-error': case 'contains-max-error': {
      const schema = (typeof data.schema === 'object' && data.schema !== null ? data.schema : {}) as Record<string, unknown>;
      const min = typeof schema.minContains === 'number' ? schema.minContains : undefined;
      return typeof schema.maxContains !== 'number'
        ? `expected at least ${plural(min ?? 1, 'item')} matching "contains", got ${describeValue(value)}`
        : `expected ${min === undefined ? '' : `at least ${String(min)} and `}at most ${plural(schema.maxContains, 'item')} matching "contains", got ${describeValue(value)}`;
    }
    case 'ref-error': return `could not resolve $ref ${JSON.stringify(data.ref)}`;
    default:
      if (code.startsWith('format-')) return `expected a valid ${code.slice(7, -6)}, got ${describeValue(value)}`;
      return `${code.replace(/-error$/, '').replace(/-/g, ' ')} failed, got ${describeValue(value)}`;
  }
}

/**
 * Map json-schema-library errors to SchemaError; `root` lets us find each failing subschema's
 * location. Only the first `limit` problems get a message; the rest are counted in `omitted`.
 */
export function normaliseCompliantErrors(errors: readonly JsonError[], root: object | boolean, limit = Infinity): NormalisedErrors {
  let locations: Map<unknown, string> | undefined;
  const out: SchemaError[] = [];
  const seen = new Set<string>();
  const describe = createDescriber();
  let omitted = 0;
  for (const error of errors) {
    if (out.length >= limit) { omitted++; continue; }
    const data = (error.data ?? {}) as Record<string, unknown>;
    let instancePath = instancePathOf(data.pointer);
    const code = String(error.code);
    let keyword = KEYWORD_OF_CODE[code] ?? (code.startsWith('format-') ? 'format' : code.replace(/-error$/, ''));
    if (keyword === 'dependentRequired' && typeof data.schema === 'object' && data.schema !== null
      && (data.schema as Record<string, unknown>).dependentRequired === undefined && (data.schema as Record<string, unknown>).dependencies !== undefined) keyword = 'dependencies';
    if (keyword === 'uniqueItems') instancePath = instancePath.slice(0, instancePath.lastIndexOf('/'));
    if ((keyword === 'additionalProperties' || keyword === 'properties') && typeof (data.property ?? data.key) === 'string' && instancePath.endsWith(`/${String(data.property ?? data.key)}`)) {
      instancePath = instancePath.slice(0, instancePath.lastIndexOf('/'));
    }
    if (!locations) {
      locations = new Map();
      const found = locations;
      walkSchema(root, (visit) => { if (!found.has(visit.schema)) found.set(visit.schema, visit.pointer); });
    }
    const at = locations.get(data.schema);
    const schemaPath = `#${at ?? ''}/${keyword}`;
    const message = `${displayPath(instancePath)}: ${problemOf(code, data, describe)}`;
    const key = `${instancePath}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ instancePath, keyword, message, schemaPath });
  }
  return { errors: out, omitted };
}
