/** The console's HTTP rules on a real loopback listener: token, Host/Origin, methods, bodies, assets. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'node:http';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { connect } from '../../src/client/index.js';
import { createWorkbenchConsole } from '../../src/console/index.js';
import type { ConsoleMount } from '../../src/console/index.js';
import { sampleTool } from '../support/sample-tool.js';

const echo = sampleTool();

/** Raw request so that Host and Origin can be set freely (fetch forbids both). */
function raw(listener: HttpListener, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: listener.port, path, method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('console mount', () => {
  let server: McpServer;
  let listener: HttpListener;
  let mount: ConsoleMount;
  let calls = 0;
  before(async () => {
    const counted = defineTool({
      name: 'counted',
      description: 'Count how often it runs. Use to prove that a refused console request ran nothing.',
      inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Ignored' } }, additionalProperties: false } as const,
      run: () => {
        calls++;
        return { content: [{ type: 'text', text: 'ran' }] };
      },
    });
    server = createServer({ name: 'mount-test', version: '1.0.0', tools: [echo, counted] });
    mount = createWorkbenchConsole(server);
    await mount.ready();
    listener = await server.listen({ port: 0, mounts: [mount] });
  });
  after(async () => {
    mount.close();
    await server.close();
  });

  it('answers 401 without a token and 403 with a wrong one, on pages, assets, events and actions, and runs nothing', async () => {
    for (const path of ['/console', '/console/assets/workbench.js', '/console/events', '/console/api/catalog']) {
      const none = await raw(listener, path);
      assert.equal(none.status, 401, path);
      assert.equal(JSON.parse(none.body).error, 'console token required: open the console address printed at start-up');
      const wrong = await raw(listener, `${path}?token=${'x'.repeat(43)}`);
      assert.equal(wrong.status, 403, path);
      assert.equal(JSON.parse(wrong.body).error, 'wrong console token');
    }
    const body = JSON.stringify({ tool: 'counted', arguments: { text: 'a' } });
    assert.equal((await raw(listener, '/console/api/call', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status, 401);
    assert.equal((await raw(listener, '/console/api/call', { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-token': `${mount.token}x` }, body })).status, 403);
    assert.equal(calls, 0);
  });

  it('serves the page with the token (query) and actions with the token (header)', async () => {
    const page = await raw(listener, `/console?token=${mount.token}`);
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    // The page carries the token: never stored by a browser or a cache, on a revalidation either.
    assert.equal(page.headers['cache-control'], 'no-store');
    const tab = await raw(listener, `/console?token=${mount.token}&tab=approvals`, { method: 'HEAD' });
    assert.deepEqual([tab.status, tab.headers['cache-control']], [200, 'no-store']);
    const revalidated = await raw(listener, `/console?token=${mount.token}`, { headers: { 'if-none-match': String(page.headers.etag) } });
    assert.deepEqual([revalidated.status, revalidated.headers['cache-control']], [304, 'no-store']);
    const called = await raw(listener, '/console/api/call', { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-token': mount.token }, body: JSON.stringify({ tool: 'counted', arguments: { text: 'a' } }) });
    assert.equal(called.status, 200);
    assert.equal(calls, 1);
    assert.deepEqual(JSON.parse(called.body).response.result.content, [{ type: 'text', text: 'ran' }]);
  });

  it('applies the MCP endpoint\'s Host and Origin rules before the token', async () => {
    const q = `?token=${mount.token}`;
    const host = await raw(listener, `/console${q}`, { headers: { host: 'evil.example' } });
    assert.equal(host.status, 403);
    assert.equal(JSON.parse(host.body).error, 'Forbidden: Host "evil.example" is not allowed');
    const origin = await raw(listener, `/console/api/catalog${q}`, { headers: { origin: 'https://evil.example' } });
    assert.equal(origin.status, 403);
    assert.equal(JSON.parse(origin.body).error, 'Forbidden: Origin "https://evil.example" is not allowed');
    const malformed = await raw(listener, `/console${q}`, { headers: { host: 'localhost@evil' } });
    assert.equal(malformed.status, 400);
    const loopbackOrigin = await raw(listener, `/console/api/catalog${q}`, { headers: { origin: `http://127.0.0.1:${listener.port}` } });
    assert.equal(loopbackOrigin.status, 200);
  });

  it('never lets the console token into the MCP endpoint', async () => {
    const guarded = createServer({ name: 'guarded', version: '1.0.0', tools: [echo], authorize: () => null });
    const guardedMount = createWorkbenchConsole(guarded);
    const guardedListener = await guarded.listen({ port: 0, mounts: [guardedMount] });
    try {
      const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
      const asBearer = await raw(guardedListener, '/mcp', { method: 'POST', headers: { ...headers, authorization: `Bearer ${guardedMount.token}`, 'x-console-token': guardedMount.token }, body: message });
      assert.equal(asBearer.status, 401);
      const asQuery = await raw(guardedListener, `/mcp?token=${guardedMount.token}`, { method: 'POST', headers, body: message });
      assert.equal(asQuery.status, 401);
    } finally {
      guardedMount.close();
      await guarded.close();
    }
  });

  it('refuses bad actions with a specific status and message', async () => {
    const h = { 'x-console-token': mount.token };
    const cases: [string, { method?: string; headers?: Record<string, string>; body?: string }, number, string][] = [
      ['/console/api/call', { method: 'POST', headers: { ...h, 'content-type': 'text/plain' }, body: '{}' }, 415, 'Content-Type must be application/json, got "text/plain"'],
      ['/console/api/call', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: '{nope' }, 400, 'body is not JSON'],
      ['/console/api/call', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: '{"tool":"missing"}' }, 404, 'no tool named "missing" on mount-test'],
      ['/console/api/call', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: '{"tool":"echo","arguments":[1]}' }, 400, '"arguments" must be an object'],
      ['/console/api/call', { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: 'x'.repeat(300 * 1024) }, 413, 'body too large: the limit is 262144 bytes'],
      ['/console/api/call', { headers: h }, 405, 'GET not allowed on /console/api/call'],
      ['/console/api/nothing', { headers: h }, 404, 'no console route /console/api/nothing'],
      ['/console?tab=nope', { headers: h }, 404, 'no console tab "nope"'],
    ];
    for (const [path, init, status, message] of cases) {
      const reply = await raw(listener, path, init).catch((error: Error) => ({ status: -1, headers: {}, body: JSON.stringify({ error: error.message }) }));
      assert.equal(reply.status, status, `${path} ${init.body?.slice(0, 20) ?? ''}`);
      assert.ok((JSON.parse(reply.body) as { error: string }).error.startsWith(message), `${path}: ${reply.body.slice(0, 200)}`);
    }
  });

  it('says a missing Content-Type is missing (415), rather than quoting an empty one', async () => {
    const before = calls;
    const variants: Record<string, string>[] = [{ 'x-console-token': mount.token }, { 'x-console-token': mount.token, 'content-type': '' }];
    for (const headers of variants) {
      const reply = await raw(listener, '/console/api/call', { method: 'POST', headers, body: JSON.stringify({ tool: 'counted' }) });
      assert.equal(reply.status, 415);
      assert.deepEqual(JSON.parse(reply.body), { error: 'Content-Type must be application/json, the Content-Type header is missing' });
    }
    assert.equal(calls, before, 'nothing ran');
  });

  it('serves the bundle compressed, with an ETag and 304 on revalidation', async () => {
    const h = { 'x-console-token': mount.token };
    const br = await raw(listener, '/console/assets/workbench.js', { headers: { ...h, 'accept-encoding': 'gzip, br' } });
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    const plain = await raw(listener, '/console/assets/workbench.js', { headers: h });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(Number(br.headers['content-length']) < Number(plain.headers['content-length']));
    const again = await raw(listener, '/console/assets/workbench.js', { headers: { ...h, 'if-none-match': String(br.headers.etag) } });
    assert.equal(again.status, 304);
    // The bundle holds no token: revalidated each time rather than never stored.
    assert.equal(br.headers['cache-control'], 'private, no-cache');
  });

  it('refuses a mount that would hide the MCP endpoint', async () => {
    await assert.rejects(server.listen({ port: 0, path: '/console/mcp', mounts: [mount] }), { name: 'TypeError', message: 'listen: mount prefix /console would hide the MCP endpoint /console/mcp' });
  });

  it('a console that cannot be made (a bad token) leaves no trace: held calls are not told to look for it', async () => {
    const held = defineTool({
      name: 'held',
      description: 'Wait for an operator to approve, then answer. Use to check where the client is told to look.',
      inputSchema: { type: 'object' } as const,
      run: async (_args, ctx) => {
        const decision = await ctx.approvals.awaitOperator({ summary: 'run held' });
        return decision.approved ? 'approved' : decision.result;
      },
    });
    const lone = createServer({ name: 'lone', version: '1.0.0', tools: [held] });
    assert.throws(() => createWorkbenchConsole(lone, { token: 'short' }), { name: 'TypeError', message: 'console token must be at least 16 characters of A-Z a-z 0-9 . _ ~ -' });
    const listener = await lone.listen({ port: 0 });
    const client = connect(listener.url);
    try {
      let told!: (message: string) => void;
      const firstProgress = new Promise<string>((resolve) => (told = resolve));
      const call = client.callTool('held', {}, { onProgress: (p) => told(String(p.message)) });
      const pending = await new Promise<string>((resolve) => {
        const stop = lone.approvals.subscribe((e) => {
          if (e.type !== 'pending') return;
          stop();
          resolve(e.pending.id);
        });
      });
      assert.match(await firstProgress, new RegExp(`^waiting for an operator to approve held \\(approval id ${pending}; \\d+ s left\\)$`));
      await lone.approvals.decide(pending, { approve: false, operator: 'test' });
      assert.equal((await call).isError, true);
    } finally {
      await client.close();
      await lone.close();
    }
  });
});
