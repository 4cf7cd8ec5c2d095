import { HostError } from './host-error.js';
import { repairArguments } from './repair-arguments.js';
import type { ArgumentRepair } from './repair-arguments.js';
import type { MappedCatalog } from './types.js';

/** A model's tool call, turned back into an MCP `tools/call`. */
export interface ResolvedToolCall {
  /** The MCP tool name to call. */
  name: string;
  /** The repaired arguments to send (the server validates them again). */
  arguments: unknown;
  repairs: ArgumentRepair[];
}

/**
 * Map a tool call the model made (provider-facing name + raw arguments, text or parsed) back to
 * the MCP tool and repaired arguments. Throws HostError `unknown_tool` when the model named a tool
 * that was not offered.
 */
export function resolveToolCall(catalog: MappedCatalog, providerName: string, modelArgs: unknown): ResolvedToolCall {
  const mapped = catalog.tools.find((t) => t.providerName === providerName);
  if (!mapped) {
    const offered = catalog.tools.map((t) => t.providerName);
    throw new HostError('unknown_tool', `the model called ${JSON.stringify(providerName)}, which was not offered (offered: ${offered.length > 0 ? offered.join(', ') : 'none'})`);
  }
  const { value, repairs } = repairArguments(mapped.tool, modelArgs, mapped);
  return { name: mapped.mcpName, arguments: value, repairs };
}
