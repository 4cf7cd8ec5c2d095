/**
 * The check .ci/run applies to the root `npm ci` (issue 33 item 3): no `npm warn` line and at most
 * the README's package count. Judged here on outputs of the shape npm 11 prints (the before and after
 * of the README's table), and once as CI runs it, a real child process with its exit code and text.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { quietInstallProblems } from '../../scripts/check-quiet-install.mjs';
import { repoPath } from '../support/repo-paths.js';

const QUIET = '\n> toolwright@0.1.0 prepare\n> npm run build\n\nadded 67 packages in 19s\n';
const NOISY = 'npm warn ERESOLVE overriding peer dependency\nnpm warn EBADENGINE Unsupported engine {\nadded 706 packages in 56s\n';

it('a quiet install within the count passes; warnings, too many packages and no count are each named', () => {
  assert.deepEqual(quietInstallProblems(QUIET, 70), { problems: [], added: 67 });
  assert.deepEqual(quietInstallProblems(NOISY, 70), {
    problems: [
      'npm ci printed 2 warning line(s); the README promises none:\n  npm warn ERESOLVE overriding peer dependency\n  npm warn EBADENGINE Unsupported engine {',
      'npm ci added 706 packages, more than 70: is a test-only package in the root install? (docs/architecture.md, "Test-only packages")',
    ],
    added: 706,
  });
  assert.deepEqual(quietInstallProblems('up to date in 1s\n', 70).problems, ['npm ci did not say how many packages it added ("added N packages")']);
});

it('run as CI runs it: exit 0 and one line for a quiet install, exit 1 and the problem for a noisy one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quiet-install-'));
  const run = (log: string): Promise<{ code: number; stdout: string; stderr: string }> => {
    const file = join(dir, `${log.length}.log`);
    writeFileSync(file, log);
    return new Promise((done) => execFile(process.execPath, [repoPath('scripts', 'check-quiet-install.mjs'), file, '--max-packages', '70'], { timeout: 30_000 }, (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code), stdout, stderr })));
  };
  assert.deepEqual(await run(QUIET), { code: 0, stdout: 'npm ci: 67 packages (at most 70), no warning lines\n', stderr: '' });
  const noisy = await run(NOISY);
  assert.equal(noisy.code, 1);
  assert.equal(noisy.stdout, '');
  assert.match(noisy.stderr, /^check-quiet-install: npm ci printed 2 warning line\(s\)/);
  assert.match(noisy.stderr, /\ncheck-quiet-install: npm ci added 706 packages, more than 70/);
});
