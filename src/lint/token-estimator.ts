/**
 * The lint budgets' view of token counts. Counting is the one counter, `countTextTokens`
 * (host/token-estimate.ts: OpenAI's `o200k_base`, GPT-4o and later). Other providers tokenise
 * differently (Claude and Gemini counts typically land within about ±20% for English; CJK text
 * varies more), and every provider wraps tools in its own template, so these are estimates of what
 * the definition costs, not exact billing. This module adds only the per-tool cache the budgets
 * need; the cheap byte bound (`surelyWithinTokens`) sits with the counter.
 */
import { countTextTokens } from '../host/token-estimate.js';
import type { WireTool } from './types.js';

export { surelyWithinTokens } from '../host/token-estimate.js';

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
