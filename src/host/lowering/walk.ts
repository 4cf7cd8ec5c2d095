/**
 * The node walk of the lowering: the project's schema walker visits every subschema of the
 * (frozen) root in pre-order; each visited node is replaced by what the node passes make of it
 * before the walker reads its subschemas. The lowered tree is then put together bottom-up from
 * new objects: no node, of the input or of the working copy, is ever written.
 */
import { escapePointerToken, unescapePointerToken, walkSchema } from '../../schema/index.js';
import type { SchemaVisit } from '../../schema/index.js';
import type { Json, LoweringContext } from './context.js';
import { lowerNode } from './passes.js';

/** Tree pass: every subschema lowered by the node passes (lowering/passes.ts). */
export function lowerNodes(cx: LoweringContext, root: Json): Json {
  const visits: SchemaVisit[] = [];
  walkSchema(root, (node) => {
    visits.push(node);
    if (typeof node.schema === 'boolean') {
      judgeBoolean(cx, node);
      return undefined;
    }
    const schema = node.schema as Json;
    if (cx.synthetic.has(schema)) {
      // Made by a pass from parts already judged: only their origins are needed.
      cx.registerChildren(schema, cx.origin.get(schema) ?? node.pointer);
      return undefined;
    }
    const lowered = lowerNode(cx, schema, { pointer: cx.originOf(node), depth: node.depth, notes: [], tuple: false, added: new Set() });
    // walkSchema reads the subschemas of `node.schema` once this visitor returns (see its JSDoc).
    // The lowered node keeps the origin of the visited one, which its subschemas' origins build on.
    node.schema = cx.derive(lowered.schema, schema);
    return lowered.rejected ? 'skip' : undefined;
  }, { dialect: cx.dialect });
  return assemble(visits) as Json;
}

function judgeBoolean(cx: LoweringContext, node: SchemaVisit): void {
  if (node.schema !== true || !cx.policy.strictObjects) return;
  if (node.keyword === 'additionalProperties' || node.keyword === 'unevaluatedProperties' || node.keyword === 'unevaluatedItems') return;
  cx.record(cx.originOf(node), '(true schema)', 'rejected', 'a `true` schema (any value) has no type; strict mode needs one');
}

/**
 * The lowered tree from the visits (pre-order, so every subschema comes after its parent): from
 * the last visit back, each lowered subschema is put into a copy of its parent (and of the
 * parent's `properties` map or list), made only where a subschema changed.
 */
function assemble(visits: readonly SchemaVisit[]): unknown {
  const built = new Map<SchemaVisit, Json>();
  const fresh = new WeakSet<object>();
  const valueOf = (visit: SchemaVisit): unknown => built.get(visit) ?? visit.schema;
  for (let i = visits.length - 1; i > 0; i--) {
    const child = visits[i]!;
    const parent = child.parent!;
    const keyword = child.keyword!;
    const value = valueOf(child);
    const current = valueOf(parent) as Json;
    const tail = child.pointer.slice(parent.pointer.length + 1 + escapePointerToken(keyword).length);
    const slot = tail === '' ? undefined : unescapePointerToken(tail.slice(1));
    const holder = current[keyword] as Record<string, unknown> | unknown[];
    const inSlot = slot === undefined ? holder : Array.isArray(holder) ? holder[Number(slot)] : holder[slot];
    if (inSlot === value) continue;
    let own = built.get(parent);
    if (own === undefined) {
      own = { ...current };
      built.set(parent, own);
    }
    if (slot === undefined) {
      own[keyword] = value;
      continue;
    }
    let container = own[keyword] as Record<string, unknown> | unknown[];
    if (!fresh.has(container)) {
      container = Array.isArray(container) ? [...container] : { ...container };
      fresh.add(container);
      own[keyword] = container;
    }
    if (Array.isArray(container)) container[Number(slot)] = value; else container[slot] = value;
  }
  return visits.length > 0 ? valueOf(visits[0]!) : undefined;
}
