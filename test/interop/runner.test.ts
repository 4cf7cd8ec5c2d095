/**
 * The interop runner's own parts, on tiny programs: child processes are bounded and killed, a
 * server that dies or stays silent is reported with its output, errors are quoted exactly, and
 * docs/interop.md is rewritten only when a result changes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runToEnd, startServer } from './child-process.js';
import type { ClientColumn } from './clients.js';
import { describeError } from './drivers/driver-io.js';
import { renderInteropDoc, stable, writeInteropDoc } from './interop-table.js';
import type { ServerRow } from './matrix.js';
import { cellKey } from './run-matrix.js';
import type { MatrixRun } from './run-matrix.js';

const node = (source: string) => ({ command: process.execPath, args: ['-e', source] });

describe('child processes', () => {
  it('runToEnd returns the exit code and both streams', async () => {
    const out = await runToEnd(node("process.stdout.write('out'); process.stderr.write('err'); process.exit(3)"), 10_000);
    assert.deepEqual({ code: out.code, stdout: out.stdout, stderr: out.stderr, timedOut: out.timedOut }, { code: 3, stdout: 'out', stderr: 'err', timedOut: false });
  });

  it('runToEnd kills a program that overruns its bound and says so', async () => {
    const out = await runToEnd(node('setInterval(() => {}, 1000)'), 300);
    assert.equal(out.timedOut, true);
    assert.equal(out.signal, 'SIGKILL');
  });

  it('startServer resolves with the announced URL, and stop() ends the process', async () => {
    const server = await startServer(node("console.error('ready at http://127.0.0.1:1/mcp'); setInterval(() => {}, 1000)"), /at (http:\S+)/, (u) => u, 10_000);
    assert.equal(server.url, 'http://127.0.0.1:1/mcp');
    await server.stop();
    assert.throws(() => process.kill(server.pid, 0), { code: 'ESRCH' });
  });

  it('startServer rejects with the output of a server that exits before it is ready', async () => {
    await assert.rejects(startServer(node("console.error('port in use'); process.exit(1)"), /at (http:\S+)/, (u) => u, 10_000), {
      message: 'exited before it was ready (code 1, signal null); output: port in use',
    });
  });

  it('startServer rejects a server that never prints its ready line', async () => {
    // Whether 'starting' is out within 300 ms depends on the machine; that output is quoted is shown above.
    await assert.rejects(startServer(node("console.error('starting'); setInterval(() => {}, 1000)"), /at (http:\S+)/, (u) => u, 300), {
      message: /^no ready line matching \/at \(http:\\S\+\)\/ within 300 ms; output: (starting|\(none\))$/,
    });
  });
});

describe('describeError', () => {
  it('quotes name, code and message, drops stack frames from messages, and skips causes that repeat their wrapper', () => {
    const inner = Object.assign(new Error('Unsupported protocol version'), { code: -32022 });
    const wrapper = new Error('Failed to connect: Unsupported protocol version\n    at connect (x.js:1:1)', { cause: inner });
    const outer = new Error('tools() failed', { cause: wrapper });
    assert.equal(describeError(outer), 'Error: tools() failed <- caused by Error: Failed to connect: Unsupported protocol version');
    assert.equal(describeError(inner), 'Error -32022: Unsupported protocol version');
    assert.equal(describeError({ code: 1 }), '{"code":1}');
  });
});

describe('docs/interop.md', () => {
  const dir = mkdtempSync(join(tmpdir(), 'interop-doc-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const row = { id: 'r', label: 'server R', software: 'pkg-r 1.0.0', transport: 'http', probe: { tool: 't', arguments: {}, judge: () => undefined } } as ServerRow;
  const column = { id: 'c', label: 'client C', software: 'pkg-c 2.0.0', run: async () => [] } as ClientColumn;
  const runWith = (detail: string, works: boolean, startedAt: Date): MatrixRun => ({
    tables: [{ id: 'servers', title: 'T', rows: [row], columns: [column], cells: new Map([[cellKey(row, column), { status: works ? 'works' : 'fails', detail }]]) }],
    startedAt,
    durationMs: 1000,
    scratch: '/tmp/scratch-x',
  });

  it('marks a failing cell and quotes its exact error below the table, without machine-specific parts', () => {
    const doc = renderInteropDoc(runWith('fetch http://127.0.0.1:40123/mcp failed: /tmp/scratch-x/roots | denied', false, new Date()), 'STAMP');
    assert.match(doc, /\| server R \| Streamable HTTP \| \*\*fails\*\* \[1\] \|/);
    assert.ok(doc.includes('1. server R × client C: fetch http://127.0.0.1:<port>/mcp failed: <scratch>/roots \\| denied'), doc);
    assert.match(doc, /Clients: client C = pkg-c 2\.0\.0\./);
  });

  it('is rewritten when a result changes, and left alone when only the time would', () => {
    const path = join(dir, 'interop.md');
    assert.equal(writeInteropDoc(runWith('ok', true, new Date('2026-01-01T00:00:00Z')), path), true);
    assert.equal(writeInteropDoc(runWith('ok', true, new Date('2026-02-02T00:00:00Z')), path), false);
    assert.match(readFileSync(path, 'utf8'), /Results as of 2026-01-01T00:00:00Z/);
    assert.equal(writeInteropDoc(runWith('boom', false, new Date('2026-03-03T00:00:00Z')), path), true);
    assert.match(readFileSync(path, 'utf8'), /Results as of 2026-03-03T00:00:00Z[\s\S]*1\. server R × client C: boom/);
  });

  it('stable() leaves PIDs and ports out', () => {
    assert.equal(stable('pid 4242 on localhost:8080 in /s/x', '/s'), 'pid <n> on localhost:<port> in <scratch>/x');
  });
});
