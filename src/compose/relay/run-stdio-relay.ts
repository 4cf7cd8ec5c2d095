/**
 * A relay served on stdin/stdout: the stdio transport the servers use (line framing, bounds,
 * backpressure, `notifications/cancelled` aborting the named request) in front of a
 * {@link StdioRelay}. When the host closes stdin, requests still running get the transport's drain
 * time, then the 2025 session is ended on the server.
 */
import type { Readable, Writable } from 'node:stream';
import { serveStdio } from '../../transport/stdio.js';
import { StdioRelay } from './stdio-relay.js';
import type { StdioRelayOptions } from './stdio-relay.js';

/** Options of {@link runStdioRelay}. */
export interface RunStdioRelayOptions extends StdioRelayOptions {
  /** Default `process.stdin`. */
  readonly input?: Readable;
  /** Default `process.stdout`; nothing but protocol messages is written there. */
  readonly output?: Writable;
}

/** A running relay. */
export interface RunningRelay {
  readonly relay: StdioRelay;
  /** Resolves once stdin ended (or {@link RunningRelay.close}) and the session was ended on the server. */
  readonly closed: Promise<void>;
  /** Stops reading stdin, aborts what is in flight, ends the session. */
  close(): Promise<void>;
}

/** Serves a relay to `options.url` on stdio. */
export function runStdioRelay(options: RunStdioRelayOptions): RunningRelay {
  const relay = new StdioRelay(options);
  const connection = serveStdio(relay, {
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.output !== undefined ? { output: options.output } : {}),
    // The server bounds what it sends; the relay takes the same size on both sides.
    maxLineBytes: options.maxMessageBytes ?? 16 * 1024 * 1024,
    maxResponseBytes: options.maxMessageBytes ?? 16 * 1024 * 1024,
  });
  relay.attach(connection.send);
  const closed = connection.closed.then(() => relay.close());
  return {
    relay,
    closed,
    async close() {
      connection.close();
      await closed;
    },
  };
}
