import { PROFILES, sanitizeToolName } from '../../host/index.js';
import type { NameRule, ProviderName } from '../../host/index.js';
import { OpenApiImportError } from './import-error.js';

/** MCP 2026-07-28 tool names: 1-128 characters of `[A-Za-z0-9_.-]` (src/server/tools/tool-definition-rules.ts). */
const MCP_CHARACTER = /[A-Za-z0-9_.-]/;
const MCP_MAX_LENGTH = 128;

/**
 * The strictest name rule of the MCP definition rules and every chosen provider profile: a
 * character is kept only if all of them allow it, the length is the smallest maximum, and a
 * leading letter or `_` is required if any profile requires it. Default: every profile, so with
 * Gemini's `[A-Za-z0-9_]` a `-` becomes `_`.
 */
export function strictestNameRule(providers: readonly ProviderName[]): NameRule {
  const rules: NameRule[] = providers.map((provider) => {
    const profile = PROFILES[provider];
    if (!profile) throw new OpenApiImportError('invalid_options', `unknown provider "${String(provider)}" in options.providers`);
    return profile.names;
  });
  const allowed = rules.map((rule) => rule.allowed);
  return {
    allowed: { test: (ch: string) => MCP_CHARACTER.test(ch) && allowed.every((re) => re.test(ch)) } as RegExp,
    maxLength: Math.min(MCP_MAX_LENGTH, ...rules.map((rule) => rule.maxLength)),
    startLetterOrUnderscore: rules.some((rule) => rule.startLetterOrUnderscore),
  };
}

/**
 * The name an operation gets before it is made to fit the rule: its `operationId`, or for an
 * operation without one `<method>_<path>` with the path's `/`, `{` and `}` folded to `_`
 * (`GET /pets/{id}` -> `get_pets_id`).
 */
export function baseOperationName(method: string, path: string, operationId: string | undefined): string {
  if (operationId !== undefined && operationId.length > 0) return operationId;
  const parts = path.split('/').map((part) => part.replace(/[{}]/g, '')).filter((part) => part.length > 0);
  return [method.toLowerCase(), ...parts].join('_');
}

/** The tool name for an operation under `rule` (characters outside the rule become `_`, too long is cut and hashed). */
export function toolNameFor(base: string, rule: NameRule): string {
  return sanitizeToolName(base, rule);
}
