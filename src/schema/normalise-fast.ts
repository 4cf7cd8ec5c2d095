import type { ErrorObject } from 'ajv';
import { describeValue, displayPath, plural, renderJson } from './describe-value.js';
import type { SchemaError } from './types.js';

type Params = Record<string, unknown>;

function problemOf(e: ErrorObject): string {
  const p = e.params as Params;
  const got = describeValue(e.data);
  switch (e.keyword) {
    case 'type': return `expected ${String(p.type).split(',').join(' or ')}, got ${got}`;
    case 'required': return `missing required property ${JSON.stringify(p.missingProperty)}`;
    case 'additionalProperties': return `unexpected property ${JSON.stringify(p.additionalProperty)}`;
    case 'enum': return `expected one of ${renderJson(p.allowedValues)}, got ${got}`;
    case 'const': return `expected ${renderJson(p.allowedValue)}, got ${got}`;
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
      return `expected number ${String(p.comparison)} ${String(p.limit)}, got ${got}`;
    case 'multipleOf': return `expected a multiple of ${String(p.multipleOf)}, got ${got}`;
    case 'minLength': return `expected string of at least ${plural(p.limit, 'character')}, got ${got}`;
    case 'maxLength': return `expected string of at most ${plural(p.limit, 'character')}, got ${got}`;
    case 'minItems': return `expected at least ${plural(p.limit, 'item')}, got ${got}`;
    case 'maxItems': case 'items': case 'additionalItems': return `expected at most ${plural(p.limit, 'item')}, got ${got}`;
    case 'minProperties': return `expected at least ${plural(p.limit, 'property').replace('propertys', 'properties')}, got ${Object.keys(e.data as object).length}`;
    case 'maxProperties': return `expected at most ${plural(p.limit, 'property').replace('propertys', 'properties')}, got ${Object.keys(e.data as object).length}`;
    case 'pattern': return `expected string matching ${JSON.stringify(p.pattern)}, got ${got}`;
    case 'format': return `expected ${String(p.format)} string, got ${got}`;
    case 'uniqueItems': return `expected unique items, items ${String(p.j)} and ${String(p.i)} are equal`;
    case 'dependentRequired': case 'dependencies':
      return `missing property ${JSON.stringify(p.missingProperty)} (required when ${JSON.stringify(p.property)} is present)`;
    case 'contains': case 'minContains': case 'maxContains':
      return p.maxContains === undefined
        ? `expected at least ${plural(p.minContains ?? 1, 'item')} matching "contains", got ${got}`
        : `expected ${p.minContains === undefined ? '' : `at least ${String(p.minContains)} and `}at most ${plural(p.maxContains, 'item')} matching "contains", got ${got}`;
    case 'false schema': return `no value is allowed here, got ${got}`;
    case 'not': return `must not match the "not" schema, got ${got}`;
    case 'propertyNames': return `invalid property name ${JSON.stringify(p.propertyName)}`;
    default: return `${e.message ?? 'is invalid'}, got ${got}`;
  }
}

/** Keywords whose own error summarises the errors of their subschemas. */
const WRAPPERS = new Set(['anyOf', 'oneOf', 'propertyNames', 'contains', 'not']);

function branchOf(path: string, prefix: string): number | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const n = Number.parseInt(path.slice(prefix.length), 10);
  return Number.isNaN(n) ? undefined : n;
}

/**
 * Ajv errors → SchemaError, one problem per error: errors of anyOf/oneOf branches are folded into
 * the anyOf/oneOf error (naming the closest alternative), `if` wrappers are dropped in favour of the
 * then/else errors, propertyNames/contains keep only their summary, and duplicates are removed.
 */
export function normaliseFastErrors(errors: readonly ErrorObject[]): SchemaError[] {
  const wrappers = errors.filter((e) => WRAPPERS.has(e.keyword) || e.keyword === 'if');
  const out: SchemaError[] = [];
  const seen = new Set<string>();
  const push = (instancePath: string, keyword: string, problem: string, schemaPath: string): void => {
    const message = `${displayPath(instancePath)}: ${problem}`;
    if (seen.has(message)) return;
    seen.add(message);
    out.push({ instancePath, keyword, message, schemaPath });
  };
  for (const e of errors) {
    if (wrappers.some((w) => w !== e && WRAPPERS.has(w.keyword) && e.schemaPath.startsWith(`${w.schemaPath}/`))) continue;
    if (e.keyword === 'if') {
      const base = e.schemaPath.slice(0, -'/if'.length);
      if (errors.some((o) => o.schemaPath.startsWith(`${base}/then/`) || o.schemaPath.startsWith(`${base}/else/`))) continue;
      push(e.instancePath, 'if', `expected the value to satisfy "${String((e.params as Params).failingKeyword)}" of the if/then/else condition`, e.schemaPath);
      continue;
    }
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      const passing = (e.params as Params).passingSchemas;
      if (Array.isArray(passing)) {
        push(e.instancePath, e.keyword, `expected exactly one oneOf alternative to match, but alternatives ${passing.map((i) => `#${String(i)}`).join(' and ')} both match ${describeValue(e.data)}`, e.schemaPath);
        continue;
      }
      // Group the branch errors; the alternative with the fewest problems is the one the caller most likely meant.
      const branches = new Map<number, ErrorObject[]>();
      for (const o of errors) {
        const i = branchOf(o.schemaPath, `${e.schemaPath}/`);
        if (i !== undefined && o.keyword !== e.keyword) branches.set(i, [...(branches.get(i) ?? []), o]);
      }
      const all = [...branches.values()];
      if (all.length > 0 && all.every((b) => b.length === 1 && b[0]!.keyword === 'type' && b[0]!.instancePath === e.instancePath)) {
        const types = all.map((b) => String((b[0]!.params as Params).type)).join(' or ');
        push(e.instancePath, e.keyword, `expected ${types.split(',').join(' or ')}, got ${describeValue(e.data)}`, e.schemaPath);
        continue;
      }
      // A failed const/enum or a wrong type at the alternative's own level says "wrong alternative",
      // so it weighs more than a problem further down.
      const weight = (list: ErrorObject[]): number => list.reduce((sum, o) => sum + 1
        + ((o.keyword === 'const' || o.keyword === 'enum') ? 0.5 : 0) + (o.keyword === 'type' && o.instancePath === e.instancePath ? 1 : 0), 0);
      let best: [number, ErrorObject[]] | undefined;
      for (const entry of branches) if (!best || weight(entry[1]) < weight(best[1])) best = entry;
      const hint = best ? `; closest is alternative #${best[0]}: ${best[1].map((o) => `${displayPath(o.instancePath)}: ${problemOf(o)}`).slice(0, 3).join('; ')}` : '';
      push(e.instancePath, e.keyword, `expected a value matching ${e.keyword === 'oneOf' ? 'exactly one' : 'at least one'} of the ${e.keyword} alternatives, got ${describeValue(e.data)}${hint}`, e.schemaPath);
      continue;
    }
    push(e.instancePath, e.keyword === 'false schema' ? 'false' : e.keyword, problemOf(e), e.schemaPath);
  }
  return out;
}
