import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSchema } from '../../src/schema/index.js';
import { run as runDiff } from '../../src/cli/commands/diff.js';
import { run as runLint } from '../../src/cli/commands/lint.js';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

const START_DIR = process.cwd();
const FIX = repoPath('test/fixtures/diff');
const SEED = repoPath('test/fixtures/lint/seed-good.json');

interface Run { code: number; stdout: string; stderr: string }

async function capture(command: typeof runDiff, args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } });
  return { code, stdout: out.join(''), stderr: err.join('') };
}
const diff = (args: string[]) => capture(runDiff, args);

/** Writes one side of a fixture as a tools.json in `dir`. */
function side(dir: string, fixture: string, which: 'before' | 'after', name = `${which}.json`): string {
  const data = JSON.parse(readFileSync(`${FIX}/${fixture}`, 'utf8')) as Record<string, unknown>;
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(data[which]));
  return path;
}

function temp(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tw-diff-cli-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('json output has {changes: [{tool, pointer, kind, breaking, message}]}; exit 1 when something breaks', async () => {
  const { dir, done } = temp();
  try {
    const run = await diff([side(dir, 'enum-changed.json', 'before'), side(dir, 'enum-changed.json', 'after'), '--format', 'json']);
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as { changes: Array<Record<string, unknown>>; bump: string; summary: Record<string, number> };
    assert.deepEqual(report.changes.map((c) => Object.keys(c)), [['tool', 'pointer', 'kind', 'breaking', 'message'], ['tool', 'pointer', 'kind', 'breaking', 'message']]);
    assert.deepEqual(report.changes.map((c) => [c.tool, c.kind, c.breaking]), [['a', 'breaking', true], ['b', 'compatible', false]]);
    assert.equal(report.bump, 'major');
    assert.deepEqual(report.summary, { breaking: 1, compatible: 1, modelFacing: 0, unknown: 0 });
  } finally {
    done();
  }
});

test('exit 0 when nothing breaks; pretty output names the bump and asks for the regression set', async () => {
  const { dir, done } = temp();
  try {
    const run = await diff([side(dir, 'model-facing.json', 'before'), side(dir, 'model-facing.json', 'after')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /grasp\n {2}model-facing {2}\/description\n/);
    assert.match(run.stdout, /Suggested version bump: patch/);
    assert.match(run.stdout, /re-run the regression set \(toolwright eval/);
    const same = await diff([SEED, SEED]);
    assert.equal(same.code, 0);
    assert.match(same.stdout, /No changes\.\n[\s\S]*Suggested version bump: none/);
  } finally {
    done();
  }
});

test('sarif output validates against the SARIF 2.1.0 schema, one result per change', async () => {
  const { dir, done } = temp();
  try {
    const run = await diff([side(dir, 'range-changed.json', 'before'), side(dir, 'range-changed.json', 'after'), '--format', 'sarif']);
    assert.equal(run.code, 1);
    const log = JSON.parse(run.stdout) as { runs: Array<{ results: Array<{ ruleId: string; level: string }> }> };
    const schema = JSON.parse(readFileSync(repoPath('test/fixtures/lint/sarif-schema-2.1.0.json'), 'utf8')) as object;
    assert.deepEqual(compileSchema(schema).validate(log).errors, []);
    assert.deepEqual(log.runs[0]!.results.map((r) => [r.ruleId, r.level]), [
      ['diff/breaking', 'error'], ['diff/breaking', 'error'], ['diff/breaking', 'error'], ['diff/compatible', 'note'], ['diff/compatible', 'note'],
    ]);
  } finally {
    done();
  }
});

test('bad usage exits 2 with a specific message and prints no report', async () => {
  const cases: Array<[string[], RegExp]> = [
    [[], /missing <old> and <new>/],
    [[SEED], /missing <new>/],
    [[SEED, SEED, SEED], /expected 2 targets, got 3/],
    [[SEED, SEED, '--format', 'xml'], /--format must be pretty, json or sarif; got "xml"/],
    [[SEED, SEED, '--timeout', '0'], /--timeout must be a positive integer/],
    [[SEED, SEED, '--bogus'], /unknown option --bogus/],
    [['--pin', 'a.json', '--old-stdio', 'x', SEED], /give the old side once: --pin or --old-stdio, not both/],
    [[SEED, 'no-such-file.json'], /no such file: no-such-file\.json/],
  ];
  for (const [args, message] of cases) {
    const run = await diff(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}`);
    assert.match(run.stderr, message, args.join(' '));
    assert.equal(run.stdout, '');
  }
});

test('--pin: lint lockfiles carry the approved catalog, and diff compares against it', async () => {
  const { dir, done } = temp();
  try {
    const before = side(dir, 'newly-required.json', 'before', 'tools.json');
    const lock = join(dir, 'tools.lock.json');
    assert.equal((await capture(runLint, [before, '--pin', lock, '--format', 'json'])).code, 0);
    const written = JSON.parse(readFileSync(lock, 'utf8')) as { catalog: Array<{ name: string }> };
    assert.deepEqual(written.catalog.map((t) => t.name), ['grasp']);
    const after = side(dir, 'newly-required.json', 'after');
    const run = await diff(['--pin', lock, after, '--format', 'json']);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual((JSON.parse(run.stdout) as { changes: Array<{ pointer: string }> }).changes.map((c) => c.pointer), ['/inputSchema/properties/mode', '/inputSchema/required']);
    // The lockfile also works as a plain positional <old>.
    assert.equal((await diff([lock, after])).code, 1);
    // A lockfile from before the catalog was kept: a clear error, exit 2.
    const old = JSON.parse(readFileSync(lock, 'utf8')) as Record<string, unknown>;
    delete old.catalog;
    writeFileSync(lock, JSON.stringify(old));
    const stale = await diff(['--pin', lock, after]);
    assert.equal(stale.code, 2);
    assert.match(stale.stderr, /is a pin lockfile without the approved catalog .* --update-pin/);
    writeFileSync(lock, JSON.stringify({ ...old, catalog: 'x' }));
    assert.match((await diff(['--pin', lock, after])).stderr, /looks like a pin lockfile but "catalog" must be a list of tool objects/);
  } finally {
    done();
  }
});

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=toolwright-test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });
}

test('git revisions: REV <target> and REV:path compare a tools.json and a module with themselves as committed', async () => {
  const { dir, done } = temp();
  try {
    git(dir, 'init', '-q');
    side(dir, 'type-narrowed.json', 'before', 'tools.json');
    const module = (type: string) => `export default [{ name: 'count', description: 'Count things.', inputSchema: { type: 'object', properties: { n: { type: '${type}' } } } }];\n`;
    writeFileSync(join(dir, 'tools.mjs'), module('number'));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'v1');
    side(dir, 'type-narrowed.json', 'after', 'tools.json');
    writeFileSync(join(dir, 'tools.mjs'), module('integer'));
    process.chdir(dir);
    try {
      const byRevision = await diff(['HEAD', 'tools.json', '--format', 'json']);
      assert.equal(byRevision.code, 1, byRevision.stderr);
      const report = JSON.parse(byRevision.stdout) as { before: string; changes: Array<{ tool: string; kind: string }> };
      assert.equal(report.before, 'HEAD:tools.json');
      assert.deepEqual(report.changes.map((c) => [c.tool, c.kind]), [['a', 'breaking'], ['b', 'compatible']]);
      const byPath = await diff(['HEAD:tools.json', 'tools.json', '--format', 'json']);
      assert.deepEqual((JSON.parse(byPath.stdout) as { changes: unknown[] }).changes, report.changes);
      const moduleRun = await diff(['HEAD', 'tools.mjs', '--format', 'json']);
      assert.equal(moduleRun.code, 1, moduleRun.stderr);
      assert.deepEqual((JSON.parse(moduleRun.stdout) as { changes: Array<{ pointer: string; kind: string }> }).changes.map((c) => [c.pointer, c.kind]), [['/inputSchema/properties/n/type', 'breaking']]);
      const missing = await diff(['HEAD', 'nowhere.json']);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /no such file: nowhere\.json/);
      // Usage errors that need a repository to tell a revision from a file: exit 2, no report.
      const badUsage: Array<[string[], RegExp]> = [
        [['HEAD:nowhere.json', 'tools.json'], /nowhere\.json does not exist at HEAD/],
        [['HEAD:no/such/file.json', SEED], /no\/such\/file\.json does not exist at HEAD/],
        [['HEAD', 'http://127.0.0.1:9/mcp'], /a git revision can only be compared with a file or module target, not a URL/],
      ];
      for (const [args, message] of badUsage) {
        const run = await diff(args);
        assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}`);
        assert.match(run.stderr, message, args.join(' '));
        assert.equal(run.stdout, '');
      }
    } finally {
      process.chdir(START_DIR);
    }
  } finally {
    done();
  }
});

test('--new-stdio: a real stdio server compared with its saved catalog', async () => {
  const { dir, done } = temp();
  try {
    const command = `"${process.execPath}" --import ${TSX_LOADER} "${repoPath('test/fixtures/lint/modules/robot-stdio.ts')}"`;
    const saved = await diff(['--old-stdio', command, '--new-stdio', command, '--format', 'json']);
    assert.equal(saved.code, 0, saved.stderr);
    assert.deepEqual((JSON.parse(saved.stdout) as { changes: unknown[] }).changes, []);
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '{"tools": []}');
    const run = await diff([empty, '--new-stdio', command, '--format', 'json']);
    assert.equal(run.code, 0, run.stderr);
    const kinds = (JSON.parse(run.stdout) as { changes: Array<{ kind: string; pointer: string }> }).changes.map((c) => `${c.kind} ${c.pointer}`);
    assert.ok(kinds.length > 0 && kinds.every((k) => k === 'compatible '), kinds.join(', '));
  } finally {
    done();
  }
});
