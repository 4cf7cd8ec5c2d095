import type { Draft, JsonError, Keyword, SchemaNode } from 'json-schema-library';
import { isMultipleOf } from '../multiple-of.js';
import { compilePattern } from '../safe-regex.js';
import { patternCheck } from '../pattern-check.js';
import { duplicateItems } from '../unique-items.js';

/** Node fields json-schema-library keys by instance property names. */
const NAME_MAPS = ['properties', 'dependentSchemas', 'dependentRequired'] as const;
const NAME_MAP_KEYWORDS = new Set(['properties', 'dependentSchemas', 'dependentRequired', 'dependencies']);

/**
 * json-schema-library keywords replaced or wrapped for the compliant engine. Patterns go through our
 * safe regex factory and multipleOf through our decimal-exact check, exactly as in the fast
 * engine; the rest fix upstream bugs found by the fuzz differential test (see each comment and
 * test/schema/engine-fixes.test.ts). Maps keyed by property name get a null
 * prototype: json-schema-library looks instance keys up in them, and an argument named
 * "constructor" or "toString" would otherwise find Object.prototype's function and crash it.
 */
export function correctedKeywords(draft: Draft): Keyword[] {
  const out: Keyword[] = [];
  for (const keyword of draft.keywords) {
    if (keyword.keyword === 'multipleOf') {
      out.push({
        ...keyword,
        validate: ({ node, data, pointer }) => {
          const divisor = node.schema.multipleOf as unknown;
          if (typeof data !== 'number' || typeof divisor !== 'number' || isMultipleOf(data, divisor)) return undefined;
          return node.createError('multiple-of-error', { multipleOf: divisor, value: data, pointer, schema: node.schema });
        },
      });
      continue;
    }
    if (keyword.keyword === 'contains') {
      // Upstream ignores minContains/maxContains when `contains` is a boolean schema, and applies
      // them in draft-07, which has neither keyword.
      const modern = draft.version !== 'draft-07';
      out.push({
        ...keyword,
        validate: ({ node, data, pointer, path }) => {
          const schema = node.schema;
          if (!Array.isArray(data)) return undefined;
          const min = modern && typeof schema.minContains === 'number' ? schema.minContains : 1;
          const max = modern && typeof schema.maxContains === 'number' ? schema.maxContains : Infinity;
          let count = 0;
          if (schema.contains === true) count = data.length;
          else if (schema.contains !== false && node.contains) {
            for (const item of data) if (node.contains.validate(item, pointer, path).valid) count++;
          }
          if (count < min) return node.createError('contains-min-error', { pointer, schema, delta: min - count, value: data });
          if (count > max) return node.createError('contains-max-error', { pointer, schema, delta: count - max, value: data });
          return undefined;
        },
      });
      continue;
    }
    if (keyword.keyword === 'uniqueItems') {
      // Upstream compares every pair (O(n²)); hashing is linear (see duplicateItems).
      out.push({
        ...keyword,
        validate: ({ node, data, pointer }) => {
          if (!Array.isArray(data) || node.schema.uniqueItems !== true) return undefined;
          return duplicateItems(data, false).map(([first, duplicate]) => node.createError('unique-items-error', {
            pointer: `${pointer}/${duplicate}`, duplicatePointer: `${pointer}/${first}`, arrayPointer: pointer, value: data[duplicate], schema: node.schema,
          }));
        },
      });
      continue;
    }
    if (keyword.keyword === 'maximum') {
      // Upstream tests `max && max < data`, so `maximum: 0` never rejected anything.
      out.push({
        ...keyword,
        validate: ({ node, data, pointer }) => {
          const max = node.schema.maximum as unknown;
          if (typeof data !== 'number' || typeof max !== 'number' || data <= max) return undefined;
          return node.createError('maximum-error', { maximum: max, length: data, value: data, pointer, schema: node.schema });
        },
      });
      continue;
    }
    if (keyword.keyword === 'dependentRequired' || keyword.keyword === 'dependencies') {
      // Upstream tests `data[name] === undefined`, so an inherited name ("constructor", "toString")
      // counted as present. Add the errors it misses; the ones it finds are right.
      const validate = keyword.validate;
      out.push({
        ...keyword,
        validate: (params) => {
          const found = validate?.(params);
          const { node, data, pointer } = params;
          const map = node.schema[keyword.keyword] as unknown;
          if (typeof data !== 'object' || data === null || Array.isArray(data) || typeof map !== 'object' || map === null) return found;
          const extra: JsonError[] = [];
          for (const [property, names] of Object.entries(map)) {
            if (!Array.isArray(names) || !Object.prototype.hasOwnProperty.call(data, property)) continue;
            for (const name of names) {
              if (typeof name === 'string' && !Object.prototype.hasOwnProperty.call(data, name) && (data as Record<string, unknown>)[name] !== undefined) {
                extra.push(node.createError('missing-dependency-error', { missingProperty: name, property, pointer, schema: node.schema, value: data }));
              }
            }
          }
          if (extra.length === 0) return found;
          return [...(Array.isArray(found) ? found : found ? [found] : []), ...extra];
        },
      });
      continue;
    }
    if (keyword.keyword === 'additionalProperties') {
      // Upstream hands `additionalProperties: false` to patternProperties whenever that keyword is an
      // object, but an empty patternProperties registers no validator, so nothing was reported.
      out.push({
        ...keyword,
        addValidate: ({ schema }) => schema.additionalProperties !== true && schema.additionalProperties != null
          && !(schema.additionalProperties === false && typeof schema.patternProperties === 'object' && schema.patternProperties !== null
            && Object.keys(schema.patternProperties).length > 0),
      });
      continue;
    }
    if (NAME_MAP_KEYWORDS.has(keyword.keyword)) {
      const parse = keyword.parse;
      out.push({
        ...keyword,
        parse(node: SchemaNode) {
          const result = parse?.(node);
          const fields = node as unknown as Record<string, unknown>;
          for (const field of NAME_MAPS) {
            const map = fields[field];
            if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
            // Upstream built the map with `map[name] = node`, so a "__proto__" entry became the prototype.
            const proto: unknown = Object.getPrototypeOf(map);
            Object.setPrototypeOf(map, null);
            if (proto !== Object.prototype && proto !== null) (map as Record<string, unknown>)['__proto__'] = proto;
          }
          return result;
        },
      });
      continue;
    }
    if (keyword.keyword !== 'pattern' && keyword.keyword !== 'patternProperties') continue;
    const parse = keyword.parse;
    out.push({
      ...keyword,
      parse(node: SchemaNode) {
        const result = parse?.(node);
        const holder = node as unknown as { pattern?: unknown; patternProperties?: Array<{ name: string; pattern: unknown }> };
        if (keyword.keyword === 'pattern' && typeof node.schema.pattern === 'string' && holder.pattern) {
          const maxLength = node.schema.maxLength as unknown;
          holder.pattern = { test: patternCheck(node.schema.pattern, typeof maxLength === 'number' ? maxLength : undefined) };
        }
        if (keyword.keyword === 'patternProperties' && Array.isArray(holder.patternProperties)) {
          for (const entry of holder.patternProperties) entry.pattern = compilePattern(entry.name);
        }
        return result;
      },
    });
  }
  return out;
}
