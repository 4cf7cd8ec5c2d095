/**
 * The client's name and version as the client itself declares them: `clientInfo` of a 2025
 * `initialize`, or the `io.modelcontextprotocol/clientInfo` `_meta` of a 2026-07-28 request. Nothing
 * vouches for it (any client can say it is Claude): it is shown beside the authenticated subject so
 * that an operator can tell one desktop host behind a shared bridge token from another, never used to
 * decide anything. Clipped, so that a long value cannot flood a queue entry or an audit record.
 */
import { isJsonObject } from '../json/json-object.js';

/** A client's self-declared name and version (each at most 100 characters; version '' when not given). */
export interface DeclaredClient {
  readonly name: string;
  readonly version: string;
}

const MAX_LENGTH = 100;

/** The declared client in `value` (an `Implementation` object), or undefined when it names none. */
export function declaredClient(value: unknown): DeclaredClient | undefined {
  if (!isJsonObject(value) || typeof value.name !== 'string' || value.name.trim() === '') return undefined;
  const version = typeof value.version === 'string' ? value.version : '';
  return { name: value.name.slice(0, MAX_LENGTH), version: version.slice(0, MAX_LENGTH) };
}
