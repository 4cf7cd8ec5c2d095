/**
 * The proxy in front of a hostile stdio upstream (test/compose/proxy/fixtures/hostile-upstream.mjs,
 * a real child process): tools it cannot serve are refused at start, each with its own problem
 * code; every bad answer is a specific isError result for that call; a crash is reconnected within
 * a budget; a hang is cut by the timeout and cancelled upstream; the front server stays up.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { connect, McpClientError } from '../../../src/client/index.js';
import type { McpClient } from '../../../src/client/index.js';
import { createServer } from '../../../src/index.js';
import type { McpServer } from '../../../src/index.js';
import { ProxyError, toolsFromUpstream } from '../../../src/compose/index.js';
import type { UpstreamTools } from '../../../src/compose/index.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/hostile-upstream.mjs', import.meta.url));
const target = (mode = 'hostile') => ({ command: process.execPath, args: [FIXTURE, mode] });

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

describe('proxy in front of a hostile stdio upstream', () => {
  let proxied: UpstreamTools;
  let server: McpServer;
  let client: McpClient;
  let close: () => Promise<void>;

  before(async () => {
    proxied = await toolsFromUpstream(target(), { prefix: 'h', timeoutMs: 1500, maxReconnects: 1, maxMessageBytes: 1_000_000, maxDescriptorBytes: 100_000 });
    server = createServer({ name: 'front', version: '1.0.0', tools: proxied.tools, logger: { error: () => undefined } });
    const listener = await server.listen({ port: 0 });
    client = connect(listener.url, { onWarning: () => {} });
    close = async () => {
      await client.close();
      await listener.close();
      await server.close();
      await proxied.close();
    };
  });
  after(async () => close());

  it('refuses the tools it cannot serve at start, each with its own problem', () => {
    assert.equal(proxied.era, 'legacy');
    const byTool = Object.fromEntries(proxied.problems.map((p) => [p.tool, p.code]));
    assert.deepEqual(byTool, {
      'bad name': 'invalid-name',
      'a/b': 'invalid-name',
      bad_schema: 'invalid-definition',
      deep_schema: 'invalid-definition',
      huge_description: 'too-large',
    });
    assert.match(proxied.problems.find((p) => p.tool === 'huge_description')!.message, /over maxDescriptorBytes 100000/);
    assert.match(proxied.problems.find((p) => p.tool === 'deep_schema')!.message, /maxDepth 64/);
    assert.deepEqual(proxied.tools.map((t) => t.name), ['h__ok', 'h__pid', 'h__crash', 'h__hang', 'h__cancelled', 'h__malformed', 'h__bad_block', 'h__garbage', 'h__huge', 'h__rpc_error', 'h__is_error', 'h__bad_output']);
  });

  it('checks arguments against the advertised schema locally: a bad call never reaches the upstream', async () => {
    const refused = await client.callTool('h__ok', { text: 5 });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /text/);
    const passed = await client.callTool('h__ok', { text: 'hi' });
    assert.equal(textOf(passed), '{"text":"hi"}', 'the exact arguments went upstream');
  });

  it('an upstream isError result is passed on as it is', async () => {
    const result = await client.callTool('h__is_error', {});
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'upstream says no');
  });

  it('a JSON-RPC error upstream is an isError result naming the code and message', async () => {
    const result = await client.callTool('h__rpc_error', {});
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'Upstream h refused rpc_error: JSON-RPC error -32042: quota exhausted');
  });

  it("structuredContent that breaks the upstream's own outputSchema is refused by the front's output check (-32603)", async () => {
    await assert.rejects(client.callTool('h__bad_output', {}), (error: unknown) => {
      assert.ok(error instanceof McpClientError);
      assert.equal(error.kind, 'rpc');
      assert.equal(error.code, -32603);
      return true;
    });
  });

  it('a malformed result (content not an array) is an isError result', async () => {
    const result = await client.callTool('h__malformed', {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Upstream h sent a malformed answer to malformed: .*no "content" array/);
  });

  it('a content block of an unknown type is an isError result', async () => {
    const result = await client.callTool('h__bad_block', {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Upstream h answered bad_block with a malformed result: content\[0\] is not a content block \(\{"type":"hologram","data":1\}\)\.$/);
  });

  it('a hang is cut by the per-upstream timeout and cancelled upstream', async () => {
    const started = Date.now();
    const result = await client.callTool('h__hang', {});
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'Upstream h did not answer hang within 1500 ms; the call was cancelled upstream.');
    assert.ok(Date.now() - started < 5000);
    const cancelled = JSON.parse(textOf(await client.callTool('h__cancelled', {}))) as unknown[];
    assert.equal(cancelled.length, 1, 'the upstream got notifications/cancelled');
  });

  it('a line that is not JSON-RPC instead of an answer: ignored as a stray line, the call ends at the timeout', async () => {
    const result = await client.callTool('h__garbage', {});
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'Upstream h did not answer garbage within 1500 ms; the call was cancelled upstream.');
    assert.equal(textOf(await client.callTool('h__ok', { text: 'still' })), '{"text":"still"}', 'the connection is still usable');
  });

  it('a result over maxMessageBytes is refused for that call; the next call reconnects', async () => {
    const before = textOf(await client.callTool('h__pid', {}));
    const result = await client.callTool('h__huge', {});
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Upstream h sent a malformed answer to huge: .*longer than 1000000 characters; stopping$/);
    const after = textOf(await client.callTool('h__pid', {}));
    assert.notEqual(after, before, 'a new upstream process answers');
  });

  it('a crash is an isError result for that call; the reconnect budget is then spent and calls are refused without reaching anything', async () => {
    const crashed = await client.callTool('h__crash', {});
    assert.equal(crashed.isError, true);
    assert.match(textOf(crashed), /^Upstream h failed during crash: upstream "h" exited \(code 3\) before answering tools\/call.*the next call reconnects\.$/s);
    // maxReconnects 1 was used by the oversized result above: no third process is started.
    const refused = await client.callTool('h__pid', {});
    assert.equal(refused.isError, true);
    assert.equal(textOf(refused), 'Upstream h is down: it was reconnected 1 time(s) in the last 60000 ms (the limit), so no call is sent until that window has passed.');
    // The front server itself is unharmed.
    assert.equal((await client.listTools({ refresh: true })).tools.length, 12);
  });
});

describe('hostile upstream at start', () => {
  it('a name listed twice is refused with name_collision, and the child is stopped', async () => {
    await assert.rejects(toolsFromUpstream(target('duplicate')), (error: unknown) => {
      assert.ok(error instanceof ProxyError);
      assert.equal(error.code, 'name_collision');
      assert.equal(error.message, 'upstream /usr/bin/node lists the tool "ok" more than once; a proxied name must call one tool'.replace('/usr/bin/node', `${process.execPath} ${FIXTURE} duplicate`));
      return true;
    });
  });

  it('a failing tools/list is upstream_unavailable naming the upstream', async () => {
    await assert.rejects(toolsFromUpstream(target('fail-list'), { label: 'broken' }), (error: unknown) => {
      assert.ok(error instanceof ProxyError);
      assert.equal(error.code, 'upstream_unavailable');
      assert.match(error.message, /^upstream broken: tools\/list failed: .*catalog unavailable/);
      return true;
    });
  });

  it('a schema nested past the client\'s bound on a listing refuses the whole upstream (bounded work), naming the tool', async () => {
    await assert.rejects(toolsFromUpstream(target('too-deep'), { prefix: 'deep' }), (error: unknown) => {
      assert.ok(error instanceof ProxyError);
      assert.equal(error.code, 'upstream_unavailable');
      assert.match(error.message, /^upstream deep: tools\/list failed: tools\/list: tool "deep_schema" \(page 1, entry 1\) is nested deeper than 256 levels/);
      return true;
    });
  });

  it('a command that does not exist is upstream_unavailable', async () => {
    await assert.rejects(toolsFromUpstream({ command: '/nonexistent/toolwright-upstream' }, { prefix: 'gone' }), (error: unknown) => {
      assert.ok(error instanceof ProxyError);
      assert.equal(error.code, 'upstream_unavailable');
      assert.match(error.message, /^upstream gone: tools\/list failed: /);
      return true;
    });
  });

  it('bad options are refused before anything starts', async () => {
    await assert.rejects(toolsFromUpstream(target(), { prefix: 'a__b' }), /prefix must be 1-64 of \[A-Za-z0-9_.-\], not contain "__"/);
    await assert.rejects(toolsFromUpstream(target(), { timeoutMs: 0 }), /timeoutMs must be a positive integer, got 0/);
    await assert.rejects(toolsFromUpstream({ url: 'ftp://x' }), /upstream url must be an http\(s\) URL/);
  });
});
