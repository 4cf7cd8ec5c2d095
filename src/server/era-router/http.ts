/**
 * The era router of Streamable HTTP: one POST, GET or DELETE on the MCP endpoint goes to the
 * 2026-07-28 pipeline, to the 2025 wire (src/server/legacy/), or is answered here, decided from the
 * protocol-version header, the session header and the body's `_meta` (digest §1.4):
 *
 * - a version header naming a 2026-07-28 revision, or no 2025 header and no `initialize`, or a
 *   `_meta` claim in the body whatever the headers say: modern (the pipeline then reports any
 *   header mismatch, R-82; such clients' stray `Mcp-Session-Id` headers are ignored, R-80);
 * - `initialize` without that claim, or a request naming a session or a 2025 revision: legacy;
 * - a version header naming no revision served: refused here (refusals.ts).
 *
 * A 2025 request is authenticated here, in front of the wire and once (front-door.ts); a
 * modern request is authenticated by the pipeline's first stage. Modern requests never enter a
 * legacy module.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import { SUPPORTED_PROTOCOL_VERSIONS, SERVER_LEGACY_PROTOCOL_VERSIONS } from '../../protocol/versions.js';
import type { InboundMessage, MessageDispatcher, Reply, SessionDispatcher } from '../../transport/message-dispatcher.js';
import type { FrontDoor } from './front-door.js';
import type { LegacyHttpWire } from '../legacy/index.js';
import { hasModernMeta, isLegacyInitialize, parseBody } from './classify.js';
import { unknownVersion } from './refusals.js';

/** Where one HTTP message goes. */
export type HttpRoute =
  | { readonly era: 'modern' }
  | { readonly era: 'legacy'; readonly parsed: unknown }
  | { readonly era: 'reply'; readonly reply: Reply };

const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SERVER_LEGACY_PROTOCOL_VERSIONS);
const MODERN_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const MODERN: HttpRoute = Object.freeze({ era: 'modern' });

/**
 * Classifies one POST. A body parsed on the way is left on `message.parsed` for the pipeline.
 * `modernServed` false: every non-2025 version header is the pipeline's to refuse (eras: 'legacy').
 */
export function classifyHttp(message: InboundMessage, modernServed: boolean): HttpRoute {
  const header = message.header;
  // Made in process (console workbench, custom transports without headers): 2026-07-28 only.
  if (header === undefined) return MODERN;
  const versionHeader = header('mcp-protocol-version')?.trim();
  if (versionHeader !== undefined && !LEGACY_VERSIONS.has(versionHeader)) {
    if (!modernServed || MODERN_VERSIONS.has(versionHeader)) return MODERN;
    const body = parseBody(message);
    if (body === undefined) return MODERN;
    const m = isJsonObject(body.value) ? body.value : undefined;
    if (!hasModernMeta(m)) return { era: 'reply', reply: unknownVersion(m, versionHeader) };
    message.parsed = body.value;
    return MODERN;
  }
  const body = parseBody(message);
  if (body === undefined) return MODERN;
  const parsed = body.value;
  const sessionHeader = header('mcp-session-id')?.trim();
  // An array opening a session is the 2025 wire's to refuse (2025-03-26 forbids initialize in a batch).
  if (sessionHeader === undefined && Array.isArray(parsed) && parsed.some((m) => isJsonObject(m) && m.method === 'initialize')) return { era: 'legacy', parsed };
  const m = isJsonObject(parsed) ? parsed : undefined;
  const opens = isLegacyInitialize(m) && m?.id !== undefined;
  if ((sessionHeader === undefined && versionHeader === undefined && !opens) || hasModernMeta(m)) {
    message.parsed = parsed;
    return MODERN;
  }
  return { era: 'legacy', parsed };
}

/** The parts the router sends messages to. */
export interface HttpEraRouterParts {
  /** The 2026-07-28 pipeline (or, when the modern era is not served, the refusal of everything but 2025). */
  readonly modern: (message: InboundMessage) => Promise<Reply>;
  readonly modernServed: boolean;
  /** The 2025 wire; undefined when the legacy era is not served (then every message is modern). */
  readonly legacy: LegacyHttpWire | undefined;
  /** Authenticates 2025 requests in front of the wire; undefined without an `authorize` option. */
  readonly frontDoor: FrontDoor | undefined;
}

/** The HTTP dispatcher of one set of served eras. */
export function createHttpEraRouter(parts: HttpEraRouterParts): MessageDispatcher | SessionDispatcher {
  const { modern, modernServed, legacy, frontDoor } = parts;
  if (legacy === undefined) return { handleMessage: modern };
  const toLegacy = (message: InboundMessage, parsed: unknown): Promise<Reply> => {
    if (frontDoor === undefined) return legacy.handle(message, parsed, undefined);
    return frontDoor.check(message).then((v) => ('refused' in v ? v.refused : legacy.handle(message, parsed, v.auth)));
  };
  const sessions = legacy.sessions;
  return {
    handleMessage(message) {
      const route = classifyHttp(message, modernServed);
      if (route.era === 'modern') return modern(message);
      if (route.era === 'reply') return Promise.resolve(route.reply);
      return toLegacy(message, route.parsed);
    },
    sessions: frontDoor === undefined
      ? sessions
      : {
          openStream: async (header) => {
            const verdict = await frontDoor.checkHeaders(header);
            return 'refused' in verdict ? verdict.refused : sessions.openStream(header);
          },
          endSession: async (header) => {
            const verdict = await frontDoor.checkHeaders(header);
            return 'refused' in verdict ? verdict.refused : sessions.endSession(header);
          },
        },
  };
}
