/**
 * Lenient coercion (opt-in per tool): repairs the model-typical mistake of sending scalars as strings,
 * against the tool's input schema, before the shape check: `"15"` → 15 where a number or integer is
 * expected, `"true"`/`"false"` → booleans. Only exact JSON spellings are repaired (`"15N"`, `"1e"`,
 * `" 15"`, `"0x10"`, `"TRUE"` are left for the shape check to refuse), only where the schema does not
 * accept a string anyway, and only along `properties` (plain nested objects; `$ref`, combinators and
 * array items are left alone). Every repair is reported in the stage event and in the result's
 * `_meta` under `toolwright/repairs`.
 */
import type { JsonValue } from '../../../protocol/json-rpc.js';
import type { Middleware } from '../middleware.js';
import { isJsonObject } from '../../../json/json-object.js';

/** The `_meta` key listing the repairs made. */
export const REPAIRS_META_KEY = 'toolwright/repairs';

/** One repair. */
export interface Repair {
  /** JSON pointer into the arguments. */
  path: string;
  from: string;
  to: number | boolean;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function typesOf(schema: unknown): readonly string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

function coerceScalar(value: string, types: readonly string[]): number | boolean | undefined {
  if (types.length === 0 || types.includes('string')) return undefined;
  if ((types.includes('number') || types.includes('integer')) && JSON_NUMBER.test(value)) {
    const number = Number(value);
    if (Number.isFinite(number) && (types.includes('number') || Number.isInteger(number))) return number;
  }
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return undefined;
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The arguments with repairs applied (a copy where anything changed), and the repairs. */
export function coerceArguments(args: Record<string, unknown>, schema: unknown, path = ''): { value: Record<string, unknown>; repairs: Repair[] } {
  const repairs: Repair[] = [];
  const properties = typeof schema === 'object' && schema !== null ? (schema as { properties?: unknown }).properties : undefined;
  if (typeof properties !== 'object' || properties === null) return { value: args, repairs };
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(properties, key)) continue;
    const sub = (properties as Record<string, unknown>)[key];
    const where = `${path}/${escape(key)}`;
    let repaired: unknown = value;
    if (typeof value === 'string') {
      const coerced = coerceScalar(value, typesOf(sub));
      if (coerced !== undefined) {
        repaired = coerced;
        repairs.push({ path: where, from: JSON.stringify(value), to: coerced });
      }
    } else if (isJsonObject(value)) {
      const inner = coerceArguments(value as Record<string, unknown>, sub, where);
      if (inner.repairs.length > 0) {
        repaired = inner.value;
        repairs.push(...inner.repairs);
      }
    }
    if (repaired !== value) (copy ??= { ...args })[key] = repaired;
  }
  return { value: copy ?? args, repairs };
}

/**
 * @example
 * ```ts
 * import { defineTool, lenientCoercion } from 'toolwright';
 *
 * const move = defineTool({
 *   name: 'move',
 *   inputSchema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } as const,
 *   use: [lenientCoercion()], // "12.5" arrives as 12.5, and the result says it was repaired
 *   run: ({ x }) => `moved to ${x}`,
 * });
 * ```
 */
export function lenientCoercion(): Middleware {
  return {
    name: 'lenient-coercion',
    handle(call, next) {
      const { value, repairs } = coerceArguments(call.arguments, call.tool.descriptor.inputSchema);
      if (repairs.length > 0) {
        call.arguments = value;
        call.note(REPAIRS_META_KEY, repairs.map((r) => ({ path: r.path, from: r.from, to: r.to })) as JsonValue);
        call.report(repairs.map((r) => `${r.path}: ${r.from} -> ${JSON.stringify(r.to)}`).join(', '));
      }
      return next();
    },
  };
}
