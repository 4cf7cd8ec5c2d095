/**
 * `toolwright proxy --config`, run as a real child process: usage and configuration errors (JSON
 * pointers, exit 2), an unreachable upstream (exit 1), `--check`, and serving over HTTP in front of
 * server-everything with approval and audit, called by the official SDK v1 client; SIGTERM stops
 * it cleanly. Every process started here is stopped here.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SERVERS } from '../client/fixtures/spawn-server.js';
import { StdioChild } from '../fixtures/servers/stdio-child.js';
import { repoPath } from '../support/repo-paths.js';
import { runCli } from '../support/run-cli.js';
import type { CliRun } from '../support/run-cli.js';

const cli = (args: string[]): Promise<CliRun> => runCli(args);

describe('toolwright proxy', () => {
  let dir: string;
  const write = (name: string, value: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };
  const everything = { command: process.execPath, args: [SERVERS.everything, 'stdio'] };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-proxy-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses bad usage and bad configurations with exit 2: did-you-mean, JSON pointers', async () => {
    const typo = await cli(['proxy', '--confg', 'x.json']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^toolwright proxy: unknown option --confg; did you mean --config\?/);
    const missing = await cli(['proxy']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^toolwright proxy: --config <file> is required/);
    const bad = write('bad.json', { upstreams: [{ prefix: 'a__b', http: { url: 'ftp://x' } }, { prefix: 'c' }], extra: 1 });
    const invalid = await cli(['proxy', '--config', bad]);
    assert.equal(invalid.code, 2);
    const lines = invalid.stderr.split('\n');
    assert.equal(lines[0], 'toolwright proxy: invalid proxy configuration:');
    assert.ok(lines.some((l) => l.startsWith('- /upstreams/0/prefix: ')), invalid.stderr);
    assert.ok(lines.includes('- /upstreams/0/http/url: expected string matching "^https?://", got string "ftp://x"'), invalid.stderr);
    assert.ok(lines.some((l) => /^- \/: .*extra/.test(l)), invalid.stderr);
    const notJson = await cli(['proxy', '--config', write('broken.json', '{ "upstreams": [')]);
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /^toolwright proxy: --config: .*broken\.json is not JSON: /);
  });

  it('reads a YAML configuration (.yaml, .yml) as its JSON form; bad YAML, duplicate keys and schema problems get exit 2', async () => {
    const yaml = [
      'name: front-yaml',
      'upstreams:',
      '  - prefix: every',
      '    stdio:',
      `      command: ${JSON.stringify(everything.command)}`,
      `      args: [${everything.args.map((a) => JSON.stringify(a)).join(', ')}]`,
      '    transforms:',
      '      - { kind: rename, tool: get-sum, to: add }',
      '',
    ].join('\n');
    const run = await cli(['proxy', '--config', write('front.yaml', yaml), '--check']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\n {2}every__add +every \(legacy\): get-sum\n/);
    const broken = await cli(['proxy', '--config', write('broken.yml', 'upstreams:\n  - prefix: a\n    stdio: {command: x\n')]);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /^toolwright proxy: --config: .*broken\.yml is not YAML: .* at line \d+, column \d+\n/);
    const duplicate = await cli(['proxy', '--config', write('dup.yaml', 'name: a\nname: b\nupstreams: []\n')]);
    assert.equal(duplicate.code, 2);
    assert.match(duplicate.stderr, /^toolwright proxy: --config: .*dup\.yaml is not YAML: Map keys must be unique at line 2, column 1\n/);
    const invalid = await cli(['proxy', '--config', write('invalid.yaml', 'upstreams:\n  - prefix: a\n    http: { url: "ftp://x" }\n')]);
    assert.equal(invalid.code, 2);
    assert.ok(invalid.stderr.split('\n').includes('- /upstreams/0/http/url: expected string matching "^https?://", got string "ftp://x"'), invalid.stderr);
  });

  it('mounts a TypeScript server module from the configuration; --check names the mount', async () => {
    const module = repoPath('test/compose/proxy/fixtures/mounted-arm.ts');
    const run = await cli(['proxy', '--config', write('mount.json', { mounts: [{ prefix: 'arm', module }] }), '--check']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `2 tool(s) of toolwright-proxy:\n  ${'arm__get_status'.padEnd(40)} mount arm: ${module}\n  ${'arm__add'.padEnd(40)} mount arm: ${module}\n0 problem(s)\n`);
    const bad = await cli(['proxy', '--config', write('bad-mount.json', { mounts: [{ prefix: 'arm', module: repoPath('test/compose/proxy/fixtures/not-a-server.ts') }] }), '--check']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^toolwright proxy: mount arm: the default export of .*not-a-server\.ts is not a Toolwright server/);
  });

  it('exits 1 when an upstream cannot be listed, naming it', async () => {
    const run = await cli(['proxy', '--config', write('gone.json', { upstreams: [{ prefix: 'gone', stdio: { command: '/nonexistent/upstream' } }] }), '--check']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^toolwright proxy: upstream gone: tools\/list failed: /);
  });

  it('--check connects, lists and prints each tool with its upstream name, and the problems', async () => {
    const config = write('check.json', {
      upstreams: [
        { prefix: 'every', stdio: everything, transforms: [{ kind: 'rename', tool: 'get-sum', to: 'add' }] },
        { prefix: 'h', stdio: { command: process.execPath, args: [repoPath('test/compose/proxy/fixtures/hostile-upstream.mjs')] } },
      ],
    });
    const run = await cli(['proxy', '--config', config, '--check']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\n {2}every__add +every \(legacy\): get-sum\n/);
    assert.match(run.stdout, /\n {2}h__ok +h \(legacy\): ok\n/);
    assert.match(run.stdout, /\n5 problem\(s\)\n$/);
    assert.match(run.stderr, /toolwright: upstream h: tool "bad name": invalid-name: /);
  });

  it('serves over HTTP in front of server-everything: approval by the operator queue and audit, called by the SDK v1 client', async () => {
    const auditPath = join(dir, 'log', 'calls.jsonl');
    const config = write('serve.json', {
      name: 'front',
      upstreams: [{ prefix: 'every', stdio: everything, transforms: [{ kind: 'require-approval', tool: 'get-sum', message: 'Add upstream?', approver: 'operator', timeoutMs: 500 }] }],
      audit: { path: auditPath, key: join(dir, 'k', 'audit.key'), head: join(dir, 'k', 'calls.head'), includeArguments: true },
    });
    const child = new StdioChild(['proxy', '--config', config, '--http', '0']);
    const sdk = new Client({ name: 'sdk-v1-caller', version: '1.0.0' });
    try {
      await child.until(() => /at http:\/\/127\.0\.0\.1:\d+\/mcp\n/.test(child.stderr), 'the listening line', 60_000);
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(child.stderr)![1]!;
      assert.match(child.stderr, /toolwright: serving \d+ tool\(s\) of front at /);
      await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
      const names = (await sdk.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('every__echo') && names.includes('every__get-sum'), names.join(', '));
      const echoed = (await sdk.callTool({ name: 'every__echo', arguments: { message: 'hi' } })) as { content: { text: string }[] };
      assert.equal(echoed.content[0]!.text, 'Echo: hi');
      // No operator decides within the 500 ms the transform allows: refused, and nothing ran upstream.
      const held = (await sdk.callTool({ name: 'every__get-sum', arguments: { a: 1, b: 2 } })) as { isError?: boolean; content: { text: string }[] };
      assert.equal(held.isError, true);
      assert.equal(held.content[0]!.text, 'No operator decided on the call of every__get-sum within 500 ms; it was not executed.');
    } finally {
      await sdk.close();
      child.process.kill('SIGTERM');
      assert.equal(await child.exited, 0);
    }
    assert.match(child.stderr, /toolwright: stopping \(SIGTERM\)/);
    const records = readFileSync(auditPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'tool_call');
    assert.deepEqual(records.map((r) => [r.tool, r.arguments, r.outcome]), [['every__echo', { message: 'hi' }, 'respond'], ['every__get-sum', { a: 1, b: 2 }, 'tool-error']]);
  });
});
