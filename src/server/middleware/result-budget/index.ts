/**
 * Result budget: a tool result larger than N tokens or bytes is truncated with an explicit marker and
 * a `_meta` note, or refused (choice per tool). Tokens are counted with the project's one token
 * counter (src/host/token-estimate.ts, o200k_base), bytes as UTF-8 of the result's JSON. Only the
 * text blocks can be cut: a result over budget because of `structuredContent` or non-text blocks is
 * refused even with `truncate`, since cutting structured data would make it wrong, not shorter.
 */
import { countTextTokens, surelyWithinTokens } from '../../../host/token-estimate.js';
import type { JsonObject } from '../../../protocol/json-rpc.js';
import { toolError } from '../../outcomes.js';
import type { CallOutcome, Middleware, ToolCall } from '../middleware.js';
import { jsonBytesBound } from './json-size-bound.js';

/** Options of {@link resultBudget}. Give `maxTokens`, `maxBytes`, or both. */
export interface ResultBudgetOptions {
  maxTokens?: number;
  maxBytes?: number;
  /** `truncate` (default): cut the text and say so; `refuse`: withhold the result (an isError result explains). */
  onExceed?: 'truncate' | 'refuse';
  /** For server-wide use: which tools are budgeted (default all). */
  appliesTo?: (toolName: string) => boolean;
}

/** The `_meta` key of the truncation note. */
export const TRUNCATION_META_KEY = 'toolwright/truncated';

type Block = { type?: unknown; text?: unknown };

interface Measure {
  unit: 'tokens' | 'bytes';
  limit: number;
  size(text: string): number;
  /** True when `text` is surely within the limit without measuring exactly. */
  surelyWithin(text: string): boolean;
}

function measures(options: ResultBudgetOptions): Measure[] {
  const list: Measure[] = [];
  if (options.maxTokens !== undefined) {
    const limit = options.maxTokens;
    list.push({ unit: 'tokens', limit, size: countTextTokens, surelyWithin: (text) => surelyWithinTokens(text, limit) });
  }
  if (options.maxBytes !== undefined) {
    const limit = options.maxBytes;
    list.push({ unit: 'bytes', limit, size: (text) => Buffer.byteLength(text), surelyWithin: (text) => text.length * 3 <= limit });
  }
  return list;
}

function over(measure: Measure, text: string): boolean {
  return !measure.surelyWithin(text) && measure.size(text) > measure.limit;
}

/** `text.slice(0, n)`, one unit shorter when `n` would split a surrogate pair. */
function prefix(text: string, n: number): string {
  const last = n > 0 ? text.charCodeAt(n - 1) : 0;
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}

/**
 * The longest prefix of `text` whose result still fits, never splitting a character. Measuring a
 * candidate costs its length (tokenising it), so the search first grows the candidate by doubling
 * and only then bisects: about four times the answer's length is measured, not the whole text at
 * every step (a 4 MB text cut to a 2,000-token budget measures some 30 KB, not 22 × 4 MB).
 */
function fitPrefix(text: string, fits: (candidate: string) => boolean): string {
  let low = 0;
  let high = text.length;
  for (let probe = 64; probe < text.length; probe *= 2) {
    if (!fits(prefix(text, probe))) {
      high = probe - 1;
      break;
    }
    low = probe;
  }
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(prefix(text, mid))) low = mid;
    else high = mid - 1;
  }
  return prefix(text, low);
}

/**
 * @example
 * ```ts
 * import { defineTool, resultBudget } from 'toolwright';
 *
 * const readLog = defineTool({
 *   name: 'read_log',
 *   inputSchema: { type: 'object' },
 *   use: [resultBudget({ maxTokens: 2000 })], // a longer answer is cut, and says so
 *   run: () => 'a very long log',
 * });
 * ```
 */
export function resultBudget(options: ResultBudgetOptions): Middleware {
  for (const key of ['maxTokens', 'maxBytes'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 64)) throw new RangeError(`resultBudget: ${key} must be an integer >= 64, got ${String(value)}`);
  }
  if (options.maxTokens === undefined && options.maxBytes === undefined) throw new RangeError('resultBudget: give maxTokens, maxBytes or both');
  const onExceed = options.onExceed ?? 'truncate';
  if (onExceed !== 'truncate' && onExceed !== 'refuse') throw new RangeError(`resultBudget: onExceed must be "truncate" or "refuse", got ${JSON.stringify(onExceed)}`);
  const checks = measures(options);
  // Under every limit when even the bound is: bytes bound tokens (each token covers at least one byte).
  const smallestLimit = Math.min(...checks.map((m) => m.limit));

  return {
    name: 'result-budget',
    ...(options.appliesTo !== undefined ? { appliesTo: options.appliesTo } : {}),
    async handle(call, next) {
      const outcome = await next();
      if (outcome.kind !== 'result' || outcome.result.resultType !== 'complete') return outcome;
      const result = outcome.result;
      // The usual small result passes on a bound of its size, without its text; the rest is measured
      // apart. The text measured is {"content":…,"structuredContent":…}: 33 bytes besides the two.
      if (jsonBytesBound(result.content, smallestLimit) + jsonBytesBound(result.structuredContent, smallestLimit) + 33 <= smallestLimit) return outcome;
      return overBudget(call, outcome, result, checks, onExceed);
    },
  };
}

/**
 * A result not surely within the budget: measured exactly, then passed, withheld or truncated.
 * Apart from handle() so that the closures here cost nothing on the usual call.
 */
function overBudget(call: ToolCall, outcome: CallOutcome, result: JsonObject, checks: readonly Measure[], onExceed: 'truncate' | 'refuse'): CallOutcome {
  const measured = (r: JsonObject): string => JSON.stringify({ content: r.content, structuredContent: r.structuredContent });
  const text = measured(result);
  let exceeded: Measure | undefined;
  let original = 0;
  for (const m of checks) {
    if (m.surelyWithin(text)) continue;
    original = m.size(text);
    if (original > m.limit) {
      exceeded = m;
      break;
    }
  }
  if (exceeded === undefined) return outcome;
  const withheld = (why: string): CallOutcome => {
    call.report(`result withheld: ${original} ${exceeded.unit} over the budget of ${exceeded.limit}`);
    return {
      kind: 'result',
      outcome: 'tool-error',
      result: toolError('resultTooLarge', `The result of ${call.tool.name} was ${original} ${exceeded.unit}, over its budget of ${exceeded.limit}; it was withheld${why}. Ask for less (a narrower query or a smaller page).`),
    };
  };
  if (onExceed === 'refuse') return withheld('');
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  if (result.structuredContent !== undefined || content.some((b) => b.type !== 'text')) return withheld(' (only text can be truncated, and this result carries structured or non-text content)');
  const marker = (shown: number): Block => ({ type: 'text', text: `[truncated by toolwright: the result was ${original} ${exceeded.unit}, over the budget of ${exceeded.limit}; ${shown} of ${content.length} text block(s) shown, the last one cut]` });
  const fits = (blocks: Block[]): boolean => checks.every((m) => !over(m, measured({ content: [...blocks, marker(blocks.length)] } as JsonObject)));
  const kept: Block[] = [];
  for (const block of content) {
    if (fits([...kept, block])) {
      kept.push(block);
      continue;
    }
    const cut = fitPrefix(String(block.text), (candidate) => fits([...kept, { type: 'text', text: candidate }]));
    if (cut !== '') kept.push({ type: 'text', text: cut });
    break;
  }
  result.content = [...kept, marker(kept.length)];
  call.note(TRUNCATION_META_KEY, { unit: exceeded.unit, limit: exceeded.limit, original });
  call.report(`truncated from ${original} ${exceeded.unit} to the budget of ${exceeded.limit}`);
  return outcome;
}
