/** The `param-headers` stage: arguments mirrored into Mcp-Param-* headers must match them. */
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import { paramHeaders } from '../../../src/server/stages/param-headers.js';
import { assertPassed, assertRefused, stageEnv, toolFound } from '../../support/stage-fixture.js';
import { sampleTool } from '../../support/sample-tool.js';

const regional = defineTool({
  name: 'regional',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer' } } } as const,
  run: () => 'ok',
});
const env = stageEnv({ tools: [regional, sampleTool()] });

describe('param-headers stage', () => {
  it('has nothing to check on stdio, or for a tool without header annotations', () => {
    const stdio = toolFound(env, { tool: 'regional', args: { region: 'eu' } });
    assertPassed(paramHeaders.run(stdio, env), stdio);
    const plain = toolFound(env, { tool: 'echo', args: { text: 'x' }, headers: {} });
    assertPassed(paramHeaders.run(plain, env), plain);
  });

  it('passes a header that matches its argument, and no header for an absent argument', () => {
    const s = toolFound(env, { tool: 'regional', args: { region: 'eu' }, headers: { 'Mcp-Param-Region': 'eu' } });
    assertPassed(paramHeaders.run(s, env), s);
    const absent = toolFound(env, { tool: 'regional', args: { n: 1 }, headers: {} });
    assertPassed(paramHeaders.run(absent, env), absent);
  });

  it('refuses a missing header for a present argument', () => {
    assertRefused(paramHeaders.run(toolFound(env, { tool: 'regional', args: { region: 'eu' }, headers: {} }), env), 'headerMismatch',
      'Header mismatch: Mcp-Param-Region is required because arguments.region is present');
  });

  it('refuses an undecodable header', () => {
    assertRefused(paramHeaders.run(toolFound(env, { tool: 'regional', args: { region: 'eu' }, headers: { 'mcp-param-region': '=?base64?***?=' } }), env), 'headerMismatch',
      'Header mismatch: Mcp-Param-Region invalid Base64 inside =?base64?...?=');
  });

  it('refuses a header that differs from its argument', () => {
    assertRefused(paramHeaders.run(toolFound(env, { tool: 'regional', args: { region: 'eu' }, headers: { 'mcp-param-region': 'us' } }), env), 'headerMismatch',
      'Header mismatch: Mcp-Param-Region "us" differs from the body value "eu" at arguments.region');
  });
});
