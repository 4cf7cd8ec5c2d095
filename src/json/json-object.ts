/** A plain JSON object: what `JSON.parse` gives for `{...}`, with its values not yet checked. */
export type JsonObject = { [key: string]: unknown };

/**
 * True for a plain (non-array, non-null) object. The one such check in the package: the schema
 * engine, the wire, lint, host, diff and eval all read untrusted JSON through it, and so may code
 * built on Toolwright (the robot arm reads its stored plans and controller messages with it).
 * It narrows to {@link JsonObject}, whose members are still `unknown`: check each before use.
 *
 * @example
 * ```ts
 * import { isJsonObject } from 'toolwright';
 *
 * const parsed: unknown = JSON.parse('{"x_mm": 12.5}');
 * const x = isJsonObject(parsed) && typeof parsed.x_mm === 'number' ? parsed.x_mm : undefined; // 12.5
 * isJsonObject([1, 2]); // false
 * isJsonObject(null); // false
 * ```
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
