import { ErrorCode } from '../protocol/error-codes.js';

/** The default transport limit on one outgoing message: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

// Our own serialisation puts the id right after "jsonrpc": `{"jsonrpc":"2.0","id":<id>,...`.
const ID_PREFIX = /^\{"jsonrpc":"2\.0","id":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")[,}]/;

/**
 * The hard cap on what the transport sends (distinct from a tool's result budget, which
 * truncates): a message over `maxBytes` is replaced by a JSON-RPC error with the same id saying
 * how large it was and what the limit is. Returns `json` unchanged when it fits.
 */
export function limitResponse(json: string, maxBytes: number): string {
  // A string's UTF-8 size is at most 3 bytes per UTF-16 unit: most answers skip the byte count.
  if (json.length * 3 <= maxBytes) return json;
  const bytes = Buffer.byteLength(json);
  if (bytes <= maxBytes) return json;
  const id = ID_PREFIX.exec(json.slice(0, 1100))?.[1];
  const error = { code: ErrorCode.InternalError, message: `Response too large: ${bytes} bytes exceeds the transport limit of ${maxBytes} bytes; nothing of it was sent` };
  return `{"jsonrpc":"2.0"${id === undefined ? '' : `,"id":${id}`},"error":${JSON.stringify(error)}}`;
}
