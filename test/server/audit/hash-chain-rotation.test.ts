/** HashChainLog rotation and verification: every spelling of a path keeps every record; forged, removed and missing lines or files are breaks. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openHashChainLog, verifyHashChainLog } from '../../../src/index.js';
import { BROKEN_CHAIN_REFUSAL } from '../../../src/server/audit/hash-chain-log.js';

const root = mkdtempSync(join(tmpdir(), 'tw-hash-rotation-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (): string => {
  const dir = join(root, `d${++dirs}`);
  mkdirSync(dir);
  return dir;
};

/** Runs `body` with the cwd set to `dir` (the spelling under test is relative), restoring it after. */
function inDir<T>(dir: string, body: () => T): T {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return body();
  } finally {
    process.chdir(before);
  }
}

/** Writes 60 records through a log at `spelling` (relative to `dir`) rotating at 1 KiB. */
function write60(dir: string, spelling: string): string {
  return inDir(dir, () => {
    const log = openHashChainLog(spelling, { maxFileBytes: 1024 });
    for (let i = 0; i < 60; i++) log.append({ type: 'tick', i });
    log.close();
    return log.path;
  });
}

describe('HashChainLog rotation', () => {
  for (const [spelling, file] of [['./calls.jsonl', 'calls.jsonl'], ['a//b.jsonl', join('a', 'b.jsonl')], ['x/../y.jsonl', 'y.jsonl']] as const) {
    it(`${spelling}: all 60 records kept across .1..N, the chain verified, a missing middle file detected`, () => {
      const dir = freshDir();
      const path = write60(dir, spelling);
      assert.equal(path, join(dir, file), 'the path is resolved once, when opened');
      const name = file.split('/').at(-1)!;
      const rotated = readdirSync(join(dir, file, '..')).filter((n) => n.startsWith(`${name}.`) && /^\d+$/.test(n.slice(name.length + 1)));
      assert.ok(rotated.length >= 3, `rotated into several files, got ${rotated.join(', ')}`);
      const numbers = rotated.map((n) => Number(n.slice(name.length + 1))).sort((a, b) => a - b);
      assert.deepEqual(numbers, numbers.map((_, k) => k + 1), 'numbered .1..N without gaps');
      const verdict = inDir(dir, () => verifyHashChainLog(spelling));
      assert.equal(verdict.ok, true, verdict.problems.join('\n'));
      assert.deepEqual(verdict.records.filter((r) => r.type === 'tick').map((r) => r.i), Array.from({ length: 60 }, (_, i) => i));
      assert.deepEqual(verdict.records.map((r) => r.seq), verdict.records.map((_, k) => k + 1));

      unlinkSync(join(dir, `${file}.2`));
      const broken = verifyHashChainLog(path);
      assert.equal(broken.ok, false);
      assert.deepEqual(broken.problems.slice(0, 1), [`${name}.3 line 1: prev does not match the hash of the line before`]);
      assert.ok(broken.problems.includes(`${name}.3 line 1: rotated from ${name}.2, but the file before it is ${name}.1: a rotated file is missing`), broken.problems.join('\n'));
    });
  }

  it('a log whose oldest rotated file was pruned is a break unless allowPrunedHead, and says so in headPruned', () => {
    const dir = freshDir();
    const path = write60(dir, 'calls.jsonl');
    unlinkSync(`${path}.1`);
    const strict = verifyHashChainLog(path);
    assert.equal(strict.ok, false);
    assert.equal(strict.headPruned, true);
    const first = strict.records[0]!;
    assert.deepEqual(strict.problems, [`calls.jsonl.2 line 1: the log starts at seq ${first.seq}: the rotated file before it (calls.jsonl.1) is missing (pass allowPrunedHead if older files were pruned on purpose)`]);
    const lenient = verifyHashChainLog(path, { allowPrunedHead: true });
    assert.deepEqual([lenient.ok, lenient.headPruned, lenient.problems], [true, true, []]);
    // The current file alone starts with its rotation marker: accepted, its previous files not being read.
    assert.deepEqual(verifyHashChainLog(path, { rotated: false }).problems, []);
  });
});

describe('verifyHashChainLog: forged and removed lines', () => {
  function tenRecords(): { path: string; lines: string[] } {
    const path = join(freshDir(), 'calls.jsonl');
    const log = openHashChainLog(path);
    for (let i = 0; i < 10; i++) log.append({ type: 'tick', i });
    log.close();
    return { path, lines: readFileSync(path, 'utf8').trim().split('\n') };
  }

  it('an inserted complete JSON object without seq/prev mid-file is a break at its line, not a torn line; reopening refuses', () => {
    const { path, lines } = tenRecords();
    for (const forged of ['{"type":"tick","i":99}', '{"seq":"5","prev":"","type":"x"}', '[1,2]', '42']) {
      writeFileSync(path, `${[...lines.slice(0, 4), forged, ...lines.slice(4)].join('\n')}\n`);
      const verdict = verifyHashChainLog(path);
      assert.equal(verdict.ok, false, forged);
      assert.equal(verdict.tornLines, 0);
      assert.deepEqual(verdict.problems, ['calls.jsonl line 5: complete JSON that is not a record (no integer "seq" and string "prev"): an inserted or edited line']);
      assert.throws(() => openHashChainLog(path), { message: `audit log ${path}: calls.jsonl line 5: complete JSON that is not a record (no integer "seq" and string "prev"): an inserted or edited line; ${BROKEN_CHAIN_REFUSAL}` });
      assert.equal(existsSync(`${path}.lock`), false);
    }
    assert.equal(readFileSync(path, 'utf8').split('\n').length, 12, 'the refused open wrote nothing');
  });

  it('a log with its first 3 lines deleted is a removed head; reopening refuses to extend it', () => {
    const { path, lines } = tenRecords();
    writeFileSync(path, `${lines.slice(3).join('\n')}\n`);
    const message = 'calls.jsonl line 1: the log starts at seq 4, not 1, without a rotation marker: its first 3 record(s) were removed';
    for (const options of [{}, { rotated: false }, { allowPrunedHead: true }]) {
      const verdict = verifyHashChainLog(path, options);
      assert.deepEqual([verdict.ok, verdict.headPruned, verdict.problems], [false, false, [message]], JSON.stringify(options));
    }
    const before = readFileSync(path, 'utf8');
    assert.throws(() => openHashChainLog(path), { message: `audit log ${path}: ${message}; ${BROKEN_CHAIN_REFUSAL}` });
    assert.equal(readFileSync(path, 'utf8'), before);
  });

  it('a torn last line is still skipped, not a break', () => {
    const { path, lines } = tenRecords();
    writeFileSync(path, `${lines.join('\n')}\n{"seq":11,"time":"20`);
    const verdict = verifyHashChainLog(path);
    assert.deepEqual([verdict.ok, verdict.tornLines, verdict.records.length], [true, 1, 10]);
  });
});
