/**
 * Translation between the 2025 revisions and the 2026-07-28 pipeline (digest §1.4, §1.5): what an
 * `InitializeResult` states, how a 2026-07-28 result reads as a 2025 one, and how an input request
 * becomes a server-to-client request. Pure functions; the session wire (session.ts) calls
 * them.
 */
import { META } from '../../protocol/constants.js';
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { Implementation, ServerCapabilities } from '../../protocol/wire-types.js';
import { SERVER_LEGACY_PROTOCOL_VERSIONS } from '../../protocol/versions.js';

/** The revision to answer `initialize` with: the requested one when served, else the newest (2025-11-25 lifecycle). */
export function negotiateLegacyVersion(requested: string): string {
  return SERVER_LEGACY_PROTOCOL_VERSIONS.includes(requested) ? requested : (SERVER_LEGACY_PROTOCOL_VERSIONS[0] as string);
}

/** Capabilities as a 2025 `InitializeResult` states them (only what the legacy wire delivers). */
export function legacyCapabilities(modern: ServerCapabilities): JsonObject {
  const out: JsonObject = {};
  if (modern.tools !== undefined) out.tools = { ...modern.tools };
  if (modern.prompts !== undefined) out.prompts = { ...modern.prompts };
  // Subscriptions are session state the legacy wire keeps itself; updates arrive when the server calls notifyResourceUpdated().
  if (modern.resources !== undefined) out.resources = { ...modern.resources, subscribe: true };
  if (modern.logging !== undefined) out.logging = {};
  if (modern.completions !== undefined) out.completions = {};
  return out;
}

// Fields each revision defines; the rest are dropped so a result reads exactly as that revision's type.
const IMPLEMENTATION_FIELDS: Readonly<Record<string, readonly string[]>> = {
  '2025-03-26': ['name', 'version'],
  '2025-06-18': ['name', 'title', 'version'],
};
const TOOL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  '2025-03-26': ['name', 'description', 'inputSchema', 'annotations'],
  '2025-06-18': ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'],
};

function pick(value: JsonObject, fields: readonly string[] | undefined): JsonObject {
  if (fields === undefined) return value;
  const out: JsonObject = {};
  for (const field of fields) if (value[field] !== undefined) out[field] = value[field];
  return out;
}

/** `serverInfo` for `revision`. */
export function legacyServerInfo(info: Implementation, revision: string): JsonObject {
  return pick(info as unknown as JsonObject, IMPLEMENTATION_FIELDS[revision]);
}

/**
 * Strips what exists only on the 2026-07-28 wire (`resultType`, `ttlMs`, `cacheScope`, the
 * reserved `_meta` keys) and what `revision` does not define (2025-03-26 has no structured content
 * and no tool titles or output schemas).
 */
export function toLegacyResult(method: string, result: JsonObject, revision: string): JsonObject {
  // A copy without the 2026-07-28 members, key by key and in the result's order: a rest
  // destructuring and `delete` (which turns the copy into a slow dictionary) cost several times
  // more, once per translated call.
  const dropStructured = method === 'tools/call' && revision === '2025-03-26';
  const rest: JsonObject = {};
  for (const key in result) {
    if (key === 'resultType' || key === 'ttlMs' || key === 'cacheScope' || !Object.hasOwn(result, key)) continue;
    if (key === 'structuredContent' && dropStructured) continue;
    const value = result[key];
    if (key === '_meta' && isJsonObject(value)) {
      const meta = withoutReservedMeta(value);
      if (meta !== undefined) rest._meta = meta;
      continue;
    }
    rest[key] = value;
  }
  if (method === 'tools/list' && Array.isArray(rest.tools) && TOOL_FIELDS[revision] !== undefined) {
    rest.tools = rest.tools.map((tool: unknown) => (isJsonObject(tool) ? pick(tool, TOOL_FIELDS[revision]) : tool));
  }
  return rest;
}

/** `_meta` without the keys only the 2026-07-28 wire has; undefined when nothing else is left. */
function withoutReservedMeta(meta: JsonObject): JsonObject | undefined {
  let kept: JsonObject | undefined;
  for (const key in meta) {
    if (key === META.serverInfo || key === META.subscriptionId || !Object.hasOwn(meta, key)) continue;
    (kept ??= {})[key] = meta[key];
  }
  return kept;
}

/**
 * An input request (`elicitation/create`, `sampling/createMessage`, `roots/list`) as the params of
 * a 2025 server-to-client request: 2025-06-18 elicitation has no `mode` (form is the only one).
 */
export function legacyRequestParams(method: string, params: JsonObject, revision: string): JsonObject {
  if (method === 'elicitation/create' && revision !== '2025-11-25' && params.mode === 'form') {
    const { mode: _mode, ...rest } = params;
    return rest;
  }
  return params;
}
