/** The `decode` stage: bytes or text to a JSON value, and its parse errors. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode } from '../../../src/server/stages/decode.js';
import { assertPassed, assertRefused, received, stageEnv } from '../../support/stage-fixture.js';

const env = stageEnv();

describe('decode stage', () => {
  it('parses a text body', () => {
    const s = received({ body: '{"a":[1,"x"]}' });
    assert.deepEqual(assertPassed(decode.run(s, env), s).parsed, { a: [1, 'x'] });
  });

  it('parses UTF-8 bytes, Buffer or plain Uint8Array', () => {
    for (const body of [Buffer.from('"Grüße"'), new TextEncoder().encode('"Grüße"')]) {
      const s = received({ body });
      assert.equal(assertPassed(decode.run(s, env), s).parsed, 'Grüße');
    }
  });

  it('keeps a replacement character that was really sent', () => {
    const s = received({ body: Buffer.from('"\uFFFD"') });
    assert.equal(assertPassed(decode.run(s, env), s).parsed, '\uFFFD');
  });

  it('takes what the transport parsed already (stdio) without reading the body', () => {
    const s = received({ body: 'not json', parsed: { id: 1 } });
    assert.deepEqual(assertPassed(decode.run(s, env), s).parsed, { id: 1 });
  });

  it('refuses bytes that are not UTF-8', () => {
    assertRefused(decode.run(received({ body: new Uint8Array([0x22, 0xff, 0x22]) }), env), 'parseError', 'Parse error: the message is not valid UTF-8');
  });

  it('refuses an empty or blank message', () => {
    assertRefused(decode.run(received({ body: '' }), env), 'parseError', 'Parse error: empty message');
    assertRefused(decode.run(received({ body: ' \n' }), env), 'parseError', 'Parse error: empty message');
  });

  it('refuses text that is not JSON, with the parser\'s reason', () => {
    let reason = '';
    try { JSON.parse('{"a":'); } catch (error) { reason = (error as Error).message; }
    assertRefused(decode.run(received({ body: '{"a":' }), env), 'parseError', `Parse error: ${reason}`);
  });
});
