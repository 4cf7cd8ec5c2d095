/** `toolwright serve --console` usage errors, as a real child process: exit 2, one clear line, nothing served. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

function serve(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, repoPath('src/cli/main.ts'), 'serve', repoPath('test/fixtures/console/workbench-tools.ts'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve ${args.join(' ')} did not exit within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('serve --console usage', () => {
  it('refuses --console without --http', async () => {
    const run = await serve(['--console']);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, 'toolwright serve: --console needs --http <port> (the console shares the MCP listener)\n');
  });
  it('refuses a console token that is too short, before listening', async () => {
    const run = await serve(['--http', '0', '--console-token', 'short']);
    assert.equal(run.code, 2);
    assert.equal(run.stderr, 'toolwright serve: --console: console token must be at least 16 characters of A-Z a-z 0-9 . _ ~ -\n');
  });
  it('refuses --operator without --console, and an empty operator name, before listening', async () => {
    for (const args of [['--operator', 'anna'], ['--http', '0', '--operator', 'anna']]) {
      const alone = await serve(args);
      assert.deepEqual([alone.code, alone.stderr], [2, 'toolwright serve: --operator names who decides in the console; add --console\n'], args.join(' '));
    }
    const empty = await serve(['--http', '0', '--console', '--operator', '  ']);
    assert.deepEqual([empty.code, empty.stderr], [2, 'toolwright serve: --operator needs a name (it is written into every approval record), got an empty one\n']);
  });
});
