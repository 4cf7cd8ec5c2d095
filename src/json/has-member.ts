/**
 * True when some object anywhere in `root` (at any depth, inside objects and arrays) has an own
 * member named `key`. A plain scan that only pushes containers: much cheaper than a schema walk,
 * so a check for a rare keyword (`$ref`, `x-mcp-header`) can skip its pointer-tracking walk when
 * the document never mentions it. Iterative: `const` and `default` values may nest deeper than
 * any schema depth limit.
 */
export function hasMemberNamed(root: unknown, key: string): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(value, key)) return true;
    for (const name of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[name];
      if (typeof member === 'object' && member !== null) stack.push(member);
    }
  }
  return false;
}
