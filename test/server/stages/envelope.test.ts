/** The `envelope` stage: one JSON-RPC 2.0 request; notifications stop here. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { envelope } from '../../../src/server/stages/envelope.js';
import { assertPassed, assertRefused, decoded, stageEnv } from '../../support/stage-fixture.js';

const env = stageEnv();

describe('envelope stage', () => {
  it('passes a request with its id, method and params', () => {
    const s = decoded({ jsonrpc: '2.0', id: 'r-1', method: 'tools/list', params: { cursor: 'c' } });
    assertPassed(envelope.run(s, env), s);
    assert.deepEqual([s.id, s.method, s.params], ['r-1', 'tools/list', { cursor: 'c' }]);
  });

  it('gives a request without params an empty params object', () => {
    const s = decoded({ jsonrpc: '2.0', id: 0, method: 'ping' });
    assertPassed(envelope.run(s, env), s);
    assert.deepEqual(s.params, {});
  });

  it('accepts a notification and stops there', () => {
    assert.deepEqual(envelope.run(decoded({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }), env), { kind: 'accepted' });
  });

  it('refuses a batch array', () => {
    assertRefused(envelope.run(decoded([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), env), 'invalidRequest', 'Invalid request: batch arrays are not supported; send one message at a time');
  });

  it('refuses a value that is not an object, naming its type', () => {
    assertRefused(envelope.run(decoded('hi'), env), 'invalidRequest', 'Invalid request: expected a JSON-RPC object, got string');
    assertRefused(envelope.run(decoded(null), env), 'invalidRequest', 'Invalid request: expected a JSON-RPC object, got null');
  });

  it('refuses an id that is neither a string nor an integer', () => {
    const s = decoded({ jsonrpc: '2.0', id: 1.5, method: 'ping' });
    assertRefused(envelope.run(s, env), 'invalidRequest', 'Invalid request: id must be a string or an integer, got number');
    assert.equal(s.id, undefined);
    assertRefused(envelope.run(decoded({ jsonrpc: '2.0', id: null, method: 'ping' }), env), 'invalidRequest', 'Invalid request: id must be a string or an integer, got null');
  });

  it('refuses a wrong jsonrpc member, keeping the id for the error reply', () => {
    const s = decoded({ jsonrpc: '1.0', id: 7, method: 'ping' });
    assertRefused(envelope.run(s, env), 'invalidRequest', 'Invalid request: jsonrpc must be "2.0"');
    assert.equal(s.id, 7);
  });

  it('refuses a missing method, and a JSON-RPC response sent to the server', () => {
    assertRefused(envelope.run(decoded({ jsonrpc: '2.0', id: 1 }), env), 'invalidRequest', 'Invalid request: method must be a string');
    assertRefused(envelope.run(decoded({ jsonrpc: '2.0', id: 1, result: {} }), env), 'invalidRequest', 'Invalid request: the server does not accept JSON-RPC responses');
    assertRefused(envelope.run(decoded({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }), env), 'invalidRequest', 'Invalid request: the server does not accept JSON-RPC responses');
  });

  it('refuses params that are not an object', () => {
    assertRefused(envelope.run(decoded({ jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }), env), 'invalidRequest', 'Invalid request: params must be an object, got array');
  });
});
