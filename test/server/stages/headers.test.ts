/** The `headers` stage: Streamable HTTP headers must agree with the body. */
import { describe, it } from 'node:test';
import { headers } from '../../../src/server/stages/headers.js';
import { assertPassed, assertRefused, stageEnv, versioned, VERSION } from '../../support/stage-fixture.js';

const env = stageEnv();
const base = (method: string) => ({ 'MCP-Protocol-Version': VERSION, 'Mcp-Method': method });

describe('headers stage', () => {
  it('has nothing to check on stdio', () => {
    const s = versioned('tools/call', { name: 'echo' });
    assertPassed(headers.run(s, env), s);
  });

  it('passes agreeing headers, Mcp-Name plain or Base64-encoded', () => {
    const plain = versioned('tools/call', { name: 'echo' }, { headers: { ...base('tools/call'), 'Mcp-Name': 'echo' } });
    assertPassed(headers.run(plain, env), plain);
    const encoded = versioned('resources/read', { uri: 'file:///ä' }, { headers: { ...base('resources/read'), 'Mcp-Name': `=?base64?${Buffer.from('file:///ä').toString('base64')}?=` } });
    assertPassed(headers.run(encoded, env), encoded);
  });

  it('needs no Mcp-Name for a method without a name, nor when the body names nothing', () => {
    const list = versioned('tools/list', {}, { headers: base('tools/list') });
    assertPassed(headers.run(list, env), list);
    const nameless = versioned('tools/call', { name: 3 }, { headers: base('tools/call') });
    assertPassed(headers.run(nameless, env), nameless);
  });

  it('refuses a missing or different MCP-Protocol-Version', () => {
    assertRefused(headers.run(versioned('ping', {}, { headers: { 'Mcp-Method': 'ping' } }), env), 'headerMismatch', 'Header mismatch: missing required header MCP-Protocol-Version');
    assertRefused(headers.run(versioned('ping', {}, { headers: { 'MCP-Protocol-Version': '2000-01-01', 'Mcp-Method': 'ping' } }), env), 'headerMismatch',
      `Header mismatch: MCP-Protocol-Version "2000-01-01" differs from _meta protocolVersion "${VERSION}"`);
  });

  it('refuses a missing or different Mcp-Method', () => {
    assertRefused(headers.run(versioned('ping', {}, { headers: { 'MCP-Protocol-Version': VERSION } }), env), 'headerMismatch', 'Header mismatch: missing required header Mcp-Method');
    assertRefused(headers.run(versioned('ping', {}, { headers: base('tools/list') }), env), 'headerMismatch', 'Header mismatch: Mcp-Method "tools/list" differs from method "ping"');
  });

  it('refuses a missing, undecodable or different Mcp-Name', () => {
    assertRefused(headers.run(versioned('tasks/get', { taskId: 't1' }, { headers: base('tasks/get') }), env), 'headerMismatch', 'Header mismatch: missing required header Mcp-Name');
    assertRefused(headers.run(versioned('tools/call', { name: 'echo' }, { headers: { ...base('tools/call'), 'Mcp-Name': '=?base64?***?=' } }), env), 'headerMismatch',
      'Header mismatch: Mcp-Name invalid Base64 inside =?base64?...?=');
    assertRefused(headers.run(versioned('prompts/get', { name: 'a' }, { headers: { ...base('prompts/get'), 'Mcp-Name': 'b' } }), env), 'headerMismatch',
      'Header mismatch: Mcp-Name "b" differs from params.name "a"');
  });
});
