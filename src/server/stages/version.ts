import { HEADER, META } from '../../protocol/constants.js';
import { SUPPORTED_PROTOCOL_VERSIONS, SERVER_LEGACY_PROTOCOL_VERSIONS } from '../../protocol/versions.js';
import { echoText, renderJson } from '../../schema/describe-value.js';
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { ClientCapabilities } from '../../protocol/wire-types.js';
import { LOG_LEVELS } from '../features/log-levels.js';
import { rpcError } from '../outcomes.js';
import type { LogLevel } from '../contract/tool-types.js';
import { fail, grown } from './stage.js';
import type { Enveloped, Stage, Versioned } from './stage.js';

const SUPPORTED = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const LEGACY = new Set<string>(SERVER_LEGACY_PROTOCOL_VERSIONS);

/** The per-request `_meta`: protocol version, client capabilities and log level (no handshake). */
export const version: Stage<'version', Enveloped, Versioned> = {
  name: 'version',
  run(s) {
    const params = s.params;
    const meta = params._meta;
    if (s.method === 'initialize' && !(isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string')) {
      const requested = typeof params.protocolVersion === 'string' ? echoText(params.protocolVersion) : 'none';
      return fail(rpcError('legacyInitialize', `Unsupported protocol version: ${requested}; this server supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (no initialize handshake)`, {
        data: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested },
      }));
    }
    if (!isJsonObject(meta)) {
      return fail(rpcError('missingMeta', `Invalid params: missing params._meta with ${META.protocolVersion} and ${META.clientCapabilities}`));
    }
    const requested = meta[META.protocolVersion];
    if (typeof requested !== 'string') return fail(rpcError('missingMeta', `Invalid params: missing required _meta field ${META.protocolVersion}`));
    // A header that contradicts the body is a header error whatever the versions are.
    const headerVersion = s.message.header?.(HEADER.protocolVersion)?.trim();
    if (headerVersion !== undefined && headerVersion !== requested) {
      return fail(rpcError('headerMismatch', `Header mismatch: MCP-Protocol-Version ${renderJson(headerVersion)} differs from _meta protocolVersion ${renderJson(requested)}`));
    }
    if (!SUPPORTED.has(requested)) {
      // A 2025 revision is never claimed per request: its clients negotiate it once, with initialize.
      const hint = LEGACY.has(requested) ? ` in _meta; ${requested} is not claimed per request but negotiated once, with initialize` : '';
      return fail(rpcError('unsupportedVersion', `Unsupported protocol version: ${echoText(requested)}${hint}`, { data: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested: echoText(requested) } }));
    }
    const capabilities = meta[META.clientCapabilities];
    if (!isJsonObject(capabilities)) return fail(rpcError('missingMeta', `Invalid params: missing required _meta field ${META.clientCapabilities}`));
    let logLevel = -1;
    const level = meta[META.logLevel];
    if (level !== undefined) {
      logLevel = LOG_LEVELS.indexOf(level as LogLevel);
      if (logLevel < 0) return fail(rpcError('invalidLogLevel', `Invalid params: unknown ${META.logLevel} ${renderJson(level)}; use one of ${LOG_LEVELS.join(', ')}`));
    }
    const out: Versioned = grown(s);
    out.meta = meta;
    out.version = requested;
    out.capabilities = capabilities as ClientCapabilities;
    out.logLevel = logLevel;
    return out;
  },
};
