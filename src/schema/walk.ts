import { dialectOfUri } from './dialect.js';
import { escapePointerToken } from './pointer.js';
import type { Dialect } from './types.js';

/** One subschema met by {@link walkSchema}. */
export interface SchemaVisit {
  schema: object | boolean;
  /** JSON pointer from the root, e.g. "/properties/target_position/properties/x" ("" = root). */
  pointer: string;
  /** Keyword holding this subschema, e.g. "properties" (undefined for the root). */
  keyword: string | undefined;
  /** Subschema nesting depth, root = 0. */
  depth: number;
  parent: SchemaVisit | undefined;
}

/** How a keyword holds subschemas. */
/** How a keyword holds its subschemas: one schema, a map of them, a list, one or a list, or a map whose values may be schemas. */
export type Holder = 'one' | 'map' | 'list' | 'one-or-list' | 'map-of-schema-or-other';

const COMMON: ReadonlyArray<[string, Holder]> = [
  ['$defs', 'map'], ['definitions', 'map'],
  ['allOf', 'list'], ['anyOf', 'list'], ['oneOf', 'list'], ['not', 'one'],
  ['if', 'one'], ['then', 'one'], ['else', 'one'],
  ['properties', 'map'], ['patternProperties', 'map'], ['additionalProperties', 'one'],
  ['propertyNames', 'one'], ['contains', 'one'], ['dependencies', 'map-of-schema-or-other'],
];

/** Subschema-holding keywords of each dialect, in the order children are visited. */
export const SUBSCHEMA_KEYWORDS: Readonly<Record<Dialect, ReadonlyMap<string, Holder>>> = {
  '2020-12': new Map([...COMMON, ['prefixItems', 'list'], ['items', 'one-or-list'], ['dependentSchemas', 'map'],
    ['unevaluatedItems', 'one'], ['unevaluatedProperties', 'one'], ['contentSchema', 'one']]),
  '2019-09': new Map([...COMMON, ['items', 'one-or-list'], ['additionalItems', 'one'], ['dependentSchemas', 'map'],
    ['unevaluatedItems', 'one'], ['unevaluatedProperties', 'one'], ['contentSchema', 'one']]),
  'draft-07': new Map([...COMMON, ['items', 'one-or-list'], ['additionalItems', 'one']]),
};

function isSchema(value: unknown): value is object | boolean {
  return typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value));
}

interface Pending { visit: SchemaVisit; dialect: Dialect }

/**
 * Visit every subschema of `root` in pre-order (children in a fixed keyword order, map entries in
 * document order). Returning 'skip' from `visit`
 * stops descent below that node. Knows which keywords hold subschemas in each dialect (default:
 * the root's `$schema`, else 2020-12), switches
 * dialect at an embedded resource that declares its own supported `$schema`, and never follows
 * `$ref`. Iterative, so any depth is safe. The subschemas of a node are read from `node.schema`
 * once `visit` returns, so a visitor may set `node.schema` to a rewritten node and the walk goes
 * on into the rewritten node's subschemas (the host lowering's passes rely on this).
 */
export function walkSchema(root: object | boolean, visit: (node: SchemaVisit) => void | 'skip', options?: { dialect?: Dialect }): void {
  // Without an explicit dialect, the root's own supported `$schema` decides (else 2020-12).
  const declared = typeof root === 'object' && root !== null && typeof (root as { $schema?: unknown }).$schema === 'string'
    ? dialectOfUri((root as { $schema: string }).$schema) : undefined;
  const stack: Pending[] = [{ visit: { schema: root, pointer: '', keyword: undefined, depth: 0, parent: undefined }, dialect: options?.dialect ?? declared ?? '2020-12' }];
  while (stack.length > 0) {
    const { visit: node, dialect: inherited } = stack.pop()!;
    if (visit(node) === 'skip' || typeof node.schema === 'boolean') continue;
    const schema = node.schema as Record<string, unknown>;
    let dialect = inherited;
    if (node.depth > 0 && typeof schema.$schema === 'string') dialect = dialectOfUri(schema.$schema) ?? dialect;
    const children: SchemaVisit[] = [];
    const add = (value: unknown, pointer: string, keyword: string): void => {
      if (isSchema(value)) children.push({ schema: value, pointer, keyword, depth: node.depth + 1, parent: node });
    };
    for (const [keyword, holder] of SUBSCHEMA_KEYWORDS[dialect]) {
      if (!Object.prototype.hasOwnProperty.call(schema, keyword)) continue;
      const value = schema[keyword];
      const base = `${node.pointer}/${escapePointerToken(keyword)}`;
      if (holder === 'one' || (holder === 'one-or-list' && !Array.isArray(value))) {
        add(value, base, keyword);
      } else if (holder === 'list' || holder === 'one-or-list') {
        if (Array.isArray(value)) value.forEach((item, index) => add(item, `${base}/${index}`, keyword));
      } else if (isSchema(value) && typeof value === 'object') {
        for (const [name, sub] of Object.entries(value)) {
          // draft-07 "dependencies" maps a name to a schema or to a list of required names; only the former descends.
          add(sub, `${base}/${escapePointerToken(name)}`, keyword);
        }
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ visit: children[i]!, dialect });
  }
}
