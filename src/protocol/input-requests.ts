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
