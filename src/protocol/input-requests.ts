import { isJsonObject } from '../json/json-object.js';
import type { InputRequest } from './wire-types.js';

/**
 * The client capability each input-request method needs (the one method→capability table): the
 * server checks it before asking, the client answers exactly these methods.
 */
export const INPUT_REQUEST_CAPABILITY: Readonly<Record<InputRequest['method'], 'elicitation' | 'sampling' | 'roots'>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Whether a JSON value is an input request: a known method with object `params` (optional for `roots/list` only). */
export function isInputRequest(value: unknown): value is InputRequest {
  if (!isJsonObject(value) || typeof value.method !== 'string' || !Object.hasOwn(INPUT_REQUEST_CAPABILITY, value.method)) return false;
  return isJsonObject(value.params) || (value.params === undefined && value.method === 'roots/list');
}
