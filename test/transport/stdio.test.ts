/** stdio transport through a real child process (`toolwright serve <fixture> --stdio`). */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { META, rpc } from '../fixtures/servers/raw-http.js';
import { StdioChild } from '../fixtures/servers/stdio-child.js';

const FIXTURE = 'test/fixtures/servers/everything.ts';
const children: StdioChild[] = [];
function start(env: Record<string, string> = {}): StdioChild {
  const child = new StdioChild(['serve', FIXTURE, '--stdio'], env);
  children.push(child);
  return child;
}
after(() => {
  for (const child of children) child.kill();
});

const call = (id: number, name: string, args?: Record<string, unknown>, meta: Record<string, unknown> = META) =>
  rpc('tools/call', args === undefined ? { name } : { name, arguments: args }, id, meta);

describe('stdio', () => {
  it('discovers, lists and calls; stdout carries only protocol, logs go to stderr; exits 0 on EOF', async () => {
    const child = start();
    child.send(rpc('server/discover', {}, 1));
    child.send(rpc('tools/list', {}, 2));
    child.send(call(3, 'calculate_sum', { a: 2, b: 3 }));
    const discover = (await child.response(1)).result as Record<string, unknown>;
    assert.deepEqual(discover.supportedVersions, ['2026-07-28']);
    assert.equal(discover.instructions, 'Fixture server for Toolwright tests.');
    const list = (await child.response(2)).result as { tools: { name: string }[] };
    assert.equal(list.tools[0]?.name, 'calculate_sum');
    assert.deepEqual(((await child.response(3)).result as Record<string, unknown>).content, [{ type: 'text', text: '5' }]);
    assert.match(child.stderr, /toolwright: serving 13 tool\(s\) of everything on stdio/);
    assert.equal(await child.end(), 0);
    assert.deepEqual(child.violations, []);
  });

  it('answers a bad line with an id-less -32700, skips blank lines, and ignores x-mcp-header (no headers on stdio)', async () => {
    const child = start();
    child.writeLine('{not json');
    child.writeLine('');
    child.writeLine('   ');
    child.send(call(4, 'region_echo', { region: 'eu' }));
    const echoed = await child.response(4);
    assert.deepEqual((echoed.result as Record<string, unknown>).structuredContent, { region: 'eu' });
    const parseErrors = child.lines.filter((m) => 'error' in m && !('id' in m));
    assert.equal(parseErrors.length, 1);
    assert.equal((parseErrors[0]?.error as { code: number }).code, -32700);
    assert.equal(child.lines.length, 2, 'blank lines produce nothing');
    await child.end();
  });

  it('sends nothing for notifications and accepts CRLF line endings', async () => {
    const child = start();
    child.send({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }, '\r\n');
    child.send(call(5, 'no_arguments'), '\r\n');
    await child.response(5);
    assert.equal(child.lines.length, 1);
    await child.end();
  });

  it('sends progress for a progressToken on stdout before the result', async () => {
    const child = start();
    child.send(call(6, 'slow_progress', { delayMs: 1 }, { ...META, progressToken: 'p6' }));
    await child.response(6);
    const progress = child.lines.filter((m) => m.method === 'notifications/progress').map((m) => (m.params as { progress: number }).progress);
    assert.deepEqual(progress, [0, 50, 100]);
    assert.equal(child.lines.at(-1)?.id, 6);
    await child.end();
  });

  it('cancels a request on notifications/cancelled: the handler sees the abort and no response is sent', async () => {
    const child = start();
    child.send(call(7, 'cancellable_wait', {}, { ...META, progressToken: 'w7' }));
    await child.until(() => child.lines.some((m) => m.method === 'notifications/progress'), 'the wait to start');
    child.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user pressed stop' } });
    await child.until(() => child.stderr.includes('cancellable_wait: aborted request 7'), 'the abort to reach the handler');
    child.send(call(8, 'no_arguments'));
    await child.response(8);
    assert.equal(child.lines.some((m) => m.id === 7), false, 'no response for the cancelled request');
    assert.equal(await child.end(), 0);
    assert.equal(child.lines.some((m) => m.id === 7), false);
  });

  it('answers requests already received when stdin closes, then exits', async () => {
    const child = start();
    child.send(call(9, 'slow_progress', { delayMs: 30 }));
    const code = await child.end();
    assert.equal(code, 0);
    assert.deepEqual((child.lines.find((m) => m.id === 9)?.result as Record<string, unknown>).content, [{ type: 'text', text: 'done' }]);
  });

  it('authorizes from the environment on stdio and reports missing scopes without HTTP challenges', async () => {
    const denied = start();
    denied.send(call(10, 'move_arm', { z: 0.5 }));
    assert.deepEqual((await denied.response(10)).error, { code: -31403, message: 'Insufficient scope: tool move_arm requires "arm:move"', data: { requiredScopes: ['arm:move'] } });
    await denied.end();
    const allowed = start({ TW_FIXTURE_SCOPES: 'arm:move' });
    allowed.send(call(11, 'move_arm', { z: 0.5 }));
    assert.deepEqual(((await allowed.response(11)).result as Record<string, unknown>).content, [{ type: 'text', text: 'moved to z=0.5' }]);
    await allowed.end();
  });
});
