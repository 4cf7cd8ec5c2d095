import { isJsonObject } from '../json/json-object.js';
/** Reading an HTTP response body with a size bound: a peer cannot make the reader hold more than `maxBytes`. */

/** The body as UTF-8 text, or undefined as soon as it exceeds `maxBytes` (the rest is not read). */
export async function readBodyText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) return undefined;
      chunks.push(chunk.value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `text` parsed when it is a JSON object, else undefined. */
export function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
