/** auditLog: one hash-chained JSONL record per call and outcome, refusals included; tampering is detected. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { auditChainFiles, auditLog, createServer, defineTool, verifyHashChainLog } from '../../../src/index.js';
import type { AuditEntry } from '../../../src/index.js';
import { BROKEN_CHAIN_REFUSAL } from '../../../src/server/audit/hash-chain-log.js';
import { serve } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-audit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const COUNT = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false } as const;

/** The tool_call records of a log verified with its default key and head (the chain_keyed record that opens a keyed log left out). */
function entries(path: string): AuditEntry[] {
  const verdict = verifyHashChainLog(path, auditChainFiles(path));
  assert.ok(verdict.ok, verdict.problems.join('\n'));
  assert.deepEqual([verdict.records[0]?.type, verdict.keyed?.fromSeq], ['chain_keyed', 1], 'keyed from its first record (the default)');
  return verdict.records.filter((record) => record.type === 'tool_call') as AuditEntry[];
}

describe('auditLog', () => {
  it('records every call with its outcome, including refusals, chained; a restarted log continues the chain', async () => {
    const path = join(dir, 'calls.jsonl');
    const count = defineTool({ name: 'count', inputSchema: COUNT, run: ({ n }) => (n < 0 ? { content: [{ type: 'text', text: 'negative' }], isError: true } : `n=${n}`) });
    for (const fsync of ['every-entry', 'never'] as const) {
      const audit = auditLog({ path, fsync });
      await serve({ tools: [count], use: [audit] }, async (call) => {
        await call('count', { n: 1 });
        await call('count', { n: 'x' });
        await call('count', { n: -1 });
      });
      audit.close();
    }
    const records = entries(path);
    assert.deepEqual(records.map((e) => [e.seq, e.type, e.tool, e.outcome]), [
      [2, 'tool_call', 'count', 'respond'], [3, 'tool_call', 'count', 'tool-error'], [4, 'tool_call', 'count', 'tool-error'],
      [5, 'tool_call', 'count', 'respond'], [6, 'tool_call', 'count', 'tool-error'], [7, 'tool_call', 'count', 'tool-error'],
    ]);
    assert.match(records[0]!.prev, /^[0-9a-f]{32}$/, 'linked by HMAC to the chain_keyed record');
    assert.match(records[1]!.detail ?? '', /^Invalid arguments for tool count:/);
    assert.equal(records[0]!.arguments, undefined, 'arguments are not recorded by default');
    assert.match(records[0]!.args_sha256, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(records[0]!.transport, 'http');
    assert.ok(!Number.isNaN(Date.parse(records[0]!.time)));
    assert.equal(existsSync(`${path}.lock`), false, 'close() releases the lock');
  });

  it('unkeyed (key: false): detects an edited, removed or reordered line, and refuses to extend a broken log', async () => {
    const path = join(dir, 'tamper.jsonl');
    const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => 'pong' });
    const audit = auditLog({ path, fsync: 'never', includeArguments: true, key: false });
    await serve({ tools: [ping], use: [audit] }, async (call) => {
      for (let i = 0; i < 3; i++) await call('ping', { i });
    });
    audit.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    assert.deepEqual((JSON.parse(lines[2]!) as { arguments: unknown }).arguments, { i: 2 });
    const edited = [...lines];
    edited[1] = edited[1]!.replace('"respond"', '"tool-error"');
    const cases: [string[], string[]][] = [
      [edited, ['tamper.jsonl line 3: prev does not match the hash of the line before']],
      [[lines[0]!, lines[2]!], ['tamper.jsonl line 2: prev does not match the hash of the line before', 'tamper.jsonl line 2: seq is 3, expected 2']],
      [[lines[1]!, lines[0]!, lines[2]!], ['tamper.jsonl line 1: the log starts at seq 2, not 1, without a rotation marker: its first 1 record(s) were removed', 'tamper.jsonl line 2: prev does not match the hash of the line before', 'tamper.jsonl line 2: seq is 1, expected 3', 'tamper.jsonl line 3: prev does not match the hash of the line before', 'tamper.jsonl line 3: seq is 3, expected 2']],
    ];
    for (const [content, problems] of cases) {
      writeFileSync(path, `${content.join('\n')}\n`);
      const verdict = verifyHashChainLog(path);
      assert.equal(verdict.ok, false);
      assert.deepEqual(verdict.problems, problems);
    }
    writeFileSync(path, `${edited.join('\n')}\n`);
    const broken = `audit log ${path}: tamper.jsonl line 3: prev does not match the hash of the line before; ${BROKEN_CHAIN_REFUSAL}`;
    assert.throws(() => auditLog({ path, key: false }).open(), { message: broken });
    assert.equal(existsSync(`${path}.lock`), false, 'a refused open leaves no lock behind');
    // Refused at start-up: listen() rejects, and no call is ever served on the broken chain.
    let runs = 0;
    const counted = defineTool({ name: 'counted', inputSchema: { type: 'object' }, run: () => { runs++; return 'pong'; } });
    const server = createServer({ name: 'broken', version: '1', tools: [counted], use: [auditLog({ path, key: false })] });
    await assert.rejects(server.listen({ port: 0 }), { message: broken });
    assert.throws(() => server.stdio({ input: new PassThrough(), output: new PassThrough() }), { message: broken });
    await assert.rejects(server.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST' })), { message: broken });
    // The failure is kept, not retried per request (a retry re-verifies the whole file synchronously):
    // even with the file now empty, this server's audit log stays refused until it is built anew.
    writeFileSync(path, '');
    await assert.rejects(server.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST' })), { message: broken });
    await server.close();
    assert.equal(runs, 0);
    assert.equal(existsSync(`${path}.lock`), false, 'a refused start leaves no lock behind');
    assert.throws(() => auditLog({ path: join(dir, 'x.jsonl'), fsync: 'sometimes' as never }), { name: 'RangeError', message: 'hash-chain log: fsync must be "every-entry" or "never", got "sometimes"' });
    assert.throws(() => auditLog({ path: join(dir, 'x.jsonl'), flushWithinMs: 10 }), { name: 'RangeError', message: 'hash-chain log: flushWithinMs applies to fsync: "never" only (every-entry writes each line before append returns)' });
    assert.throws(() => auditLog({ path: join(dir, 'x.jsonl'), fsync: 'never', flushWithinMs: 2.5 }), { name: 'RangeError', message: 'hash-chain log: flushWithinMs must be an integer from 0 to 1000, got 2.5' });
  });

  it('server.close() closes the audit middleware: the lock is gone and the same path reopens in this process', async () => {
    const path = join(dir, 'reopen.jsonl');
    const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => 'pong' });
    for (let round = 0; round < 2; round++) {
      // No audit.close() here: server.close() (in serve) must release the file.
      await serve({ tools: [ping], use: [auditLog({ path })] }, async (call) => {
        assert.equal((await call('ping', {})).status, 200);
        assert.equal(existsSync(`${path}.lock`), true);
      });
      assert.equal(existsSync(`${path}.lock`), false, `round ${round}: server.close() released the lock`);
    }
    assert.deepEqual(entries(path).map((e) => [e.seq, e.tool]), [[2, 'ping'], [3, 'ping']]);
  });

  it('one writer per file: a second auditLog on the same path is refused when it opens, naming this process', () => {
    const path = join(dir, 'locked.jsonl');
    const first = auditLog({ path });
    first.open();
    try {
      assert.throws(() => auditLog({ path }).open(), { name: 'HashChainLogLockedError', message: `audit log ${path} is in use by process ${process.pid} (this process) (lock ${path}.lock); one writer per log: stop that process or open another file` });
    } finally {
      first.close();
    }
  });

  it('opens nothing until the server serves: building it (as lint and preview do) creates no file and takes no lock', async () => {
    const path = join(dir, 'lazy', 'calls.jsonl');
    const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => 'pong' });
    const audit = auditLog({ path });
    const server = createServer({ name: 'lazy', version: '1', tools: [ping], use: [audit] });
    assert.deepEqual(server.tools.map((t) => t.name), ['ping']);
    assert.equal(existsSync(join(dir, 'lazy')), false, 'no directory, no file, no lock before serving');
    const listener = await server.listen({ port: 0 });
    try {
      assert.equal(existsSync(path), true, 'listen() opened the log');
      assert.equal(existsSync(`${path}.lock`), true);
    } finally {
      await listener.close();
      await server.close();
    }
    assert.equal(existsSync(`${path}.lock`), false);
    // Closed before ever opening: stays closed, a late call is refused and nothing is created.
    const other = join(dir, 'never', 'calls.jsonl');
    const unused = auditLog({ path: other });
    unused.close();
    await assert.rejects(Promise.resolve().then(() => unused.handle({} as never, () => Promise.resolve({ kind: 'cancelled' }))), { message: `audit log ${other} is closed; refusing to run unaudited` });
    assert.equal(existsSync(join(dir, 'never')), false);
  });

  it('a log that cannot be written answers -32603; with fsync "never" the next call is refused before its tool runs', { skip: existsSync('/dev/full') ? false : 'needs /dev/full (Linux) to make writes fail' }, async () => {
    let runs = 0;
    const ping = defineTool({ name: 'ping', inputSchema: { type: 'object' }, run: () => { runs++; return 'pong'; } });
    for (const fsync of ['every-entry', 'never'] as const) {
      runs = 0;
      const path = join(dir, `full-${fsync}.jsonl`);
      symlinkSync('/dev/full', path);
      // Unkeyed: a keyed log writes its chain_keyed record at open, so /dev/full would refuse it at start instead.
      const audit = auditLog({ path, fsync, key: false });
      await serve({ tools: [ping], use: [audit] }, async (call) => {
        const first = await call('ping', {});
        if (fsync === 'every-entry') {
          assert.deepEqual(first.body, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
          assert.equal(runs, 1, 'the tool ran; its answer is withheld because it could not be recorded');
          return;
        }
        assert.equal(first.status, 200, 'fsync "never" answers before the line is written');
        // The batched write happens on the next turn of the event loop, before this timer-free wait ends.
        await new Promise((resolve) => setImmediate(resolve));
        const second = await call('ping', {});
        assert.deepEqual(second.body, { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error' } });
        assert.equal(runs, 1, 'the second call was refused before its tool ran');
        assert.throws(() => audit.log.append({ type: 'more' }), { message: `audit log ${path}: an earlier write failed (ENOSPC: no space left on device, write); refusing to run unaudited` });
      });
    }
  });
});
