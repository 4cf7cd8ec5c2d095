/**
 * The era of one stdio process (digest §1.4): the first message that makes a claim decides it for
 * the life of the connection. A request carrying the 2026-07-28 `_meta` protocol version makes it
 * modern; `initialize` (without that `_meta`) makes it legacy, and the connection is then one 2025
 * session. `server/discover` is answered but decides nothing on its own: a dual-era client sends it
 * as a probe and falls back to `initialize` when the answer is slow (the spec's "silence means
 * legacy" rule; @ai-sdk/mcp waits 1 s from spawn, less than a tsx server's start-up on a busy
 * machine), so refusing that `initialize` would lock out a client that did nothing wrong. Messages
 * that make no claim (a request without `_meta`) are answered by the modern pipeline without
 * deciding anything. Once decided, an `initialize` on a modern connection, or a second one on a
 * legacy connection, is refused naming the rule. A JSON-RPC batch (an array line) is run only in a
 * 2025-03-26 session (legacy-batch.ts); anywhere else it is refused as it always was.
 */
import { PROTOCOL_VERSION, META } from '../protocol/constants.js';
import { isJsonObject } from '../protocol/json-rpc.js';
import type { JsonObject } from '../protocol/json-rpc.js';
import type { InboundMessage, MessageDispatcher, Reply } from '../transport/message-dispatcher.js';
import type { Era } from './eras.js';
import { acceptsBatches, holdsInitialize, initializeInBatch, runBatch } from './legacy-batch.js';
import { errorReply, LiveSession, refuseModern } from './legacy-session.js';
import type { LegacySessionWire, SaveRecord } from './legacy-session.js';
import { initializeRecord, isLegacyInitialize } from './legacy-wire.js';
import { rpcError } from './outcomes.js';

/** One stdio connection's dispatcher; `attach` gives it the connection's writer for server-initiated messages. */
export interface StdioEraSwitch extends MessageDispatcher {
  attach(write: (json: string) => void): void;
  /** The era chosen so far (undefined until a message decides it). */
  readonly era: Era | undefined;
  /** Ends the legacy session, if any (connection closed). */
  close(): void;
}

function isModernClaim(m: JsonObject): boolean {
  if (m.method === 'server/discover') return false;
  const meta = isJsonObject(m.params) ? m.params._meta : undefined;
  return isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string';
}

/**
 * Creates the era switch of one stdio connection. `wire` is undefined when the server serves no
 * legacy era; `modernServed` false when it serves the legacy era only; `maxBatchSize` bounds the
 * batches of a 2025-03-26 session (`legacy.maxBatchSize`).
 */
export function createStdioEraSwitch(modern: (message: InboundMessage) => Promise<Reply>, wire: LegacySessionWire | undefined, modernServed: boolean, maxBatchSize: number): StdioEraSwitch {
  let era: Era | undefined;
  let session: LiveSession | undefined;
  let write: ((json: string) => void) | undefined;

  function initialize(m: JsonObject): Reply {
    const id = m.id as string | number;
    if (era === 'modern') {
      return errorReply(rpcError('legacyEraLocked', `Invalid request: initialize refused: this stdio connection already speaks ${PROTOCOL_VERSION}; the era is chosen by the first message of a process and cannot change (start a new process for a 2025 session)`), id);
    }
    if (era === 'legacy') return errorReply(rpcError('legacyEraLocked', 'Invalid request: this stdio connection is already initialized; a process has one session'), id);
    const record = initializeRecord(isJsonObject(m.params) ? m.params : {});
    if (record === 'invalid') return errorReply(rpcError('legacyInvalidInitialize', 'Invalid params: initialize needs a string protocolVersion and a capabilities object'), id);
    era = 'legacy';
    session = new LiveSession(record);
    session.channel = (json) => {
      if (write === undefined) return false;
      write(json);
      return true;
    };
    (wire as LegacySessionWire).listen(session);
    return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: (wire as LegacySessionWire).initializeResult(record) }) };
  }

  // One process, one session: the record lives in the LiveSession alone.
  const save: SaveRecord = async (change) => change((session as LiveSession).record);

  function batch(members: unknown[], message: InboundMessage): Promise<Reply> {
    if (era === 'legacy' && session !== undefined && acceptsBatches(session.record.protocolVersion)) {
      const open = session;
      return runBatch(members, message, maxBatchSize, (m, member) => (wire as LegacySessionWire).handle(open, m, member, save));
    }
    // Before any era is chosen: 2025-03-26 forbids initialize in a batch, so no session can start with one.
    if (era === undefined && wire !== undefined && holdsInitialize(members)) return Promise.resolve(initializeInBatch());
    return modern(message);
  }

  return {
    get era() {
      return era;
    },
    attach(writer) {
      write = writer;
    },
    close() {
      session?.end();
    },
    async handleMessage(message) {
      if (Array.isArray(message.parsed)) return batch(message.parsed, message);
      const m = isJsonObject(message.parsed) ? message.parsed : undefined;
      if (m === undefined) return modern(message);
      // The common case, first: a decided modern connection.
      if (era === 'modern' && m.method !== 'initialize') return modern(message);
      if (era === 'legacy') {
        if (isLegacyInitialize(m) && m.id !== undefined) return initialize(m);
        return (wire as LegacySessionWire).handle(session as LiveSession, m, message, save);
      }
      if (wire !== undefined && isLegacyInitialize(m) && m.id !== undefined) return initialize(m);
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
