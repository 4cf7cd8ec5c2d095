/**
 * The node passes of the lowering, in the order they run on each node the walk reaches (before
 * the walker reads its subschemas, so they are lowered from what this node became). Each pass is
 * a function (frozen node, what is known about it) → new node, recording its loss entries in the
 * context; `applies` says whether the provider's policy calls for it at all.
 */
import type { Dialect } from '../../schema/index.js';
import type { LoweringPolicy } from '../profiles.js';
import { constAsEnum, draft07Tuple, hoistNullBranch, inferType, mergeAllOfs, oneOfAsAnyOf, openApiType, prefixItemsAsAnyOf } from './compose.js';
import { freezeDeep } from './context.js';
import type { Json, LoweringContext, NodeAt } from './context.js';
import { arrayWithoutItems, judgeKeywords, objectRules } from './keywords.js';
import { handleRef } from './refs.js';

/** One node pass. */
export interface NodePass {
  readonly name: string;
  readonly applies: (policy: LoweringPolicy, dialect: Dialect) => boolean;
  /** The lowered node, or undefined when the node is rejected as it stands (its subschemas are left as they are). */
  readonly run: (cx: LoweringContext, schema: Json, at: NodeAt) => Json | undefined;
}

const always = (): boolean => true;

/** Every node pass, in order. */
export const NODE_PASSES: readonly NodePass[] = [
  {
    name: 'resolve $ref', applies: always,
    run: (cx, schema, at) => {
      if (typeof schema.$ref !== 'string') return schema;
      const lowered = handleRef(cx, schema, at.pointer);
      at.pointer = lowered.pointer;
      return lowered.schema;
    },
  },
  {
    // Where each subschema came from, before the next passes merge, rename or move them.
    name: 'register origins', applies: always,
    run: (cx, schema, at) => { cx.registerChildren(schema, at.pointer); return schema; },
  },
  { name: 'draft-07 tuple items', applies: (_policy, dialect) => dialect === 'draft-07', run: (_cx, schema, at) => draft07Tuple(schema, at) },
  { name: 'merge allOf', applies: (policy) => policy.mergeAllOf, run: (cx, schema, at) => mergeAllOfs(cx, schema, at.pointer, at.notes) },
  { name: 'oneOf as anyOf', applies: (policy) => policy.oneOfAsAnyOf, run: (cx, schema, at) => oneOfAsAnyOf(cx, schema, at.pointer, at.notes) },
  { name: 'null branch as nullable', applies: (policy) => policy.openApiTypes, run: (cx, schema, at) => hoistNullBranch(cx, schema, at) },
  { name: 'prefixItems as anyOf', applies: (policy) => policy.prefixItemsAsAnyOf, run: (cx, schema, at) => prefixItemsAsAnyOf(cx, schema, at) },
  { name: 'const as enum', applies: (policy) => policy.constAsEnum, run: (cx, schema, at) => constAsEnum(cx, schema, at.pointer) },
  { name: 'explicit type', applies: (policy) => policy.strictObjects || policy.openApiTypes, run: (cx, schema, at) => inferType(cx, schema, at.pointer) },
  { name: 'judge keywords', applies: always, run: (cx, schema, at) => judgeKeywords(cx, schema, at) },
  { name: 'OpenAPI type', applies: (policy) => policy.openApiTypes, run: (cx, schema, at) => openApiType(cx, schema, at.pointer) },
  { name: 'object rules', applies: always, run: (cx, schema, at) => objectRules(cx, schema, at) },
  { name: 'array items', applies: always, run: (cx, schema, at) => arrayWithoutItems(cx, schema, at.pointer) },
  { name: 'notes into the description', applies: always, run: (cx, schema, at) => writeNotes(cx, schema, at) },
];

/** What the passes moved out of the node: in its description, or at the root in the tool description. */
function writeNotes(cx: LoweringContext, schema: Json, at: NodeAt): Json {
  if (at.notes.length === 0) return schema;
  if (at.depth === 0) {
    cx.rootNotes.push(`Also required (checked by the server): ${at.notes.join('; ')}`);
    return schema;
  }
  const description = typeof schema.description === 'string' && schema.description.length > 0
    ? `${schema.description} (${at.notes.join('; ')})` : `(${at.notes.join('; ')})`;
  return { ...schema, description };
}

/**
 * Run the passes that apply on one node. Every node a pass receives is deep-frozen, so a pass
 * that writes to its input fails at once instead of changing what another pass reads.
 */
export function lowerNode(cx: LoweringContext, node: Json, at: NodeAt): { schema: Json; rejected: boolean } {
  let schema = freezeDeep(node);
  for (const pass of NODE_PASSES) {
    if (!pass.applies(cx.policy, cx.dialect)) continue;
    const next = pass.run(cx, schema, at);
    if (next === undefined) return { schema, rejected: true };
    schema = freezeDeep(next);
  }
  return { schema, rejected: false };
}
