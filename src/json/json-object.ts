/** A plain JSON object: what `JSON.parse` gives for `{...}`, with its values not yet checked. */
export type JsonObject = { [key: string]: unknown };

/**
 * True for a plain (non-array, non-null) object. The one such check in the package: the schema
 * engine, the wire, lint, host, diff and eval all read untrusted JSON through it.
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
