import { MessageTooDeepError, parseMessageJson } from '../../protocol/message-json.js';
import { rpcError } from '../outcomes.js';
import { errorMessage, fail, grown } from './stage.js';
import type { Decoded, Enveloped, Received, Stage } from './stage.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes or text to a JSON value (stdio has parsed already: then nothing to do). */
export const decode: Stage<'decode', Received, Decoded> = {
  name: 'decode',
  run(s) {
    const message = s.message;
    const out: Decoded = grown(s);
    if (message.parsed !== undefined) {
      out.parsed = message.parsed;
      return out;
    }
    const body = message.body;
    let text: string;
    if (typeof body === 'string') text = body;
    else {
      // Buffer decoding is much faster than a fatal TextDecoder; only a replacement character in
      // the output can mean invalid UTF-8, and then the strict decoder decides.
      text = (Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)).toString('utf8');
      if (text.includes('\uFFFD')) {
        try {
          utf8.decode(body);
        } catch {
          return fail(rpcError('parseError', 'Parse error: the message is not valid UTF-8'));
        }
      }
    }
    try {
      out.parsed = parseMessageJson(text);
      return out;
    } catch (error) {
      if (error instanceof MessageTooDeepError) {
        // The answer names the id, as the envelope stage's refusals do.
        if (error.id !== undefined) grown<Decoded, Enveloped>(out).id = error.id;
        return fail(rpcError('invalidRequest', `Invalid request: ${error.message}`));
      }
      return fail(rpcError('parseError', `Parse error: ${text.trim() === '' ? 'empty message' : errorMessage(error)}`));
    }
  },
};
