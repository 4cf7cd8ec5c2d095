/**
 * Lowering passes that judge keywords: each keyword of a node is kept, dropped, moved into the
 * description or rejected under the provider's policy; then object rules (strict closing,
 * required-and-nullable) and arrays without `items`.
 */
import { escapePointerToken } from '../schema/index.js';
import { NOT_MODEL_FACING } from './profiles.js';
import { allowsNull, isObject, typeList } from './lower-context.js';
import type { Json, LoweringContext } from './lower-context.js';

export function decide(cx: LoweringContext, schema: Json, keyword: string, pointer: string, notes: string[], isRoot: boolean): void {
  const value = schema[keyword];
  if (keyword.startsWith('x-')) {
    delete schema[keyword];
    cx.record(pointer, keyword, 'dropped', keyword === 'x-mcp-header'
      ? 'not model-facing: the client sends this argument as an Mcp-Param header' : 'extension keyword, not model-facing');
    return;
  }
  if (NOT_MODEL_FACING.has(keyword)) {
    delete schema[keyword];
    cx.record(pointer, keyword, 'dropped', 'not model-facing');
    return;
  }
  if (keyword === '$ref' || (keyword === 'nullable' && cx.policy.openApiTypes)) return;
  if (keyword === 'additionalProperties' && cx.isObjectNode(schema)) return;
  if (keyword === '$defs' || keyword === 'definitions') {
    decideDefs(cx, schema, keyword, pointer, isRoot);
    return;
  }
  const keep = cx.policy.keep;
  if (keep === undefined) {
    cx.record(pointer, keyword, 'kept');
    return;
  }
  if (keep.has(keyword)) {
    if (keyword === 'format' && cx.policy.formats && !cx.policy.formats.has(String(value))) {
      move(cx, schema, keyword, pointer, notes, `format ${JSON.stringify(value)} is not in the provider's list`);
    } else if (keyword === 'pattern' && cx.policy.forbiddenPattern && typeof value === 'string' && cx.policy.forbiddenPattern.test(value)) {
      move(cx, schema, keyword, pointer, notes, 'regex features the provider does not support (lookaround, backreferences, ...)');
    } else if (keyword === 'minItems' && cx.policy.minItemsMax !== undefined && typeof value === 'number' && value > cx.policy.minItemsMax) {
      move(cx, schema, keyword, pointer, notes, `only minItems 0..${cx.policy.minItemsMax} is supported`);
    } else if (keyword === 'enum' && cx.policy.enumStringsOnly && Array.isArray(value) && value.some((v) => typeof v !== 'string')) {
      move(cx, schema, keyword, pointer, notes, 'only string enums are accepted');
    } else {
      cx.record(pointer, keyword, 'kept');
    }
    return;
  }
  if (keyword === 'patternProperties' && cx.policy.strictObjects) {
    cx.record(pointer, keyword, 'rejected', 'strict mode closes every object, so keys matching a pattern could never be sent');
    return;
  }
  move(cx, schema, keyword, pointer, notes);
}

export function move(cx: LoweringContext, schema: Json, keyword: string, pointer: string, notes: string[], why?: string): void {
  notes.push(`${keyword}: ${JSON.stringify(schema[keyword])}`);
  delete schema[keyword];
  cx.record(pointer, keyword, 'moved-into-description', why);
}

export function decideDefs(cx: LoweringContext, schema: Json, keyword: string, pointer: string, isRoot: boolean): void {
  if (cx.policy.refs === 'keep') {
    cx.record(pointer, keyword, 'kept');
    return;
  }
  if (cx.policy.refs === 'top-level-defs' && isRoot) {
    if (keyword === 'definitions') {
      const defs = isObject(schema.$defs) ? schema.$defs : {};
      schema.$defs = { ...(schema.definitions as Json), ...defs };
      delete schema.definitions;
      cx.record(pointer, keyword, 'kept', 'respelled as $defs');
    } else {
      cx.record(pointer, keyword, 'kept');
    }
    return;
  }
  delete schema[keyword];
  cx.record(pointer, keyword, 'dropped', 'definitions are inlined where they are referenced');
}

export function objectRules(cx: LoweringContext, schema: Json, pointer: string, notes: string[]): void {
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
    if (!isObject(schema.properties)) {
      schema.properties = {};
      if (pointer !== '') cx.record(pointer, 'properties', 'added', 'strict objects list their properties');
    }
    if (cx.policy.requireAll) requireAll(cx, schema, pointer);
    else if (schema.required !== undefined) cx.record(pointer, 'required', 'kept');
    return;
  }
  if (extra === undefined) return;
  if (cx.policy.keep === undefined) {
    cx.record(pointer, 'additionalProperties', 'kept');
  } else if (cx.policy.mapsAllowed) {
    cx.record(pointer, 'additionalProperties', 'kept');
  } else if (typeof extra === 'boolean') {
    delete schema.additionalProperties;
    cx.record(pointer, 'additionalProperties', 'dropped', 'not expressible in this subset; the server still enforces it');
  } else {
    move(cx, schema, 'additionalProperties', pointer, notes, 'maps are not expressible in this subset');
  }
}

/**
 * OpenAI strict refuses "array schema missing items"; the OpenAPI subset needs `items` on ARRAY.
 * Legacy Gemini gets STRING items (any value travels as text); strict falls back.
 */
export function arrayWithoutItems(cx: LoweringContext, schema: Json, pointer: string): void {
  if (cx.policy.strictObjects && cx.policy.itemsRequired) {
    cx.record(pointer, 'items', 'rejected', 'an array without "items" (any elements) cannot be sent in strict mode');
  } else if (cx.policy.openApiTypes) {
    schema.items = { type: 'STRING' };
    cx.record(pointer, 'items', 'added', 'ARRAY needs items in the OpenAPI subset; elements of any type travel as text');
  }
}

/** Strict: every property is required; an optional one becomes nullable and is remembered. */
export function requireAll(cx: LoweringContext, schema: Json, pointer: string): void {
  const props = schema.properties as Json;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
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
    if (required.has(name) || !isObject(child)) continue;
    const childPointer = cx.origin.get(child) ?? `${pointer}/properties/${escapePointerToken(name)}`;
    if (allowsNull(child)) continue; // null is a real value here; it cannot also mean "absent"
    const types = typeList(child);
    if (types && !('const' in child)) {
      child.type = [...types, 'null'];
      if (Array.isArray(child.enum)) child.enum = [...child.enum, null];
    } else {
      const nullBranch: Json = { type: 'null' };
      const wrapper: Json = { anyOf: [child, nullBranch] };
      cx.synthetic.add(wrapper);
      cx.synthetic.add(nullBranch);
      cx.origin.set(wrapper, childPointer);
      props[name] = wrapper;
    }
    cx.nullable.push(childPointer);
    madeNullable.push(name);
  }
  schema.required = Object.keys(props);
  if (madeNullable.length > 0) {
    cx.record(pointer, 'required', 'added', `optional ${madeNullable.map((n) => `"${n}"`).join(', ')} made required and nullable (null means absent)`);
  } else if (required.size > 0) {
    cx.record(pointer, 'required', 'kept');
  }
}

