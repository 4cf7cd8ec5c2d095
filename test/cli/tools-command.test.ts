/**
 * `toolwright tools [--save]`: lists a catalog from every target kind and saves it in the one format
 * lint, diff and preview read back. Real parts: a server on loopback HTTP, a real stdio child
 * (the official SDK v1 server, 2025 era), real files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run as runTools, savedCatalogText } from '../../src/cli/commands/tools.js';
import { run as runLint } from '../../src/cli/commands/lint.js';
import { run as runDiff } from '../../src/cli/commands/diff.js';
import { run as runPreview } from '../../src/cli/commands/preview.js';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

interface Run { code: number; stdout: string; stderr: string }
type Command = (argv: string[], io: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } }) => Promise<number>;

async function capture(command: Command, args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) } });
  return { code, stdout: out.join(''), stderr: err.join('') };
}
const tools = (args: string[]) => capture(runTools, args);

const ROBOT_MODULE = repoPath('test/fixtures/lint/modules/robot-server.ts');
const SDK_V1_STDIO = `"${process.execPath}" --import "${TSX_LOADER}" "${repoPath('test/client/fixtures/sdk-v1-server.ts')}" stdio`;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-tools-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a module target: the table names every tool with its parameters; --json prints the saved format', async () => {
  const table = await tools([ROBOT_MODULE]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^5 tools from .*robot-server\.ts\n/);
  assert.match(table.stdout, /^ {2}move_arm_to_pose\(x, y, z/m);
  const json = await tools([ROBOT_MODULE, '--json']);
  assert.equal(json.code, 0, json.stderr);
  const { default: server } = await import('../fixtures/lint/modules/robot-server.js');
  assert.equal(json.stdout, savedCatalogText(server.listToolDescriptors()));
});

test('a URL target (every tools/list page) saved with --save reads back through lint, diff and preview unchanged', async (t) => {
  const dir = tempDir(t);
  const { default: server } = await import('../fixtures/lint/modules/robot-server.js');
  const listener = await server.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => listener.close());
  const file = join(dir, 'tools.json');
  const saved = await tools([listener.url, '--save', file]);
  assert.equal(saved.code, 0, saved.stderr);
  assert.equal(saved.stdout, '', 'with --save and no --json, stdout stays empty');
  assert.equal(saved.stderr, `toolwright tools: saved 5 tools from ${listener.url} to ${file}\n`);
  const text = readFileSync(file, 'utf8');
  assert.equal(text, savedCatalogText(server.listToolDescriptors()), 'the file holds exactly what the server lists, in order');
  assert.deepEqual(readdirSync(dir), ['tools.json'], 'no scratch file is left beside it');

  const lint = await capture(runLint, [file, '--format', 'json']);
  assert.equal(lint.code, 0, lint.stderr);
  assert.equal((JSON.parse(lint.stdout) as { summary: { tools: number } }).summary.tools, 5);
  const diff = await capture(runDiff, [file, ROBOT_MODULE, '--format', 'json']);
  assert.equal(diff.code, 0, diff.stderr);
  assert.deepEqual((JSON.parse(diff.stdout) as { changes: unknown[] }).changes, []);
  const preview = await capture(runPreview, [file, '--provider', 'anthropic']);
  assert.equal(preview.code, 0, preview.stderr);
  assert.match(preview.stdout, /move_arm_to_pose/);
});

test('a stdio target speaking the 2025 era (the official SDK v1 server): saved, and --json --save prints the same JSON', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'sdk-v1.json');
  const run = await tools(['--stdio', SDK_V1_STDIO, '--save', file, '--json', '--timeout', '60000']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, readFileSync(file, 'utf8'));
  const names = (JSON.parse(run.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
  assert.deepEqual(names, ['add', 'confirm', 'roots', 'count', 'fails']);
  assert.match(run.stderr, /^toolwright tools: saved 5 tools from stdio server ".*sdk-v1-server\.ts" stdio" to .*sdk-v1\.json\n$/);
});

test('a bare array or a JSON-RPC response file is saved as {"tools": [...]}', async (t) => {
  const dir = tempDir(t);
  const tool = { name: 'ping_tool', description: 'Answers pong.', inputSchema: { type: 'object' } };
  writeFileSync(join(dir, 'array.json'), JSON.stringify([tool]));
  writeFileSync(join(dir, 'rpc.json'), JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [tool] } }));
  for (const name of ['array.json', 'rpc.json']) {
    const out = join(dir, `saved-${name}`);
    const run = await tools([join(dir, name), '--save', out]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(readFileSync(out, 'utf8'), `${JSON.stringify({ tools: [tool] }, null, 2)}\n`);
  }
});

test('an entry that is not a tool is shown as such in the table and saved as listed', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'odd.json'), JSON.stringify({ tools: [{ name: 'ok_tool', description: 'Does a thing. More text.' }, 42] }));
  const run = await tools([join(dir, 'odd.json')]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `2 tools from ${join(dir, 'odd.json')}\n  ok_tool()\n      Does a thing.\n  (entry 1: not a tool object with a string name)\n`);
});

test('bad usage and unwritable destinations: exit 2 with a specific message, and nothing is written', async (t) => {
  const dir = tempDir(t);
  const cases: Array<[string[], RegExp]> = [
    [[], /^toolwright tools: missing <target>\n/],
    [[ROBOT_MODULE, 'other.ts'], /^toolwright tools: expected one target, got 2: /],
    [[ROBOT_MODULE, '--stdio', 'node x.js'], /^toolwright tools: give either a target or --stdio "<command>", not both/],
    [[ROBOT_MODULE, '--save', ' '], /^toolwright tools: --save needs a file name\n/],
    [[ROBOT_MODULE, '--save', join(dir, 'missing', 'tools.json')], new RegExp(`^toolwright tools: --save .*: the folder ${join(dir, 'missing').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not exist\n`)],
    [[ROBOT_MODULE, '--save', dir], /^toolwright tools: --save .*: that is a folder; give a file name such as .*tools\.json\n/],
    [[ROBOT_MODULE, '--timeout', '0'], /^toolwright tools: --timeout must be a positive integer \(milliseconds\), got "0"\n/],
    [[ROBOT_MODULE, '--sav', 'x.json'], /--sav.*did you mean --save\?/],
  ];
  for (const [args, message] of cases) {
    const run = await tools(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
    assert.equal(run.stdout, '');
  }
  assert.deepEqual(readdirSync(dir), [], 'nothing was written');
});

test('an unreadable target keeps an existing saved catalog as it was', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'tools.json');
  writeFileSync(file, '{"tools": []}\n');
  mkdirSync(join(dir, 'sub'));
  const run = await tools([join(dir, 'nope.json'), '--save', file]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, `toolwright tools: no such file: ${join(dir, 'nope.json')}\n`);
  assert.equal(readFileSync(file, 'utf8'), '{"tools": []}\n');
  assert.equal(existsSync(join(dir, 'sub')), true);
  assert.deepEqual(readdirSync(dir).sort(), ['sub', 'tools.json']);
});

test('the CLI lists the command in its usage', async () => {
  const { spawnSync } = await import('node:child_process');
  const child = spawnSync(process.execPath, ['--import', 'tsx', repoPath('src/cli/main.ts'), '--help'], { cwd: repoPath('.'), encoding: 'utf8', timeout: 60_000 });
  assert.equal(child.status, 0, child.stderr);
  assert.match(child.stdout, /^ {2}tools {6}list a catalog from a server, module or file, and save it as tools\.json$/m);
});
