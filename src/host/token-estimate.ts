import { createRequire } from 'node:module';

type CountTokens = typeof import('gpt-tokenizer/encoding/o200k_base').countTokens;

// Loaded on first use, never at import: the o200k_base tables cost seconds of start-up and ~70 MB
// of memory, and a server imports this module (through the result-budget middleware) whether or
// not any tool ever counts a token. Same lazy pattern as src/schema/lazy-deps.ts.
const requireLazily = createRequire(import.meta.url);
let countTokens: CountTokens | undefined;
function tokenizer(): CountTokens {
  countTokens ??= (requireLazily('gpt-tokenizer/encoding/o200k_base') as { countTokens: CountTokens }).countTokens;
  return countTokens;
}

// Tool text is untrusted: a description may contain "<|endoftext|>" or another special-token
// spelling, which gpt-tokenizer refuses by default (it throws). Counted as the plain text it is.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Tokens in a piece of text under OpenAI's `o200k_base` encoding (GPT-4o and later), via
 * gpt-tokenizer. Special-token spellings in the text count as ordinary text, never throw.
 *
 * @example
 * ```ts
 * import { countTextTokens } from 'toolwright/host';
 * countTextTokens('Grip force in newtons'); // a small positive number
 * ```
 */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : tokenizer()(text, PLAIN_TEXT);
}

/**
 * True when `text` certainly has at most `max` tokens, decided without tokenising: every BPE token
 * covers at least one UTF-8 byte, so the byte count bounds the token count. Most texts are far
 * inside their budget, and tokenising them is the costly part of a budget check.
 */
export function surelyWithinTokens(text: string, max: number): boolean {
  if (text.length > max) return false;
  let bytes = 0;
  // An upper bound on the UTF-8 length (a surrogate pair counts 6 where it takes 4).
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
  }
  return bytes <= max;
}

/**
 * Estimated tokens for a piece of provider JSON: the o200k_base BPE count (the tokenizer of
 * GPT-4o and later OpenAI models, via gpt-tokenizer) of its compact JSON text. Providers render
 * tool definitions into the prompt in their own way and add a fixed tool-use preamble (about 346
 * tokens for Anthropic), so treat it as an estimate for comparing tools and budgets, not a bill.
 */
export function estimateTokens(json: unknown): number {
  return countTextTokens(JSON.stringify(json));
}
