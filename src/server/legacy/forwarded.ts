/**
 * How a translated legacy (2025) request reaches the 2026-07-28 pipeline (session.ts
 * builds it): the original request's transport and notify channel, the mirrored 2026-07-28
 * headers, and cancellation by `notifications/cancelled` or the end of the session, which finds
 * the request by its exact {@link requestKey}.
 */
import { exactNumberText } from '../../protocol/json-rpc.js';
import type { JsonRpcId, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { HeaderLookup, InboundMessage } from '../../transport/message-dispatcher.js';

/**
 * A legacy request as the 2026-07-28 pipeline sees it. Its AbortController exists only once the
 * pipeline (or an input round) reads `signal`: one per call is measurable on this path.
 */
export class ForwardedMessage implements InboundMessage {
  readonly body = '';
  parsed: unknown = undefined;
  // The wire reads the result object and answers in the session's revision: no JSON of the 2026 result.
  readonly resultOnly = true;
  readonly transport: InboundMessage['transport'];
  readonly header: HeaderLookup | undefined;
  readonly #original: InboundMessage;
  readonly #notify: (n: JsonRpcNotification) => void;
  #controller: AbortController | undefined;
  #cancelled = false;

  constructor(original: InboundMessage, header: HeaderLookup | undefined, notify: (n: JsonRpcNotification) => void) {
    this.#original = original;
    this.transport = original.transport;
    this.header = header;
    this.#notify = notify;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      if (this.isAborted()) controller.abort();
      else this.#original.signal.addEventListener('abort', () => controller.abort(), { once: true });
    }
    return this.#controller.signal;
  }

  isAborted(): boolean {
    return this.#cancelled || this.#original.isAborted();
  }

  /** The connection of the original request, where its loss does not cancel (a resumable POST). */
  get connectionSignal(): AbortSignal | undefined {
    return this.#original.connectionSignal;
  }

  /** `notifications/cancelled` from the client, or the session ended. */
  cancel(): void {
    this.#cancelled = true;
    this.#controller?.abort();
  }

  notify(notification: JsonRpcNotification): void {
    this.#notify(notification);
  }
}

/**
 * The exact key of a client request id: a string and a number apart ("7" is not 7), and a number
 * beyond 2^53 by its digits as sent, which JSON.parse rounds (9007199254740993 reads as
 * 9007199254740992): two distinct ids never share a key. `path` locates the id in the raw message.
 */
export function requestKey(id: JsonRpcId, message: Pick<InboundMessage, 'body'>, path: readonly string[]): string {
  if (typeof id === 'string') return `s:${id}`;
  if (Number.isSafeInteger(id)) return `n:${id}`;
  const text = typeof message.body === 'string' ? message.body : new TextDecoder().decode(message.body);
  return `n:${exactNumberText(text, path) ?? String(id)}`;
}

/** A {@link requestKey} as the id reads in JSON (for messages). */
export function requestIdText(key: string): string {
  return key.startsWith('s:') ? JSON.stringify(key.slice(2)) : key.slice(2);
}
