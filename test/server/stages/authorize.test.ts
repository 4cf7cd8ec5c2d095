/** The `authorize` stage: the caller must hold every scope the tool requires. */
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import { authorize } from '../../../src/server/stages/authorize.js';
import { assertPassed, assertRefused, shaped, stageEnv } from '../../support/stage-fixture.js';
import { sampleTool } from '../../support/sample-tool.js';

const guarded = defineTool({ name: 'guarded', inputSchema: { type: 'object' }, scopes: ['arm:move', 'arm:read'], run: () => 'ok' });
const env = stageEnv({ tools: [guarded, sampleTool()], authorize: () => null, resourceMetadataUrl: 'https://rs.example/prm' });
const MESSAGE = 'Insufficient scope: tool guarded requires "arm:move", "arm:read"';

describe('authorize stage', () => {
  it('passes a tool that requires no scope, even for an anonymous caller', () => {
    const s = shaped(env, { tool: 'echo', args: { text: 'x' } });
    assertPassed(authorize.run(s, env), s);
  });

  it('passes a caller holding every required scope', () => {
    const s = shaped(env, { tool: 'guarded', auth: { subject: 'a', scopes: ['arm:read', 'x', 'arm:move'] } });
    assertPassed(authorize.run(s, env), s);
  });

  it('refuses a caller lacking one scope with 403 and an insufficient_scope challenge on HTTP', () => {
    assertRefused(authorize.run(shaped(env, { tool: 'guarded', auth: { subject: 'a', scopes: ['arm:read'] }, headers: {} }), env), 'insufficientScope', MESSAGE, {
      data: { requiredScopes: ['arm:move', 'arm:read'] },
      headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="arm:move arm:read", resource_metadata="https://rs.example/prm", error_description="Insufficient scope: tool guarded requires 'arm:move', 'arm:read'"` },
    });
  });

  it('refuses an anonymous caller, without HTTP headers on stdio', () => {
    assertRefused(authorize.run(shaped(env, { tool: 'guarded' }), env), 'insufficientScope', MESSAGE, { data: { requiredScopes: ['arm:move', 'arm:read'] }, headers: undefined });
  });
});
