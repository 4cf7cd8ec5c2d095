/** The client over stdio: our server as a real child process, and scripted children for the error paths. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { connect } from '../../src/client/index.js';
import type { ClientOptions, McpClient, ProgressUpdate, StdioTarget } from '../../src/client/index.js';
import { REPO_ROOT } from '../support/repo-paths.js';
import { rejectsWith } from './rejects-with.js';
import { until } from '../support/until.js';

const clients: McpClient[] = [];
after(async () => {
  for (const c of clients) await c.close();
});
function open(target: StdioTarget, options: ClientOptions = {}): McpClient {
  const c = connect(target, { onWarning: () => {}, ...options });
  clients.push(c);
  return c;
}
const ours = (env: Record<string, string> = {}): StdioTarget => ({
  command: process.execPath,
  args: ['--import', 'tsx', 'src/cli/main.ts', 'serve', 'test/fixtures/servers/everything.ts', '--stdio'],
  cwd: REPO_ROOT,
  stderr: 'capture',
  env: { ...process.env, ...env },
});
const scripted = (mode: string): StdioTarget => ({ command: process.execPath, args: ['test/client/scripted-stdio-server.mjs', mode], cwd: REPO_ROOT, stderr: 'capture' });


describe('client over stdio against the Toolwright server (child process)', () => {
  it('discovers, lists, calls concurrently, reports progress, cancels with notifications/cancelled, and closes the child', async () => {
    const c = open(ours({ TW_FIXTURE_SCOPES: 'arm:move' }));
    assert.equal(c.transport, 'stdio');
    const info = await c.discover();
    assert.deepEqual(info.serverInfo, { name: 'everything', version: '1.2.3' });
    const listing = await c.listTools();
    assert.equal(listing.tools.length, 13);
    const [sum, move] = await Promise.all([c.callTool('calculate_sum', { a: 40, b: 2 }), c.callTool('move_arm', { z: 0.5 })]);
    assert.deepEqual(sum.content, [{ type: 'text', text: '42' }]);
    assert.deepEqual(move.content, [{ type: 'text', text: 'moved to z=0.5' }]);
    // x-mcp-header has no effect on stdio; the call still works.
    assert.deepEqual((await c.callTool('region_echo', { region: 'eu' })).structuredContent, { region: 'eu' });

    const updates: ProgressUpdate[] = [];
    await c.callTool('slow_progress', { delayMs: 1 }, { onProgress: (u) => updates.push(u) });
    assert.deepEqual(updates.map((u) => u.progress), [0, 50, 100]);

    const controller = new AbortController();
    const waiting = c.callTool('cancellable_wait', {}, { signal: controller.signal, onProgress: () => controller.abort() });
    const error = await rejectsWith(waiting, { kind: 'aborted', method: 'tools/call' });
    assert.match(error.message, /^tools\/call: cancelled by the caller/);
    await until(() => /cancellable_wait: aborted request/.test(c.stdio?.stderr ?? ''), 'the child logging the aborted request');
    assert.match(c.stdio?.stderr ?? '', /cancellable_wait: aborted request \d+/);

    await rejectsWith(c.callTool('no_such_tool'), { kind: 'rpc', code: -32602, httpStatus: undefined });
    await c.close();
    assert.deepEqual(c.stdio?.exit, { code: 0, signal: null });
    assert.deepEqual(c.stdio?.strayLines, []);
    await rejectsWith(c.listTools({ refresh: true }), { kind: 'closed' });
  });

  it('times out a call and tells the server to cancel it', async () => {
    const c = open(ours());
    // The handler must be running when the timeout fires, or the server drops the call before run() and
    // logs nothing: start the child and compile the tool's validator first (a call aborted from inside
    // the handler), so the timed-out call reaches run() at once even on a loaded machine.
    const warm = new AbortController();
    await rejectsWith(c.callTool('cancellable_wait', {}, { signal: warm.signal, onProgress: () => warm.abort() }), { kind: 'aborted', method: 'tools/call' });
    await until(() => /cancellable_wait: aborted request/.test(c.stdio?.stderr ?? ''), 'the child logging the aborted request');
    const seenBefore = (c.stdio?.stderr ?? '').split('aborted request').length;
    await rejectsWith(c.callTool('cancellable_wait', {}, { timeoutMs: 1000 }), { kind: 'timeout', message: 'tools/call: no response within 1000 ms; the request was cancelled' });
    await until(() => (c.stdio?.stderr ?? '').split('aborted request').length > seenBefore, 'the child logging one more aborted request');
    assert.equal((c.stdio?.stderr ?? '').split('aborted request').length, seenBefore + 1);
  });
});

describe('stdio error paths (scripted child processes)', () => {
  it('keeps tools with invalid x-mcp-header on stdio (headers do not exist there)', async () => {
    const c = open(scripted('header-tools'));
    const listing = await c.listTools();
    assert.deepEqual(listing.tools.map((t) => t.name), ['float_header']);
    assert.deepEqual(listing.excluded, []);
    assert.deepEqual((await c.callTool('float_header', { n: 1.5 })).content, [{ type: 'text', text: 'n=1.5' }]);
  });

  it('skips non-JSON stdout lines and server-to-client requests, recording the stray line', async () => {
    const c = open(scripted('noisy'));
    assert.deepEqual((await c.callTool('float_header', { n: 2 })).content, [{ type: 'text', text: 'n=2' }]);
    assert.deepEqual(c.stdio?.strayLines.slice(0, 1), ['this is not json']);
  });

  it('a child that exits mid-request fails the call with the exit code and its stderr', async () => {
    const c = open(scripted('die'));
    await rejectsWith(c.callTool('float_header', { n: 1 }), {
      kind: 'transport',
      message: `stdio server ${JSON.stringify(`${process.execPath} test/client/scripted-stdio-server.mjs die`)} exited (code 3) before answering tools/call; stderr: fatal: motor controller lost`,
    });
    await rejectsWith(c.discover(), { kind: 'transport' });
  });

  it('a command that cannot start is a transport error', async () => {
    const c = open({ command: '/nonexistent/mcp-server', stderr: 'capture' });
    const error = await rejectsWith(c.listTools(), { kind: 'transport' });
    assert.match(error.message, /^stdio server "\/nonexistent\/mcp-server" could not start: spawn \/nonexistent\/mcp-server ENOENT/);
  });

  it('cancelling on stdio sends notifications/cancelled with the request id', async () => {
    const c = open(scripted('silent'));
    const controller = new AbortController();
    const pending = c.discover({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await rejectsWith(pending, { kind: 'aborted', message: 'server/discover: cancelled by the caller (This operation was aborted)' });
    await until(() => /cancelled \d+/.test(c.stdio?.stderr ?? ''), 'the child logging the cancellation');
    assert.match(c.stdio?.stderr ?? '', /^cancelled 1$/m);
  });

  it('a stdout line over maxMessageBytes fails the request and stops the child', async () => {
    const c = open({ ...scripted('long'), maxMessageBytes: 10_000 });
    await rejectsWith(c.discover(), {
      kind: 'protocol',
      message: `stdio server ${JSON.stringify(`${process.execPath} test/client/scripted-stdio-server.mjs long`)} wrote a line longer than 10000 characters; stopping`,
    });
    await until(() => c.stdio?.exit !== undefined, 'the child exiting');
    assert.equal(c.stdio?.exit?.signal, 'SIGTERM');
  });

  it('refuses an empty command', () => {
    assert.throws(() => connect({ command: ' ' }), { name: 'McpClientError', message: 'stdio target needs a command' });
  });
});
