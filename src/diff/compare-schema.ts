/**
 * Compares two versions of one schema (a tool's inputSchema or outputSchema) node by node. Both are
 * walked with the one schema walker (src/schema/walk.ts) and the subschemas are matched by JSON
 * pointer; each keyword difference is reduced to an effect on the set of accepted values (narrows,
 * widens, both, or undecidable), and the side decides what that means: on the input side a narrower
 * schema refuses calls that used to work; on the output side a wider one lets the server return what
 * consumers of `structuredContent` do not expect.
 */
import { isJsonObject } from '../json/json-object.js';
import { walkSchema, SUBSCHEMA_KEYWORDS, unescapePointerToken } from '../schema/index.js';
import type { SchemaVisit } from '../schema/index.js';
import { canonicalJson } from '../json/canonical-json.js';
import type { ChangeKind } from './types.js';

/** Which side of the tool a schema describes. */
export type SchemaSide = 'input' | 'output';

/** A change found in one schema, pointer relative to the tool descriptor. */
export interface SchemaChange {
  pointer: string;
  kind: ChangeKind;
  message: string;
}

/** What a difference does to the set of values a schema accepts. */
type Effect =
  | { narrows: boolean; widens: boolean; what: string; input?: string; output?: string }
  | { undecidable: string }
  | { text: string };

const HOLDERS: ReadonlySet<string> = new Set(Object.values(SUBSCHEMA_KEYWORDS).flatMap((map) => [...map.keys()]));
/** Text a model reads; changing it changes behaviour, not validity. */
const TEXT_KEYWORDS: ReadonlySet<string> = new Set(['title', 'description', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const LOWER = [['minimum', false], ['exclusiveMinimum', true]] as const;
const UPPER = [['maximum', false], ['exclusiveMaximum', true]] as const;
const COUNT_MIN = ['minLength', 'minItems', 'minProperties', 'minContains'] as const;
const COUNT_MAX = ['maxLength', 'maxItems', 'maxProperties', 'maxContains'] as const;
const HANDLED: ReadonlySet<string> = new Set(['type', 'enum', 'const', 'required', 'multipleOf', 'pattern', 'format', 'uniqueItems', '$ref', 'default',
  ...LOWER.map(([k]) => k), ...UPPER.map(([k]) => k), ...COUNT_MIN, ...COUNT_MAX]);
const ALL_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'] as const;

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `"force"`, `"target_position.x"`, `"waypoints[].x"`, or "the schema root". */
function where(pointer: string, side: SchemaSide): string {
  if (pointer === '') return side === 'input' ? 'the arguments object' : 'the result';
  const parts: string[] = [];
  const tokens = pointer.slice(1).split('/').map(unescapePointerToken);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if ((token === 'properties' || token === '$defs' || token === 'definitions' || token === 'patternProperties') && i + 1 < tokens.length) {
      parts.push(token === 'properties' ? tokens[++i]! : `${token}/${tokens[++i]!}`);
    } else if (token === 'items' || token === 'additionalItems') {
      parts.push('[]');
    } else {
      parts.push(token);
    }
  }
  const name = parts.join('.').replace(/\.\[\]/g, '[]');
  return `${side === 'input' ? 'parameter' : 'field'} "${name}"`;
}

function typesOf(schema: Record<string, unknown>): Set<string> {
  const type = schema.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === 'string'));
  return new Set();
}

function accepts(types: ReadonlySet<string>, type: string): boolean {
  if (types.size === 0 || types.has(type)) return true;
  return type === 'integer' && types.has('number');
}

function isClosed(schema: unknown): boolean {
  return isJsonObject(schema) && (schema.additionalProperties === false || schema.unevaluatedProperties === false);
}

function requiredOf(schema: unknown): Set<string> {
  return new Set(isJsonObject(schema) && Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : []);
}

/** A schema that constrains nothing (`true`, `{}`, or only text keywords). */
function isTrivial(schema: unknown): boolean {
  if (schema === true) return true;
  return isJsonObject(schema) && Object.keys(schema).every((k) => TEXT_KEYWORDS.has(k) || k === 'default');
}

interface Bound { value: number; exclusive: boolean; keyword: string }

function boundOf(schema: Record<string, unknown>, keywords: ReadonlyArray<readonly [string, boolean]>, lower: boolean): Bound | undefined {
  let best: Bound | undefined;
  for (const [keyword, exclusive] of keywords) {
    const value = schema[keyword];
    if (typeof value !== 'number') continue;
    const tighter = best === undefined || (lower ? value > best.value || (value === best.value && exclusive) : value < best.value || (value === best.value && exclusive));
    if (tighter) best = { value, exclusive, keyword };
  }
  return best;
}

function compareBounds(before: Bound | undefined, after: Bound | undefined, lower: boolean, label: string): Effect | undefined {
  if (before === undefined && after === undefined) return undefined;
  const text = (b: Bound) => `${b.keyword} ${b.value}`;
  if (before === undefined) return { narrows: true, widens: false, what: `${text(after!)} added` };
  if (after === undefined) return { narrows: false, widens: true, what: `${text(before)} removed` };
  if (before.value === after.value && before.exclusive === after.exclusive) return undefined;
  const tighter = lower ? after.value > before.value || (after.value === before.value && after.exclusive) : after.value < before.value || (after.value === before.value && after.exclusive);
  return tighter
    ? { narrows: true, widens: false, what: `${label} narrowed: ${text(before)} → ${text(after)}` }
    : { narrows: false, widens: true, what: `${label} widened: ${text(before)} → ${text(after)}` };
}

function isWholeMultiple(a: number, b: number): boolean {
  const ratio = a / b;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9 && Math.round(ratio) !== 0;
}

/** Differences of the value keywords at one node present in both versions. */
function keywordEffects(before: Record<string, unknown>, after: Record<string, unknown>, side: SchemaSide, at: string): Array<{ keyword: string; effect: Effect }> {
  const effects: Array<{ keyword: string; effect: Effect }> = [];
  const add = (keyword: string, effect: Effect | undefined): void => {
    if (effect !== undefined) effects.push({ keyword, effect });
  };
  const differs = (keyword: string): boolean => canonicalJson(before[keyword]) !== canonicalJson(after[keyword]);
  const has = (schema: Record<string, unknown>, keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);

  if (differs('type')) {
    const o = typesOf(before);
    const n = typesOf(after);
    const narrows = ALL_TYPES.some((t) => accepts(o, t) && !accepts(n, t));
    const widens = ALL_TYPES.some((t) => accepts(n, t) && !accepts(o, t));
    const label = (s: Set<string>) => (s.size === 0 ? 'any type' : [...s].join(' | '));
    if (narrows || widens) add('type', { narrows, widens, what: `type ${narrows && widens ? 'changed' : narrows ? 'narrowed' : 'widened'} from ${label(o)} to ${label(n)}` });
  }
  if (differs('enum')) {
    const o = Array.isArray(before.enum) ? new Set(before.enum.map((v) => canonicalJson(v))) : undefined;
    const n = Array.isArray(after.enum) ? new Set(after.enum.map((v) => canonicalJson(v))) : undefined;
    if (o === undefined) add('enum', { narrows: true, widens: false, what: `enum ${show(after.enum)} added: only these values are accepted now` });
    else if (n === undefined) add('enum', { narrows: false, widens: true, what: `enum ${show(before.enum)} removed: any value of the type is accepted now` });
    else {
      const removed = [...o].filter((v) => !n.has(v));
      const added = [...n].filter((v) => !o.has(v));
      if (removed.length > 0 || added.length > 0) {
        const parts = [removed.length > 0 ? `enum value${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed` : '', added.length > 0 ? `enum value${added.length > 1 ? 's' : ''} ${added.join(', ')} added` : ''].filter(Boolean);
        add('enum', { narrows: removed.length > 0, widens: added.length > 0, what: parts.join(' and ') });
      }
    }
  }
  if (differs('const')) {
    if (!has(before, 'const')) add('const', { narrows: true, widens: false, what: `const ${show(after.const)} added` });
    else if (!has(after, 'const')) add('const', { narrows: false, widens: true, what: `const ${show(before.const)} removed` });
    else add('const', { narrows: true, widens: true, what: `const changed from ${show(before.const)} to ${show(after.const)}` });
  }
  const lower = compareBounds(boundOf(before, LOWER, true), boundOf(after, LOWER, true), true, 'lower bound');
  if (lower) add(boundOf(after, LOWER, true)?.keyword ?? boundOf(before, LOWER, true)!.keyword, lower);
  const upper = compareBounds(boundOf(before, UPPER, false), boundOf(after, UPPER, false), false, 'upper bound');
  if (upper) add(boundOf(after, UPPER, false)?.keyword ?? boundOf(before, UPPER, false)!.keyword, upper);
  for (const keyword of COUNT_MIN) {
    const o = typeof before[keyword] === 'number' ? { value: before[keyword], exclusive: false, keyword } : undefined;
    const n = typeof after[keyword] === 'number' ? { value: after[keyword], exclusive: false, keyword } : undefined;
    add(keyword, compareBounds(o, n, true, keyword));
  }
  for (const keyword of COUNT_MAX) {
    const o = typeof before[keyword] === 'number' ? { value: before[keyword], exclusive: false, keyword } : undefined;
    const n = typeof after[keyword] === 'number' ? { value: after[keyword], exclusive: false, keyword } : undefined;
    add(keyword, compareBounds(o, n, false, keyword));
  }
  if (differs('multipleOf')) {
    const o = typeof before.multipleOf === 'number' ? before.multipleOf : undefined;
    const n = typeof after.multipleOf === 'number' ? after.multipleOf : undefined;
    if (o === undefined && n !== undefined) add('multipleOf', { narrows: true, widens: false, what: `multipleOf ${n} added` });
    else if (n === undefined && o !== undefined) add('multipleOf', { narrows: false, widens: true, what: `multipleOf ${o} removed` });
    else if (o !== undefined && n !== undefined) {
      const widens = isWholeMultiple(o, n);
      const narrows = isWholeMultiple(n, o);
      add('multipleOf', { narrows: !widens || narrows, widens: !narrows || widens, what: `multipleOf changed from ${o} to ${n}` });
    }
  }
  for (const keyword of ['pattern', 'format'] as const) {
    if (!differs(keyword)) continue;
    if (!has(before, keyword)) add(keyword, { narrows: true, widens: false, what: `${keyword} ${show(after[keyword])} added` });
    else if (!has(after, keyword)) add(keyword, { narrows: false, widens: true, what: `${keyword} ${show(before[keyword])} removed` });
    else add(keyword, { undecidable: `${keyword} changed from ${show(before[keyword])} to ${show(after[keyword])}: whether one accepts every string the other does cannot be decided by comparing two ${keyword === 'pattern' ? 'regular expressions' : 'formats'}` });
  }
  if (differs('uniqueItems')) {
    const n = after.uniqueItems === true;
    add('uniqueItems', { narrows: n, widens: !n, what: n ? 'uniqueItems added: repeated items are refused now' : 'uniqueItems removed: repeated items are accepted now' });
  }
  if (differs('$ref')) add('$ref', { undecidable: `$ref changed from ${show(before.$ref)} to ${show(after.$ref)}: compatibility depends on the two referenced definitions (their own changes, if any, are listed at their pointers)` });
  if (differs('default')) {
    add('default', side === 'input'
      ? { undecidable: `default changed from ${has(before, 'default') ? show(before.default) : '(none)'} to ${has(after, 'default') ? show(after.default) : '(none)'}: calls that leave ${at} out now behave differently, which no schema comparison can judge` }
      : { text: `default changed from ${show(before.default)} to ${show(after.default)}` });
  }
  for (const keyword of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (HOLDERS.has(keyword) || HANDLED.has(keyword) || !differs(keyword)) continue;
    if (TEXT_KEYWORDS.has(keyword)) add(keyword, { text: `${keyword} ${!has(before, keyword) ? 'added' : !has(after, keyword) ? 'removed' : 'changed'}` });
    else add(keyword, { undecidable: `keyword "${keyword}" changed (${has(before, keyword) ? show(before[keyword]) : '(none)'} → ${has(after, keyword) ? show(after[keyword]) : '(none)'}): toolwright does not judge its effect on compatibility` });
  }
  return effects;
}

/** The innermost combinator above a node that keeps a narrowing from being decisive, if any. */
function guardOf(visit: SchemaVisit): { keyword: string; opaque: boolean } | undefined {
  let found: { keyword: string; opaque: boolean } | undefined;
  for (let v: SchemaVisit | undefined = visit; v !== undefined; v = v.parent) {
    const k = v.keyword;
    if (k === 'oneOf' || k === 'not' || k === 'if') return { keyword: k, opaque: true };
    if ((k === 'anyOf' || k === 'then' || k === 'else') && found === undefined) found = { keyword: k, opaque: false };
  }
  return found;
}

function judge(effect: Effect, side: SchemaSide, subject: string, guard: { keyword: string; opaque: boolean } | undefined): { kind: ChangeKind; message: string } {
  if ('text' in effect) return { kind: 'model-facing', message: `${subject}: ${effect.text}; what a model reads changed, re-run the regression set` };
  if ('undecidable' in effect) return { kind: 'unknown', message: `${subject}: ${effect.undecidable}` };
  const breaks = side === 'input' ? effect.narrows : effect.widens;
  const detail = breaks
    ? (side === 'input' ? effect.input ?? 'calls the old schema accepted can now be refused' : effect.output ?? 'results may now hold values that consumers of the old outputSchema do not expect')
    : (side === 'input' ? effect.input ?? 'every call the old schema accepted still validates' : effect.output ?? 'everything the server returns now also fits the old outputSchema');
  if (guard !== undefined && (guard.opaque || breaks)) {
    return { kind: 'unknown', message: `${subject}: ${effect.what}, inside ${guard.keyword}: whether this ${breaks ? 'breaks anyone' : 'is compatible'} depends on the other branches` };
  }
  return { kind: breaks ? 'breaking' : 'compatible', message: `${subject}: ${effect.what}; ${detail}` };
}

function visitsOf(root: object | boolean): Map<string, SchemaVisit> {
  const map = new Map<string, SchemaVisit>();
  walkSchema(root, (visit) => {
    map.set(visit.pointer, visit);
  });
  return map;
}

function lastToken(pointer: string): string {
  return unescapePointerToken(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/** Effect of a subschema that exists in only one version (`present` says which). */
function nodeEffect(visit: SchemaVisit, otherParent: unknown, present: 'after' | 'before', side: SchemaSide): Effect | undefined {
  const keyword = visit.keyword!;
  const schema = visit.schema;
  const parentSchema = visit.parent!.schema;
  const name = lastToken(visit.pointer);
  const added = present === 'after';
  if (keyword === 'properties') {
    const required = requiredOf(parentSchema).has(name);
    if (added) {
      return side === 'input'
        ? required
          ? { narrows: true, widens: false, what: 'new required property', input: 'calls that do not send it are now refused' }
          : { narrows: false, widens: true, what: 'optional property added', input: 'existing calls still validate' }
        : isClosed(otherParent)
          ? { narrows: false, widens: true, what: 'new field', output: 'the old outputSchema refuses extra fields, so consumers validating against it reject these results' }
          : { narrows: true, widens: false, what: 'new field', output: 'consumers of the old outputSchema ignore it' };
    }
    if (side === 'input') {
      return isClosed(otherParent)
        ? { narrows: true, widens: false, what: 'property removed', input: 'extra properties are refused, so calls that still send it are now refused' }
        : { undecidable: 'property removed: calls that still send it validate (extra properties are allowed) but nothing says what the server now does with the value' };
    }
    return required
      ? { narrows: false, widens: true, what: 'required field removed', output: 'consumers that read it get nothing' }
      : { narrows: true, widens: false, what: 'optional field removed', output: 'consumers of the old outputSchema already had to cope with its absence' };
  }
  if (keyword === '$defs' || keyword === 'definitions') {
    return added ? undefined : { undecidable: `definition "${name}" removed: every $ref to it now fails to resolve` };
  }
  const combinatorExisted = isJsonObject(otherParent) && Array.isArray(otherParent[keyword]);
  if (keyword === 'allOf' || keyword === 'anyOf') {
    if (!combinatorExisted) return lastToken(visit.pointer) === '0' ? { narrows: added, widens: !added, what: `${keyword} ${added ? 'added' : 'removed'}` } : undefined;
    const narrows = keyword === 'allOf' ? added : !added;
    return { narrows, widens: !narrows, what: `${keyword} branch ${added ? 'added' : 'removed'}` };
  }
  if (keyword === 'oneOf' || keyword === 'not' || keyword === 'if' || keyword === 'then' || keyword === 'else') {
    if (keyword === 'oneOf' && combinatorExisted && lastToken(visit.pointer) !== '0') return { undecidable: `oneOf branch ${added ? 'added' : 'removed'}: exactly-one-of cannot be compared branch by branch` };
    if (keyword === 'oneOf' && lastToken(visit.pointer) !== '0') return undefined;
    return { undecidable: `${keyword} ${added ? 'added' : 'removed'}: its effect on which values validate cannot be decided by comparing definitions` };
  }
  // A constraining subschema (items, additionalProperties, propertyNames, ...) appeared or went away.
  if (isTrivial(schema)) return undefined;
  const closing = (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') && schema === false;
  const what = closing ? `${keyword}: false ${added ? 'added (the object is now closed)' : 'removed (the object is now open)'}` : `${keyword} ${added ? 'added' : 'removed'}`;
  return added ? { narrows: true, widens: false, what, input: closing ? 'calls that send extra properties are now refused' : undefined } : { narrows: false, widens: true, what };
}

/**
 * Compares two versions of a schema. `base` is the schema's pointer in the tool (`/inputSchema`);
 * returned pointers are inside the tool descriptor, at the new version where it exists.
 */
export function compareSchemas(before: unknown, after: unknown, side: SchemaSide, base: string): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const isSchema = (v: unknown): v is object | boolean => typeof v === 'boolean' || isJsonObject(v);
  if (!isSchema(before) || !isSchema(after)) {
    if (canonicalJson(before) !== canonicalJson(after)) changes.push({ pointer: base, kind: 'unknown', message: `${base.slice(1)} is not a schema in ${isSchema(before) ? 'the new' : 'the old'} definition, so nothing can be compared` });
    return changes;
  }
  const old = visitsOf(before);
  const now = visitsOf(after);
  const push = (pointer: string, visit: SchemaVisit, effect: Effect | undefined, subject: string): void => {
    if (effect === undefined) return;
    const { kind, message } = judge(effect, side, subject, guardOf(visit));
    changes.push({ pointer: `${base}${pointer}`, kind, message });
  };
  for (const [pointer, visit] of now) {
    const previous = old.get(pointer);
    if (previous === undefined) {
      if (visit.parent !== undefined && typeof old.get(visit.parent.pointer)?.schema === 'object') push(pointer, visit, nodeEffect(visit, old.get(visit.parent.pointer)!.schema, 'after', side), where(visit.keyword === 'properties' ? pointer : visit.parent.pointer, side));
      continue;
    }
    const a = previous.schema;
    const b = visit.schema;
    const subject = where(pointer, side);
    if (typeof a === 'boolean' || typeof b === 'boolean') {
      if (a === b) continue;
      const aAll = a === true || (isJsonObject(a) && isTrivial(a));
      const bAll = b === true || (isJsonObject(b) && isTrivial(b));
      const aNone = a === false;
      const bNone = b === false;
      if (aAll && bAll) continue;
      push(pointer, visit, { narrows: !bAll && !aNone, widens: !aAll && !bNone, what: `schema ${show(a)} replaced by ${show(b)}` }, subject);
      continue;
    }
    const oldParams = isJsonObject((a as Record<string, unknown>).properties) ? (a as { properties: Record<string, unknown> }).properties : {};
    const newParams = isJsonObject((b as Record<string, unknown>).properties) ? (b as { properties: Record<string, unknown> }).properties : {};
    for (const { keyword, effect } of keywordEffects(a as Record<string, unknown>, b as Record<string, unknown>, side, subject)) {
      push(pointer === '' ? `/${keyword}` : `${pointer}/${keyword}`, visit, effect, subject);
    }
    // Names added to or dropped from `required`; properties that appeared or went away are judged where they are.
    const oldRequired = requiredOf(a);
    const newRequired = requiredOf(b);
    for (const name of newRequired) {
      if (oldRequired.has(name) || (name in newParams && !(name in oldParams))) continue;
      push(`${pointer}/required`, visit, { narrows: true, widens: false, what: `"${name}" is now required`, input: 'calls that leave it out are now refused' }, subject);
    }
    for (const name of oldRequired) {
      if (newRequired.has(name) || (name in oldParams && !(name in newParams))) continue;
      push(`${pointer}/required`, visit, { narrows: false, widens: true, what: `"${name}" is no longer required`, output: 'results may now leave it out, which breaks consumers of structuredContent that read it' }, subject);
    }
  }
  for (const [pointer, visit] of old) {
    if (now.has(pointer) || visit.parent === undefined || typeof now.get(visit.parent.pointer)?.schema !== 'object') continue;
    const effect = nodeEffect(visit, now.get(visit.parent.pointer)!.schema, 'before', side);
    if (effect === undefined) continue;
    const { kind, message } = judge(effect, side, where(visit.keyword === 'properties' ? pointer : visit.parent.pointer, side), guardOf(visit));
    // A removed node has no pointer in the new version; the change is reported at its old place.
    changes.push({ pointer: `${base}${pointer}`, kind, message });
  }
  return changes;
}
