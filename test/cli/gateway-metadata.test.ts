/**
 * The nginx gateway in front of a guarded Toolwright server, for real: an OAuth client reads the
 * RFC 9728 protected resource metadata before it holds a token, so the generated config must pass
 * both well-known forms through nginx to an instance (GET only), while /mcp without a token gets the
 * instance's own 401 challenge naming that metadata.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nginxConfig } from '../../src/cli/gateway/nginx-config.js';
import { createServer, defineTool, jwtAuthorizer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { freePort, missing, startNginx } from '../support/local-services.js';
import type { NginxProcess } from '../support/local-services.js';
import { startLoopbackIssuer } from '../support/loopback-issuer.js';
import type { LoopbackIssuer } from '../support/loopback-issuer.js';

const noNginx = missing('nginx');
if (noNginx !== undefined) process.stdout.write(`# skipping the gateway metadata test: ${noNginx}\n`);

describe('toolwright gateway nginx in front of a guarded server', { skip: noNginx }, () => {
  let issuer: LoopbackIssuer;
  let server: McpServer;
  let nginx: NginxProcess;
  let resource: string;
  const runs: string[] = [];

  before(async () => {
    issuer = await startLoopbackIssuer();
    const gatewayPort = await freePort();
    // The resource is the URL clients use: the gateway's, not the instance's.
    resource = `http://127.0.0.1:${gatewayPort}/mcp`;
    const read = defineTool({ name: 'read', inputSchema: { type: 'object' }, run: () => { runs.push('read'); return 'ok'; } });
    server = createServer({ name: 'guarded', version: '1', tools: [read], logger: { error: () => undefined }, authorize: jwtAuthorizer({ resource, issuer: issuer.url, scopesSupported: ['arm:read'] }) });
    const { url } = await server.listen({ host: '127.0.0.1', port: 0 });
    const instance = new URL(url).host;
    nginx = await startNginx(nginxConfig({ tools: [{ name: 'read', device: false }], pool: [instance], listen: `127.0.0.1:${gatewayPort}`, foreground: true }), gatewayPort);
  });
  after(async () => {
    await nginx?.stop();
    await server?.close();
    await issuer?.close();
  });

  it('serves the metadata at both well-known forms through nginx, GET only; /mcp without a token gets the challenge naming it', async () => {
    const expected = { resource, authorization_servers: [issuer.url], bearer_methods_supported: ['header'], scopes_supported: ['arm:read'] };
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${nginx.url}${path}`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), expected, path);
    }
    const post = await fetch(`${nginx.url}/.well-known/oauth-protected-resource/mcp`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(10_000) });
    assert.equal(post.status, 403, 'nginx lets only GET through to the metadata');
    await post.body?.cancel();
    const call = await fetch(`${nginx.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'read' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(call.status, 401);
    assert.equal(call.headers.get('www-authenticate'), `Bearer resource_metadata="http://127.0.0.1:${nginx.port}/.well-known/oauth-protected-resource/mcp", scope="arm:read"`);
    await call.body?.cancel();
    assert.deepEqual(runs, [], 'nothing ran without a token');
  });
});
