/**
 * main.ts's console options refused at start-up with the exact message and exit code 2, before
 * anything listens: an unknown --approver, a console approver with --stdio (it has no console), a
 * console token too short to be safe.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath, TSX_LOADER } from '../../../../test/support/repo-paths.js';

function start(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const audit = join(mkdtempSync(join(tmpdir(), 'robot-options-')), 'audit.jsonl');
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX_LOADER, repoPath('packages/robot-arm/main.ts'), '--port', '0', '--audit-log', audit, ...args], { timeout: 60_000 }, (error, _stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr });
    });
  });
}

describe('robot-arm main.ts: console options', () => {
  it('refuses an unknown --approver', async () => {
    const { code, stderr } = await start(['--approver', 'pendant']);
    assert.equal(code, 2);
    assert.match(stderr, /^robot-arm: --approver must be one of elicitation, console, either, got "pendant"\n/);
  });

  it('refuses a console approver with --stdio, which serves no console', async () => {
    const { code, stderr } = await start(['--stdio', '--approver', 'either']);
    assert.equal(code, 2);
    assert.match(stderr, /^robot-arm: --approver either needs the operator console, which is served over HTTP only \(not with --stdio\)\n/);
  });

  it('refuses a console token that is too short', async () => {
    const { code, stderr } = await start(['--console-token', 'short']);
    assert.equal(code, 2);
    assert.match(stderr, /^robot-arm: --console-token: console token must be at least 16 characters of A-Z a-z 0-9 \. _ ~ -\n/);
  });
});
