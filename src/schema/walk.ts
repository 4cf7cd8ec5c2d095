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

// The walk runs several times per tool in a lint of thousands of tools, mostly before V8 has
// optimised it: the keyword table as plain arrays (with each keyword's pointer suffix made once)
// is much cheaper to scan per node than iterating the Map.
interface KeywordEntry { keyword: string; holder: Holder; suffix: string }
const KEYWORD_TABLES: Readonly<Record<Dialect, readonly KeywordEntry[]>> = {
  '2020-12': keywordTable('2020-12'), '2019-09': keywordTable('2019-09'), 'draft-07': keywordTable('draft-07'),
};
function keywordTable(dialect: Dialect): KeywordEntry[] {
  return [...SUBSCHEMA_KEYWORDS[dialect]].map(([keyword, holder]) => ({ keyword, holder, suffix: `/${escapePointerToken(keyword)}` }));
}
const hasOwn = Object.prototype.hasOwnProperty;

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
  const children: SchemaVisit[] = [];
  while (stack.length > 0) {
    const { visit: node, dialect: inherited } = stack.pop()!;
    if (visit(node) === 'skip' || typeof node.schema === 'boolean') continue;
    const schema = node.schema as Record<string, unknown>;
    let dialect = inherited;
    if (node.depth > 0 && typeof schema.$schema === 'string') dialect = dialectOfUri(schema.$schema) ?? dialect;
    const depth = node.depth + 1;
    children.length = 0;
    const table = KEYWORD_TABLES[dialect];
    for (let k = 0; k < table.length; k++) {
      const { keyword, holder, suffix } = table[k]!;
      if (!hasOwn.call(schema, keyword)) continue;
      const value = schema[keyword];
      const base = node.pointer + suffix;
      if (holder === 'one' || (holder === 'one-or-list' && !Array.isArray(value))) {
        if (isSchema(value)) children.push({ schema: value, pointer: base, keyword, depth, parent: node });
      } else if (holder === 'list' || holder === 'one-or-list') {
        if (Array.isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            const item: unknown = value[index];
            if (isSchema(item)) children.push({ schema: item, pointer: `${base}/${index}`, keyword, depth, parent: node });
          }
        }
      } else if (isSchema(value) && typeof value === 'object') {
        for (const name of Object.keys(value)) {
          // draft-07 "dependencies" maps a name to a schema or to a list of required names; only the former descends.
          const sub: unknown = (value as Record<string, unknown>)[name];
          if (isSchema(sub)) children.push({ schema: sub, pointer: `${base}/${escapePointerToken(name)}`, keyword, depth, parent: node });
        }
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ visit: children[i]!, dialect });
  }
}
