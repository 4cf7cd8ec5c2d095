// The README's git install, for real: `npm install git+file://<clone>` in an empty project. npm
// clones the repository, installs its dependencies and devDependencies in that clone, runs
// `prepare` there (`npm run build`: tsc, the console bundles and the Node bundles), packs the result and installs it.
// Then the installed bin answers `--help` and lints the README's TypeScript tool file with nothing
// else installed.
//
// The clone is a shallow clone of this repository's HEAD: uncommitted changes are not in it, so
// commit before running this. It is not a `*.test.ts` (npm test would run it on every run, twice in
// CI, and it takes minutes): `npm run test:git-install` runs it, and .ci/run once, in its own
// section. npm clones with `--recurse-submodules`; the two test-data submodules (.gitmodules) live
// on GitHub, which CI cannot reach, so they are made inactive for this install through git's
// environment config (an adopter's install fetches them). Dependencies come from npm's cache
// (--prefer-offline), which the repository's own `npm ci` filled.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/repo-paths.js';
import { readmeAdopterSteps } from './readme-adopter.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'toolwright-git-install-'));
after(() => rmSync(work, { recursive: true, force: true }));
/** The install's bound: it installs the repository's devDependencies, minutes on 2 busy cores. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

interface Outcome { code: number | null; signal: NodeJS.Signals | null; output: string }

/**
 * Runs `command` in its own process group and ends the whole group (npm and the npm, git and tsc
 * it started) when `timeoutMs` passes.
 */
async function runBounded(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Outcome> {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => {
    output += `\n(ended after ${timeoutMs} ms)`;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, timeoutMs);
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, output };
}

/** Submodule names as .gitmodules declares them (`[submodule "<name>"]`). */
function submoduleNames(clone: string): string[] {
  const file = join(clone, '.gitmodules');
  if (!existsSync(file)) return [];
  return [...readFileSync(file, 'utf8').matchAll(/^\[submodule "([^"]+)"\]$/gm)].map((match) => match[1]!);
}

test('npm install git+file://<clone of HEAD> runs prepare; the bin then lints a TypeScript tool file with nothing else installed', { timeout: INSTALL_TIMEOUT_MS + 120_000 }, async (t) => {
  const steps = readmeAdopterSteps();
  assert.match(steps.installs[1] ?? '', /^npm install git\+https:\/\//, 'the README names a git install');

  const clone = join(work, 'toolwright');
  await run('git', ['clone', '--quiet', '--depth', '1', `file://${REPO_ROOT}`, clone], { timeout: 120_000 });
  const commit = (await run('git', ['rev-parse', 'HEAD'], { cwd: clone, timeout: 30_000 })).stdout.trim();
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'toolwright-git-check', version: '1.0.0', private: true, type: 'module' }));

  const inactive = submoduleNames(clone);
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_COUNT: String(inactive.length) };
  inactive.forEach((name, i) => Object.assign(env, { [`GIT_CONFIG_KEY_${i}`]: `submodule.${name}.active`, [`GIT_CONFIG_VALUE_${i}`]: 'false' }));
  const started = performance.now();
  const installed = await runBounded('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${clone}`], project, env, INSTALL_TIMEOUT_MS);
  const seconds = Math.round((performance.now() - started) / 1000);
  t.diagnostic(`npm install git+file:// of ${commit.slice(0, 7)} took ${seconds} s`);
  assert.equal(installed.code, 0, installed.output);

  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.deepEqual(manifest.dependencies, { toolwright: `git+file://${clone}` });
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
  assert.equal(lock.packages['node_modules/toolwright']?.resolved, `git+file://${clone}#${commit}`);
  const built = join(project, 'node_modules', 'toolwright', 'dist');
  for (const file of ['cli/main.js', 'index.d.ts', 'console/web/workbench-page.bundle.js', 'console/web/approvals-page.bundle.js']) {
    assert.ok(existsSync(join(built, file)), `prepare did not build dist/${file}`);
  }

  const bin = join(project, 'node_modules', '.bin', 'toolwright');
  const help = await runBounded(bin, ['--help'], project, process.env, 60_000);
  assert.equal(help.code, 0, help.output);
  assert.match(help.output, /^Usage: toolwright <command> \[options\]/);
  writeFileSync(join(project, steps.file), steps.text);
  const lint = await runBounded(bin, ['lint', steps.file], project, process.env, 60_000);
  assert.equal(lint.code, 0, lint.output);
  assert.equal(lint.output, `toolwright lint: ${steps.file} (1 tool)\n\nNo problems found in 1 tool.\n`);
});
