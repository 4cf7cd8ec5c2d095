import { isJsonObject } from '../json/json-object.js';


/** One safe rewrite applied to one tool. */
export interface AppliedFix {
  toolIndex: number;
  tool: string;
  ruleId: string;
  /** What was changed, in one line. */
  change: string;
}

/** Result of {@link applySafeFixes}: a rewritten copy of the catalog and what changed. */
export interface FixOutcome {
  tools: unknown[];
  fixes: AppliedFix[];
}

const NO_PARAM_KEYS = new Set(['type', 'properties', '$schema', 'title', 'description', '$id', '$comment']);

/**
 * Only rewrites that cannot change what a correct caller sends or receives:
 * - `inputSchema: {}` becomes `{"type":"object","additionalProperties":false}`: the tool declares
 *   no parameters, so the only argument object a correct caller sends is `{}`;
 * - `{"type":"object"}` (optionally with empty `properties`) and nothing that constrains gets
 *   `"additionalProperties": false`, for the same reason.
 * Everything else (descriptions, names, required lists, ranges) needs a human: it changes meaning.
 * The input is not modified.
 */
export function applySafeFixes(tools: readonly unknown[]): FixOutcome {
  const fixes: AppliedFix[] = [];
  const rewritten = tools.map((entry, index) => {
    if (!isJsonObject(entry) || !isJsonObject(entry.inputSchema)) return entry;
    const schema = entry.inputSchema;
    const name = typeof entry.name === 'string' ? entry.name : `#${index}`;
    const keys = Object.keys(schema);
    if (keys.length === 0) {
      fixes.push({ toolIndex: index, tool: name, ruleId: 'spec/no-params-closed', change: 'inputSchema {} → {"type":"object","additionalProperties":false}' });
      return { ...entry, inputSchema: { type: 'object', additionalProperties: false } };
    }
    const emptyProperties = schema.properties === undefined || (isJsonObject(schema.properties) && Object.keys(schema.properties).length === 0);
    if (schema.type === 'object' && emptyProperties && keys.every((k) => NO_PARAM_KEYS.has(k))) {
      fixes.push({ toolIndex: index, tool: name, ruleId: 'spec/no-params-closed', change: 'added "additionalProperties": false to a parameterless inputSchema' });
      return { ...entry, inputSchema: { ...schema, additionalProperties: false } };
    }
    return entry;
  });
  return { tools: rewritten, fixes };
}

/**
 * A unified diff of two texts (line based, longest common subsequence, 3 lines of context).
 * Enough for showing `--fix` changes to tool definitions, which are small.
 */
export function unifiedDiff(before: string, after: string, fromLabel: string, toLabel: string): string {
  if (before === after) return '';
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Array<{ kind: ' ' | '-' | '+'; text: string; ai: number; bi: number }> = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { ops.push({ kind: ' ', text: a[i]!, ai: i, bi: j }); i++; j++; }
    // Deletions before insertions on ties, as diff(1) prints them.
    else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) { ops.push({ kind: '-', text: a[i]!, ai: i, bi: j }); i++; }
    else { ops.push({ kind: '+', text: b[j]!, ai: i, bi: j }); j++; }
  }
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  const context = 3;
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.kind === ' ') { k++; continue; }
    let start = Math.max(0, k - context);
    let end = k;
    // Extend the hunk while changes are within 2*context lines of each other.
    for (let last = k; end < ops.length; end++) {
      if (ops[end]!.kind !== ' ') last = end;
      else if (end - last > context * 2) break;
    }
    let lastChange = end - 1;
    while (lastChange > k && ops[lastChange]!.kind === ' ') lastChange--;
    end = Math.min(ops.length, lastChange + 1 + context);
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.ai + 1;
    const bStart = hunk[0]!.bi + 1;
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.text}`);
    k = end;
    start = end;
  }
  return `${out.join('\n')}\n`;
}
