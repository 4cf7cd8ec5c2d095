/**
 * Node passes that judge keywords: each keyword of a node is kept, dropped, moved into the
 * description or rejected, as the keyword table (lowering/table.ts) says for the provider's policy;
 * then object rules (strict closing, required-and-nullable) and arrays without `items`. Each takes
 * a frozen node and returns a new one.
 */
import { isJsonObject } from '../../json/json-object.js';
import { escapePointerToken } from '../../schema/index.js';
import { allowsNull, typeList } from './context.js';
import type { Json, LoweringContext, NodeAt } from './context.js';
import { providerTakes, ruleOf, unsupportedValue } from './table.js';

/** Every keyword of the node, judged in document order by its row of the keyword table. */
export function judgeKeywords(cx: LoweringContext, node: Json, at: NodeAt): Json {
  let schema = node;
  for (const keyword of Object.keys(node)) schema = judge(cx, schema, keyword, at);
  return schema;
}

function judge(cx: LoweringContext, schema: Json, keyword: string, at: NodeAt): Json {
  const { pointer, notes } = at;
  const rule = ruleOf(keyword);
  if (rule.lower === 'drop') {
    cx.record(pointer, keyword, 'dropped', rule.note);
    return without(schema, keyword);
  }
  if (at.added.has(keyword) || rule.owns?.(cx.policy, cx.isObjectNode(schema))) return schema;
  if (rule.pass === 'definitions') return decideDefs(cx, schema, keyword, pointer, at.depth === 0);
  if (cx.policy.keep === undefined) {
    cx.record(pointer, keyword, 'kept');
    return schema;
  }
  if (providerTakes(keyword, cx.policy)) {
    const why = unsupportedValue(keyword, schema, cx.policy);
    if (why !== undefined) return move(cx, schema, keyword, pointer, notes, why);
    cx.record(pointer, keyword, 'kept');
    return schema;
  }
  if (rule.lower === 'reject-in-strict' && cx.policy.strictObjects) {
    cx.record(pointer, keyword, 'rejected', rule.note);
    return schema;
  }
  return move(cx, schema, keyword, pointer, notes);
}

function without(schema: Json, keyword: string): Json {
  const copy: Json = { ...schema };
  delete copy[keyword];
  return copy;
}

/** The keyword leaves the schema and is stated in the node's notes (its description). */
export function move(cx: LoweringContext, schema: Json, keyword: string, pointer: string, notes: string[], why?: string): Json {
  notes.push(`${keyword}: ${JSON.stringify(schema[keyword])}`);
  cx.record(pointer, keyword, 'moved-into-description', why);
  return without(schema, keyword);
}

export function decideDefs(cx: LoweringContext, schema: Json, keyword: string, pointer: string, isRoot: boolean): Json {
  if (cx.policy.refs === 'keep') {
    cx.record(pointer, keyword, 'kept');
    return schema;
  }
  if (cx.policy.refs === 'top-level-defs' && isRoot) {
    if (keyword === 'definitions') {
      const defs = isJsonObject(schema.$defs) ? schema.$defs : {};
      const respelled: Json = { ...schema, $defs: { ...(schema.definitions as Json), ...defs } };
      delete respelled.definitions;
      cx.record(pointer, keyword, 'kept', 'respelled as $defs');
      return respelled;
    }
    cx.record(pointer, keyword, 'kept');
    return schema;
  }
  cx.record(pointer, keyword, 'dropped', 'definitions are inlined where they are referenced');
  return without(schema, keyword);
}

export function objectRules(cx: LoweringContext, node: Json, at: NodeAt): Json {
  if (!cx.isObjectNode(node)) return node;
  const { pointer, notes } = at;
  let schema: Json = { ...node };
  const extra = schema.additionalProperties;
  if (cx.policy.strictObjects) {
    if (extra === undefined) {
      schema.additionalProperties = false;
      cx.record(pointer, 'additionalProperties', 'added', 'strict mode closes every object');
    } else if (extra === false) {
      cx.record(pointer, 'additionalProperties', 'kept');
    } else {
      cx.record(pointer, 'additionalProperties', 'rejected', extra === true
        ? 'strict mode cannot send an open object' : 'a map (additionalProperties with a schema) cannot be expressed in strict mode');
    }
    if (!isJsonObject(schema.properties)) {
      schema.properties = {};
      if (pointer !== '') cx.record(pointer, 'properties', 'added', 'strict objects list their properties');
    }
    if (cx.policy.requireAll) schema = requireAll(cx, schema, pointer);
    else if (schema.required !== undefined) cx.record(pointer, 'required', 'kept');
    return schema;
  }
  if (extra === undefined) return node;
  if (cx.policy.keep === undefined) {
    cx.record(pointer, 'additionalProperties', 'kept');
  } else if (cx.policy.mapsAllowed) {
    cx.record(pointer, 'additionalProperties', 'kept');
  } else if (typeof extra === 'boolean') {
    cx.record(pointer, 'additionalProperties', 'dropped', 'not expressible in this subset; the server still enforces it');
    return without(schema, 'additionalProperties');
  } else {
    return move(cx, schema, 'additionalProperties', pointer, notes, 'maps are not expressible in this subset');
  }
  return node;
}

/**
 * OpenAI strict refuses "array schema missing items"; the OpenAPI subset needs `items` on ARRAY.
 * Legacy Gemini gets STRING items (any value travels as text); strict falls back.
 */
export function arrayWithoutItems(cx: LoweringContext, schema: Json, pointer: string): Json {
  if (!typeList(schema)?.some((t) => t === 'array' || t === 'ARRAY') || schema.items !== undefined) return schema;
  if (cx.policy.strictObjects && cx.policy.itemsRequired) {
    cx.record(pointer, 'items', 'rejected', 'an array without "items" (any elements) cannot be sent in strict mode');
  } else if (cx.policy.openApiTypes) {
    cx.record(pointer, 'items', 'added', 'ARRAY needs items in the OpenAPI subset; elements of any type travel as text');
    return { ...schema, items: { type: 'STRING' } };
  }
  return schema;
}

/** Strict: every property is required; an optional one becomes nullable and is remembered. */
export function requireAll(cx: LoweringContext, node: Json, pointer: string): Json {
  const props: Json = { ...(node.properties as Json) };
  const required = new Set(Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : []);
  for (const name of required) {
    if (!(name in props)) cx.record(pointer, 'required', 'rejected', `required property "${name}" has no schema, and strict mode closes the object`);
  }
  const madeNullable: string[] = [];
  for (const [name, child] of Object.entries(props)) {
    if (child === false) {
      delete props[name];
      cx.record(`${pointer}/properties/${escapePointerToken(name)}`, '(false schema)', 'dropped', 'a forbidden property is simply not listed');
      continue;
    }
    if (required.has(name) || !isJsonObject(child)) continue;
    const childPointer = cx.origin.get(child) ?? `${pointer}/properties/${escapePointerToken(name)}`;
    if (allowsNull(child)) continue; // null is a real value here; it cannot also mean "absent"
    const types = typeList(child);
    if (types && !('const' in child)) {
      const nullable: Json = { ...child, type: [...types, 'null'] };
      if (Array.isArray(child.enum)) nullable.enum = [...child.enum, null];
      props[name] = cx.derive(nullable, child);
    } else {
      props[name] = cx.made({ anyOf: [child, cx.made({ type: 'null' })] }, childPointer);
    }
    cx.nullable.push(childPointer);
    madeNullable.push(name);
  }
  const schema: Json = { ...node, properties: props, required: Object.keys(props) };
  if (madeNullable.length > 0) {
    cx.record(pointer, 'required', 'added', `optional ${madeNullable.map((n) => `"${n}"`).join(', ')} made required and nullable (null means absent)`);
  } else if (required.size > 0) {
    cx.record(pointer, 'required', 'kept');
  }
  return schema;
}
