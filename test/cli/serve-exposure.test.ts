/**
 * `toolwright serve --http` on an address that is not loopback: refused (exit 2, the exact message,
 * nothing listening) when the module's server has no authorize option, unless
 * --allow-unauthenticated. The accepted cases bind 192.0.2.1 (TEST-NET-1, never this machine's), so
 * they get past the check and fail at listen (exit 1) without ever serving beyond loopback.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

interface Run { code: number | null; stdout: string; stderr: string }

function serve(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', TSX_LOADER, repoPath('src/cli/main.ts'), 'serve', ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

const TOOLS = repoPath('test/fixtures/servers/tools-array.ts');
const GUARDED = repoPath('test/fixtures/servers/token-guarded.ts');
const refusal = (host: string) => `toolwright serve: refusing to serve tools-array on ${host} without authorization: its server has no authorize option, so anyone who can reach that address could call every tool. Export a server from createServer({ authorize }) (jwtAuthorizer for an OAuth issuer, staticTokenAuthorizer for one token), or add --allow-unauthenticated if the network itself is trusted\n`;

describe('toolwright serve on a non-loopback --host', () => {
  it('refuses a server without authorization on 0.0.0.0 and on ::, exit 2, nothing served', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const run = await serve([TOOLS, '--http', '0', '--host', host]);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stderr, refusal(host));
      assert.equal(run.stdout, '');
    }
  });

  it('with --allow-unauthenticated, gets past the check (and here fails to bind the foreign address, exit 1)', async () => {
    const run = await serve([TOOLS, '--http', '0', '--host', '192.0.2.1', '--allow-unauthenticated']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^toolwright serve: cannot listen on 192\.0\.2\.1:0: /);
  });

  it('a server with an authorize option passes without the flag', async () => {
    const run = await serve([GUARDED, '--http', '0', '--host', '192.0.2.1']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^toolwright serve: cannot listen on 192\.0\.2\.1:0: /);
  });
});
