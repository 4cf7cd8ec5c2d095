/**
 * Lowers an MCP `inputSchema` to what one provider accepts, as an ordered list of tree passes over
 * one frozen copy of the input: recursion check, root composition, the node walk (whose own
 * passes are listed in lowering/passes.ts, driven by the keyword table of lowering/table.ts), root
 * fix-ups. Passes return new schemas and record what they changed; the input is never written, and
 * every keyword of the original ends up in the loss report with its pointer.
 */
import { isJsonObject } from '../../json/json-object.js';
import { HostError } from '../host-error.js';
import type { LoweringPolicy } from '../profiles.js';
import type { LossEntry } from '../types.js';
import { cloneJson, freezeDeep, LoweringContext, thawJson } from './context.js';
import type { Json } from './context.js';
import { rejectRecursion } from './refs.js';
import { flattenRoot, rootProperties } from './root.js';
import { lowerNodes } from './walk.js';

/** The outcome of lowering one `inputSchema` under one policy. */
export interface LoweredSchema {
  schema: Json;
  /** Every keyword met and what happened to it (pointers into the original schema). */
  loss: LossEntry[];
  /** Original pointers of optional properties that strict lowering made required and nullable. */
  nullableOptional: string[];
  /** Root-level constraints that moved out of the schema; they belong in the tool description. */
  rootNotes: string[];
}

/** One pass over the whole schema: (frozen root, context) → new root, loss entries in the context. */
export interface TreePass {
  readonly name: string;
  readonly run: (cx: LoweringContext, root: Json) => Json;
}

/** The tree passes, in order. */
export const TREE_PASSES: readonly TreePass[] = [
  { name: 'reject recursion', run: rejectRecursion },
  { name: 'flatten root composition', run: flattenRoot },
  { name: 'lower every node', run: lowerNodes },
  { name: 'root properties', run: rootProperties },
];

/**
 * Lower an MCP `inputSchema` to what one provider accepts (policies: `PROFILES[p].policy(strict)`).
 * Never writes to `input`, and gives the same result for the same input and policy. Every keyword
 * of the original ends up in the loss report with its pointer. Throws HostError `invalid_tool`
 * when the schema is not an object with `"type": "object"`.
 */
export function lowerInputSchema(input: Json, policy: LoweringPolicy, toolName: string): LoweredSchema {
  if (!isJsonObject(input)) throw new HostError('invalid_tool', `tool "${toolName}": inputSchema must be a JSON Schema object`, toolName);
  if (input.type !== 'object') {
    throw new HostError('invalid_tool', `tool "${toolName}": inputSchema root must have "type": "object" (got ${JSON.stringify(input.type) ?? 'no type'})`, toolName);
  }
  const cx = new LoweringContext(input, policy);
  // One copy of the input, frozen: subschemas shared by reference become separate nodes, and no pass can write to it.
  let root = freezeDeep(cloneJson(input));
  cx.origin.set(root, '');
  for (const pass of TREE_PASSES) root = freezeDeep(pass.run(cx, root));
  // The result is the caller's to keep and change: a plain copy, not the frozen working tree.
  return { schema: thawJson(root), loss: cx.loss, nullableOptional: cx.nullable, rootNotes: cx.rootNotes };
}
