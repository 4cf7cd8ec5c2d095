/**
 * The stale-lock takeover is atomic: child processes released at once onto a lock left by a dead
 * process (one barrier line on stdin, no timers) end with exactly one holder; the others are
 * refused with HashChainLogLockedError naming a live process.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { repoPath, TSX_LOADER } from '../../support/repo-paths.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-lock-race-'));
const children: ChildProcessWithoutNullStreams[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

const CONTENDERS = 6;
const ROUNDS = 3;

/** Each child: says "ready", waits for "go", tries the lock, prints the outcome, holds it until "exit". */
const contender = (path: string): string => `import { acquireLock, releaseLock } from ${JSON.stringify(repoPath('src', 'server', 'files', 'file-lock.ts'))};
import { createInterface } from 'node:readline';
let lock;
const lines = createInterface({ input: process.stdin });
console.log('ready');
for await (const line of lines) {
  if (line === 'go') {
    try { lock = acquireLock(${JSON.stringify(path)}); console.log(JSON.stringify({ won: true })); }
    catch (error) { console.log(JSON.stringify({ won: false, name: error.name, message: error.message })); }
  } else if (line === 'exit') { if (lock) releaseLock(lock); break; }
}
lines.close();`;

interface Outcome { pid: number; won: boolean; name?: string; message?: string }

function nextLine(child: ChildProcessWithoutNullStreams): () => Promise<string> {
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return async () => {
    const next = await lines.next();
    if (next.done === true) throw new Error(`child ${child.pid} ended early`);
    return next.value as string;
  };
}

/** A pid that no process holds: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { timeout: 30_000 });
  assert.equal(child.status, 0);
  return child.pid!;
}

describe('stale lock takeover', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: ${CONTENDERS} processes race onto a lock left by a dead process; exactly one takes it`, async () => {
      const path = join(dir, `race-${round}.jsonl`);
      const dead = deadPid();
      writeFileSync(`${path}.lock`, `${dead}\n`);
      const racers = Array.from({ length: CONTENDERS }, () => {
        const child = spawn(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', contender(path)], { stdio: ['pipe', 'pipe', 'pipe'] });
        children.push(child);
        return { child, read: nextLine(child) };
      });
      for (const { read } of racers) assert.equal(await read(), 'ready');
      for (const { child } of racers) child.stdin.write('go\n');
      const outcomes: Outcome[] = [];
      for (const { child, read } of racers) outcomes.push({ pid: child.pid!, ...(JSON.parse(await read()) as Omit<Outcome, 'pid'>) });
      const winners = outcomes.filter((o) => o.won);
      assert.equal(winners.length, 1, JSON.stringify(outcomes));
      const winner = winners[0]!.pid;
      assert.equal(readFileSync(`${path}.lock`, 'utf8'), `${winner}\n`, 'the lock holds the winner');
      const racerPids = new Set(outcomes.map((o) => o.pid));
      for (const loser of outcomes.filter((o) => !o.won)) {
        assert.equal(loser.name, 'HashChainLogLockedError', loser.message);
        const named = /^audit log .* is (?:in use by|being taken over by) process (\d+) \(lock .*\.lock\); one writer per log: stop that process or open another file$/.exec(loser.message ?? '');
        assert.ok(named !== null && racerPids.has(Number(named[1])) && Number(named[1]) !== loser.pid, loser.message);
      }
      assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith(`race-${round}.`)), [`race-${round}.jsonl.lock`], 'no claim or temp file is left behind');
      const exits = racers.map(({ child }) => new Promise<number | null>((resolve) => child.once('exit', resolve)));
      for (const { child } of racers) child.stdin.end('exit\n');
      assert.deepEqual(await Promise.all(exits), racers.map(() => 0));
      assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith(`race-${round}.`)), [], 'the winner released the lock');
    });
  }
});
