import { isJsonObject } from '../../../json/json-object.js';
import { isScopeToken, TOOL_SCOPES_META_KEY } from '../../../protocol/scope-token.js';
import { childPointer } from '../../tool-view.js';
import type { ToolView } from '../../types.js';

/** Pointer of a tool's advertised scopes: `/_meta/dev.toolwright~1scopes`. */
export const SCOPES_POINTER = childPointer('/_meta', TOOL_SCOPES_META_KEY);

/**
 * What a tool declares under `_meta["dev.toolwright/scopes"]` (where `defineTool` advertises its
 * `scopes`): the raw value, or undefined when the tool declares none.
 */
export function declaredScopesValue(tool: ToolView): unknown {
  const meta = tool.descriptor._meta;
  return isJsonObject(meta) ? meta[TOOL_SCOPES_META_KEY] : undefined;
}

/** The valid scope tokens a tool requires (empty when it requires none or declares garbage). */
export function requiredScopes(tool: ToolView): string[] {
  const value = declaredScopesValue(tool);
  return Array.isArray(value) ? value.filter(isScopeToken) : [];
}
