/** The `toolwright` dispatcher and `toolwright serve`, run as real child processes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { post, rpc } from '../fixtures/servers/raw-http.js';
import { StdioChild } from '../fixtures/servers/stdio-child.js';
import { runCli } from '../support/run-cli.js';
import type { CliRun } from '../support/run-cli.js';

const cli = (args: string[], input = ''): Promise<CliRun> => runCli(args, { input });

describe('toolwright dispatcher', () => {
  it('prints usage on stderr and exits 2 without a command', async () => {
    const run = await cli([]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^Usage: toolwright <command> \[options\]/);
    assert.match(run.stderr, /\n {2}serve {6}serve a module's tools over MCP/);
    assert.equal(run.stdout, '');
  });

  it('prints usage on stdout and exits 0 for --help', async () => {
    const run = await cli(['--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: toolwright <command>/);
  });

  it('rejects an unknown command (and path tricks) with usage and exit 2', async () => {
    const expected = { bogus: 'toolwright: unknown command "bogus"', '../main': 'toolwright: unknown command "../main"', Serve: 'toolwright: unknown command "Serve"; did you mean serve?' };
    const runs = await Promise.all(Object.keys(expected).map((command) => cli([command])));
    for (const [index, [command, line]] of Object.entries(expected).entries()) {
      const run = runs[index]!;
      assert.equal(run.code, 2, command);
      assert.ok(run.stderr.startsWith(`${line}\n\nUsage:`), run.stderr);
    }
  });
});

describe('toolwright serve', () => {
  it('shows its help', async () => {
    const run = await cli(['serve', '--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: toolwright serve <module> \[--http <port>/);
  });

  it('rejects bad usage with exit 2 and a specific message', async () => {
    const cases: [string[], RegExp][] = [
      [['serve'], /^toolwright serve: expected exactly one module, got 0/],
      [['serve', 'a.ts', 'b.ts'], /^toolwright serve: expected exactly one module, got 2/],
      [['serve', 'x.ts', '--http', 'abc'], /^toolwright serve: --http needs a port number 0-65535, got "abc"/],
      [['serve', 'x.ts', '--http', '70000'], /^toolwright serve: --http needs a port number 0-65535, got "70000"/],
      [['serve', 'x.ts', '--host', '0.0.0.0'], /^toolwright serve: --host, --path and --allow-unauthenticated only apply with --http <port>/],
      [['serve', 'x.ts', '--allow-unauthenticated'], /^toolwright serve: --host, --path and --allow-unauthenticated only apply with --http <port>/],
      [['serve', 'x.ts', '--bogus'], /^toolwright serve: unknown option --bogus/],
      [['serve', 'test/fixtures/servers/missing.ts'], /^toolwright serve: cannot load test\/fixtures\/servers\/missing\.ts: /],
      [['serve', 'test/fixtures/servers/no-default.ts'], /^toolwright serve: test\/fixtures\/servers\/no-default\.ts: the default export must be a server from createServer\(\) or an array of tools from defineTool\(\) \(there is no default export\)/],
    ];
    // One child at a time: eight concurrent TypeScript cold starts on a loaded 2-core machine took
    // longer than the hang guard, although every child exits as soon as it has parsed its arguments.
    for (const [args, message] of cases) {
      const run = await cli(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, message, args.join(' '));
      assert.equal(run.stdout, '');
    }
  });

  it('refuses to start with invalid tools: exit 1, naming each tool and problem', async () => {
    const run = await cli(['serve', 'test/fixtures/servers/invalid-tools.ts', '--stdio']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, [
      'toolwright serve: Invalid tool definitions; the server was not created:',
      '- tool "bad tool": name may only use A-Z a-z 0-9 _ . - (found " ")',
      '- tool "bad_header": x-mcp-header "N" at /properties/n is on a property of type "number"; only "string", "integer" or "boolean" may be mirrored',
      '',
    ].join('\n'));
    assert.equal(run.stdout, '');
  });

  it('serves a default-exported tools array over stdio (the default transport) and exits on EOF', async () => {
    const line = JSON.stringify(rpc('tools/call', { name: 'ping_tool' }));
    const run = await cli(['serve', 'test/fixtures/servers/tools-array.ts'], `${line}\n`);
    assert.equal(run.code, 0);
    const reply = JSON.parse(run.stdout) as { result: { content: unknown; _meta: Record<string, unknown> } };
    assert.deepEqual(reply.result.content, [{ type: 'text', text: 'pong' }]);
    assert.deepEqual(reply.result._meta['io.modelcontextprotocol/serverInfo'], { name: 'tools-array', version: '0.0.0' });
    assert.match(run.stderr, /serving 1 tool\(s\) of tools-array on stdio/);
  });

  it('serves Streamable HTTP with --http and stops cleanly on SIGTERM', async () => {
    const child = new StdioChild(['serve', 'examples/demo/server.ts', '--http', '0', '--host', '127.0.0.1']);
    try {
      await child.until(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp\n/.test(child.stderr), 'the listening line');
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(child.stderr)![1]!;
      const res = await post(url, rpc('tools/call', { name: 'calculate_sum', arguments: { a: 20, b: 22 } }));
      assert.deepEqual((res.body?.result as Record<string, unknown>).structuredContent, { sum: 42 });
      child.process.kill('SIGTERM');
      assert.equal(await child.exited, 0);
      assert.match(child.stderr, /toolwright: stopping \(SIGTERM\)/);
      assert.equal(child.lines.length, 0, 'nothing on stdout without --stdio');
    } finally {
      child.kill();
    }
  });
});
