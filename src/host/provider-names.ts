import { createHash } from 'node:crypto';
import { HostError } from './host-error.js';
import { prefixedName } from '../protocol/prefixed-name.js';
import { PROFILES } from './profiles.js';
import type { NameRule } from './profiles.js';
import type { ProviderName } from './types.js';

/** Options for {@link createNameMap}. */
export interface NameMapOptions {
  provider: ProviderName;
  /** Put before every name with a `__` separator (Codex / Claude Code style: `server__tool`). */
  serverPrefix?: string;
}

/** Provider-facing names for a set of MCP tool names, both directions. */
export interface NameMap {
  /** MCP name → provider name. */
  toProvider: ReadonlyMap<string, string>;
  /** Provider name → MCP name (use it when the model calls a tool). */
  toMcp: ReadonlyMap<string, string>;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

function clean(text: string, rule: NameRule): string {
  let out = '';
  for (const ch of text) out += rule.allowed.test(ch) ? ch : '_';
  return out;
}

/**
 * Clean one name to a provider's rules: disallowed characters become `_`, a name that must start
 * with a letter or `_` gets a `_` in front, and a name that is too long is cut and ends in an
 * 8-hex-digit hash of the full original, so the same input always gives the same name.
 */
export function sanitizeToolName(mcpName: string, rule: NameRule, serverPrefix?: string): string {
  const full = prefixedName(serverPrefix, mcpName);
  let name = clean(full, rule);
  if (rule.startLetterOrUnderscore && !/^[A-Za-z_]/.test(name)) name = `_${name}`;
  if (name.length > rule.maxLength) name = `${name.slice(0, rule.maxLength - 9)}_${shortHash(full)}`;
  return name;
}

/**
 * Map every MCP tool name to a unique provider name (and back). When two names clean to the same
 * text, every one of them after the first gets a hash suffix of its own original name. Names are
 * compared case-sensitively, as providers do.
 */
export function createNameMap(mcpNames: readonly string[], options: NameMapOptions): NameMap {
  const profile = PROFILES[options.provider];
  if (!profile) throw new HostError('unknown_provider', `unknown provider "${String(options.provider)}"`);
  const rule = profile.names;
  if (options.serverPrefix !== undefined && (options.serverPrefix.length === 0 || options.serverPrefix.length > rule.maxLength / 2)) {
    throw new HostError('invalid_options', `serverPrefix must be 1 to ${Math.floor(rule.maxLength / 2)} characters for ${options.provider}`);
  }
  const toProvider = new Map<string, string>();
  const toMcp = new Map<string, string>();
  for (const mcpName of mcpNames) {
    if (typeof mcpName !== 'string' || mcpName.length === 0) throw new HostError('invalid_tool', 'a tool has an empty or missing name');
    if (toProvider.has(mcpName)) throw new HostError('name_collision', `two tools are both named "${mcpName}"`, mcpName);
    let name = sanitizeToolName(mcpName, rule, options.serverPrefix);
    if (toMcp.has(name)) {
      const full = prefixedName(options.serverPrefix, mcpName);
      const base = name.length > rule.maxLength - 9 ? name.slice(0, rule.maxLength - 9) : name;
      name = `${base}_${shortHash(full)}`;
      if (toMcp.has(name)) throw new HostError('name_collision', `cannot give "${mcpName}" a unique ${options.provider} name`, mcpName);
    }
    toProvider.set(mcpName, name);
    toMcp.set(name, mcpName);
  }
  return { toProvider, toMcp };
}
