import { countTokens } from 'gpt-tokenizer';

/**
 * Estimated tokens for a piece of provider JSON: the o200k_base BPE count (the tokenizer of
 * GPT-4o and later OpenAI models, via gpt-tokenizer) of its compact JSON text. Providers render
 * tool definitions into the prompt in their own way and add a fixed tool-use preamble (about 346
 * tokens for Anthropic), so treat it as an estimate for comparing tools and budgets, not a bill.
 */
export function estimateTokens(json: unknown): number {
  return countTokens(JSON.stringify(json));
}
