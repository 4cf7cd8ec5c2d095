/**
 * The proxy configuration: its schema checked by Toolwright's own engine (every problem a JSON
 * pointer and a sentence), the rules beyond the schema, and `createProxyServer` building the
 * documented example (examples/compose/proxy.json, in front of server-everything) in code.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { connect } from '../../../src/client/index.js';
import { createProxyServer, ProxyConfigError, ProxyError, resolveProxyConfig, TransformError } from '../../../src/compose/index.js';
import type { ProxyConfig } from '../../../src/compose/index.js';
import { repoPath } from '../../support/repo-paths.js';
import { petstoreDocument, startPetstoreApi } from '../openapi/petstore-api.js';

function problems(config: unknown, env: Record<string, string> = {}): string[] {
  try {
    resolveProxyConfig(config, '/base', env);
  } catch (error) {
    assert.ok(error instanceof ProxyConfigError, String(error));
    return error.problems.map((p) => `${p.pointer} ${p.message}`);
  }
  return [];
}

describe('proxy configuration: schema and rules, problems as JSON pointers', () => {
  it('names each problem by its pointer', () => {
    assert.deepEqual(problems({ upstreams: 'x' }), ['/upstreams expected array, got string "x"']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', http: { url: 'ftp://x' } }] }), ['/upstreams/0/http/url expected string matching "^https?://", got string "ftp://x"']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a__b', stdio: { command: 'x' } }] }).map((p) => p.split(' ')[0]), ['/upstreams/0/prefix']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' }, timeoutMs: 0 }] }), ['/upstreams/0/timeoutMs expected number >= 1, got number 0']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' }, timeoutMs: 0 }] })[0]!.split(' ')[0], '/upstreams/0/timeoutMs');
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' }, bogus: 1 }] }).map((p) => p.split(' ')[0]), ['/upstreams/0']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' }, transforms: [{ kind: 'rename', tool: 'x' }] }] }).map((p) => p.split(' ')[0]), ['/upstreams/0/transforms/0']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' }, transforms: [{ kind: 'explode' }] }] }).map((p) => p.split(' ')[0]), ['/upstreams/0/transforms/0/kind']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' }, transforms: [{ kind: 'require-approval', tool: 't', message: 'ok?', approver: 'robot' }] }] }).map((p) => p.split(' ')[0]), ['/upstreams/0/transforms/0/approver']);
  });

  it('checks what a schema cannot say: one transport, distinct prefixes, set variables, something to serve', () => {
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a' }] }), ['/upstreams/0 give exactly one of "stdio" and "http", got neither']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' }, http: { url: 'http://h' } }] }), ['/upstreams/0 give exactly one of "stdio" and "http", got both']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', stdio: { command: 'x' } }, { prefix: 'a', http: { url: 'http://h' } }] }), ['/upstreams/1/prefix prefix "a" is already used at /upstreams/0']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'a', http: { url: 'http://h', bearerTokenEnv: 'NOPE' } }] }), ['/upstreams/0/http/bearerTokenEnv environment variable NOPE is not set']);
    assert.deepEqual(problems({}), [' nothing to serve: give at least one entry in "upstreams", "openapi" or "mounts"']);
    assert.deepEqual(problems({ mounts: [{ prefix: 'arm' }] }).map((p) => p.split(' ')[0]), ['/mounts/0']);
    assert.deepEqual(problems({ upstreams: [{ prefix: 'arm', stdio: { command: 'x' } }], mounts: [{ prefix: 'arm', module: 'arm.js' }] }), ['/mounts/0/prefix prefix "arm" is already used at /upstreams/0']);
    assert.deepEqual(resolveProxyConfig({ mounts: [{ prefix: 'arm', module: 'sub/arm.js' }] }, '/base').mounts, [{ module: '/base/sub/arm.js', prefix: 'arm', transforms: [] }]);
  });

  it('an OAuth upstream: one credential, exactly one of secret and key, set variables, a readable PEM key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-oauth-config-'));
    try {
      writeFileSync(join(dir, 'not-a-key.pem'), 'hello');
      const http = (oauth: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ upstreams: [{ prefix: 'a', http: { url: 'http://h/mcp', oauth, ...more } }] });
      const at = (config: unknown, env: Record<string, string> = {}): string[] => {
        try {
          resolveProxyConfig(config, dir, env);
        } catch (error) {
          assert.ok(error instanceof ProxyConfigError, String(error));
          return error.problems.map((p) => `${p.pointer} ${p.message}`.replace(dir, '<dir>'));
        }
        return [];
      };
      assert.deepEqual(at(http({ clientSecretEnv: 'S' })).map((p) => p.split(' ')[0]), ['/upstreams/0/http/oauth']);
      assert.deepEqual(at(http({ clientId: 'c', clientSecretEnv: 'S', password: 'x' })).map((p) => p.split(' ')[0]), ['/upstreams/0/http/oauth']);
      assert.deepEqual(at(http({ clientId: 'c' })), ['/upstreams/0/http/oauth give exactly one of "clientSecretEnv" and "privateKeyFile", got neither']);
      assert.deepEqual(at(http({ clientId: 'c', clientSecretEnv: 'S', privateKeyFile: 'k.pem' }), { S: 'x' }), ['/upstreams/0/http/oauth give exactly one of "clientSecretEnv" and "privateKeyFile", got both']);
      assert.deepEqual(at(http({ clientId: 'c', clientSecretEnv: 'NOPE' })), ['/upstreams/0/http/oauth/clientSecretEnv environment variable NOPE is not set']);
      assert.deepEqual(at(http({ clientId: 'c', privateKeyFile: 'missing.pem' })), ['/upstreams/0/http/oauth/privateKeyFile cannot read <dir>/missing.pem: ENOENT']);
      assert.deepEqual(at(http({ clientId: 'c', privateKeyFile: 'not-a-key.pem' })), ['/upstreams/0/http/oauth/privateKeyFile <dir>/not-a-key.pem holds no PEM private key']);
      assert.deepEqual(at(http({ clientId: 'c', clientSecretEnv: 'S' }, { bearerTokenEnv: 'T' }), { S: 'x', T: 'y' }), ['/upstreams/0/http/oauth give either "bearerTokenEnv" or "oauth", not both: the upstream gets one credential']);
      assert.deepEqual(at(http({ clientId: 'c', clientSecretEnv: 'S' }, { headers: { Authorization: 'Bearer z' } }), { S: 'x' }), ['/upstreams/0/http/oauth an "authorization" header and "oauth" cannot go together: the OAuth client sets the header']);
      const resolved = resolveProxyConfig(http({ clientId: 'c', clientSecretEnv: 'S' }), dir, { S: 'x' });
      const target = resolved.upstreams[0]!.target as { url: string; oauth?: { id: string } };
      assert.equal(target.url, 'http://h/mcp');
      assert.equal(typeof target.oauth?.id, 'string', 'the target carries the OAuth client');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves: the bearer token from the environment, relative paths against the base folder', () => {
    const resolved = resolveProxyConfig({ upstreams: [{ prefix: 'a', http: { url: 'http://h/mcp', bearerTokenEnv: 'TOKEN' } }, { prefix: 'b', stdio: { command: 'srv', cwd: 'sub' } }], audit: { path: 'log/calls.jsonl' } }, '/base', { TOKEN: 's3cret' });
    assert.deepEqual(resolved.upstreams[0]!.target, { url: 'http://h/mcp', headers: { authorization: 'Bearer s3cret' } });
    assert.deepEqual(resolved.upstreams[1]!.target, { command: 'srv', cwd: '/base/sub' });
    assert.equal(resolved.audit!.path, '/base/log/calls.jsonl');
  });
});

describe('createProxyServer (the same as toolwright proxy, in code)', () => {
  it('builds the documented example in front of server-everything: filtered, renamed, behind approval, audited', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-config-'));
    const config = JSON.parse(readFileSync(repoPath('examples/compose/proxy.json'), 'utf8')) as ProxyConfig;
    config.upstreams![0]!.stdio!.command = process.execPath;
    config.audit = { path: join(dir, 'log', 'calls.jsonl'), key: join(dir, 'k', 'audit.key'), head: join(dir, 'k', 'calls.head'), includeArguments: true };
    const proxy = await createProxyServer(config, { baseDir: repoPath('examples/compose') });
    const listener = await proxy.server.listen({ port: 0 });
    const asked: string[] = [];
    // The operator (here the test, through server.approvals; in the CLI the console) approves what it is shown.
    const stop = proxy.server.approvals.subscribe((event) => {
      if (event.type !== 'pending') return;
      asked.push(`${event.pending.tool}: ${event.pending.summary} ${JSON.stringify(event.pending.details)}`);
      void proxy.server.approvals.decide(event.pending.id, { approve: true, operator: 'olga', digest: event.pending.digest });
    });
    const client = connect(listener.url, { onWarning: () => {} });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('every__add') && names.includes('every__echo'), names.join(', '));
      assert.ok(!names.includes('every__get-sum') && !names.includes('every__toggle-simulated-logging'), 'renamed away, and the tools that are not read-only are filtered out');
      const result = await client.callTool('every__add', { a: 40, b: 2 });
      assert.match((result.content[0] as { text: string }).text, /The sum of 40 and 2 is 42\./);
      assert.deepEqual(asked, ['every__add: Add these numbers upstream? {"upstream":"every","tool":"get-sum","arguments":{"a":40,"b":2}}'], 'the operator sees what goes upstream');
    } finally {
      stop();
      await client.close();
      await listener.close();
      await proxy.close();
    }
    const records = readFileSync(join(dir, 'log', 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'tool_call');
    assert.deepEqual(records.map((r) => [r.tool, r.arguments]).at(-1), ['every__add', { a: 40, b: 2 }]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports an OpenAPI document beside an upstream: prefixed, transformed, its bearer token from the environment, called end to end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-openapi-'));
    writeFileSync(join(dir, 'petstore.json'), JSON.stringify(petstoreDocument()));
    const api = await startPetstoreApi();
    const proxy = await createProxyServer({
      upstreams: [{ prefix: 'h', stdio: { command: process.execPath, args: [repoPath('test/compose/proxy/fixtures/hostile-upstream.mjs')] }, transforms: [{ kind: 'filter', keep: { readOnlyHint: true } }] }],
      openapi: [{ document: 'petstore.json', prefix: 'pets', baseUrl: api.url, bearerTokenEnv: { token: 'PET_TOKEN' }, transforms: [{ kind: 'rename', tool: 'pets_get_pet', to: 'get' }] }],
    }, { baseDir: dir, env: { PET_TOKEN: 'pet-secret' } });
    try {
      const names = proxy.server.tools.map((t) => t.name);
      assert.deepEqual(names.filter((n) => n.startsWith('h__')), ['h__ok'], 'the filter kept the read-only upstream tool only');
      assert.ok(names.includes('pets__get'), names.join(', '));
      const listener = await proxy.server.listen({ port: 0 });
      const client = connect(listener.url, { onWarning: () => {} });
      try {
        const pet = await client.callTool('pets__get', { petId: '7' });
        assert.match(JSON.stringify(pet.content), /Rex/);
        await client.callTool('pets__pets_create', { name: 'Tom' });
        assert.equal(api.seen.at(-1)!.headers.authorization, 'Bearer pet-secret');
      } finally {
        await client.close();
        await listener.close();
      }
    } finally {
      await proxy.close();
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an upstream that cannot be listed fails the whole start, the others are closed', async () => {
    await assert.rejects(createProxyServer({ upstreams: [{ prefix: 'ok', stdio: { command: process.execPath, args: [repoPath('test/compose/proxy/fixtures/hostile-upstream.mjs')] } }, { prefix: 'gone', stdio: { command: '/nonexistent/upstream' } }] }), (error: unknown) => {
      assert.ok(error instanceof ProxyError);
      assert.equal(error.code, 'upstream_unavailable');
      assert.match(error.message, /^upstream gone: tools\/list failed/);
      return true;
    });
  });

  it('mounts a server module in process under its prefix, with transforms; calls run in the front', async () => {
    const proxy = await createProxyServer({ mounts: [{ prefix: 'arm', module: 'fixtures/mounted-arm.ts', transforms: [{ kind: 'rename', tool: 'get_status', to: 'status' }] }] }, { baseDir: repoPath('test/compose/proxy') });
    const listener = await proxy.server.listen({ port: 0 });
    const client = connect(listener.url, { onWarning: () => {} });
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['arm__status', 'arm__add']);
      assert.deepEqual((await client.callTool('arm__add', { a: 40, b: 2 })).content, [{ type: 'text', text: '42' }]);
      assert.deepEqual((await client.callTool('arm__status', {})).content, [{ type: 'text', text: 'idle at home' }]);
    } finally {
      await client.close();
      await listener.close();
      await proxy.close();
    }
  });

  it('a mount whose module cannot be loaded, or is not a server, is refused with invalid_mount', async () => {
    const refused = async (module: string, message: RegExp) => {
      await assert.rejects(createProxyServer({ upstreams: [{ prefix: 'h', stdio: { command: process.execPath, args: [repoPath('test/compose/proxy/fixtures/hostile-upstream.mjs')] } }], mounts: [{ prefix: 'arm', module }] }, { baseDir: repoPath('test/compose/proxy') }), (error: unknown) => {
        assert.ok(error instanceof ProxyError, String(error));
        assert.equal(error.code, 'invalid_mount');
        assert.match(error.message, message);
        return true;
      });
    };
    await refused('fixtures/no-such-module.ts', /^mount arm: cannot load .*no-such-module\.ts: /);
    await refused('fixtures/not-a-server.ts', /^mount arm: the default export of .*not-a-server\.ts is not a Toolwright server; export default createServer\(\.\.\.\)$/);
  });

  it('a transform naming an unknown upstream tool is a TransformError', async () => {
    await assert.rejects(createProxyServer({ upstreams: [{ prefix: 'h', stdio: { command: process.execPath, args: [repoPath('test/compose/proxy/fixtures/hostile-upstream.mjs')] }, transforms: [{ kind: 'rename', tool: 'nope', to: 'x' }] }] }), (error: unknown) => {
      assert.ok(error instanceof TransformError);
      assert.match(error.message, /^transform 0 \(rename of "nope"\): unknown tool/);
      return true;
    });
  });
});
