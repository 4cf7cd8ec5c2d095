/**
 * The HTTP headers a message needs that stdio never carries: the 2025 session's (`Mcp-Session-Id`,
 * `MCP-Protocol-Version` as negotiated), or 2026-07-28's routing headers, which the server checks
 * against the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and the `Mcp-Param-*`
 * mirrors a tool's `x-mcp-header` annotations ask for). The mirrors need the tool's schema, so the
 * relay remembers the annotations of every `tools/list` answer it passes back to the host.
 */
import { isJsonObject } from '../../json/json-object.js';
import { META } from '../../protocol/constants.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import { buildParamHeaders, encodeHeaderValue, scanHeaderAnnotations } from '../../protocol/x-mcp-header.js';
import type { HeaderAnnotation } from '../../protocol/x-mcp-header.js';

/** The 2025 session the host opened through the relay. */
export interface RelayedSession {
  /** The revision the server chose at `initialize`. */
  readonly protocolVersion: string;
  /** The server's `Mcp-Session-Id`, when it minted one. */
  readonly sessionId: string | undefined;
  /** The host's own `initialize` params, sent again if the server forgets the session. */
  readonly initializeParams: JsonObject;
}

// SEP-2663 "Routing Headers": which param each method names in Mcp-Name (as the server's headers stage reads it).
const NAME_PARAM: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

/** The headers of every request of a 2025 session. */
export function sessionHeaders(session: RelayedSession): Record<string, string> {
  return { 'MCP-Protocol-Version': session.protocolVersion, ...(session.sessionId !== undefined ? { 'Mcp-Session-Id': session.sessionId } : {}) };
}

/** The revision a 2026-07-28 message claims in its `_meta`, if any. */
export function modernVersionOf(message: JsonObject): string | undefined {
  const params = isJsonObject(message.params) ? message.params : undefined;
  const meta = params !== undefined && isJsonObject(params._meta) ? params._meta : undefined;
  const version = meta?.[META.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/** Header annotations of the tools the host has been shown, by name. */
export class ToolHeaderAnnotations {
  readonly #byName = new Map<string, readonly HeaderAnnotation[]>();

  /** Remembers the annotations of a `tools/list` result's tools (the latest page wins per name). */
  learn(result: unknown): void {
    if (!isJsonObject(result) || !Array.isArray(result.tools)) return;
    for (const tool of result.tools) {
      if (!isJsonObject(tool) || typeof tool.name !== 'string') continue;
      const { annotations } = scanHeaderAnnotations(tool.inputSchema);
      if (annotations.length > 0) this.#byName.set(tool.name, annotations);
      else this.#byName.delete(tool.name);
    }
  }

  /** The routing headers of one 2026-07-28 message. */
  modernHeaders(message: JsonObject, version: string): Record<string, string> {
    const method = typeof message.method === 'string' ? message.method : '';
    const params = isJsonObject(message.params) ? message.params : {};
    const headers: Record<string, string> = { 'MCP-Protocol-Version': version, 'Mcp-Method': method };
    const nameParam = NAME_PARAM[method];
    const name = nameParam === undefined ? undefined : params[nameParam];
    if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
    if (method === 'tools/call' && typeof name === 'string' && isJsonObject(params.arguments)) {
      const annotations = this.#byName.get(name);
      if (annotations !== undefined) Object.assign(headers, buildParamHeaders(annotations, params.arguments));
    }
    return headers;
  }
}
