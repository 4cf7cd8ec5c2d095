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
