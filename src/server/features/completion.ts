/** Argument completion (`completion/complete`) for prompt arguments and resource template variables. */

/** What a {@link Completer} learns about the request. */
export interface CompletionRequestContext {
  /** Values the user already chose for the other arguments (`context.arguments`). */
  readonly arguments: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

/** What a completer returns: the values, or the values with `total`/`hasMore`. */
export type CompletionValue = readonly string[] | { values: readonly string[]; total?: number; hasMore?: boolean };

/** Suggests values for one argument given what the user typed so far. */
export type Completer = (value: string, context: CompletionRequestContext) => CompletionValue | Promise<CompletionValue>;

/** The spec caps one completion response at 100 values. */
export const MAX_COMPLETION_VALUES = 100;

/**
 * A completer over a fixed list: values starting with the typed prefix (case-insensitive), in
 * list order.
 * @example
 * ```ts
 * import { completeFrom, definePrompt, text } from 'toolwright';
 *
 * const weather = definePrompt({
 *   name: 'weather',
 *   arguments: [{ name: 'city', required: true, complete: completeFrom(['paris', 'park', 'party']) }],
 *   get: ({ city }) => [{ role: 'user', content: text(`What is the weather in ${city}?`) }],
 * });
 * ```
 */
export function completeFrom(values: readonly string[]): Completer {
  const list = [...values];
  return (typed) => {
    const prefix = typed.toLowerCase();
    return list.filter((v) => v.toLowerCase().startsWith(prefix));
  };
}

/** Normalises a completer's answer to the wire shape, cutting at 100 values. */
export function toCompletion(value: CompletionValue): { values: string[]; total?: number; hasMore?: boolean } {
  const values = Array.isArray(value) ? (value as readonly string[]) : (value as { values: readonly string[] }).values;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) throw new TypeError('a completer must return strings');
  const out: { values: string[]; total?: number; hasMore?: boolean } = { values: values.slice(0, MAX_COMPLETION_VALUES) };
  if (!Array.isArray(value)) {
    const { total, hasMore } = value as { total?: number; hasMore?: boolean };
    if (total !== undefined) out.total = total;
    if (hasMore !== undefined) out.hasMore = hasMore;
  }
  if (values.length > MAX_COMPLETION_VALUES) {
    out.hasMore = true;
    out.total ??= values.length;
  }
  return out;
}
