import type { ErrorObject } from 'ajv';
import { createDescriber, displayPath, plural, renderJson } from './describe-value.js';
import type { SchemaError } from './types.js';

type Params = Record<string, unknown>;

function problemOf(e: ErrorObject, describe: (value: unknown) => string): string {
  const p = e.params as Params;
  switch (e.keyword) {
    case 'type': return `expected ${String(p.type).split(',').join(' or ')}, got ${describe(e.data)}`;
    case 'required': return `missing required property ${JSON.stringify(p.missingProperty)}`;
    case 'additionalProperties': return `unexpected property ${JSON.stringify(p.additionalProperty)}`;
    case 'enum': return `expected one of ${renderJson(p.allowedValues)}, got ${describe(e.data)}`;
    case 'const': return `expected ${renderJson(p.allowedValue)}, got ${describe(e.data)}`;
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
      return `expected number ${String(p.comparison)} ${String(p.limit)}, got ${describe(e.data)}`;
    case 'multipleOf': return `expected a multiple of ${String(p.multipleOf)}, got ${describe(e.data)}`;
    case 'minLength': return `expected string of at least ${plural(p.limit, 'character')}, got ${describe(e.data)}`;
    case 'maxLength': return `expected string of at most ${plural(p.limit, 'character')}, got ${describe(e.data)}`;
    case 'minItems': return `expected at least ${plural(p.limit, 'item')}, got ${describe(e.data)}`;
    case 'maxItems': case 'items': case 'additionalItems': return `expected at most ${plural(p.limit, 'item')}, got ${describe(e.data)}`;
    case 'minProperties': return `expected at least ${plural(p.limit, 'property').replace('propertys', 'properties')}, got ${Object.keys(e.data as object).length}`;
    case 'maxProperties': return `expected at most ${plural(p.limit, 'property').replace('propertys', 'properties')}, got ${Object.keys(e.data as object).length}`;
    case 'pattern': return `expected string matching ${JSON.stringify(p.pattern)}, got ${describe(e.data)}`;
    case 'format': return `expected ${String(p.format)} string, got ${describe(e.data)}`;
    case 'uniqueItems': return `expected unique items, items ${String(p.j)} and ${String(p.i)} are equal`;
    case 'dependentRequired': case 'dependencies':
      return `missing property ${JSON.stringify(p.missingProperty)} (required when ${JSON.stringify(p.property)} is present)`;
    case 'contains': case 'minContains': case 'maxContains':
      return p.maxContains === undefined
        ? `expected at least ${plural(p.minContains ?? 1, 'item')} matching "contains", got ${describe(e.data)}`
        : `expected ${p.minContains === undefined ? '' : `at least ${String(p.minContains)} and `}at most ${plural(p.maxContains, 'item')} matching "contains", got ${describe(e.data)}`;
    case 'false schema': return `no value is allowed here, got ${describe(e.data)}`;
    case 'not': return `must not match the "not" schema, got ${describe(e.data)}`;
    case 'propertyNames': return `invalid property name ${JSON.stringify(p.propertyName)}`;
    default: return `${e.message ?? 'is invalid'}, got ${describe(e.data)}`;
  }
}

/** Keywords whose own error summarises the errors of their subschemas. */
const WRAPPERS = new Set(['anyOf', 'oneOf', 'propertyNames', 'contains', 'not']);

/** Some proper prefix of `schemaPath` ending just before a "/" is in `paths`. */
function underAny(schemaPath: string, paths: ReadonlySet<string>): boolean {
  if (paths.size === 0) return false;
  for (let i = schemaPath.indexOf('/'); i !== -1; i = schemaPath.indexOf('/', i + 1)) if (paths.has(schemaPath.slice(0, i))) return true;
  return false;
}

/** The anyOf/oneOf schema paths `schemaPath` lies in a branch of, with the branch index. */
function alternativesOf(schemaPath: string): Array<[string, number]> {
  if (!schemaPath.includes('Of/')) return [];
  const found: Array<[string, number]> = [];
  const parts = schemaPath.split('/');
  for (let i = 1; i + 1 < parts.length; i++) {
    if (parts[i] !== 'anyOf' && parts[i] !== 'oneOf') continue;
    const branch = Number(parts[i + 1]);
    if (Number.isInteger(branch) && branch >= 0) found.push([parts.slice(0, i + 1).join('/'), branch]);
  }
  return found;
}

/** The normalised errors (at most `limit`) and how many further problems were not formatted. */
export interface NormalisedErrors { errors: SchemaError[]; omitted: number }

/**
 * Ajv errors → SchemaError, one problem per error: errors of anyOf/oneOf branches are folded into
 * the anyOf/oneOf error (naming the closest alternative), `if` wrappers are dropped in favour of the
 * then/else errors, propertyNames/contains keep only their summary, and duplicates are removed.
 *
 * Linear in the number of errors (times schema depth): Ajv reports an anyOf/oneOf error right after
 * the errors of its branches, so each such error takes the branch errors gathered since the last
 * error of the same keyword location. Only the first `limit` problems get a message; the rest are
 * counted (`omitted`, before de-duplication).
 */
export function normaliseFastErrors(errors: readonly ErrorObject[], limit = Infinity): NormalisedErrors {
  const describe = createDescriber();
  const wrapperPaths = new Set<string>();
  const thenElseBases = new Set<string>();
  let hasIf = false;
  for (const e of errors) {
    if (WRAPPERS.has(e.keyword)) wrapperPaths.add(e.schemaPath);
    if (e.keyword === 'if') hasIf = true;
  }
  if (hasIf) {
    for (const e of errors) {
      for (const marker of ['/then/', '/else/']) {
        for (let at = e.schemaPath.indexOf(marker); at !== -1; at = e.schemaPath.indexOf(marker, at + 1)) thenElseBases.add(e.schemaPath.slice(0, at));
      }
    }
  }
  const pendingBranches = new Map<string, Array<[number, ErrorObject]>>();
  const out: SchemaError[] = [];
  const seen = new Set<string>();
  let omitted = 0;
  const push = (instancePath: string, keyword: string, problem: () => string, schemaPath: string): void => {
    if (out.length >= limit) { omitted++; return; }
    const message = `${displayPath(instancePath)}: ${problem()}`;
    if (seen.has(message)) return;
    seen.add(message);
    out.push({ instancePath, keyword, message, schemaPath });
  };
  for (const e of errors) {
    for (const [alternative, branch] of alternativesOf(e.schemaPath)) {
      let list = pendingBranches.get(alternative);
      if (!list) pendingBranches.set(alternative, (list = []));
      list.push([branch, e]);
    }
    const wrapped = underAny(e.schemaPath, wrapperPaths);
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      const own = pendingBranches.get(e.schemaPath) ?? [];
      pendingBranches.delete(e.schemaPath);
      if (!wrapped) pushAlternativeError(e, own, push, describe);
      continue;
    }
    if (wrapped) continue;
    if (e.keyword === 'if') {
      if (thenElseBases.has(e.schemaPath.slice(0, -'/if'.length))) continue;
      push(e.instancePath, 'if', () => `expected the value to satisfy "${String((e.params as Params).failingKeyword)}" of the if/then/else condition`, e.schemaPath);
      continue;
    }
    // The common case, without a closure per error: the same text push() would make.
    if (out.length >= limit) { omitted++; continue; }
    const message = `${displayPath(e.instancePath)}: ${problemOf(e, describe)}`;
    if (seen.has(message)) continue;
    seen.add(message);
    out.push({ instancePath: e.instancePath, keyword: e.keyword === 'false schema' ? 'false' : e.keyword, message, schemaPath: e.schemaPath });
  }
  return { errors: out, omitted };
}

type Push = (instancePath: string, keyword: string, problem: () => string, schemaPath: string) => void;

function pushAlternativeError(e: ErrorObject, own: Array<[number, ErrorObject]>, push: Push, describe: (value: unknown) => string): void {
  const passing = (e.params as Params).passingSchemas;
  if (Array.isArray(passing)) {
    push(e.instancePath, e.keyword, () => `expected exactly one oneOf alternative to match, but alternatives ${passing.map((i) => `#${String(i)}`).join(' and ')} both match ${describe(e.data)}`, e.schemaPath);
    return;
  }
  // Group the branch errors; the alternative with the fewest problems is the one the caller most likely meant.
  const branches = new Map<number, ErrorObject[]>();
  for (const [i, o] of own) {
    if (o.keyword === e.keyword) continue;
    let list = branches.get(i);
    if (!list) branches.set(i, (list = []));
    list.push(o);
  }
  const all = [...branches.values()];
  if (all.length > 0 && all.every((b) => b.length === 1 && b[0]!.keyword === 'type' && b[0]!.instancePath === e.instancePath)) {
    const types = all.map((b) => String((b[0]!.params as Params).type)).join(' or ');
    push(e.instancePath, e.keyword, () => `expected ${types.split(',').join(' or ')}, got ${describe(e.data)}`, e.schemaPath);
    return;
  }
  // A failed const/enum or a wrong type at the alternative's own level says "wrong alternative",
  // so it weighs more than a problem further down.
  const weight = (list: ErrorObject[]): number => list.reduce((sum, o) => sum + 1
    + ((o.keyword === 'const' || o.keyword === 'enum') ? 0.5 : 0) + (o.keyword === 'type' && o.instancePath === e.instancePath ? 1 : 0), 0);
  let best: [number, ErrorObject[], number] | undefined;
  for (const [i, list] of branches) {
    const w = weight(list);
    if (!best || w < best[2]) best = [i, list, w];
  }
  push(e.instancePath, e.keyword, () => {
    const hint = best ? `; closest is alternative #${best[0]}: ${best[1].slice(0, 3).map((o) => `${displayPath(o.instancePath)}: ${problemOf(o, describe)}`).join('; ')}` : '';
    return `expected a value matching ${e.keyword === 'oneOf' ? 'exactly one' : 'at least one'} of the ${e.keyword} alternatives, got ${describe(e.data)}${hint}`;
  }, e.schemaPath);
}
