/**
 * Node passes that reshape one node before its keywords are judged: allOf merged, oneOf sent as
 * anyOf, a null branch hoisted to `nullable`, tuples, `const` as enum, an explicit type, and
 * OpenAPI type spelling. Each takes a frozen node and returns a new one (or the same one when it
 * has nothing to do); what it changed goes into the loss report.
 */
import { isJsonObject } from '../../json/json-object.js';
import { escapePointerToken } from '../../schema/index.js';
import { freezeDeep, jsonTypeOf, OPENAPI_TYPE, typeList } from './context.js';
import type { Json, LoweringContext, NodeAt } from './context.js';

/** allOf: every branch applies, so its keywords are merged into the node. */
export function mergeAllOf(cx: LoweringContext, node: Json, pointer: string, notes: string[]): Json {
  const schema: Json = { ...node };
  const branches = schema.allOf as unknown[];
  delete schema.allOf;
  cx.record(pointer, 'allOf', 'kept', 'merged into the enclosing schema');
  branches.forEach((raw, i) => {
    const { schema: branch, pointer: bp } = cx.resolveBranch(raw, `${pointer}/allOf/${i}`);
    if (typeof branch === 'boolean') return;
    cx.registerChildren(branch, bp);
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isJsonObject(value)) {
        const props: Json = { ...(isJsonObject(schema.properties) ? schema.properties : {}) };
        schema.properties = props;
        for (const [name, sub] of Object.entries(value)) {
          const existing = props[name];
          if (existing === undefined) props[name] = sub;
          else if (JSON.stringify(existing) !== JSON.stringify(sub)) {
            const both: Json = freezeDeep({ allOf: [existing, sub] });
            cx.origin.set(both, (isJsonObject(existing) ? cx.origin.get(existing) : undefined) ?? `${pointer}/properties/${escapePointerToken(name)}`);
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
  return schema;
}

/** Nested allOf, merged until none is left (a merged branch may bring its own allOf; at most 16 rounds). */
export function mergeAllOfs(cx: LoweringContext, node: Json, pointer: string, notes: string[]): Json {
  let schema = node;
  for (let guard = 0; Array.isArray(schema.allOf) && guard < 16; guard++) schema = mergeAllOf(cx, schema, pointer, notes);
  return schema;
}

export function oneOfAsAnyOf(cx: LoweringContext, node: Json, pointer: string, notes: string[]): Json {
  if (!Array.isArray(node.oneOf)) return node;
  const schema: Json = { ...node };
  if (schema.anyOf !== undefined) {
    notes.push(`exactly one of: ${JSON.stringify(schema.oneOf)}`);
    cx.record(pointer, 'oneOf', 'moved-into-description', 'the node already has anyOf');
    delete schema.oneOf;
    return schema;
  }
  schema.anyOf = schema.oneOf;
  delete schema.oneOf;
  cx.record(pointer, 'oneOf', 'kept', 'sent as anyOf; "exactly one" stays a server-side check');
  return schema;
}

/** OpenAPI has `nullable`, not a null branch: `anyOf:[X, {type:null}]` becomes X + nullable. */
export function hoistNullBranch(cx: LoweringContext, node: Json, at: NodeAt): Json {
  if (!Array.isArray(node.anyOf)) return node;
  const { pointer } = at;
  const rest = node.anyOf.filter((b) => !(isJsonObject(b) && b.type === 'null' && Object.keys(b).length === 1));
  if (rest.length === node.anyOf.length) return node;
  const schema: Json = { ...node };
  if (schema.nullable === undefined) at.added.add('nullable');
  schema.nullable = true;
  cx.record(pointer, 'anyOf', 'kept', 'null alternative sent as nullable: true');
  if (rest.length === 1 && isJsonObject(rest[0]) && schema.type === undefined) {
    const only = rest[0];
    delete schema.anyOf;
    for (const [key, value] of Object.entries(only)) if (!(key in schema)) schema[key] = value;
  } else {
    schema.anyOf = rest;
  }
  return schema;
}

/** draft-07 tuple form: `items: [...]` means what 2020-12 calls prefixItems (and additionalItems, items). */
export function draft07Tuple(node: Json, at: NodeAt): Json {
  if (!Array.isArray(node.items)) return node;
  const schema: Json = { ...node };
  schema.prefixItems = schema.items;
  if (schema.additionalItems !== undefined) schema.items = schema.additionalItems; else delete schema.items;
  delete schema.additionalItems;
  at.tuple = true;
  return schema;
}

export function prefixItemsAsAnyOf(cx: LoweringContext, node: Json, at: NodeAt): Json {
  if (!Array.isArray(node.prefixItems)) return node;
  const { pointer, notes } = at;
  const schema: Json = { ...node };
  const positional = schema.prefixItems as unknown[];
  const rest = schema.items;
  delete schema.prefixItems;
  const parts = [...positional, ...(isJsonObject(rest) ? [rest] : [])];
  notes.push(`prefixItems (position by position): ${JSON.stringify(positional)}`);
  if (parts.length === 1) schema.items = parts[0];
  else schema.items = cx.made({ anyOf: parts }, `${pointer}/prefixItems`);
  if (rest === false) {
    const max = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, positional.length) : positional.length;
    schema.maxItems = max;
  }
  const keyword = at.tuple ? 'items' : 'prefixItems';
  cx.record(pointer, keyword, 'moved-into-description', `${keyword === 'items' ? 'draft-07 tuple: ' : ''}items became anyOf of the positional schemas; the order is stated in the description`);
  return schema;
}

export function constAsEnum(cx: LoweringContext, node: Json, pointer: string): Json {
  if (!('const' in node)) return node;
  if (cx.policy.enumStringsOnly && typeof node.const !== 'string') return node;
  const schema: Json = { ...node };
  if (schema.enum === undefined) schema.enum = [schema.const];
  delete schema.const;
  cx.record(pointer, 'const', 'kept', 'sent as a one-value enum');
  return schema;
}

/** Strict and OpenAPI targets need an explicit type. Returns undefined when the node was rejected. */
export function inferType(cx: LoweringContext, schema: Json, pointer: string): Json | undefined {
  if (schema.type !== undefined || schema.anyOf !== undefined || schema.$ref !== undefined) return schema;
  let inferred: string[] = [];
  if (Array.isArray(schema.enum)) inferred = [...new Set(schema.enum.map(jsonTypeOf))];
  else if ('const' in schema) inferred = [jsonTypeOf(schema.const)];
  else if (schema.properties !== undefined || schema.additionalProperties !== undefined || schema.required !== undefined) inferred = ['object'];
  else if (schema.items !== undefined || schema.prefixItems !== undefined) inferred = ['array'];
  if (inferred.includes('integer') && inferred.includes('number')) inferred = inferred.filter((t) => t !== 'integer');
  if (inferred.length === 0 && cx.policy.openApiTypes) {
    cx.record(pointer, 'type', 'added', 'untyped (any value), but the OpenAPI Schema needs a type: sent as STRING, so the model passes text');
    return { ...schema, type: 'string' };
  }
  if (inferred.length === 0) {
    if (cx.policy.strictObjects) {
      cx.record(pointer, 'type', 'rejected', 'a schema without "type" (any value) cannot be sent in strict mode');
      return undefined;
    }
    return schema;
  }
  const type = inferred.length === 1 ? inferred[0] : inferred;
  cx.record(pointer, 'type', 'added', `inferred ${JSON.stringify(type)}`);
  return { ...schema, type };
}

export function openApiType(cx: LoweringContext, node: Json, pointer: string): Json {
  const types = typeList(node);
  if (!types) return node;
  const schema: Json = { ...node };
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
    schema.anyOf = nonNull.map((t) => cx.made({ type: OPENAPI_TYPE[t] ?? t }));
    cx.record(pointer, 'type', 'kept', 'a type list is sent as anyOf of single types');
  } else {
    schema.type = OPENAPI_TYPE[nonNull[0]!] ?? nonNull[0];
    cx.record(pointer, 'type', 'moved-into-description', `only ${nonNull[0]} kept; the node already has anyOf`);
  }
  return schema;
}

