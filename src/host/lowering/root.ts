/**
 * Tree passes for the root: providers want one object at the root, so a root allOf is merged and
 * root oneOf/anyOf alternatives are merged into one object, each form stated in the tool
 * description (before the node walk); and a root without `properties` gets an empty one (after).
 * Each takes the frozen root and returns a new one.
 */
import { isJsonObject } from '../../json/json-object.js';
import { mergeAllOfs } from './compose.js';
import { freezeDeep, typeList } from './context.js';
import type { Json, LoweringContext } from './context.js';

/** Tree pass: root composition merged into one object (profiles with `flattenRootComposition`). */
export function flattenRoot(cx: LoweringContext, node: Json): Json {
  if (!cx.policy.flattenRootComposition) return node;
  let root = node;
  if (Array.isArray(root.allOf)) {
    cx.registerChildren(root, '');
    const notes: string[] = [];
    root = mergeAllOfs(cx, root, '', notes);
    cx.rootNotes.push(...notes);
  }
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(root[keyword])) root = mergeAlternatives(cx, root, keyword);
  }
  return root;
}

/** Tree pass: providers need "properties" even for tools without arguments. */
export function rootProperties(cx: LoweringContext, root: Json): Json {
  if (root.properties !== undefined) return root;
  cx.record('', 'properties', 'added', 'providers need "properties" even for tools without arguments');
  return { ...root, properties: {} };
}

/**
 * Root oneOf/anyOf: providers want one object. The alternatives' properties are merged (a name
 * in several alternatives becomes the union of its schemas), only properties required by every
 * alternative stay required, and each alternative is spelled out in the tool description.
 */
export function mergeAlternatives(cx: LoweringContext, node: Json, keyword: 'oneOf' | 'anyOf'): Json {
  const root: Json = { ...node };
  const branches = (root[keyword] as unknown[]).map((raw, i) => cx.resolveBranch(raw, `/${keyword}/${i}`));
  delete root[keyword];
  const props: Json = { ...(isJsonObject(root.properties) ? root.properties : {}) };
  const rootHad = new Set(Object.keys(props));
  const variants = new Map<string, unknown[]>();
  const forms: string[] = [];
  let common: Set<string> | undefined;
  let allClosed = branches.length > 0;
  for (const { schema: resolved, pointer: bp } of branches) {
    let branch = resolved;
    if (typeof branch === 'boolean') {
      forms.push(branch ? 'any arguments' : 'nothing (this alternative never matches)');
      common = new Set();
      allClosed = false;
      continue;
    }
    if (cx.policy.mergeAllOf) branch = mergeAllOfs(cx, branch, bp, []);
    cx.registerChildren(branch, bp);
    const required = Array.isArray(branch.required) ? branch.required.filter((r): r is string => typeof r === 'string') : [];
    common = common === undefined ? new Set(required) : new Set(required.filter((r) => common!.has(r)));
    if (branch.additionalProperties !== false) allClosed = false;
    const parts: string[] = [];
    const label = typeof branch.title === 'string' ? branch.title : typeof branch.description === 'string' ? branch.description : undefined;
    if (label) parts.push(label);
    if (required.length > 0) parts.push(`requires ${required.join(', ')}`);
    if (isJsonObject(branch.properties)) {
      for (const [name, sub] of Object.entries(branch.properties)) {
        if (isJsonObject(sub) && 'const' in sub) parts.push(`${name} = ${JSON.stringify(sub.const)}`);
        if (!rootHad.has(name)) {
          const list = variants.get(name) ?? [];
          if (!list.some((v) => JSON.stringify(v) === JSON.stringify(sub))) list.push(sub);
          variants.set(name, list);
        }
      }
      cx.record(bp, 'properties', 'kept', 'merged into the root object');
    }
    if (required.length > 0) cx.record(bp, 'required', 'moved-into-description', 'stated per alternative');
    for (const [key, value] of Object.entries(branch)) {
      if (['properties', 'required', 'type', 'title', 'description', 'additionalProperties', '$defs', 'definitions'].includes(key)) continue;
      parts.push(`${key}: ${JSON.stringify(value)}`);
      cx.record(bp, key, 'moved-into-description');
    }
    if (branch.additionalProperties !== undefined) cx.record(bp, 'additionalProperties', allClosed ? 'kept' : 'dropped', 'merged: the root is closed only when every alternative is');
    forms.push(parts.length > 0 ? parts.join(', ') : 'no further requirements');
  }
  for (const [name, list] of variants) props[name] = mergeVariants(cx, list);
  root.properties = props;
  const required = new Set([...(Array.isArray(root.required) ? root.required as string[] : []), ...(common ?? [])]);
  if (required.size > 0) root.required = [...required];
  if (allClosed && root.additionalProperties === undefined) root.additionalProperties = false;
  const header = keyword === 'oneOf' ? 'Exactly one of these argument forms applies' : 'At least one of these argument forms applies';
  cx.rootNotes.push(`${header}: ${forms.map((f, i) => `(${i + 1}) ${f}`).join('; ')}.`);
  cx.record('', keyword, 'moved-into-description', 'alternatives merged into one object; each form is stated in the tool description and the server validates the original');
  return root;
}

export function mergeVariants(cx: LoweringContext, list: unknown[]): unknown {
  if (list.length === 1) return list[0];
  const enumish = list.every((v) => isJsonObject(v) && Object.keys(v).every((k) => ['const', 'enum', 'type', 'description', 'title'].includes(k))
    && (('const' in v) || Array.isArray(v.enum)));
  if (enumish) {
    const values: unknown[] = [];
    const types = new Set<string>();
    for (const v of list as Json[]) {
      cx.record(cx.origin.get(v) ?? '', 'const' in v ? 'const' : 'enum', 'kept', 'merged with the other alternatives into one enum');
      for (const value of 'const' in v ? [v.const] : (v.enum as unknown[])) {
        if (!values.some((x) => JSON.stringify(x) === JSON.stringify(value))) values.push(value);
      }
      for (const t of typeList(v) ?? []) types.add(t);
    }
    const merged: Json = {};
    if (types.size === 1) merged.type = [...types][0];
    merged.enum = values;
    const first = list[0] as Json;
    if (typeof first.description === 'string') merged.description = first.description;
    cx.origin.set(merged, cx.origin.get(first) ?? '');
    return freezeDeep(merged);
  }
  const first = list[0];
  return cx.made({ anyOf: list }, isJsonObject(first) ? cx.origin.get(first) ?? '' : undefined);
}
