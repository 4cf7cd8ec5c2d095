/**
 * The era router of one stdio process (digest §1.4): the first message that makes a claim decides
 * the era for the life of the connection. A request carrying the 2026-07-28 `_meta` protocol
 * version makes it modern; `initialize` (without that `_meta`) makes it legacy, and the connection
 * is then one 2025 session (legacy/stdio.ts). `server/discover` is answered but decides nothing on
 * its own: a dual-era client sends it as a probe and falls back to `initialize` when the answer is
 * slow (the spec's "silence means legacy" rule; @ai-sdk/mcp waits 1 s from spawn, less than a tsx
 * server's start-up on a busy machine), so refusing that `initialize` would lock out a client that
 * did nothing wrong. Messages that make no claim (a request without `_meta`) are answered by the
 * modern pipeline without deciding anything. Once decided, an `initialize` on a modern connection,
 * or a second one on a legacy connection, is refused naming the rule. A JSON-RPC batch runs only in
 * a 2025-03-26 session; anywhere else it is refused as it always was.
 */
import { PROTOCOL_VERSION } from '../../protocol/versions.js';
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { InboundMessage, MessageDispatcher, Reply } from '../../transport/message-dispatcher.js';
import type { Era } from '../eras.js';
import { holdsInitialize, initializeInBatch } from '../legacy/index.js';
import type { StdioLegacySession } from '../legacy/index.js';
import { rpcError } from '../outcomes.js';
import { errorReply } from '../pipeline/reply.js';
import { hasModernMeta, isLegacyInitialize } from './classify.js';
import { refuseModern } from './refusals.js';

/** One stdio connection's dispatcher; `attach` gives it the connection's writer for server-initiated messages. */
export interface StdioEraRouter extends MessageDispatcher {
  attach(write: (json: string) => void): void;
  /** The era chosen so far (undefined until a message decides it). */
  readonly era: Era | undefined;
  /** Ends the legacy session, if any (connection closed). */
  close(): void;
}

const MODERN_LOCKED = `Invalid request: initialize refused: this stdio connection already speaks ${PROTOCOL_VERSION}; the era is chosen by the first message of a process and cannot change (start a new process for a 2025 session)`;

/** A 2026-07-28 claim that decides the era (`server/discover` is a probe and decides nothing). */
function isModernClaim(m: JsonObject): boolean {
  return m.method !== 'server/discover' && hasModernMeta(m);
}

/**
 * Creates the era router of one stdio connection. `legacy` is undefined when the server serves no
 * legacy era; `modernServed` false when it serves the legacy era only.
 */
export function createStdioEraRouter(modern: (message: InboundMessage) => Promise<Reply>, legacy: StdioLegacySession | undefined, modernServed: boolean): StdioEraRouter {
  let era: Era | undefined;

  function batch(members: unknown[], message: InboundMessage): Promise<Reply> {
    const run = era === 'legacy' ? legacy?.batch(members, message) : undefined;
    if (run !== undefined) return run;
    // Before any era is chosen: 2025-03-26 forbids initialize in a batch, so no session can start with one.
    if (era === undefined && legacy !== undefined && holdsInitialize(members)) return Promise.resolve(initializeInBatch());
    return modern(message);
  }

  return {
    get era() {
      return era;
    },
    attach(writer) {
      legacy?.attach(writer);
    },
    close() {
      legacy?.close();
    },
    async handleMessage(message) {
      if (Array.isArray(message.parsed)) return batch(message.parsed, message);
      const m = isJsonObject(message.parsed) ? message.parsed : undefined;
      if (m === undefined) return modern(message);
      // The common case, first: a decided modern connection.
      if (era === 'modern' && m.method !== 'initialize') return modern(message);
      if (legacy !== undefined && isLegacyInitialize(m) && m.id !== undefined) {
        if (era === 'modern') return errorReply(rpcError('legacyEraLocked', MODERN_LOCKED), m.id as string | number);
        const reply = legacy.initialize(m);
        if (legacy.isOpen) era = 'legacy';
        return reply;
      }
      if (era === 'legacy') return (legacy as StdioLegacySession).handle(m, message);
      if (era === undefined && m.method === 'server/discover' && !modernServed) return refuseModern(message);
      if (era === undefined && isModernClaim(m)) {
        if (!modernServed) return refuseModern(message);
        era = 'modern';
      }
      if (!modernServed && era === undefined && typeof m.method === 'string') return refuseModern(message);
      return modern(message);
    },
  };
}
