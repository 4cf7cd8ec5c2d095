/**
 * Lowering passes that reshape one node before its keywords are judged: allOf merged, oneOf sent
 * as anyOf, a null branch hoisted to `nullable`, tuples, `const` as enum, an explicit type, and
 * OpenAPI type spelling.
 */
import { escapePointerToken } from '../schema/index.js';
import { isObject, jsonTypeOf, OPENAPI_TYPE, typeList } from './lower-context.js';
import type { Json, LoweringContext } from './lower-context.js';

/** allOf: every branch applies, so its keywords are merged into the node. */
export function mergeAllOf(cx: LoweringContext, schema: Json, pointer: string, notes: string[]): void {
  const branches = schema.allOf as unknown[];
  delete schema.allOf;
  cx.record(pointer, 'allOf', 'kept', 'merged into the enclosing schema');
  branches.forEach((raw, i) => {
    const { schema: branch, pointer: bp } = cx.resolveBranch(raw, `${pointer}/allOf/${i}`);
    if (typeof branch === 'boolean') return;
    cx.registerChildren(branch, bp);
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isObject(value)) {
        const props = isObject(schema.properties) ? schema.properties : (schema.properties = {});
        for (const [name, sub] of Object.entries(value)) {
          const existing = props[name];
          if (existing === undefined) props[name] = sub;
          else if (JSON.stringify(existing) !== JSON.stringify(sub)) {
            const both: Json = { allOf: [existing, sub] };
            cx.origin.set(both, (isObject(existing) ? cx.origin.get(existing) : undefined) ?? `${pointer}/properties/${escapePointerToken(name)}`);
            props[name] = both;
          }
        }
      } else if (key === 'required' && Array.isArray(value)) {
        const required = Array.isArray(schema.required) ? schema.required : [];
        schema.required = [...new Set([...required, ...value])];
      } else if (key === 'description' && typeof value === 'string') {
        if (schema.description === undefined) schema.description = value; else if (schema.description !== value) notes.push(value);
      } else if (key === 'type' && schema.type !== undefined) {
        const mine = typeList(schema) ?? [];
        const theirs = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
        const both = mine.filter((t) => theirs.includes(t) || (t === 'integer' && theirs.includes('number')))
          .concat(theirs.filter((t) => t === 'integer' && mine.includes('number')));
        schema.type = both.length === 1 ? both[0] : [...new Set(both)];
      } else if (!(key in schema)) {
        schema[key] = value;
      } else if (JSON.stringify(schema[key]) !== JSON.stringify(value)) {
        notes.push(`${key}: ${JSON.stringify(value)}`);
        cx.record(bp, key, 'moved-into-description', 'conflicts with the same keyword in another allOf branch');
      }
    }
  });
}

export function oneOfAsAnyOf(cx: LoweringContext, schema: Json, pointer: string, notes: string[]): void {
  if (schema.anyOf !== undefined) {
    notes.push(`exactly one of: ${JSON.stringify(schema.oneOf)}`);
    cx.record(pointer, 'oneOf', 'moved-into-description', 'the node already has anyOf');
    delete schema.oneOf;
    return;
  }
  schema.anyOf = schema.oneOf;
  delete schema.oneOf;
  cx.record(pointer, 'oneOf', 'kept', 'sent as anyOf; "exactly one" stays a server-side check');
}

/** OpenAPI has `nullable`, not a null branch: `anyOf:[X, {type:null}]` becomes X + nullable. */
export function hoistNullBranch(cx: LoweringContext, schema: Json, pointer: string): void {
  if (!Array.isArray(schema.anyOf)) return;
  const rest = schema.anyOf.filter((b) => !(isObject(b) && b.type === 'null' && Object.keys(b).length === 1));
  if (rest.length === schema.anyOf.length) return;
  schema.nullable = true;
  cx.record(pointer, 'anyOf', 'kept', 'null alternative sent as nullable: true');
  if (rest.length === 1 && isObject(rest[0]) && schema.type === undefined) {
    const only = rest[0];
    delete schema.anyOf;
    for (const [key, value] of Object.entries(only)) if (!(key in schema)) schema[key] = value;
  } else {
    schema.anyOf = rest;
  }
}

export function prefixItemsAsAnyOf(cx: LoweringContext, schema: Json, pointer: string, notes: string[]): void {
  const positional = schema.prefixItems as unknown[];
  const rest = schema.items;
  delete schema.prefixItems;
  const parts = [...positional, ...(isObject(rest) ? [rest] : [])];
  notes.push(`prefixItems (position by position): ${JSON.stringify(positional)}`);
  if (parts.length === 1) schema.items = parts[0];
  else {
    const wrapper: Json = { anyOf: parts };
    cx.synthetic.add(wrapper);
    cx.origin.set(wrapper, `${pointer}/prefixItems`);
    schema.items = wrapper;
  }
  if (rest === false) {
    const max = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, positional.length) : positional.length;
    schema.maxItems = max;
  }
  const keyword = cx.tupleItems.has(schema) ? 'items' : 'prefixItems';
  cx.record(pointer, keyword, 'moved-into-description', `${keyword === 'items' ? 'draft-07 tuple: ' : ''}items became anyOf of the positional schemas; the order is stated in the description`);
}

export function constAsEnum(cx: LoweringContext, schema: Json, pointer: string): void {
  if (cx.policy.enumStringsOnly && typeof schema.const !== 'string') return;
  if (schema.enum === undefined) schema.enum = [schema.const];
  delete schema.const;
  cx.record(pointer, 'const', 'kept', 'sent as a one-value enum');
}

/** Strict and OpenAPI targets need an explicit type. Returns false when the node was rejected. */
export function inferType(cx: LoweringContext, schema: Json, pointer: string): boolean {
  if (schema.type !== undefined || schema.anyOf !== undefined || schema.$ref !== undefined) return true;
  let inferred: string[] = [];
  if (Array.isArray(schema.enum)) inferred = [...new Set(schema.enum.map(jsonTypeOf))];
  else if ('const' in schema) inferred = [jsonTypeOf(schema.const)];
  else if (schema.properties !== undefined || schema.additionalProperties !== undefined || schema.required !== undefined) inferred = ['object'];
  else if (schema.items !== undefined || schema.prefixItems !== undefined) inferred = ['array'];
  if (inferred.includes('integer') && inferred.includes('number')) inferred = inferred.filter((t) => t !== 'integer');
  if (inferred.length === 0 && cx.policy.openApiTypes) {
    schema.type = 'string';
    cx.record(pointer, 'type', 'added', 'untyped (any value), but the OpenAPI Schema needs a type: sent as STRING, so the model passes text');
    return true;
  }
  if (inferred.length === 0) {
    if (cx.policy.strictObjects) {
      cx.record(pointer, 'type', 'rejected', 'a schema without "type" (any value) cannot be sent in strict mode');
      return false;
    }
    return true;
  }
  schema.type = inferred.length === 1 ? inferred[0] : inferred;
  cx.record(pointer, 'type', 'added', `inferred ${JSON.stringify(schema.type)}`);
  return true;
}

export function openApiType(cx: LoweringContext, schema: Json, pointer: string): void {
  const types = typeList(schema);
  if (!types) return;
  const nonNull = types.filter((t) => t !== 'null');
  if (types.includes('null')) schema.nullable = true;
  if (nonNull.length === 0) {
    delete schema.type;
    cx.record(pointer, 'type', 'kept', 'null sent as nullable: true');
  } else if (nonNull.length === 1) {
    schema.type = OPENAPI_TYPE[nonNull[0]!] ?? nonNull[0];
    if (types.length > 1) cx.record(pointer, 'type', 'kept', `sent as ${String(schema.type)} + nullable`);
  } else if (schema.anyOf === undefined) {
    delete schema.type;
    schema.anyOf = nonNull.map((t) => {
      const branch: Json = { type: OPENAPI_TYPE[t] ?? t };
      cx.synthetic.add(branch);
      return branch;
    });
    cx.record(pointer, 'type', 'kept', 'a type list is sent as anyOf of single types');
  } else {
    schema.type = OPENAPI_TYPE[nonNull[0]!] ?? nonNull[0];
    cx.record(pointer, 'type', 'moved-into-description', `only ${nonNull[0]} kept; the node already has anyOf`);
  }
}

