/**
 * A request refused before its body was read (413) is answered, then its body is read and dropped
 * until it ends or a bound is reached, and only then is the connection closed (a "lingering close").
 * Node ends a `Connection: close` answer by destroying the socket as soon as the answer is written; a
 * socket closed with bytes still unread makes the kernel send a reset, and a client still writing its
 * body (fetch with a string body, curl that does not wait for 100-continue) then loses the 413 it had
 * not read yet and reports EPIPE or ECONNRESET instead.
 */
import type { IncomingMessage } from 'node:http';

/** At most this many bytes of a refused body are read and dropped before the connection is closed. */
export const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
/** At most this long (ms) is a refused body read and dropped before the connection is closed. */
export const REFUSED_BODY_DRAIN_MS = 5_000;

/**
 * Call before writing the refusal (with `Connection: close`): the answer goes out and the socket is
 * half-closed as usual, but it is destroyed only when the body ends (nothing unread, so no reset) or
 * the bound is reached (a client that never stops sending gets no more of the server's time).
 */
export function drainRefusedBody(req: IncomingMessage, bytes = REFUSED_BODY_DRAIN_BYTES, ms = REFUSED_BODY_DRAIN_MS): void {
  const socket = req.socket;
  // node:http calls destroySoon when a `Connection: close` answer is written: end (FIN) once written,
  // then destroy. Only the end happens then; the destroy waits for the body's end or the bound.
  const closeWhenWritten = socket.destroySoon.bind(socket);
  socket.destroySoon = () => void socket.end();
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  let left = bytes;
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) socket.destroy();
  });
  req.once('end', closeWhenWritten);
  req.resume();
}
