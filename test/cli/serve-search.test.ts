/**
 * `toolwright serve <tools module> --search`: the served list is the search surface (search_tools and
 * call_tool, docs/compose.md), and call_tool runs a catalog tool; a module that exports its own
 * server is refused (exit 2) with what to write instead, and nothing is served.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect } from '../../src/client/index.js';
import { REPO_ROOT, repoPath, TSX_LOADER } from '../support/repo-paths.js';
import { runCli } from '../support/run-cli.js';

const TOOLS_MODULE = repoPath('test/fixtures/servers/tools-array.ts');
const SERVER_MODULE = repoPath('test/fixtures/lint/modules/robot-server.ts');

describe('toolwright serve --search', () => {
  it('lists search_tools and call_tool; search finds the module\'s tool and call_tool runs it', async () => {
    const client = connect({ command: process.execPath, args: ['--import', TSX_LOADER, repoPath('src/cli/main.ts'), 'serve', TOOLS_MODULE, '--stdio', '--search'], cwd: REPO_ROOT }, { timeoutMs: 60_000 });
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), ['search_tools', 'call_tool']);
      const found = await client.callTool('search_tools', { query: 'pong' });
      assert.equal(found.isError, undefined, JSON.stringify(found.content));
      const answer = JSON.parse((found.content[0] as { text: string }).text) as { tools: Array<{ name: string }> };
      assert.deepEqual(answer.tools.map((tool) => tool.name), ['ping_tool']);
      const called = await client.callTool('call_tool', { name: 'ping_tool', arguments: {} });
      assert.deepEqual(called.content, [{ type: 'text', text: 'pong' }]);
    } finally {
      await client.close();
    }
  });

  it('a module exporting a server is refused with what to write instead (exit 2)', async () => {
    const run = await runCli(['serve', SERVER_MODULE, '--stdio', '--search']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /robot-server\.ts exports a server: --search only wraps an array of tools; give the server createServer\(\{ search: true \}\) instead\n/);
    assert.equal(run.stdout, '', 'nothing was served on stdout');
  });
});
