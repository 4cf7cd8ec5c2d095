/**
 * `toolwright bridge` refuses what it cannot use before it reads a line of stdin: a missing or
 * malformed URL, an unknown flag (with "did you mean"), and a token file that is missing, shared
 * with group or others, or holds no token (each exit 2, naming the file, nothing on stdout). The
 * relay itself is test/compose/relay/stdio-relay.test.ts.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/run-cli.js';

const URL_ = 'http://127.0.0.1:9/mcp';

describe('toolwright bridge: usage and token file', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-bridge-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--help prints the usage on stdout, exit 0', async () => {
    const run = await runCli(['bridge', '--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: toolwright bridge <url> \[--token-file <file>\]\n/);
    assert.equal(run.stderr, '');
  });

  it('bad usage: no URL, two URLs, not a URL, a URL that is not http, a mistyped flag: exit 2 with the usage', async () => {
    const cases: [string[], string][] = [
      [['bridge'], 'toolwright bridge: the server URL is required (e.g. http://127.0.0.1:3000/mcp)'],
      [['bridge', URL_, URL_], `toolwright bridge: unexpected argument "${URL_}" (one URL)`],
      [['bridge', 'localhost:3000'], 'toolwright bridge: the URL must be http: or https:, got localhost:'],
      [['bridge', 'not a url'], 'toolwright bridge: "not a url" is not a URL (e.g. http://127.0.0.1:3000/mcp)'],
      [['bridge', URL_, '--token-fil', 'x'], 'toolwright bridge: unknown option --token-fil; did you mean --token-file? (a value starting with "-" goes after "--", e.g. -- --token-fil)'],
    ];
    for (const [args, first] of cases) {
      const run = await runCli(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(run.stdout, '');
      const [line, blank, usage] = run.stderr.split('\n');
      assert.equal(line, first);
      assert.equal(blank, '');
      assert.match(usage ?? '', /^Usage: toolwright bridge /);
    }
  });

  it('a token file that group or others can read is refused, naming the file and its mode; nothing is relayed', async () => {
    const file = join(dir, 'shared.token');
    writeFileSync(file, 'bridge-cli-test-token-0123456789abcdefgh\n');
    chmodSync(file, 0o644);
    const run = await runCli(['bridge', URL_, '--token-file', file], { input: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n' });
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, `toolwright bridge: token file ${file} can be read or written by group or others (mode 0644), so the token may be known to them; refusing to use it. Make it yours alone (chmod 600 ${file}) or let the server create a new one\n`);
  });

  it('a missing token file, and one that holds no token, are refused naming the file', async () => {
    const missing = join(dir, 'missing.token');
    const none = await runCli(['bridge', URL_, '--token-file', missing]);
    assert.equal(none.code, 2);
    assert.equal(none.stderr, `toolwright bridge: token file ${missing}: there is no such file (the server that accepts the token creates it at its first start)\n`);
    const junk = join(dir, 'junk.token');
    writeFileSync(junk, 'short\n', { mode: 0o600 });
    const bad = await runCli(['bridge', URL_, '--token-file', junk]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, `toolwright bridge: token file ${junk} does not hold a bearer token (32-512 characters of A-Z a-z 0-9 - . _ ~ + /)\n`);
  });

  it('with a usable token file it relays until stdin closes, exit 0', async () => {
    const file = join(dir, 'ok.token');
    writeFileSync(file, 'bridge-cli-test-token-0123456789abcdefgh\n', { mode: 0o600 });
    const run = await runCli(['bridge', URL_, '--token-file', file], { input: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n' });
    assert.equal(run.code, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as { id: number; error: { code: number; message: string } };
    assert.equal(answer.id, 1);
    assert.equal(answer.error.code, -32603);
    assert.match(answer.error.message, /^toolwright bridge: cannot reach http:\/\/127\.0\.0\.1:9\/mcp: /);
  });
});
