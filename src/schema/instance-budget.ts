import { escapePointerToken } from './pointer.js';
import type { SchemaError } from './types.js';

/**
 * The validation budget: before any engine sees an instance, one iterative pass (no recursion, so
 * a 174,000-level object is measured without a stack overflow) checks that it is small enough to
 * validate in bounded time and is JSON at all. Validation work is at most (instance nodes × schema
 * nodes), and schema nodes are bounded at compile time, so bounding the instance bounds the work.
 * A non-finite number (JSON.parse turns `1e400` into Infinity) is not a JSON number: no `type`
 * accepts it, wherever it sits, since a handler given it would answer `null` in its place.
 */
export interface InstanceBudget {
  /** Most values (objects, arrays and primitives) one instance may hold. */
  maxNodes: number;
  /** Deepest nesting of objects/arrays (root = 0). */
  maxDepth: number;
}

/** The instance is refused: over budget, or holding a value JSON cannot represent. */
export function checkInstanceBudget(instance: unknown, budget: InstanceBudget): SchemaError | undefined {
  if (typeof instance === 'number') return Number.isFinite(instance) ? undefined : nonFinite('', instance);
  if (typeof instance !== 'object' || instance === null) return undefined;
  const values: unknown[] = [instance];
  const depths: number[] = [0];
  let nodes = 0;
  let badNumber = false;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (++nodes > budget.maxNodes) return refusal(`value has more than ${budget.maxNodes} nodes (objects, arrays and primitives): too large to validate within the budget`);
    if (typeof value === 'number') { if (!Number.isFinite(value)) badNumber = true; continue; }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= budget.maxDepth) return refusal(`value is nested deeper than ${budget.maxDepth} levels: too deep to validate within the budget`);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) { values.push(value[i]); depths.push(depth + 1); }
    } else {
      for (const key in value) {
        if (Object.prototype.hasOwnProperty.call(value, key)) { values.push((value as Record<string, unknown>)[key]); depths.push(depth + 1); }
      }
    }
  }
  return badNumber ? findNonFinite(instance) : undefined;
}

function refusal(why: string): SchemaError {
  return { instancePath: '', keyword: 'budget', message: `/: ${why}`, schemaPath: '#' };
}

function nonFinite(instancePath: string, value: number): SchemaError {
  const what = Number.isNaN(value) ? 'NaN' : `a number too large for a double (read as ${String(value)})`;
  return { instancePath, keyword: 'type', message: `${instancePath === '' ? '/' : instancePath}: expected a finite JSON number, got ${what}`, schemaPath: '#' };
}

/** Second pass, only when a non-finite number exists: find the first one with its path. */
function findNonFinite(instance: unknown): SchemaError | undefined {
  const stack: Array<[unknown, string]> = [[instance, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'number' && !Number.isFinite(value)) return nonFinite(path, value);
    if (typeof value !== 'object' || value === null) continue;
    const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], `${path}/${escapePointerToken(entries[i]![0])}`]);
  }
  return undefined;
}

/** Nesting a recursive count may follow before it hands over to the iterative pass (stack safety). */
const RECURSION_LIMIT = 200;

/**
 * The budget's count, folded into a traversal that is already under way: `nodes` is the count so
 * far (with `value` itself counted), `depth` is the nesting of `value`. Returns the new count, or
 * -1 when the instance must go to {@link checkInstanceBudget} for its refusal: a bound is broken, a
 * number is not finite, or the nesting is too deep to follow recursively (then the iterative pass
 * decides). Recursive and allocation-free, so ordinary instances cost a few comparisons a value.
 */
export function countBelow(value: unknown, depth: number, nodes: number, budget: InstanceBudget): number {
  if (typeof value === 'number') return value - value === 0 ? nodes : -1; // NaN and ±Infinity fail x - x === 0
  if (typeof value !== 'object' || value === null) return nodes;
  if (depth >= budget.maxDepth || depth >= RECURSION_LIMIT) return -1;
  if (Array.isArray(value)) {
    nodes += value.length;
    if (nodes > budget.maxNodes) return -1;
    for (let i = 0; i < value.length && nodes !== -1; i++) nodes = countBelow(value[i], depth + 1, nodes, budget);
    return nodes;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (++nodes > budget.maxNodes) return -1;
    nodes = countBelow((value as Record<string, unknown>)[key], depth + 1, nodes, budget);
    if (nodes === -1) return -1;
  }
  return nodes;
}

/**
 * The budget check before an engine runs: the allocation-free count first, and only when it finds
 * a problem the exact pass that names it (so the refusal's text never depends on which ran).
 */
export function instanceRefusal(instance: unknown, budget: InstanceBudget): SchemaError | undefined {
  return countBelow(instance, 0, 1, budget) === -1 ? checkInstanceBudget(instance, budget) : undefined;
}
