/** The `version` stage: the per-request `_meta` (protocol version, client capabilities, log level). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { META } from '../../../src/protocol/constants.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../../src/protocol/versions.js';
import { version } from '../../../src/server/stages/version.js';
import { assertPassed, assertRefused, enveloped, stageEnv, VERSION } from '../../support/stage-fixture.js';

const env = stageEnv();
const CAPS = { elicitation: {} };
const meta = (extra: Record<string, unknown> = {}) => ({ [META.protocolVersion]: VERSION, [META.clientCapabilities]: CAPS, ...extra });
const SUPPORTED = { supported: [...SUPPORTED_PROTOCOL_VERSIONS] };

describe('version stage', () => {
  it('reads version, capabilities and (absent) log level', () => {
    const s = enveloped('tools/list', { _meta: meta() });
    assertPassed(version.run(s, env), s);
    assert.deepEqual([s.version, s.capabilities, s.logLevel, s.meta], [VERSION, CAPS, -1, meta()]);
  });

  it('turns a log level into its index', () => {
    const s = enveloped('tools/list', { _meta: meta({ [META.logLevel]: 'warning' }) });
    assertPassed(version.run(s, env), s);
    assert.equal(s.logLevel, 3);
  });

  it('accepts a header that agrees with the body', () => {
    const s = enveloped('ping', { _meta: meta() }, { headers: { 'MCP-Protocol-Version': ` ${VERSION} ` } });
    assertPassed(version.run(s, env), s);
  });

  it('refuses a 2025 initialize handshake, echoing the version asked for', () => {
    assertRefused(version.run(enveloped('initialize', { protocolVersion: '2025-06-18' }), env), 'legacyInitialize',
      `Unsupported protocol version: 2025-06-18; this server supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (no initialize handshake)`, { data: { ...SUPPORTED, requested: '2025-06-18' } });
    assertRefused(version.run(enveloped('initialize', {}), env), 'legacyInitialize',
      `Unsupported protocol version: none; this server supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (no initialize handshake)`, { data: { ...SUPPORTED, requested: 'none' } });
  });

  it('refuses a request without _meta, or without its protocol version', () => {
    assertRefused(version.run(enveloped('ping', {}), env), 'missingMeta', `Invalid params: missing params._meta with ${META.protocolVersion} and ${META.clientCapabilities}`);
    assertRefused(version.run(enveloped('ping', { _meta: { [META.clientCapabilities]: {} } }), env), 'missingMeta', `Invalid params: missing required _meta field ${META.protocolVersion}`);
  });

  it('refuses a header that contradicts the body before looking at the versions', () => {
    assertRefused(version.run(enveloped('ping', { _meta: meta({ [META.protocolVersion]: '1999-01-01' }) }, { headers: { 'mcp-protocol-version': '2000-01-01' } }), env), 'headerMismatch',
      'Header mismatch: MCP-Protocol-Version "2000-01-01" differs from _meta protocolVersion "1999-01-01"');
  });

  it('refuses an unsupported version, with a hint for a 2025 revision claimed per request', () => {
    assertRefused(version.run(enveloped('ping', { _meta: meta({ [META.protocolVersion]: '1999-01-01' }) }), env), 'unsupportedVersion',
      'Unsupported protocol version: 1999-01-01', { data: { ...SUPPORTED, requested: '1999-01-01' } });
    assertRefused(version.run(enveloped('ping', { _meta: meta({ [META.protocolVersion]: '2025-06-18' }) }), env), 'unsupportedVersion',
      'Unsupported protocol version: 2025-06-18 in _meta; 2025-06-18 is not claimed per request but negotiated once, with initialize', { data: { ...SUPPORTED, requested: '2025-06-18' } });
  });

  it('refuses missing client capabilities', () => {
    assertRefused(version.run(enveloped('ping', { _meta: { [META.protocolVersion]: VERSION, [META.clientCapabilities]: [] } }), env), 'missingMeta',
      `Invalid params: missing required _meta field ${META.clientCapabilities}`);
  });

  it('refuses an unknown log level', () => {
    assertRefused(version.run(enveloped('ping', { _meta: meta({ [META.logLevel]: 'loud' }) }), env), 'invalidLogLevel',
      `Invalid params: unknown ${META.logLevel} "loud"; use one of debug, info, notice, warning, error, critical, alert, emergency`);
  });
});
