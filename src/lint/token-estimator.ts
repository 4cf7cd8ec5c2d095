/**
 * The lint budgets' view of token counts. Counting is the one counter, `countTextTokens`
 * (host/token-estimate.ts: OpenAI's `o200k_base`, GPT-4o and later). Other providers tokenise
 * differently (Claude and Gemini counts typically land within about ±20% for English; CJK text
 * varies more), and every provider wraps tools in its own template, so these are estimates of what
 * the definition costs, not exact billing. This module adds only the cheap byte bound and the
 * per-tool cache the budgets need.
 */
import { countTextTokens } from '../host/token-estimate.js';
import type { WireTool } from './types.js';

/**
 * True when `text` certainly has at most `max` tokens, decided without tokenising: every BPE token
 * covers at least one UTF-8 byte, so the byte count bounds the token count. Most descriptions are
 * far inside their budget, and counting their tokens was a large part of a lint.
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
 * What a whole tool costs: the compact JSON of the parts a host forwards to a model
 * (`name`, `description`, `inputSchema`). `outputSchema`, `annotations` and `_meta` are not
 * usually shown to the model and are left out.
 */
export function estimateToolTokens(tool: WireTool): number {
  let tokens = perTool.get(tool);
  if (tokens === undefined) {
    tokens = countTextTokens(JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
    perTool.set(tool, tokens);
  }
  return tokens;
}

// The per-tool and the catalog budget both need every tool's count; tokenising is the costly part.
const perTool = new WeakMap<object, number>();
