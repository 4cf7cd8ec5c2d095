// fast-check arbitrary for values that a LOWERED (provider) schema accepts: what a model that
// follows the provider schema exactly could send. Covers the keywords the lowering emits.
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';
import { resolvePointer } from '../../src/schema/index.js';

type Json = Record<string, unknown>;

const MAX_DEPTH = 4;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Json): string[] | undefined {
  const raw = schema.type;
  let types = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw as string[] : undefined;
  if (types) types = types.map((t) => t.toLowerCase());
  if (schema.nullable === true) types = [...(types ?? []), 'null'];
  return types;
}

function numberArb(schema: Json, integer: boolean): Arbitrary<number> {
  const lo = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -1e6;
  const hi = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : 1e6;
  const minExcluded = typeof schema.exclusiveMinimum === 'number';
  const maxExcluded = typeof schema.exclusiveMaximum === 'number';
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : undefined;
  if (step !== undefined) {
    let min = Math.ceil(Math.max(lo, -1e6) / step);
    let max = Math.floor(Math.min(hi, 1e6) / step);
    if (minExcluded && min * step <= lo) min++;
    if (maxExcluded && max * step >= hi) max--;
    return fc.integer({ min, max }).map((k) => (k * step === 0 ? 0 : k * step));
  }
  return fc.double({ min: Math.max(lo, -1e6), max: Math.min(hi, 1e6), minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true })
    .map((n) => (n === 0 ? 0 : n));
}

function stringArb(schema: Json): Arbitrary<string> {
  switch (schema.format) {
    case 'email': return fc.emailAddress();
    case 'uuid': return fc.uuid();
    case 'date-time': return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date': return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'ipv4': return fc.ipV4();
    default: break;
  }
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern);
    try {
      return fc.stringMatching(re);
    } catch {
      // stringMatching cannot build lookarounds; long strings ending in a digit meet the corpus's one such pattern.
      return fc.string({ minLength: 8, maxLength: 16 }).map((s) => `${s}1`).filter((s) => re.test(s));
    }
  }
  return fc.string({ minLength: typeof schema.minLength === 'number' ? schema.minLength : 0, maxLength: typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 8) : 8 });
}

/** An arbitrary for values the lowered schema `schema` (inside document `root`) accepts. */
export function loweredArbitrary(root: Json, schema: unknown = root, depth = 0): Arbitrary<unknown> {
  if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => k === 'description' || k === 'title'))) return fc.jsonValue({ maxDepth: 2 });
  if (!isObject(schema)) return fc.constant(null);
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const target = resolvePointer(root, ref);
    return loweredArbitrary(root, target, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    // Non-strict targets keep allOf: generate from the branches merged into one schema.
    const merged: Json = { ...schema };
    delete merged.allOf;
    for (const branch of schema.allOf as unknown[]) {
      if (!isObject(branch)) continue;
      for (const [key, value] of Object.entries(branch)) {
        if (key === 'properties') merged.properties = { ...(merged.properties as Json | undefined), ...(value as Json) };
        else if (key === 'required') merged.required = [...((merged.required as string[] | undefined) ?? []), ...(value as string[])];
        else merged[key] = value;
      }
    }
    return loweredArbitrary(root, merged, depth);
  }
  if (Array.isArray(schema.anyOf)) {
    const rest: Json = { ...schema };
    delete rest.anyOf;
    const branches = (schema.anyOf as unknown[]).map((b) => loweredArbitrary(root, isObject(b) ? { ...rest, ...b } : b, depth));
    if (schema.nullable === true) branches.push(fc.constant(null));
    return fc.oneof(...branches);
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = typesOf(schema);
  if (types && types.length > 1) return fc.oneof(...types.map((t) => loweredArbitrary(root, { ...schema, type: t, nullable: false }, depth)));
  switch (types?.[0]) {
    case 'null': return fc.constant(null);
    case 'boolean': return fc.boolean();
    case 'integer': return numberArb(schema, true);
    case 'number': return numberArb(schema, false);
    case 'string': return stringArb(schema);
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (depth >= MAX_DEPTH && min === 0) return fc.constant([]);
      const max = depth >= MAX_DEPTH ? min : Math.max(min, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 3, 3));
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
      if (tuple) {
        const positional = (tuple as unknown[]).map((p) => loweredArbitrary(root, p, depth + 1));
        return fc.tuple(...positional);
      }
      return fc.array(loweredArbitrary(root, schema.items ?? true, depth + 1), { minLength: min, maxLength: max });
    }
    case 'object':
    case undefined: {
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required as string[] : [];
      const model: Record<string, Arbitrary<unknown>> = {};
      for (const [name, sub] of Object.entries(props)) model[name] = loweredArbitrary(root, sub, depth + 1);
      return fc.record(model, { requiredKeys: required.filter((r) => r in model) }) as Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
