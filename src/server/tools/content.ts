/**
 * Builders for the content blocks of tool results and prompt messages. Binary data may be given as
 * bytes (encoded here) or as a base64 string (checked here, so a malformed payload fails where it is
 * written instead of in a client).
 */
import type { JsonObject } from '../../protocol/json-rpc.js';
import type {
  AudioContent,
  ContentAnnotations,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceDescriptor,
  ResourceLink,
} from '../../protocol/wire-types.js';

/** Optional fields every content block may carry. */
export interface ContentExtras {
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Returns `data` as standard padded base64. Bytes are encoded; a string must already be base64.
 * @throws TypeError when a string is not valid base64.
 */
export function toBase64(data: string | Uint8Array, what = 'data'): string {
  if (typeof data !== 'string') return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  if (!BASE64.test(data)) throw new TypeError(`${what} must be bytes or a standard padded base64 string`);
  return data;
}

function requireMimeType(kind: string, mimeType: string): void {
  if (typeof mimeType !== 'string' || !/^[\w.+-]+\/[\w.+-]+/.test(mimeType)) {
    throw new TypeError(`${kind}: mimeType must be a media type such as "image/png", got ${JSON.stringify(mimeType)}`);
  }
}

function withExtras<T extends object>(block: T, extras: ContentExtras | undefined): T {
  if (extras?.annotations !== undefined) (block as ContentExtras).annotations = extras.annotations;
  if (extras?._meta !== undefined) (block as ContentExtras)._meta = extras._meta;
  return block;
}

/**
 * An image content block.
 * @example
 * ```ts
 * import { image } from 'toolwright';
 * import { readFileSync } from 'node:fs';
 *
 * const block = image(readFileSync('arm.png'), 'image/png');
 * ```
 */
export function image(data: string | Uint8Array, mimeType: string, extras?: ContentExtras): ImageContent {
  requireMimeType('image()', mimeType);
  return withExtras({ type: 'image', data: toBase64(data, 'image() data'), mimeType }, extras);
}

/**
 * An audio content block.
 * @example
 * ```ts
 * import { audio } from 'toolwright';
 * import { readFileSync } from 'node:fs';
 *
 * const block = audio(readFileSync('beep.wav'), 'audio/wav');
 * ```
 */
export function audio(data: string | Uint8Array, mimeType: string, extras?: ContentExtras): AudioContent {
  requireMimeType('audio()', mimeType);
  return withExtras({ type: 'audio', data: toBase64(data, 'audio() data'), mimeType }, extras);
}

/** What {@link embeddedResource} and {@link resourceContents} accept: text, or bytes/base64 as `blob`. */
export type ResourceContentsInit =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string | Uint8Array; _meta?: JsonObject };

/**
 * Normalises resource contents (bytes become base64 `blob`).
 * @throws TypeError when neither or both of `text` and `blob` are given, or `uri` is empty.
 */
export function resourceContents(init: ResourceContentsInit): ResourceContents {
  if (typeof init.uri !== 'string' || init.uri === '') throw new TypeError('resource contents need a non-empty uri');
  const hasText = 'text' in init && init.text !== undefined;
  const hasBlob = 'blob' in init && init.blob !== undefined;
  if (hasText === hasBlob) throw new TypeError(`resource contents of ${init.uri} need exactly one of text or blob`);
  let out: ResourceContents;
  if (hasText) {
    const { text } = init as { text: unknown };
    if (typeof text !== 'string') throw new TypeError(`resource contents of ${init.uri}: text must be a string`);
    out = { uri: init.uri, text };
  } else out = { uri: init.uri, blob: toBase64((init as { blob: string | Uint8Array }).blob, `blob of ${init.uri}`) };
  if (init.mimeType !== undefined) out.mimeType = init.mimeType;
  if (init._meta !== undefined) out._meta = init._meta;
  return out;
}

/**
 * A resource embedded in a result or prompt (`type: "resource"`).
 * @example
 * ```ts
 * import { embeddedResource } from 'toolwright';
 *
 * const block = embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'hi' });
 * ```
 */
export function embeddedResource(contents: ResourceContentsInit, extras?: ContentExtras): EmbeddedResource {
  return withExtras({ type: 'resource', resource: resourceContents(contents) }, extras);
}

/** Fields of a {@link resourceLink}. */
export type ResourceLinkInit = ResourceDescriptor;

/**
 * A link to a resource the client may read later (`type: "resource_link"`); it need not appear in
 * `resources/list`.
 */
export function resourceLink(init: ResourceLinkInit): ResourceLink {
  if (typeof init.uri !== 'string' || init.uri === '') throw new TypeError('resourceLink() needs a non-empty uri');
  if (typeof init.name !== 'string' || init.name === '') throw new TypeError('resourceLink() needs a non-empty name');
  if (init.size !== undefined && !(Number.isInteger(init.size) && init.size >= 0)) throw new TypeError('resourceLink() size must be a non-negative integer');
  const link: ResourceLink = { type: 'resource_link', uri: init.uri, name: init.name };
  if (init.title !== undefined) link.title = init.title;
  if (init.description !== undefined) link.description = init.description;
  if (init.mimeType !== undefined) link.mimeType = init.mimeType;
  if (init.size !== undefined) link.size = init.size;
  if (init.icons !== undefined) link.icons = init.icons;
  return withExtras(link, init);
}
