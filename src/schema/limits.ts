import { SchemaCompileError } from './compile-error.js';
import { escapePointerToken } from './pointer.js';
import { SUBSCHEMA_KEYWORDS } from './walk.js';

/**
 * Bound a schema document before any recursive code (cloning, meta-validation, engines) sees it.
 * `maxDepth` counts subschema nesting (root = 0; `properties/x` is one level); `maxNodes` counts
 * subschemas. Plain JSON nesting (inside `enum`, `const`, `default`, unknown keywords) is bounded
 * too, at 2 × maxDepth + 16, since a deep literal overflows the stack just as a deep schema does.
 * Iterative: a 100,000-level document is refused without recursion.
 */
export function assertSchemaLimits(schema: unknown, maxDepth: number, maxNodes: number): void {
  const maxJsonDepth = 2 * maxDepth + 16;
  // Stack entries: value, pointer, JSON depth, subschema depth (-1 = not a subschema position).
  const stack: Array<[unknown, string, number, number]> = [[schema, '', 0, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, pointer, jsonDepth, schemaDepth] = stack.pop()!;
    if (jsonDepth > maxJsonDepth) {
      throw new SchemaCompileError(pointer, `schema nests deeper than ${maxJsonDepth} JSON levels (limit derived from maxDepth ${maxDepth})`);
    }
    if (value === null || typeof value !== 'object') continue;
    const isSchema = schemaDepth >= 0 && !Array.isArray(value);
    if (isSchema) {
      if (schemaDepth > maxDepth) throw new SchemaCompileError(pointer, `schema nesting depth exceeds maxDepth ${maxDepth}`);
      if (++nodes > maxNodes) throw new SchemaCompileError(pointer, `schema has more than maxNodes ${maxNodes} subschemas`);
    }
    // A scalar member can only fail the JSON depth check, and only this close to the limit; elsewhere
    // scalars (most of a schema: descriptions, types, bounds, enum values) are not pushed, nor their pointers built.
    const scalarsCanFail = jsonDepth + 2 > maxJsonDepth;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (!scalarsCanFail && (item === null || typeof item !== 'object')) continue;
        stack.push([item, `${pointer}/${i}`, jsonDepth + 1, schemaDepth >= 0 ? schemaDepth : -1]);
      }
      continue;
    }
    // Pushed in reverse so entries are checked in document order (errors name the first offender).
    const keys = Object.keys(value);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k]!;
      const child: unknown = (value as Record<string, unknown>)[key];
      const holder = isSchema ? SUBSCHEMA_KEYWORDS['2019-09'].get(key) ?? (key === 'prefixItems' ? 'list' : undefined) : undefined;
      if (!scalarsCanFail && holder === undefined && (child === null || typeof child !== 'object')) continue;
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (holder === undefined) {
        stack.push([child, childPointer, jsonDepth + 1, -1]);
      } else if (holder === 'map' || holder === 'map-of-schema-or-other') {
        if (child !== null && typeof child === 'object' && !Array.isArray(child)) {
          for (const [name, sub] of Object.entries(child).reverse()) stack.push([sub, `${childPointer}/${escapePointerToken(name)}`, jsonDepth + 2, schemaDepth + 1]);
        } else {
          stack.push([child, childPointer, jsonDepth + 1, -1]);
        }
      } else if (Array.isArray(child)) {
        // Array holders: each element is a subschema one level down; mark the array itself as a position of depth+1.
        for (let i = child.length - 1; i >= 0; i--) stack.push([child[i], `${childPointer}/${i}`, jsonDepth + 2, schemaDepth + 1]);
      } else {
        stack.push([child, childPointer, jsonDepth + 1, schemaDepth + 1]);
      }
    }
  }
}
