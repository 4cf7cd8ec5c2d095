/** HashChainLog: the one hash-chained JSONL log (fsync policy, batching, exit flush, bad input). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HashChainLog, openHashChainLog, verifyHashChainLog } from '../../../src/index.js';
import { repoPath, TSX_LOADER } from '../../support/repo-paths.js';
import { until } from '../../support/until.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-hash-chain-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fresh = (): string => join(dir, `log-${++files}.jsonl`);
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('HashChainLog', () => {
  it('every-entry: each record is on disk when append returns, chained line by line', () => {
    const path = fresh();
    const log = openHashChainLog(path);
    assert.ok(log instanceof HashChainLog);
    const first = log.append({ type: 'a', n: 1 });
    assert.equal(readFileSync(path, 'utf8'), `${JSON.stringify(first)}\n`);
    const second = log.append({ type: 'b' });
    // The format: prev is the first 16 hex digits of SHA-256 over the previous line as written.
    const firstLineHash = createHash('sha256').update(JSON.stringify(first)).digest('hex').slice(0, 16);
    assert.deepEqual([first.seq, first.prev, second.seq, second.prev], [1, '', 2, firstLineHash]);
    assert.deepEqual(Object.keys(first), ['seq', 'time', 'prev', 'type', 'n']);
    log.close();
    const verdict = verifyHashChainLog(path);
    assert.deepEqual(verdict.records, [first, second]);
    assert.equal(verdict.ok, true);
  });

  it('never: lines are batched in order and written on the next turn of the event loop', async () => {
    const path = fresh();
    const log = openHashChainLog(path, { fsync: 'never' });
    const hashes: string[] = [];
    log.onAppend((_record, hash) => hashes.push(hash));
    for (let i = 0; i < 3; i++) log.append({ type: 'tick', i });
    assert.equal(statSync(path).size, 0, 'nothing written yet');
    await nextTurn();
    const verdict = verifyHashChainLog(path);
    assert.deepEqual(verdict.records.map((r) => [r.seq, r.i]), [[1, 0], [2, 1], [3, 2]]);
    assert.equal(verdict.ok, true);
    assert.deepEqual(verdict.records.slice(1).map((r) => r.prev), hashes.slice(0, 2));
    assert.equal(log.lastHash, hashes[2]);
    log.append({ type: 'last' });
    log.close();
    assert.equal(verifyHashChainLog(path).records.at(-1)!.type, 'last', 'close() writes what is batched');
  });

  it('never with flushWithinMs: lines of several turns go out in one write, within the interval; flush() and close() write at once', async () => {
    const path = fresh();
    const log = openHashChainLog(path, { fsync: 'never', flushWithinMs: 1000 });
    log.append({ type: 'tick', i: 0 });
    await nextTurn();
    log.append({ type: 'tick', i: 1 });
    await nextTurn();
    assert.equal(statSync(path).size, 0, 'two turns later nothing is written yet: the interval has not passed');
    await until(() => statSync(path).size > 0, 'the batched lines to be written', { timeoutMs: 10_000 });
    assert.deepEqual(verifyHashChainLog(path).records.map((r) => r.i), [0, 1]);
    log.append({ type: 'tick', i: 2 });
    log.flush();
    assert.deepEqual(verifyHashChainLog(path).records.map((r) => r.i), [0, 1, 2], 'flush() writes at once');
    log.append({ type: 'last' });
    log.close();
    assert.equal(verifyHashChainLog(path).records.at(-1)!.type, 'last', 'close() writes what is batched');
  });

  it('never: lines still batched when the process exits are written', () => {
    const path = fresh();
    const script = `import { openHashChainLog } from ${JSON.stringify(repoPath('src', 'index.ts'))};
const log = openHashChainLog(${JSON.stringify(path)}, { fsync: 'never' });
log.append({ type: 'before_exit' });
process.exit(0);`;
    const child = spawnSync(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(verifyHashChainLog(path).records.map((r) => r.type), ['before_exit']);
  });

  it('refuses bad records and options with a precise error, writing nothing', () => {
    const path = fresh();
    assert.throws(() => openHashChainLog(path, { maxRecordBytes: 100 }), { name: 'RangeError', message: 'hash-chain log: maxRecordBytes must be an integer >= 1024, got 100' });
    assert.throws(() => openHashChainLog(path, { maxFileBytes: 1.5e3 + 0.5 }), { name: 'RangeError', message: 'hash-chain log: maxFileBytes must be an integer >= 1024, got 1500.5' });
    assert.throws(() => openHashChainLog(path, { fsync: 'never', flushWithinMs: 1001 }), { name: 'RangeError', message: 'hash-chain log: flushWithinMs must be an integer from 0 to 1000, got 1001' });
    assert.throws(() => openHashChainLog(path, { fsync: 'never', flushWithinMs: -1 }), { name: 'RangeError', message: 'hash-chain log: flushWithinMs must be an integer from 0 to 1000, got -1' });
    assert.throws(() => openHashChainLog(path, { flushWithinMs: 5 }), { name: 'RangeError', message: 'hash-chain log: flushWithinMs applies to fsync: "never" only (every-entry writes each line before append returns)' });
    const log = openHashChainLog(path);
    assert.throws(() => log.append({ type: 'x', seq: 7 }), { name: 'TypeError', message: 'hash-chain log: "seq" is set by the log, not by the record' });
    assert.throws(() => log.append({ type: 'x', prev: '' }), { name: 'TypeError', message: 'hash-chain log: "prev" is set by the log, not by the record' });
    assert.throws(() => log.append({ kind: 'x' } as never), { name: 'TypeError', message: 'hash-chain log: a record is an object with a string "type"' });
    log.close();
    assert.equal(readFileSync(path, 'utf8'), '');
    assert.throws(() => log.append({ type: 'late' }), { message: `audit log ${path} is closed; refusing to run unaudited` });
  });

  it('a torn last line is skipped by the verifier and the next record chains to the last complete one', () => {
    const path = fresh();
    const log = openHashChainLog(path);
    log.append({ type: 'a' });
    log.close();
    // Half of a next line, as a crash mid-write leaves it.
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"seq":2,"ty`);
    const reopened = openHashChainLog(path);
    assert.equal(reopened.append({ type: 'b' }).seq, 2);
    reopened.close();
    const verdict = verifyHashChainLog(path);
    assert.deepEqual([verdict.ok, verdict.tornLines, verdict.records.map((r) => r.type)], [true, 1, ['a', 'b']]);
  });
});
