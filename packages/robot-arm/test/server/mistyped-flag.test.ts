/**
 * `npm start -- --prot 3001` (issue 33 item 7): main.ts answers a mistyped flag as `toolwright` does,
 * through the toolkit's public explainArgsError: one sentence with "did you mean", a blank line and
 * its usage on stderr, exit 2, and nothing started (its audit log's directory is never created).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath, TSX_LOADER } from '../../../../test/support/repo-paths.js';

function start(args: string[], auditDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX_LOADER, repoPath('packages/robot-arm/main.ts'), '--audit-log', join(auditDir, 'audit.jsonl'), ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

it('a mistyped flag gets "did you mean", the usage and exit 2; nothing starts', { timeout: 120_000 }, async () => {
  for (const [flag, sentence] of [
    ['--prot', 'unknown option --prot; did you mean --port? (a value starting with "-" goes after "--", e.g. -- --prot)'],
    ['--aproval', 'unknown option --aproval; did you mean --approval? (a value starting with "-" goes after "--", e.g. -- --aproval)'],
    ['--zzzz', 'unknown option --zzzz (a value starting with "-" goes after "--", e.g. -- --zzzz)'],
  ] as const) {
    const auditDir = join(mkdtempSync(join(tmpdir(), 'robot-flag-')), 'never-made');
    const run = await start([flag, '3001'], auditDir);
    assert.equal(run.code, 2, flag);
    assert.equal(run.stdout, '', flag);
    const [first, blank, usage] = run.stderr.split('\n');
    assert.equal(first, `robot-arm: ${sentence}`);
    assert.equal(blank, '');
    assert.equal(usage, 'Usage: node --import tsx packages/robot-arm/main.ts [options]');
    assert.equal(existsSync(auditDir), false, `${flag}: nothing was started (no audit log directory)`);
  }
});
