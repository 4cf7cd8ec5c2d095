/**
 * The one 2025 session of a stdio process: opened by `initialize`, held in memory for the life of
 * the connection (one process, one session; no store). Which messages come here is the stdio era
 * router's decision (src/server/era-router/stdio.ts). A JSON-RPC batch (an array line) runs only
 * in a 2025-03-26 session (batch.ts).
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import { rpcError } from '../outcomes.js';
import { errorReply } from '../pipeline/reply.js';
import { acceptsBatches, runBatch } from './batch.js';
import { initializeRecord } from './http-wire.js';
import { LiveSession } from './session.js';
import type { LegacySessionWire, SaveRecord } from './session.js';

/** The 2025 session of one stdio connection, open once `initialize` succeeded. */
export class StdioLegacySession {
  readonly #wire: LegacySessionWire;
  readonly #maxBatchSize: number;
  #session: LiveSession | undefined;
  #write: ((json: string) => void) | undefined;
  // One process, one session: the record lives in the LiveSession alone.
  readonly #save: SaveRecord = async (change) => change((this.#session as LiveSession).record);

  /** `maxBatchSize` bounds the batches of a 2025-03-26 session (`legacy.maxBatchSize`). */
  constructor(wire: LegacySessionWire, maxBatchSize: number) {
    this.#wire = wire;
    this.#maxBatchSize = maxBatchSize;
  }

  /** Whether `initialize` has opened the session. */
  get isOpen(): boolean {
    return this.#session !== undefined;
  }

  /** The connection's writer, for server-initiated messages (change notifications, server-to-client requests). */
  attach(write: (json: string) => void): void {
    this.#write = write;
  }

  /** `initialize` (with an id): opens the session, or refuses a second one or unusable params. */
  initialize(m: JsonObject): Reply {
    const id = m.id as string | number;
    if (this.#session !== undefined) return errorReply(rpcError('legacyEraLocked', 'Invalid request: this stdio connection is already initialized; a process has one session'), id);
    const record = initializeRecord(isJsonObject(m.params) ? m.params : {});
    if (record === 'invalid') return errorReply(rpcError('legacyInvalidInitialize', 'Invalid params: initialize needs a string protocolVersion and a capabilities object'), id);
    const session = new LiveSession(record);
    this.#session = session;
    session.channel = (json) => {
      if (this.#write === undefined) return false;
      this.#write(json);
      return true;
    };
    this.#wire.listen(session);
    return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: this.#wire.initializeResult(record) }) };
  }

  /** Any other message of the open session. */
  handle(m: JsonObject, message: InboundMessage): Promise<Reply> {
    return this.#wire.handle(this.#session as LiveSession, m, message, this.#save);
  }

  /** Runs a batch when this session takes batches (2025-03-26); undefined otherwise. */
  batch(members: unknown[], message: InboundMessage): Promise<Reply> | undefined {
    const session = this.#session;
    if (session === undefined || !acceptsBatches(session.record.protocolVersion)) return undefined;
    return runBatch(members, message, this.#maxBatchSize, (m, member) => this.#wire.handle(session, m, member, this.#save));
  }

  /** Ends the session (connection closed). */
  close(): void {
    this.#session?.end();
  }
}
