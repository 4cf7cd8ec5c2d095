// Audit log under hostile sizes and several processes: recovery past a large last record,
// oversized records cut before writing, rotation with the chain carried on, one process per log.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AuditLog, AuditLogLockedError, readAuditLog, readAuditLogChain } from '../../server/audit-log.js';

const MAIN = resolve(import.meta.dirname, '..', '..', 'main.ts');
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const tempFile = (): string => join(mkdtempSync(join(tmpdir(), 'robot-audit-bounds-')), 'audit.jsonl');

describe('audit log bounds', () => {
  it('recovery finds the last complete record whatever its size (a 3 MB record, then a torn line)', () => {
    const path = tempFile();
    const first = new AuditLog(path, { maxRecordBytes: 8 * 1024 * 1024 });
    first.append({ type: 'a' });
    first.append({ type: 'big', blob: 'x'.repeat(3 * 1024 * 1024) });
    first.close();
    appendFileSync(path, '{"seq":4,"type":"tor');
    const second = new AuditLog(path);
    assert.equal(second.append({ type: 'after' }).seq, 4);
    second.close();
    const log = readAuditLog(path);
    assert.deepEqual(log.records.map((r) => [r.seq, r.type]), [[1, 'chain_keyed'], [2, 'a'], [3, 'big'], [4, 'after']]);
    assert.deepEqual(log.chainBreaks, []);
    assert.equal(log.tornLines, 1);
  });

  it('a record over the limit is cut before writing, with a marker and the sizes', () => {
    const path = tempFile();
    const log = new AuditLog(path, { maxRecordBytes: 4096 });
    let deep: unknown = 1;
    for (let i = 0; i < 174_000; i++) deep = { a: deep };
    const stored = log.append({ type: 'tool_call', tool: 'move_arm_to_pose', arguments: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])), deep });
    log.close();
    const line = readFileSync(path, 'utf8').trimEnd().split('\n')[1]!;
    assert.ok(Buffer.byteLength(line) <= 4096, `line of ${Buffer.byteLength(line)} bytes`);
    const [keyed, record] = readAuditLog(path).records;
    assert.equal(keyed!.type, 'chain_keyed');
    assert.deepEqual(record, stored);
    assert.equal(record!.tool, 'move_arm_to_pose');
    const cutArguments = record!.arguments as { truncated: boolean; bytes: number; prefix: string };
    assert.equal(cutArguments.truncated, true);
    assert.ok(cutArguments.bytes > 100_000);
    assert.ok(cutArguments.prefix.startsWith('{"k0":0,"k1":1'));
    assert.deepEqual((record!.deep as { bytes: unknown }).bytes, null, 'too deep to serialise: size unknown');
    assert.deepEqual((record!.record_truncated as { limit_bytes: number }).limit_bytes, 4096);
  });

  it('rotates by size and carries the hash chain (and the numbering) into the next file, also across a reopen', () => {
    const path = tempFile();
    const log = new AuditLog(path, { maxFileBytes: 2000 });
    for (let i = 0; i < 30; i++) log.append({ type: 'tick', i, pad: 'p'.repeat(100) });
    log.close();
    assert.ok(existsSync(`${path}.1`) && existsSync(`${path}.2`));
    assert.ok(statSync(`${path}.1`).size < 2400);
    const reopened = new AuditLog(path, { maxFileBytes: 2000 });
    reopened.append({ type: 'after_reopen' });
    reopened.close();
    const chain = readAuditLogChain(path);
    assert.deepEqual(chain.chainBreaks, []);
    assert.equal(chain.tornLines, 0);
    const seqs = chain.records.map((r) => r.seq);
    assert.deepEqual(seqs, Array.from({ length: seqs.length }, (_, i) => i + 1));
    assert.equal(chain.records.filter((r) => r.type === 'tick').length, 30);
    assert.equal(chain.records.at(-1)!.type, 'after_reopen');
    const rotation = chain.records.find((r) => r.type === 'log_rotated')!;
    assert.equal(rotation.previous_file, 'audit.jsonl.1');
  });

  it('an empty current file after a rotation continues from the rotated file', () => {
    const path = tempFile();
    const log = new AuditLog(path);
    log.append({ type: 'a' });
    log.close();
    writeFileSync(`${path}.1`, readFileSync(path));
    writeFileSync(path, '');
    const reopened = new AuditLog(path);
    assert.equal(reopened.append({ type: 'b' }).seq, 3);
    reopened.close();
    const chain = readAuditLogChain(path);
    assert.deepEqual([chain.ok, chain.problems, chain.chainBreaks], [true, [], []]);
  });

  it('one process per log: a second open in this process is refused, naming the holder', () => {
    const path = tempFile();
    const log = new AuditLog(path);
    assert.throws(() => new AuditLog(path), (error: unknown) => error instanceof AuditLogLockedError
      && error.message === `audit log ${path} is in use by process ${process.pid} (this process) (lock ${path}.lock); one server per audit log: stop that process or pass another --audit-log`);
    log.close();
    new AuditLog(path).close();
  });
});

function startServer(path: string): { child: ReturnType<typeof spawn>; stderr: () => string; ready: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--approval', 'off', '--audit-log', path, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const ready = new Promise<void>((done, fail) => {
    child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); if (text.includes('mcpServers')) done(); });
    void exited.then((code) => fail(new Error(`exited ${code}: ${text}`)));
  });
  ready.catch(() => undefined);
  return { child, stderr: () => text, ready, exited };
}

describe('audit log lock with real server processes', () => {
  it('a second robot server on the same log exits 1 naming the holder; after the holder is SIGKILLed a new one starts', { timeout: 120_000 }, async () => {
    const path = tempFile();
    const first = startServer(path);
    const killer = setTimeout(() => first.child.kill('SIGKILL'), 100_000);
    try {
      await first.ready;
      const second = startServer(path);
      assert.equal(await second.exited, 1);
      assert.match(second.stderr(), new RegExp(`^robot-arm: audit log ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is in use by process ${first.child.pid} \\(lock `));
      first.child.kill('SIGKILL');
      await first.exited;
      const third = startServer(path);
      await third.ready;
      third.child.kill('SIGTERM');
      assert.equal(await third.exited, 0);
      const log = readAuditLog(path);
      assert.deepEqual(log.chainBreaks, []);
      assert.deepEqual(log.records.map((r) => r.type), ['chain_keyed', 'server_start', 'server_start', 'server_stop']);
    } finally {
      clearTimeout(killer);
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    }
  });
});
